// The track record: settles every `success` pronostic on the stored result of its fixture (the
// worker calls `settleDue`), and rolls the settled rows up into the public and per-user figures.
// Settlement reads unsettled rows in keyset batches, resolves all their fixtures in three queries
// through the football service (the analyst's name resolution, aliases included; each distinct
// fixture once) and writes each batch in one statement that also keeps the figures' rollups, so a
// backlog of a million rows is a few hundred round trips and the public figures never read the
// pronostics.

import type { Database } from '../../db/client.js';
import { MARKET_OF } from '../../engine/result.js';
import { brierScore, oneXTwoOf, rankedProbabilityScore, settlePick } from '../../engine/settlement.js';
import { type PronosticTypeSlug, pronosticTypeSlugs } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { DAY_MS, isoDay } from '../../lib/time.js';
import type { FixtureOutcome, FixtureService } from '../fixtures/service.js';
import type { FixtureQuery, FootballService } from '../football/service.js';
import { MARKET_BIN_MIN, type MarketBin, marketBins, marketPoint } from './market-calibration.js';
import {
  calibrationBins,
  pricedSettled,
  type SettledGroup,
  type Settlement,
  settledGroups,
  settledMatchIds,
  type UnsettledRow,
  unsettledAfter,
  userCalibrationBins,
  userSettledGroups,
  userSettledMatchIds,
  writeSettlements,
} from './repository.js';
import { type ReturnsRecord, returnsOf } from './returns.js';

/** A fixture is looked for on its day and the 7 days after (a postponed match); then it is void. */
export const VOID_AFTER_DAYS = 7;
/**
 * A pronostic tied to a fixture waits for that fixture (postponed, then rescheduled: it follows the
 * new date) and is void when it is still not played this long after its current kick-off.
 */
export const FIXTURE_VOID_AFTER_DAYS = 30;
export const SETTLE_BATCH = 5000;
/** Dates before this are typos (the analyst's bound too). */
const EARLIEST_DAY = Date.UTC(1990, 0, 1);
/** The public figures are cached this long in the process. */
export const RECORD_CACHE_MS = 60_000;

/** The first day the fixture may have been played on: the client's date, else the creation day. */
export function fixtureDay(details: Record<string, unknown>, createdOn: string): string {
  const raw = details.date;
  if (typeof raw === 'string') {
    const parsed = Date.parse(raw.trim());
    if (Number.isFinite(parsed) && parsed >= EARLIEST_DAY) return isoDay(parsed);
  }
  return createdOn;
}

function fixtureQuery(row: UnsettledRow): FixtureQuery {
  const details = row.teamsDetails ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  const from = fixtureDay(details, row.createdOn);
  const query: FixtureQuery = {
    home: text(details.home),
    away: text(details.away),
    from,
    to: isoDay(Date.parse(`${from}T00:00:00Z`) + VOID_AFTER_DAYS * DAY_MS),
  };
  const league = text(details.league);
  if (league.trim() !== '') query.league = league;
  return query;
}

export interface SettleReport {
  scanned: number;
  settled: number;
  won: number;
  lost: number;
  void: number;
  /** Of the settled: on their fixture's result (created from a fixture), or by the names sent. */
  byFixture: number;
  byName: number;
}

export const recordWindows = ['last_30_days', 'last_90_days', 'last_365_days', 'all_time'] as const;
export type RecordWindow = (typeof recordWindows)[number];
/** The age bands (see settledGroups) each window takes. */
const WINDOW_BANDS: Record<RecordWindow, number> = {
  last_30_days: 0,
  last_90_days: 1,
  last_365_days: 2,
  all_time: 3,
};

export interface OneXTwoScores {
  count: number;
  rps: number;
  brier: number;
  baseline_rps: number;
  baseline_brier: number;
}

export interface Figures {
  settled: number;
  won: number;
  lost: number;
  void: number;
  hit_rate: number | null;
  mean_confidence: number | null;
  one_x_two: OneXTwoScores | null;
}

