// Slips (issue 53, DESIGN "Slips"): a bettor's ticket checked against our probabilities, free of
// credits. A leg is one of the caller's own successful analyses, a market it offers, a pick and the
// odds on the coupon; legs of one match are summed over the score matrix stored with the analysis
// (never multiplied, never a model run again), matches multiply. Saved slips settle by themselves
// once every leg's match is decided (settle.ts), raising `slip.settled`.
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Transaction } from '../../db/client.js';
import type { SlipRow } from '../../db/schema/slips.js';
import { decodeMatrix } from '../../engine/score-matrix.js';
import { canAllWin, jointProbability, type LegPick, slipFigures } from '../../engine/slip.js';
import { NotFound, NotOwner, ValidationFailed } from '../../lib/errors.js';
import { slipTexts } from '../../lib/messages.js';
import { offsetOf, pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import { writeBehind } from '../../lib/write-behind.js';
import type { AuthUser } from '../../types/auth.js';
import type { PronosticService } from '../pronostics/service.js';
import { LegOffers, LegOffersCache } from './offers.js';
import {
  addChecks,
  checksByDay,
  countSlips,
  findLiveSlip,
  insertSlip,
  legsOf,
  listSlips,
  type NewLeg,
  slipsForExport,
  slipsSavedByDay,
  softDeleteSlip,
  summaryOf,
} from './repository.js';
import { type CheckedSlip, type ListQuery, type SavedSlip, type SlipBody, STAKE_DEFAULT } from './schemas.js';
import { createSlipSettlement, type SlipSettlementDeps } from './settle.js';
import { figuresView, legView, slipView } from './views.js';

export type SlipInput = Static<typeof SlipBody>;
type Checked = Static<typeof CheckedSlip>;
type Saved = Static<typeof SavedSlip>;
/** A leg's analysis as the check reads it: the caller's live success, and what its result offers. */
type LegSource = Awaited<ReturnType<PronosticService['legSources']>>[number] & { offers: LegOffers | null };

/** Odds as typed on a coupon: at most two decimals. */
function twoDecimals(odds: number): boolean {
  return Math.abs(odds * 100 - Math.round(odds * 100)) < 1e-7;
}

interface Leg extends LegPick {
  pronosticId: number;
  odds: number;
  probability: number;
}

interface MatchGroup {
  pronosticId: number;
  hasMatrix: boolean;
  /** The stored matrix, read once the legs are judged, for a match with two legs or more. */
  matrix?: string | undefined;
  legs: Leg[];
}

type Refusal = [field: 'odds' | 'pronostic_id' | 'market' | 'pick', message: string];

/** One leg alone: its own pronostic, market, pick and odds; the leg judged, or its refusal. */
function judgeLeg(leg: SlipInput['legs'][number], source: LegSource | undefined): Leg | Refusal {
  if (!twoDecimals(leg.odds)) return ['odds', slipTexts.badOdds];
  if (!source?.offers) return ['pronostic_id', slipTexts.notYours];
  if (!source.offers.offers(leg.market)) return ['market', slipTexts.marketNotOffered];
  const shown = source.offers.probability(leg.market, leg.pick);
  if (shown === undefined) return ['pick', slipTexts.unknownPick];
  return { pronosticId: source.id, market: leg.market, pick: leg.pick, odds: leg.odds, probability: shown };
}

/** A leg joining its match's earlier legs: one pronostic per match, a matrix, all able to win. */
function joinMatch(group: MatchGroup, leg: Leg): Refusal | undefined {
  if (group.pronosticId !== leg.pronosticId) return ['pronostic_id', slipTexts.sameFixture];
  if (!group.hasMatrix) return ['pronostic_id', slipTexts.noMatrix];
  if (group.legs.some((other) => other.market === leg.market && other.pick === leg.pick)) {
    return ['pick', slipTexts.duplicateLeg];
  }
  if (!canAllWin([...group.legs, leg])) return ['pick', slipTexts.cannotBothWin];
  group.legs.push(leg);
  return undefined;
}

/**
 * Judges each leg in order and groups them by match (a fixture, or else a pronostic); every
 * refusal is a 422 on the leg's field, the first wrong field of each leg.
 */
function judgeLegs(input: SlipInput, sources: ReadonlyMap<number, LegSource>): MatchGroup[] {
  const errors: Record<string, string[]> = {};
  const groups = new Map<string, MatchGroup>();
  input.legs.forEach((leg, index) => {
    const source = sources.get(leg.pronostic_id);
    const judged = judgeLeg(leg, source);
    let refusal: Refusal | undefined;
    if (Array.isArray(judged)) refusal = judged;
    else if (source) {
      const key = source.fixtureId !== null ? `fixture:${source.fixtureId}` : `pronostic:${source.id}`;
      const group = groups.get(key);
      if (group) refusal = joinMatch(group, judged);
      else groups.set(key, { pronosticId: source.id, hasMatrix: source.hasMatrix, legs: [judged] });
    }
    if (refusal) errors[`legs.${index}.${refusal[0]}`] = [refusal[1]];
  });
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return [...groups.values()];
}

/** A match's chance: its one leg's shown probability, or its legs' joint mass on the stored matrix. */
function matchProbability(group: MatchGroup): number {
  if (group.legs.length === 1) return group.legs[0]!.probability;
  const matrix = group.matrix === undefined ? undefined : decodeMatrix(group.matrix);
  // judgeLegs let a second leg in only with a matrix; a stored one that does not decode is a fault.
  if (!matrix) throw new Error(`pronostic ${group.pronosticId}: stored score matrix unreadable`);
  return jointProbability(matrix, group.legs);
}

/**
 * How long a process keeps the count of its slip checks before writing it. One statement per check,
 * every one on the day's single row, was a tenth of a check's CPU and a queue on that row (issue
 * 57); a process's checks are now written together, at the latest this long after, at close, and
 * before the console reads them (decision 0165).
 */
export const CHECK_COUNT_WRITE_MS = 5_000;

/**
 * How many analyses' offers a process keeps (decision 0168): a few hundred bytes each, so about
 * 10 MB at most; the bettors composing slips at one time, each with a few dozen analyses.
 */
export const LEG_OFFERS_KEPT = 20_000;

export interface SlipServiceDeps extends SlipSettlementDeps {
  /** The legs' analyses: the caller's successes, their stored score matrices; their settlement. */
  pronostics: Pick<PronosticService, 'legSources' | 'legResults' | 'legMatrices' | 'settlementStates'>;
  /** Responsible play: 403 `self_excluded` while the account's pause lasts (no slip saved). */
  accounts: { refuseIfSelfExcluded(tx: Transaction, userId: number): Promise<void> };
  /** Says a count of checks that could not be written (it is kept and tried again). */
  logger: Pick<FastifyBaseLogger, 'warn'>;
}

export function createSlipService(deps: SlipServiceDeps) {
  const { db, clock, pronostics, accounts, logger } = deps;
  /** Checks made in this process and not written yet. */
  let unwritten = 0;
  const checkCount = writeBehind({
    delayMs: CHECK_COUNT_WRITE_MS,
    take() {
      const checks = unwritten;
      unwritten = 0;
      return checks === 0 ? undefined : checks;
    },
    giveBack(checks) {
      unwritten += checks;
    },
    write: (checks) => addChecks(db, checks),
    failed(error) {
      logger.warn({ err: error, checks: unwritten }, 'slip checks could not be counted yet; kept');
    },
  });

  const offersKept = new LegOffersCache(LEG_OFFERS_KEPT);

  /**
   * The caller's live successes among `ids` with their offers: kept ones as kept, the others read
   * and kept. Taken as found: another check may drop a kept entry while this one waits.
   */
  async function sourcesOf(userId: number, ids: readonly number[]): Promise<Map<number, LegSource>> {
    const sources = new Map<number, LegSource>();
    const unread: number[] = [];
    for (const row of await pronostics.legSources(userId, ids)) {
      const offers = offersKept.get(row.id, row.finishedMs);
      sources.set(row.id, { ...row, offers: offers ?? null });
      if (offers === undefined) unread.push(row.id);
    }
    for (const row of await pronostics.legResults(unread)) {
      const source = sources.get(row.id);
      // Another analysis under this id since the first read (a restore): unread, so not yours.
      if (!source || source.finishedMs !== row.finishedMs) continue;
      source.offers = LegOffers.of(row.result);
      offersKept.set(row.id, row.finishedMs, source.offers);
    }
    return sources;
  }

  /** The slip's legs judged and its figures computed, or a 422 on the first wrong field of each leg. */
  async function evaluate(user: AuthUser, input: SlipInput) {
    const ids = [...new Set(input.legs.map((leg) => leg.pronostic_id))];
    const sources = await sourcesOf(user.id, ids);
    const groups = judgeLegs(input, sources);
    // Only a match with two legs or more is summed over its score matrix: only those are read.
    const shared = groups.filter((group) => group.legs.length > 1);
    if (shared.length > 0) {
      const matrices = await pronostics.legMatrices(shared.map((group) => group.pronosticId));
      for (const group of shared) group.matrix = matrices.get(group.pronosticId);
    }
    const legs = inRequestOrder(input, groups);
    const stake = input.stake ?? STAKE_DEFAULT;
    const figures = slipFigures(
      groups.map(matchProbability),
      legs.map((leg) => leg.odds),
      stake,
    );
    return { legs, stake, figures };
  }

  return {
    ...createSlipSettlement(deps),

    /** DESIGN's check: each leg's figures and the slip's, with the verdict in words. Counted per day. */
    async check(user: AuthUser, input: SlipInput): Promise<Checked> {
      const { legs, stake, figures } = await evaluate(user, input);
      unwritten += 1;
      checkCount.due();
      return { legs: legs.map(legView), ...figuresView({ ...figures, stake }) };
    },

    /** Saves a checked slip (`open`); it settles by itself once its matches are decided. */
    async save(user: AuthUser, input: SlipInput): Promise<Saved> {
      const { legs, stake, figures } = await evaluate(user, input);
      return db.transaction(async (tx: Transaction) => {
        // The one place a slip is saved: a self-excluded user is refused before anything is written.
        await accounts.refuseIfSelfExcluded(tx, user.id);
        const row = await insertSlip(
          tx,
          {
            userId: user.id,
            stake,
            probability: figures.probability,
            odds: figures.odds,
            expectedReturn: figures.expectedReturn,
          },
          legs.map(
            (leg, position): NewLeg => ({
              position,
              pronosticId: leg.pronosticId,
              market: leg.market as NewLeg['market'],
              pick: leg.pick,
              odds: leg.odds,
              probability: leg.probability,
            }),
          ),
        );
        return slipView(row, await legsOf(tx, [row.id]));
      });
    },

    /** The caller's slips, newest first, optionally of one status. */
    async listOwn(user: AuthUser, query: Static<typeof ListQuery>) {
      const page = pageRequest(query);
      const [rows, total] = await Promise.all([
        listSlips(db, user.id, { status: query.status, limit: page.perPage, offset: offsetOf(page) }),
        countSlips(db, user.id, query.status),
      ]);
      return { slips: await viewsOf(rows), meta: pageMeta(page, total) };
    },

    /** One of the caller's slips: another's is a 403, an unknown or deleted one a 404. */
    async getOwn(user: AuthUser, id: number): Promise<Saved> {
      const row = await ownSlip(user, id);
      return slipView(row, await legsOf(db, [row.id]));
    },

    /** Hides one of the caller's slips (soft: the summary still counts it once settled). */
    async deleteOwn(user: AuthUser, id: number): Promise<void> {
      await ownSlip(user, id);
      await softDeleteSlip(db, user.id, id, clock.now());
    },

    /** Writes the checks not counted yet (the process is closing: a failure loses them). */
    close: checkCount.close,

    /**
     * Slips checked and saved per UTC day in [from, before) (the console's counts only), this
     * process's checks written first; another process's show within CHECK_COUNT_WRITE_MS.
     */
    async byDay(range: { from: string; before: string }) {
      await checkCount.writeOrSay();
      const [checks, saves] = await Promise.all([
        checksByDay(db, { from: range.from.slice(0, 10), before: range.before.slice(0, 10) }),
        slipsSavedByDay(db, range),
      ]);
      const days = new Map<string, { day: string; checked: number; saved: number }>();
      const entry = (day: string) => days.get(day) ?? days.set(day, { day, checked: 0, saved: 0 }).get(day)!;
      for (const row of checks) entry(row.day).checked += row.total;
      for (const row of saves) entry(row.day).saved += row.total;
      return [...days.values()];
    },

    /** A page of the user's slips (deleted ones too), after `afterId`, for their data export. */
    async exportPage(userId: number, afterId: number, limit: number) {
      const rows = await slipsForExport(db, userId, afterId, limit);
      const shown = await viewsOf(rows);
      return rows.map((row, i) => ({
        ...shown[i]!,
        deleted_at: row.deletedAt === null ? null : isoTimestamp(row.deletedAt),
      }));
    },

    /** Over the caller's settled slips: what they staked, what came back, what was expected. */
    async summary(user: AuthUser) {
      const row = await summaryOf(db, user.id);
      return {
        settled: row.settled,
        won: row.won,
        staked: row.staked,
        returned: row.returned,
        expected_return: row.expectedReturn,
      };
    },
  };

  /** Slips as shown, their legs read in one query. */
  async function viewsOf(rows: readonly SlipRow[]) {
    const legs = await legsOf(
      db,
      rows.map((row) => row.id),
    );
    return rows.map((row) =>
      slipView(
        row,
        legs.filter((leg) => leg.slipId === row.id),
      ),
    );
  }

  async function ownSlip(user: AuthUser, id: number): Promise<SlipRow> {
    const row = await findLiveSlip(db, id);
    if (!row) throw new NotFound(slipTexts.notFound);
    if (row.userId !== user.id) throw new NotOwner();
    return row;
  }
}

/** The judged legs in the order the request listed them (judging gathered each match's together). */
function inRequestOrder(input: SlipInput, groups: readonly MatchGroup[]): Leg[] {
  const pool = groups.flatMap((group) => group.legs);
  return input.legs.map(
    (leg) =>
      pool.find(
        (judged) =>
          judged.pronosticId === leg.pronostic_id && judged.market === leg.market && judged.pick === leg.pick,
      )!,
  );
}

export type SlipService = ReturnType<typeof createSlipService>;
