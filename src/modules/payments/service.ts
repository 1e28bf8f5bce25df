// Pack purchases by mobile money. Checkout commits the payment (our unique reference, the pack's
// snapshot) before the provider hears of it; then the webhook and the poller alike follow it to the
// provider's final word (`followProviderOperation`: claim, ask the provider in no transaction,
// apply under lock) and move it once to `success` (crediting the snapshot's credits under the unique
// ledger reference `payment:<id>`) or `failed`. Our own clock never fails a payment; news that
// contradicts a final state changes nothing and raises a flag for an admin.

import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import { channels, type Wakeups } from '../../db/channels.js';
import type { Database, Transaction } from '../../db/client.js';
import type { FlagKind, Locale, PaymentStatus } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { NotFound, NotOwner, RateLimited, ValidationFailed } from '../../lib/errors.js';
import { catalogueFor, messages } from '../../lib/messages.js';
import { cameroonMobileOf, channelOf } from '../../lib/phone.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import {
  type PaymentDrivers,
  PaymentProviderError,
  type PaymentToStart,
  type ProviderPayment,
  providerFinalFailures,
} from '../../providers/payments/types.js';
import type { AuthUser } from '../../types/auth.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import type { AccountLocales } from '../../types/locale.js';
import type { AdminEventLog, UserEventLog } from '../events/service.js';
import type { FlagRaiser } from '../flags/service.js';
import { withoutKey } from '../idempotency/commit.js';
import type { PackService } from '../packs/service.js';
import {
  DriverMissing,
  LATE_CHECK_SECONDS,
  leasedFollower,
  nextLookAt,
  type ProviderAnswer,
} from '../provider-operations/follow.js';
import type { Ledger } from '../wallet/ledger.js';
import {
  countPending,
  erasePaymentPhonesBefore,
  findPayment,
  findPaymentIdByReference,
  insertPayment,
  lockDuePayment,
  lockPayment,
  lockUserCheckouts,
  type PaymentRow,
  payerPhonesOf,
  paymentsByDayAndStatus,
  paymentsForExport,
  pendingBacklog,
  successTotalsOf,
  updatePayment,
} from './repository.js';
import type { CheckoutInput, PaymentSchema } from './schemas.js';

/** How long the provider keeps a payment open (NotchPay: a few hours); past it, it is read hourly. */
export const PAYMENT_EXPIRY_SECONDS = 3 * 3600;
/** A payment the provider still calls pending this long after checkout is flagged `stuck_pending`. */
export const STUCK_PENDING_SECONDS = 24 * 3600;
/**
 * A payment the provider has never heard of (404, no id of its own) is started again until its
 * expiry; this long past the expiry, with no start under way for an hour, nothing can still
 * create it, so it failed.
 */
export const NEVER_STARTED_GRACE_SECONDS = 3600;
const PENDING_RETRY_AFTER_SECONDS = 60;

/** What checkout needs of the packs module: the pack on sale, typed by its answer's schema. */
export type PackLookup = Pick<PackService, 'findActive'>;

/** The affiliation's share of a payment that succeeded: the godfather's commission, in the transaction that credits it. */
export interface ReferralCommissions {
  postReferralCommission(
    tx: Transaction,
    payment: { id: number; userId: number; amount: number },
  ): Promise<void>;
}

export interface PaymentServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The driver new payments use, and the one each older row names (`payments.provider`). */
  drivers: PaymentDrivers;
  packs: PackLookup;
  /** Pending payments one user may hold at once; null lifts the cap (RATE_LIMIT=off). */
  maxPending: number | null;
  /** The poller's first look after checkout (the sandbox's delay plus one second). */
  firstCheckAfterMs: number;
  /** Wakes the payment pollers once a payment is committed. */
  wakeups: Wakeups;
  /** Moves balances with their ledger rows (the wallet's ledger). */
  ledger: Ledger;
  /** The event logs: a payment's end is reported to its payer, a flag to the back office, in the settlement's transaction. */
  events: UserEventLog & AdminEventLog;
  referrals?: ReferralCommissions;
  /** Raises a flag (a provider's word against our books) in the payment's transaction. */
  flags: FlagRaiser;
  /** The payer's account, held active while the payment is written (the users module). */
  accounts: ActiveAccounts;
}

