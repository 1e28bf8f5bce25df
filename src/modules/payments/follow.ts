// Following a provider operation (a payment, a transfer) until its final word, without ever
// holding a transaction or a row lock while the provider is asked: a provider that hangs then
// keeps one background step waiting, never a database connection, a row, or (on embedded PGlite,
// where every query shares one connection) the whole API. Three steps:
//   claim: a short transaction locks the row, records the look and moves its next check past a
//          lease, so another poller leaves it alone while this one asks;
//   ask:   the provider call, in no transaction;
//   apply: a second short transaction locks the row again, re-checks its state (a webhook or an
//          admin may have moved it meanwhile) and applies the answer.
// Payments and payouts both follow their provider operations through it.
import type { Database, Transaction } from '../../db/client.js';
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

/** How long after an admin closed a payout by hand its transfer is still read for news against it. */
export const HAND_CLOSED_FOLLOW_SECONDS = 30 * 24 * 3600;

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