interface Accumulator {
  won: number;
  lost: number;
  void: number;
  confidenceSum: number;
  scored: number;
  brierSum: number;
  rpsSum: number;
  baselineBrierSum: number;
  baselineRpsSum: number;
}

const emptyAccumulator = (): Accumulator => ({
  won: 0,
  lost: 0,
  void: 0,
  confidenceSum: 0,
  scored: 0,
  brierSum: 0,
  rpsSum: 0,
  baselineBrierSum: 0,
  baselineRpsSum: 0,
});

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

function figuresOf(acc: Accumulator, withScores: boolean): Figures {
  const judged = acc.won + acc.lost;
  return {
    settled: judged + acc.void,
    won: acc.won,
    lost: acc.lost,
    void: acc.void,
    hit_rate: judged > 0 ? round4(acc.won / judged) : null,
    mean_confidence: judged > 0 ? round4(acc.confidenceSum / judged) : null,
    one_x_two:
      withScores && acc.scored > 0
        ? {
            count: acc.scored,
            rps: round4(acc.rpsSum / acc.scored),
            brier: round4(acc.brierSum / acc.scored),
            baseline_rps: round4(acc.baselineRpsSum / acc.scored),
            baseline_brier: round4(acc.baselineBrierSum / acc.scored),
          }
        : null,
  };
}

export interface TrackRecord {
  generated_at: string;
  baseline: string;
  overall: Record<RecordWindow, Figures>;
  by_type: Array<{ type: PronosticTypeSlug; windows: Record<RecordWindow, Figures> }>;
  by_league: Array<{
    league: { id: number; code: string; name: string } | null;
    windows: Record<RecordWindow, Figures>;
  }>;
  calibration: Array<{ from: number; to: number; count: number; mean_confidence: number; hit_rate: number }>;
  monthly: Array<{ month: string } & Omit<Figures, 'one_x_two'>>;
  /** The bookmakers' calibration over the matches the analyses were settled on (bins of ≥ min_bin). */
  market_calibration: { min_bin: number; matches: number; bins: MarketBin[] };
}

export const BASELINE_DESCRIPTION =
  'Fréquences historiques domicile / nul / extérieur de la ligue, sur tous ses résultats enregistrés';

export interface TrackRecordDeps {
  db: Database;
  clock: Clock;
  football: Pick<FootballService, 'findFixtures' | 'leagueFrequencies' | 'marketViews' | 'scoresOf'>;
  /**
   * The fixtures pronostics were created from (optional: without it every row settles by name), and
   * the odds stored with them (the returns).
   */
  fixtures?: Pick<FixtureService, 'outcomes' | 'oddsByIds'>;
}

/** A settled row's figures from a score (shared by both ways of finding the match). */
function scoredSettlement(
  row: UnsettledRow,
  score: { home: number; away: number },
  match: { matchId: number | null; day: string; leagueId: number },
): Settlement {
  const market = MARKET_OF[row.slug] ?? 'full_analysis';
  const outcome = row.pick === null ? 'void' : settlePick(market, row.pick, score, row.listedScores);
  // A scored 1X2 forecast: a won or lost 1X2 / full analysis that gave its three probabilities.
  const scored =
    outcome !== 'void' && (row.slug === '1x2' || row.slug === 'full-analysis') && row.forecast !== null;
  const actual = oneXTwoOf(score);
  return {
    id: row.id,
    outcome,
    score: `${score.home}-${score.away}`,
    matchId: match.matchId,
    day: match.day,
    leagueId: match.leagueId,
    confidence: row.confidence,
    actual: scored ? actual : null,
    brier: scored ? brierScore(row.forecast!, actual) : null,
    rps: scored ? rankedProbabilityScore(row.forecast!, actual) : null,
  };
}

const voidSettlement = (row: UnsettledRow, now: Date): Settlement => ({
  id: row.id,
  outcome: 'void',
  score: null,
  matchId: null,
  day: isoDay(now.getTime()),
  leagueId: null,
  confidence: row.confidence,
  actual: null,
  brier: null,
  rps: null,
});