/** What a write for an account needs of the users module: the account held active until it commits. */
export interface ActiveAccounts extends AccountLocales {
  holdActive(tx: Transaction, userId: number): Promise<void>;
}

/** What following a payment did: moved it to (or left it in) a status, nothing, or raised a flag. */
export type PaymentOutcome = PaymentStatus | 'unchanged' | 'flagged';

/** The provider's word, or `not_found` when it has never heard of the payment. */
type PaymentWord = ProviderPayment | { status: 'not_found' };

export type PaymentView = Static<typeof PaymentSchema>;

function paymentView(row: PaymentRow): PaymentView {
  return {
    id: row.id,
    reference: row.reference,
    status: row.status,
    amount: row.amount,
    currency: row.currency,
    credits: row.credits,
    pack_id: row.packId,
    provider: row.provider,
    payment_url: row.paymentUrl,
    created_at: isoTimestamp(row.createdAt),
  };
}

/** The E.164 form of a Cameroon mobile number, typed internationally or as its nine national digits. */
function payerPhoneOf(raw: string): string {
  const phone = cameroonMobileOf(raw);
  if (!phone) throw ValidationFailed.field('phone', messages.paymentPhoneInvalid);
  return phone;
}

/** The payment as the provider is asked to start or read it; its description in the payer's language. */
function toStart(row: PaymentRow, locale: Locale): PaymentToStart {
  return {
    reference: row.reference,
    amount: row.amount,
    currency: 'XAF',
    payerPhone: row.payerPhone,
    channel: row.channel,
    description: catalogueFor(locale).paymentTexts.description(row.credits),
    createdAt: new Date(row.createdAt),
  };
}

const finalFailures: ReadonlySet<string> = new Set(providerFinalFailures);

