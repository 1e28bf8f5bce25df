// Checkout's responsible-play step (issue 54, DESIGN "Responsible play"), run in step 1's
// transaction under the user's checkout lock, before the payment row is written: a self-exclusion
// under way, then (AGE_GATE on) the date of birth, then the spending limits. A limit is checked against
// the per-window totals of the user's payments (`spending_totals`: one row per window, raised here
// in the same transaction, lowered when a payment fails), never by summing their payments; so two
// checkouts racing against one limit meet at the lock and the second reads the first's total. The
// windows are raised first, in the statement that also counts the pending payments (issue 57: one
// statement for three), and a refusal then rolls the raise back with the transaction.
import { sql } from 'drizzle-orm';
import type { Executor, Transaction } from '../../db/client.js';
import { spendingTotals } from '../../db/schema/money.js';
import { PlayRefused } from '../../lib/errors.js';
import { ageOn, doualaDate, spendingWindowsAt } from '../../lib/play-calendar.js';
import { isoTimestamp } from '../../lib/time.js';
import type { CheckoutPlay } from '../../types/play.js';
import { raiseWindowsCountingPending } from './repository.js';

export type { CheckoutPlay } from '../../types/play.js';

/** The age gate: null when AGE_GATE is off. */
export interface AgeGate {
  minimum: number;
}

/** Adds `amount` (negative: takes it back, never below zero) to the windows of `at`, in one statement. */
async function addToWindows(tx: Executor, userId: number, at: Date, amount: number): Promise<void> {
  const rows = spendingWindowsAt(at).map((window) => ({
    userId,
    period: window.period,
    windowStart: window.start,
    amount: Math.max(amount, 0),
  }));
  await tx
    .insert(spendingTotals)
    .values(rows)
    .onConflictDoUpdate({
      target: [spendingTotals.userId, spendingTotals.period, spendingTotals.windowStart],
      set: { amount: sql`GREATEST(${spendingTotals.amount} + ${amount}, 0)` },
    });
}

/**
 * Refuses the checkout of `amount` XAF (403; the caller's transaction rolls back, so nothing is
 * written) or counts it in its windows; the caller writes the payment in the same transaction. How
 * many payments of the user's were pending before this one (the caller's cap).
 */
export async function admitSpending(
  tx: Transaction,
  input: { userId: number; amount: number; now: Date; play: CheckoutPlay; ageGate: AgeGate | null },
): Promise<{ pending: number }> {
  const { userId, amount, now, play, ageGate } = input;
  if (play.selfExcludedUntil !== null && Date.parse(play.selfExcludedUntil) > now.getTime()) {
    throw new PlayRefused('self_excluded', isoTimestamp(play.selfExcludedUntil));
  }
  if (ageGate) {
    if (play.birthDate === null) throw new PlayRefused('age_required');
    if (ageOn(play.birthDate, doualaDate(now)) < ageGate.minimum) {
      throw new PlayRefused('under_age', ageGate.minimum);
    }
  }
  const windows = spendingWindowsAt(now);
  const { totals, pending } = await raiseWindowsCountingPending(tx, userId, windows, amount);
  const passed = windows.filter((window) => {
    const limit = play.limits[window.period];
    return limit !== null && (totals[window.period] ?? amount) > limit;
  });
  if (passed.length > 0) {
    // Free again when every window it passes has turned.
    const resetsAt = Math.max(...passed.map((window) => window.resetsAt.getTime()));
    throw new PlayRefused('limit_reached', isoTimestamp(new Date(resetsAt)));
  }
  return { pending };
}

/** A payment failed: it no longer counts in the windows it was made in. */
export async function releaseSpending(
  tx: Executor,
  payment: { userId: number; amount: number; createdAt: string },
): Promise<void> {
  await addToWindows(tx, payment.userId, new Date(payment.createdAt), -payment.amount);
}