/**
 * The figures over every settled analysis (the rollups the settlement keeps), or over one user's
 * own settled rows.
 */
async function computeRecord(
  { db, clock, football }: Pick<TrackRecordDeps, 'db' | 'clock' | 'football'>,
  userId?: number,
): Promise<TrackRecord> {
  const now = clock.now();
  const today = isoDay(now.getTime());
  // The public figures read the rollups the settlement keeps; a user's, their own settled rows.
  const [groups, bins, leagues, matchIds] = await Promise.all([
    userId === undefined ? settledGroups(db, today) : userSettledGroups(db, today, userId),
    userId === undefined ? calibrationBins(db) : userCalibrationBins(db, userId),
    football.leagueFrequencies(),
    userId === undefined ? settledMatchIds(db) : userSettledMatchIds(db, userId),
  ]);
  // The market's pick of each of those matches and its probability: only the bins leave here.
  const views = await football.marketViews(matchIds);
  const marketPoints = views.map((view) => marketPoint(view.probabilities, view.actual));
  const leagueById = new Map(leagues.map((league) => [league.id, league]));
  const fresh = () =>
    Object.fromEntries(recordWindows.map((w) => [w, emptyAccumulator()])) as Record<
      RecordWindow,
      Accumulator
    >;
  const overall = fresh();
  const byType = new Map<PronosticTypeSlug, Record<RecordWindow, Accumulator>>();
  const byLeague = new Map<number | null, Record<RecordWindow, Accumulator>>();
  const monthly = new Map<string, Accumulator>();

  const add = (acc: Accumulator, group: SettledGroup, baseline: { brier: number; rps: number }) => {
    acc.won += group.won;
    acc.lost += group.lost;
    acc.void += group.void;
    acc.confidenceSum += group.confidenceSum;
    acc.scored += group.scored.home + group.scored.draw + group.scored.away;
    acc.brierSum += group.brierSum;
    acc.rpsSum += group.rpsSum;
    acc.baselineBrierSum += baseline.brier;
    acc.baselineRpsSum += baseline.rps;
  };
  for (const group of groups) {
    const baseline = baselineSums(
      group,
      group.leagueId === null ? undefined : leagueById.get(group.leagueId),
    );
    const typeAcc = byType.get(group.slug) ?? fresh();
    byType.set(group.slug, typeAcc);
    const leagueAcc = byLeague.get(group.leagueId) ?? fresh();
    byLeague.set(group.leagueId, leagueAcc);
    for (const window of recordWindows) {
      if (group.band > WINDOW_BANDS[window]) continue;
      add(overall[window], group, baseline);
      add(typeAcc[window], group, baseline);
      add(leagueAcc[window], group, baseline);
    }
    const month = monthly.get(group.month) ?? emptyAccumulator();
    monthly.set(group.month, month);
    add(month, group, baseline);
  }
  const windowsOf = (accs: Record<RecordWindow, Accumulator>, withScores: boolean) =>
    Object.fromEntries(recordWindows.map((w) => [w, figuresOf(accs[w], withScores)])) as Record<
      RecordWindow,
      Figures
    >;
  return {
    generated_at: now.toISOString(),
    baseline: BASELINE_DESCRIPTION,
    overall: windowsOf(overall, true),
    by_type: pronosticTypeSlugs
      .filter((slug) => byType.has(slug))
      .map((slug) => ({
        type: slug,
        windows: windowsOf(byType.get(slug)!, slug === '1x2' || slug === 'full-analysis'),
      })),
    by_league: [...byLeague.entries()]
      .map(([id, accs]) => {
        const league = id === null ? undefined : leagueById.get(id);
        return {
          league: league ? { id: league.id, code: league.code, name: league.name } : null,
          windows: windowsOf(accs, true),
        };
      })
      // Known leagues by code, the unmatched (void) last.
      .sort((a, b) => (a.league && b.league ? (a.league.code < b.league.code ? -1 : 1) : a.league ? -1 : 1)),
    calibration: bins.map((bin) => ({
      from: bin.bin / 10,
      to: (bin.bin + 1) / 10,
      count: bin.count,
      mean_confidence: round4(bin.confidenceSum / bin.count),
      hit_rate: round4(bin.won / bin.count),
    })),
    monthly: [...monthly.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, acc]) => {
        const { one_x_two: _scores, ...figures } = figuresOf(acc, false);
        return { month, ...figures };
      }),
    market_calibration: {
      min_bin: MARKET_BIN_MIN,
      matches: marketPoints.length,
      bins: marketBins(marketPoints),
    },
  };
}

