// Following a provider operation (a payment, a transfer) until its final word, without ever
// holding a transaction or a row lock while the provider is asked: a provider that hangs then
// keeps one background step waiting, never a database connection, a row, or (on embedded PGlite,
// where every query shares one connection) the whole API. Three steps:
//   claim: a short transaction locks the row, records the look and moves its next check past a
//          lease, so another poller leaves it alone while this one asks;
//   ask:   the provider call, in no transaction;
//   apply: a second short transaction locks the row again, re-checks its state (a webhook or an
//          admin may have moved it meanwhile) and applies the answer.
//
// Why a file of its own: checkout (pack purchases) and cash-out (withdrawal transfers) both follow
// their provider operations this way. What is the same for both lives here once (the claim, the
// lease, the backoff, the follow, `DriverMissing`); what a provider's word means stays in each flow
// (`applyPaymentWord`, `applyTransferWord`). It owns no table: each owner hands
// its own repository's queries in (`LeasedRows`), so the claim is written once and reads nobody's
// rows by itself.
import type { Database, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { addSeconds } from '../../lib/time.js';

/** Waits between later looks at an operation still under way (the last one repeats). */
export const CHECK_BACKOFF_SECONDS = [5, 15, 60, 300] as const;
/**
 * How long a claim keeps other pollers off a row while its provider call runs: longer than the
 * longest call (NotchPay's three tries at the timeout, plus pauses), so a crash only delays a look.
 */
export const CLAIM_LEASE_SECONDS = 120;
/** How often an operation past its normal life (expired, escalated) is still read. */
export const LATE_CHECK_SECONDS = 3600;

/** The row names a driver that is not configured here: it is left alone and flagged `driver_missing`. */
export class DriverMissing extends Error {
  constructor(readonly provider: string) {
    super(`payments driver ${provider} is not configured`);
  }
}

/** What the provider answered, or why it could not be asked. */
export type ProviderAnswer<Word> = { ok: true; word: Word } | { ok: false; error: unknown };

export interface FollowStep<Row, Word, Outcome> {
  /** In a short transaction: lock the row and record the look; undefined when there is nothing to ask. */
  claim(tx: Transaction): Promise<Row | undefined>;
  /** The provider call, in no transaction and holding no lock. */
  ask(row: Row): Promise<Word>;
  /** In a second short transaction: lock the row again, re-check its state, apply the answer. */
  apply(tx: Transaction, claimed: Row, answer: ProviderAnswer<Word>): Promise<Outcome>;
}

/** Claims, asks, applies; undefined when the claim found nothing. */
export async function followProviderOperation<Row, Word, Outcome>(
  db: Database,
  step: FollowStep<Row, Word, Outcome>,
): Promise<Outcome | undefined> {
  const claimed = await db.transaction((tx) => step.claim(tx));
  if (claimed === undefined) return undefined;
  let answer: ProviderAnswer<Word>;
  try {
    answer = { ok: true, word: await step.ask(claimed) };
  } catch (error) {
    answer = { ok: false, error };
  }
  return db.transaction((tx) => step.apply(tx, claimed, answer));
}

/** When the look after `checks` looks is due: the backoff, never later than `cap` while it is ahead. */
export function nextLookAt(now: Date, checks: number, cap?: Date): Date {
  const wait =
    CHECK_BACKOFF_SECONDS[Math.min(Math.max(checks, 1) - 1, CHECK_BACKOFF_SECONDS.length - 1)] ?? 5;
  const next = addSeconds(now, wait);
  return cap && next > cap && now < cap ? cap : next;
}

/** The claim's lease: the row is due again only if the look never comes back (a crash). */
export function leaseUntil(now: Date): Date {
  return addSeconds(now, CLAIM_LEASE_SECONDS);
}

/** The row of a followed operation as the claim sees it. */
export interface FollowedRow {
  id: number;
  status: string;
  checks: number;
}

/** What the claims need of the owner's table: three of its repository's queries. */
export interface LeasedRows<Row extends FollowedRow> {
  /** The row whose look is most overdue, locked; one another poller holds is skipped. */
  lockDue(tx: Transaction, now: Date): Promise<Row | undefined>;
  /** The row, locked until the transaction ends. */
  lock(tx: Transaction, id: number): Promise<Row | undefined>;
  /** Records a look: its count (the poller's looks only) and when the row is next due. */
  recordLook(tx: Transaction, id: number, look: { checks?: number; nextCheckAt: string }): Promise<Row>;
}

export interface Follower<Row extends FollowedRow, Word, Outcome> {
  db: Database;
  clock: Clock;
  rows: LeasedRows<Row>;
  /** The provider call, in no transaction. */
  ask(row: Row): Promise<Word>;
  /**
   * The owner's reading of the answer, under the row's lock; `source` names who asked (logs),
   * `event` the provider's event (a webhook's id) that asked, when one did (flags dedupe on it).
   */
  apply(
    tx: Transaction,
    claimed: Row,
    answer: ProviderAnswer<Word>,
    source: string,
    event?: string | null,
  ): Promise<Outcome>;
}

/**
 * The two ways an operation is followed, over the owner's rows: by id (a webhook, the owner's own
 * call) and the poller's most overdue one. The claims are the same for payments and payouts:
 *  - the poller's counts the look and leases the row, so no other poller asks at the same time;
 *  - by id, a final row is still read (news against it must reach an admin) and a pending one is
 *    leased, so the poller does not ask at the same time.
 */
export function leasedFollower<Row extends FollowedRow, Word, Outcome>(deps: Follower<Row, Word, Outcome>) {
  const { db, clock, rows, ask, apply } = deps;

  async function claimDue(tx: Transaction): Promise<Row | undefined> {
    const row = await rows.lockDue(tx, clock.now());
    if (!row) return undefined;
    return rows.recordLook(tx, row.id, {
      checks: row.checks + 1,
      nextCheckAt: leaseUntil(clock.now()).toISOString(),
    });
  }

  function claimById(id: number) {
    return async (tx: Transaction): Promise<Row | undefined> => {
      const row = await rows.lock(tx, id);
      if (row?.status !== 'pending') return row;
      return rows.recordLook(tx, row.id, { nextCheckAt: leaseUntil(clock.now()).toISOString() });
    };
  }

  return {
    /**
     * Follows one operation to the provider's word and applies it once; undefined when it does not
     * exist. `event`: the provider's event that asked (a webhook's id), when one did.
     */
    follow(id: number, source: string, event?: string | null): Promise<Outcome | undefined> {
      return followProviderOperation(db, {
        claim: claimById(id),
        ask,
        apply: (tx, claimed, answer) => apply(tx, claimed, answer, source, event),
      });
    },

    /** The poller's step: follows the most overdue operation; false when none is due. */
    async checkDue(): Promise<boolean> {
      const outcome = await followProviderOperation(db, {
        claim: claimDue,
        ask,
        apply: (tx, claimed, answer) => apply(tx, claimed, answer, 'poller'),
      });
      return outcome !== undefined;
    },
  };
}
