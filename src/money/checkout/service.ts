// Pack purchases by mobile money, as their callers see them. The checkout and its follow-up to the
// provider's final word are written as named steps in flow.ts; this service hands them to the route,
// the webhook dispatch and the poller, and answers the reads around payments (the owner's, the back
// office's, the export, the metrics, housekeeping, a flag's resolution).
import type { Transaction } from '../../db/client.js';
import { NotFound, NotOwner } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import { withoutKey } from '../../modules/idempotency/commit.js';
import type { AuthUser } from '../../types/auth.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import {
  type CheckoutDeps,
  checkout,
  creditLatePayment,
  type PaymentOutcome,
  type PaymentView,
  paymentFollower,
  paymentView,
} from './flow.js';
import {
  countPending,
  erasePaymentPhonesBefore,
  findPayment,
  findPaymentIdByReference,
  lockUserCheckouts,
  payerPhonesOf,
  paymentsByDayAndStatus,
  paymentsForExport,
  pendingBacklog,
  successTotalsOf,
} from './repository.js';
import type { CheckoutInput } from './schemas.js';

export type { ActiveAccounts, PaymentOutcome, PaymentView } from './flow.js';

export function createPaymentService(deps: CheckoutDeps) {
  const { db } = deps;
  const follower = paymentFollower(deps);
  const follow = follower.follow;

  return {
    /**
     * The user's pending payments, counted under their checkout lock (in an account deletion's
     * transaction: a checkout running meanwhile commits first, or waits until the deletion is done).
     */
    async pendingForDeletion(tx: Transaction, userId: number): Promise<number> {
      await lockUserCheckouts(tx, userId);
      return countPending(tx, userId);
    },

    /** A page of the user's payments, after `afterId`, for their data export. */
    async exportPage(userId: number, afterId: number, limit: number) {
      const rows = await paymentsForExport(db, userId, afterId, limit);
      return rows.map((row) => ({
        id: row.id,
        reference: row.reference,
        provider: row.provider,
        status: row.status,
        amount: row.amount,
        currency: row.currency,
        credits: row.credits,
        payer_phone: row.payerPhone,
        channel: row.channel,
        created_at: isoTimestamp(row.createdAt),
        finished_at: row.finishedAt === null ? null : isoTimestamp(row.finishedAt),
      }));
    },

    /** Payments still pending in all, and the oldest one's creation in epoch seconds (the metrics). */
    pendingBacklog() {
      return pendingBacklog(db);
    },

    /** A user's successful payments, counted and summed in XAF (the back office). */
    successTotalsOf(userId: number) {
      return successTotalsOf(db, userId);
    },

    /** Payments started per UTC day and status, with their XAF sums (the back office's figures). */
    byDayAndStatus(range: { from: string; before: string }) {
      return paymentsByDayAndStatus(db, range);
    },

    /**
     * The checkout, flow.ts's steps 1 to 3: the payment committed, then the provider asked to charge
     * the payer; a provider failure after the commit leaves it pending for the poller.
     */
    checkout(
      user: AuthUser,
      input: CheckoutInput,
      commit: IdempotentCommit<PaymentView> = withoutKey,
    ): Promise<PaymentView> {
      return checkout(deps, user, input, commit);
    },

    async getOwn(user: AuthUser, id: number): Promise<PaymentView> {
      const row = await findPayment(db, id);
      if (!row) throw new NotFound(messages.paymentNotFound);
      if (row.userId !== user.id) throw new NotOwner(messages.paymentForbidden);
      return paymentView(row);
    },

    /** Final payments older than `before` lose their paying phone, `limit` at most (housekeeping); how many. */
    erasePhonesBefore(before: Date, limit: number): Promise<number> {
      return erasePaymentPhonesBefore(db, before.toISOString(), limit);
    },

    /** The phones the user paid with (an account's deletion takes them out of the audit and events). */
    phonesOf(tx: Transaction, userId: number): Promise<string[]> {
      return payerPhonesOf(tx, userId);
    },

    /** Who made the payment (a flag's resolution checks it is not the admin's own). */
    async ownerOf(tx: Transaction, id: number): Promise<number | undefined> {
      return (await findPayment(tx, id))?.userId;
    },

    /** Follows one payment to the provider's word and applies it once; undefined when it does not exist. */
    follow,

    /**
     * A `payment.*` webhook's reference (already authenticated): only a hint to read it again; its
     * id names the news a flag it raises carries (a replay raises nothing).
     */
    async onPaymentEvent(
      reference: string,
      eventId: string | null = null,
    ): Promise<PaymentOutcome | undefined> {
      const id = await findPaymentIdByReference(db, reference);
      return id === undefined ? undefined : follow(id, 'webhook', eventId);
    },

    /** The poller's step: follows the most overdue pending payment; false when none is due. */
    checkDue: follower.checkDue,

    /**
     * Credits a failed payment the provider completed after all, once (an admin resolving its
     * `late_complete` flag; flow.ts).
     */
    creditLatePayment(tx: Transaction, paymentId: number): Promise<{ credits: number; userId: number }> {
      return creditLatePayment(deps, tx, paymentId);
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