export function createTrackRecordService({ db, clock, football, fixtures }: TrackRecordDeps) {
  const cache = { at: Number.NEGATIVE_INFINITY, value: undefined as TrackRecord | undefined };
  const returnsCache = { at: Number.NEGATIVE_INFINITY, value: undefined as ReturnsRecord | undefined };

  /** The money figures: the priced rows, the odds they were given, their matches' scores. */
  async function computeReturns(): Promise<ReturnsRecord> {
    const rows = await pricedSettled(db);
    const [odds, scores] = await Promise.all([
      fixtures ? fixtures.oddsByIds(rows.map((row) => row.oddsId)) : new Map(),
      football.scoresOf(rows.flatMap((row) => (row.matchId === null ? [] : [row.matchId]))),
    ]);
    return returnsOf(rows, odds, scores);
  }

  /**
   * Rows created from a fixture: settled on its result once played; void when still not played
   * FIXTURE_VOID_AFTER_DAYS after its current kick-off. Rows whose fixture is gone go by name.
   */
  async function settleByFixture(
    rows: readonly UnsettledRow[],
    now: Date,
  ): Promise<{ settlements: Settlement[]; byName: UnsettledRow[] }> {
    const tied = rows.filter((row) => row.fixtureId !== null);
    if (!fixtures || tied.length === 0) return { settlements: [], byName: [...rows] };
    const outcomes = await fixtures.outcomes(tied.map((row) => row.fixtureId!));
    const settlements: Settlement[] = [];
    const byName: UnsettledRow[] = [];
    for (const row of rows) {
      const fixture: FixtureOutcome | undefined =
        row.fixtureId === null ? undefined : outcomes.get(row.fixtureId);
      if (!fixture) {
        byName.push(row);
        continue;
      }
      if (fixture.status === 'played' && fixture.score) {
        settlements.push(
          scoredSettlement(row, fixture.score, {
            matchId: fixture.matchId,
            day: fixture.kickoffAt.slice(0, 10),
            leagueId: fixture.leagueId,
          }),
        );
      } else if (
        now.getTime() >=
        (fixture.regularScoreDeadline === null
          ? Date.parse(fixture.kickoffAt) + FIXTURE_VOID_AFTER_DAYS * DAY_MS
          : Date.parse(fixture.regularScoreDeadline))
      ) {
        // Never played, or a knockout whose 90-minute score never came (its final score may
        // include extra time): void, left out of the record.
        settlements.push(voidSettlement(row, now));
      }
    }
    return { settlements, byName };
  }

  async function settleBatch(rows: readonly UnsettledRow[], now: Date): Promise<Settlement[]> {
    if (rows.length === 0) return [];
    const queries = rows.map(fixtureQuery);
    // Many analyses name one fixture: each distinct query is resolved once.
    const distinct = new Map<string, number>();
    const unique: FixtureQuery[] = [];
    const slot = queries.map((query) => {
      const key = JSON.stringify([query.home, query.away, query.league ?? null, query.from]);
      let index = distinct.get(key);
      if (index === undefined) {
        index = unique.push(query) - 1;
        distinct.set(key, index);
      }
      return index;
    });
    const found = await football.findFixtures(unique);
    const settlements: Settlement[] = [];
    rows.forEach((row, index) => {
      const match = found[slot[index]!];
      if (match) {
        const score = { home: match.homeGoals, away: match.awayGoals };
        settlements.push(
          scoredSettlement(row, score, {
            matchId: match.matchId,
            day: match.playedOn,
            leagueId: match.leagueId,
          }),
        );
        return;
      }
      // Not played (or not ours to match) by the end of the window's last day: void, counted on
      // the settlement day.
      const windowEnd = Date.parse(`${queries[index]!.to}T00:00:00Z`) + DAY_MS;
      if (now.getTime() >= windowEnd) settlements.push(voidSettlement(row, now));
    });
    return settlements;
  }

  return {
    /**
     * Settles every unsettled success whose result is stored or whose window has passed, batch by
     * batch along the unsettled index; idempotent (only unsettled rows are read and written). The
     * next batch is read and resolved while the current one is written (two connections, one write
     * in flight): the keyset cursor never reads a row of the batch being written, and the write,
     * PostgreSQL's share of the work, no longer waits for the reads and this process's share.
     */
    async settleDue(options: { batchSize?: number } = {}): Promise<SettleReport> {
      const batchSize = options.batchSize ?? SETTLE_BATCH;
      const report: SettleReport = {
        scanned: 0,
        settled: 0,
        won: 0,
        lost: 0,
        void: 0,
        byFixture: 0,
        byName: 0,
      };
      let writing: Promise<number> = Promise.resolve(0);
      try {
        let rows = await unsettledAfter(db, 0, batchSize);
        while (rows.length > 0) {
          const last = rows.length < batchSize ? undefined : rows[rows.length - 1]!.id;
          const reading = last === undefined ? Promise.resolve([]) : unsettledAfter(db, last, batchSize);
          // Awaited below, after this batch's work: a failure meanwhile must not go unhandled.
          reading.catch(() => undefined);
          report.scanned += rows.length;
          const now = clock.now();
          const tied = await settleByFixture(rows, now);
          const named = await settleBatch(tied.byName, now);
          const settlements = [...tied.settlements, ...named];
          report.byFixture += tied.settlements.length;
          report.byName += named.length;
          for (const settlement of settlements) report[settlement.outcome] += 1;
          report.settled += await writing;
          writing = writeSettlements(db, settlements, now);
          writing.catch(() => undefined);
          rows = await reading;
        }
      } finally {
        // The batch in flight is written (or has failed) before the pass ends, whatever happened.
        report.settled += await writing;
      }
      return report;
    },

    /** The public figures over every settled analysis, cached for a minute. */
    async publicRecord(): Promise<TrackRecord> {
      const now = clock.now().getTime();
      if (cache.value && now - cache.at < RECORD_CACHE_MS && now >= cache.at) return cache.value;
      const value = await computeRecord({ db, clock, football });
      cache.value = value;
      cache.at = now;
      return value;
    },

    /** The public record in money (flat 1,000 XAF bets at the stored odds), cached for a minute. */
    async publicReturns(): Promise<ReturnsRecord> {
      const now = clock.now().getTime();
      const { value, at } = returnsCache;
      if (value && now - at < RECORD_CACHE_MS && now >= at) return value;
      returnsCache.value = await computeReturns();
      returnsCache.at = now;
      return returnsCache.value;
    },

    /** The same figures over one user's own analyses (not cached: they are the user's). */
    userRecord(userId: number): Promise<TrackRecord> {
      return computeRecord({ db, clock, football }, userId);
    },
  };
}

/** The naive forecast's Brier and RPS sums over a group's scored rows: its league's frequencies. */
function baselineSums(
  group: SettledGroup,
  league: { home: number; draw: number; away: number } | undefined,
): { brier: number; rps: number } {
  const total = league ? league.home + league.draw + league.away : 0;
  const forecast =
    league && total > 0
      ? { home: league.home / total, draw: league.draw / total, away: league.away / total }
      : { home: 1 / 3, draw: 1 / 3, away: 1 / 3 };
  let brier = 0;
  let rps = 0;
  for (const result of ['home', 'draw', 'away'] as const) {
    brier += group.scored[result] * brierScore(forecast, result);
    rps += group.scored[result] * rankedProbabilityScore(forecast, result);
  }
  return { brier, rps };
}

export type TrackRecordService = ReturnType<typeof createTrackRecordService>;