export function createPaymentService(deps: PaymentServiceDeps) {
  const { db, clock, logger, drivers, packs } = deps;
  const driver = drivers.current;

  /** When to look next: the backoff up to the expiry (which gets its own look), then hourly. */
  function nextCheck(row: PaymentRow, checks: number): string {
    const now = clock.now();
    const expiry = new Date(row.expiresAt);
    if (now >= expiry) return addSeconds(now, LATE_CHECK_SECONDS).toISOString();
    return nextLookAt(now, checks, expiry).toISOString();
  }

  /**
   * The provider's word on the payment (no transaction is open here). One it never heard of is
   * started again while the provider could still take it (before the expiry, no id of its own);
   * after that a 404 is `not_found`.
   */
  async function ask(row: PaymentRow): Promise<PaymentWord> {
    const own = drivers.byName(row.provider);
    if (!own) throw new DriverMissing(row.provider);
    const asked = toStart(row, await deps.accounts.localeOf(db, row.userId));
    try {
      return await own.fetch(asked);
    } catch (error) {
      if (
        !(error instanceof PaymentProviderError) ||
        error.status !== 404 ||
        row.providerReference !== null
      ) {
        throw error;
      }
      if (clock.now() < new Date(row.expiresAt)) return own.start(asked);
      return { status: 'not_found' };
    }
  }

  /** Applies the answer to the payment, locked again and re-read: its state may have moved since the claim. */
  async function apply(
    tx: Transaction,
    claimed: PaymentRow,
    answer: ProviderAnswer<PaymentWord>,
    source: string,
    event?: string | null,
  ) {
    const row = await lockPayment(tx, claimed.id);
    if (!row) return 'unchanged' as const;
    const log = logger.child({ payment_id: row.id, reference: row.reference, source });
    const now = clock.now();
    const flag = async (kind: FlagKind, details: Record<string, unknown>) => {
      await deps.flags.raise(
        tx,
        {
          kind,
          targetType: 'payment',
          targetId: row.id,
          details: { status: row.status, ...details },
          providerEvent: event ?? null,
        },
        log,
      );
      return 'flagged' as const;
    };
    /** Still pending: the next look, and the day-old flag. */
    const keepPending = async (seen: Partial<PaymentRow>): Promise<PaymentOutcome> => {
      await updatePayment(tx, row.id, { ...seen, nextCheckAt: nextCheck(row, row.checks) });
      if (now.getTime() - new Date(row.createdAt).getTime() >= STUCK_PENDING_SECONDS * 1000) {
        await flag('stuck_pending', { provider_status: seen.providerStatus ?? row.providerStatus });
        return 'flagged';
      }
      return 'pending';
    };

    if (!answer.ok) {
      if (answer.error instanceof DriverMissing) {
        // Left alone: no driver here can ask its provider; a person must.
        if (row.status === 'pending') await updatePayment(tx, row.id, { nextCheckAt: null });
        return flag('driver_missing', { provider: row.provider });
      }
      // Unknown: keep it as it is and look again later; our own clock never fails a payment.
      log.warn({ err: answer.error }, 'payment provider could not be asked; will look again');
      return row.status === 'pending' ? keepPending({ updatedAt: now.toISOString() }) : 'unchanged';
    }
    const word = answer.word;
    const status = String(word.status);
    const found = 'reference' in word ? word : undefined;
    const seen = {
      providerStatus: status,
      providerReference: found?.providerReference ?? row.providerReference,
      paymentUrl: found?.paymentUrl ?? row.paymentUrl,
      updatedAt: now.toISOString(),
    };
    const said = { provider_status: status, amount: found?.amount, currency: found?.currency };

    if (row.status !== 'pending') {
      // A final state never moves; news against it goes to an admin.
      if (row.status === 'failed' && status === 'complete') return flag('late_complete', said);
      if (row.status === 'success' && status === 'refunded') return flag('refund_after_success', said);
      if (row.status === 'success' && finalFailures.has(status)) return flag('failed_after_success', said);
      return 'unchanged';
    }
    const fail = async (why: string) => {
      const failed = await updatePayment(tx, row.id, {
        ...seen,
        status: 'failed',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      await deps.events.append(tx, row.userId, 'payment.failed', paymentView(failed));
      log.info({ provider_status: status }, why);
      return 'failed' as const;
    };

    if (found && status === 'complete') {
      if (found.amount !== row.amount || found.currency !== row.currency) {
        // Paid, but not what we asked: no credits on a price we did not set; an admin decides.
        await fail('payment complete with another amount or currency; failed and flagged');
        return flag(found.amount !== row.amount ? 'amount_mismatch' : 'currency_mismatch', said);
      }
      const succeeded = await updatePayment(tx, row.id, {
        ...seen,
        status: 'success',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      // The unique reference makes a second credit of this payment impossible, whatever runs twice.
      await deps.ledger.post(tx, {
        userId: row.userId,
        type: 'pack_purchase',
        currency: 'credits',
        amount: row.credits,
        // The payer's language: the settlement comes with no request of theirs.
        description: catalogueFor(await deps.accounts.localeOf(tx, row.userId)).paymentTexts.credit(
          row.credits,
        ),
        reference: `payment:${row.id}`,
      });
      // The godfather's commission on this purchase: same transaction, so exactly once as well.
      await deps.referrals?.postReferralCommission(tx, {
        id: row.id,
        userId: row.userId,
        amount: row.amount,
      });
      await deps.events.append(tx, row.userId, 'payment.succeeded', paymentView(succeeded));
      log.info({ credits: row.credits }, 'payment succeeded; credits granted');
      return 'success';
    }
    if (finalFailures.has(status)) return fail('payment failed');
    if (status === 'refunded') {
      await keepPending(seen);
      return flag('refunded_while_pending', said);
    }
    if (status === 'not_found') {
      const never = new Date(row.expiresAt).getTime() + NEVER_STARTED_GRACE_SECONDS * 1000;
      // The provider never had it and nothing will start it any more: no money can have moved.
      if (row.providerReference === null && now.getTime() >= never)
        return fail('payment never reached the provider');
    }
    return keepPending(seen);
  }

  // The claims (by id, and the poller's most overdue) are the provider-operations module's, over
  // this module's rows; what the provider's word means is `apply`, above.
  const follower = leasedFollower({
    db,
    clock,
    rows: { lockDue: lockDuePayment, lock: lockPayment, recordLook: updatePayment },
    ask,
    apply,
  });
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
     * Commits a pending payment for the pack, then asks the provider to charge the payer. A provider
     * failure after the commit leaves the payment pending: the poller resumes it.
     */
    async checkout(
      user: AuthUser,
      input: CheckoutInput,
      commit: IdempotentCommit<PaymentView> = withoutKey,
    ): Promise<PaymentView> {
      const pack = await packs.findActive(input.pack_id);
      if (!pack) throw ValidationFailed.field('pack_id', messages.unknownPack);
      const payerPhone = payerPhoneOf(input.phone);
      const now = clock.now();
      const created = await db.transaction(async (tx) => {
        // Checkouts of one user wait for each other here, so the cap holds under concurrency.
        await lockUserCheckouts(tx, user.id);
        // A deletion that committed after authentication: no payment, and no charge of the payer.
        await deps.accounts.holdActive(tx, user.id);
        if (deps.maxPending !== null && (await countPending(tx, user.id)) >= deps.maxPending) {
          throw new RateLimited(PENDING_RETRY_AFTER_SECONDS, messages.paymentTooManyPending);
        }
        const row = await insertPayment(tx, {
          userId: user.id,
          packId: pack.id,
          reference: `PAY-${randomBytes(10).toString('hex').toUpperCase()}`,
          provider: driver.name,
          amount: pack.price,
          currency: 'XAF',
          credits: pack.credits,
          payerPhone,
          channel: channelOf(payerPhone),
          operator: input.operator ?? null,
          nextCheckAt: new Date(now.getTime() + deps.firstCheckAfterMs).toISOString(),
          expiresAt: addSeconds(now, PAYMENT_EXPIRY_SECONDS).toISOString(),
          idempotencyKeyId: commit.keyId,
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
        });
        await commit.store(tx, paymentView(row));
        return { ...row, locale: await deps.accounts.localeOf(tx, user.id) };
      });
      deps.wakeups.send(channels.paymentCreated, String(created.id));
      try {
        const started = await driver.start(toStart(created, created.locale));
        const row = await updatePayment(db, created.id, {
          providerReference: started.providerReference,
          paymentUrl: started.paymentUrl,
          providerStatus: String(started.status),
          updatedAt: clock.now().toISOString(),
        });
        if (started.status !== 'pending') await follow(row.id, 'start');
      } catch (error) {
        logger.warn(
          { err: error, payment_id: created.id, reference: created.reference },
          'payment provider did not take the payment at start; the poller will resume it',
        );
      }
      const answer = paymentView((await findPayment(db, created.id)) ?? created);
      await commit.amend(answer);
      return answer;
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
     * Credits a payment the provider completed after it was failed (an admin resolving its
     * `late_complete` flag), once: the ledger reference `payment:<id>:late` is unique. The payment
     * stays `failed` (a final state never moves); the credit row says why.
     */
    async creditLatePayment(
      tx: Transaction,
      paymentId: number,
    ): Promise<{ credits: number; userId: number }> {
      const row = await lockPayment(tx, paymentId);
      if (!row) throw new NotFound(messages.paymentNotFound);
      await deps.ledger.post(tx, {
        userId: row.userId,
        type: 'pack_purchase',
        currency: 'credits',
        amount: row.credits,
        description: catalogueFor(await deps.accounts.localeOf(tx, row.userId)).paymentTexts.lateCredit(
          row.credits,
        ),
        reference: `payment:${row.id}:late`,
      });
      return { credits: row.credits, userId: row.userId };
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
