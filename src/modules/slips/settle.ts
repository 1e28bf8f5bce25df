// The slips' settlement (DESIGN "Slips"), run by the settlement loop right after the analyses'
// (track-record's `settleDue`), so a leg reads its analysis as just settled from the fixture's
// result. A leg is won or lost on that match's final score by its own market's rule; void when its
// analysis is void (a match never played, a knockout decided after extra time) or when its match is
// still not played SLIP_VOID_DAYS after kick-off. A slip settles once every leg is decided, in one
// transaction with its `slip.settled` event (stream and push).
import type { Database } from '../../db/client.js';
import type { SlipLegRow } from '../../db/schema/slips.js';
import { legWins, slipReturn } from '../../engine/slip.js';
import type { SettlementOutcome } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS } from '../../lib/time.js';
import type { UserEventLog } from '../events/service.js';
import type { FixtureService } from '../fixtures/service.js';
import type { FootballService } from '../football/service.js';
import type { PronosticService } from '../pronostics/service.js';
import { legsOf, openSlipsAfter, settleSlip } from './repository.js';
import { slipView } from './views.js';

const BATCH = 500;
const EARLIEST_DAY = Date.UTC(1990, 0, 1);

export interface SlipSettlementDeps {
  db: Database;
  clock: Clock;
  events: UserEventLog;
  pronostics: Pick<PronosticService, 'settlementStates'>;
  fixtures: Pick<FixtureService, 'outcomes'>;
  football: Pick<FootballService, 'scoresOf'>;
  /** SLIP_VOID_DAYS. */
  voidDays: number;
}

type State = Awaited<ReturnType<PronosticService['settlementStates']>>[number];

/** When the match of an analysis without a fixture kicks off: the date it was sent with, else its day. */
function namedKickoff(state: State): number {
  const raw = state.teamsDetails?.date;
  const parsed = typeof raw === 'string' ? Date.parse(raw.trim()) : Number.NaN;
  return Number.isFinite(parsed) && parsed >= EARLIEST_DAY
    ? parsed
    : Date.parse(`${state.createdOn}T00:00:00Z`);
}

export function createSlipSettlement(deps: SlipSettlementDeps) {
  const { db, clock, events } = deps;

  /** Each leg's outcome, or null while one is undecided. */
  async function decide(
    legs: readonly SlipLegRow[],
    now: number,
  ): Promise<Map<SlipLegRow, SettlementOutcome | null>> {
    const ids = [...new Set(legs.map((leg) => leg.pronosticId))];
    const states = new Map((await deps.pronostics.settlementStates(ids)).map((state) => [state.id, state]));
    const fixtureIds = [...states.values()].flatMap((state) =>
      state.fixtureId === null ? [] : [state.fixtureId],
    );
    const matchIds = [...states.values()].flatMap((state) =>
      state.settledMatchId === null ? [] : [state.settledMatchId],
    );
    const [fixtures, scores] = await Promise.all([
      deps.fixtures.outcomes(fixtureIds),
      deps.football.scoresOf(matchIds),
    ]);
    const decided = new Map<SlipLegRow, SettlementOutcome | null>();
    for (const leg of legs) {
      const state = states.get(leg.pronosticId);
      // A fixture's settling score first: a knockout's 90-minute score, not one after extra time.
      const fixtureScore = state?.fixtureId == null ? undefined : fixtures.get(state.fixtureId)?.score;
      const score =
        fixtureScore ?? (state?.settledMatchId == null ? undefined : scores.get(state.settledMatchId));
      if (!state || state.outcome === 'void') decided.set(leg, 'void');
      else if (state.outcome !== null && score) {
        decided.set(leg, legWins(leg.market, leg.pick, score.home, score.away) ? 'won' : 'lost');
      } else if (state.outcome !== null) decided.set(leg, 'void');
      else {
        const fixture = state.fixtureId === null ? undefined : fixtures.get(state.fixtureId);
        const kickoff = fixture ? Date.parse(fixture.kickoffAt) : namedKickoff(state);
        decided.set(leg, now >= kickoff + deps.voidDays * DAY_MS ? 'void' : null);
      }
    }
    return decided;
  }

  return {
    /** Settles every open slip whose legs are all decided; how many it settled. */
    async settleDue(): Promise<{ settled: number }> {
      let settled = 0;
      let after = 0;
      for (;;) {
        const open = await openSlipsAfter(db, after, BATCH);
        if (open.length === 0) break;
        after = open.at(-1)!.id;
        const legs = await legsOf(
          db,
          open.map((slip) => slip.id),
        );
        const now = clock.now();
        const decided = await decide(legs, now.getTime());
        for (const slip of open) {
          const own = legs.filter((leg) => leg.slipId === slip.id);
          const outcomes = own.map((leg) => decided.get(leg) ?? null);
          if (outcomes.some((outcome) => outcome === null)) continue;
          const judged = own.map((leg, i) => ({
            position: leg.position,
            odds: leg.odds,
            outcome: outcomes[i]!,
          }));
          const { status, returned } = slipReturn(judged, slip.stake);
          const done = await db.transaction(async (tx) => {
            const row = await settleSlip(tx, { id: slip.id, status, returned }, judged, now);
            if (!row) return false;
            await events.append(tx, slip.userId, 'slip.settled', slipView(row, await legsOf(tx, [slip.id])));
            return true;
          });
          if (done) settled += 1;
        }
        if (open.length < BATCH) break;
      }
      return { settled };
    },
  };
}
