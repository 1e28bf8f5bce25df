// Pack purchases by mobile money. Checkout commits the payment (our unique reference, the pack's
// snapshot) before the provider hears of it; then one settlement function, used by the webhook and
// by the poller alike, locks the payment, re-fetches the provider's word and moves it once to
// `success` (crediting the snapshot's credits under the unique ledger reference `payment:<id>`) or
// `failed`. News that contradicts a final state changes nothing and is flagged for an admin.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Executor } from '../../db/client.js';
import type { PaymentChannel } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { NotFound, NotOwner, RateLimited, Unauthenticated, ValidationFailed } from '../../lib/errors.js';
import { messages, paymentTexts } from '../../lib/messages.js';
import { cameroonMobileOf } from '../../lib/phone.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import {
  PaymentProviderError,
  type PaymentsDriver,
  type PaymentToStart,
  type ProviderPayment,
  providerFinalFailures,
} from '../../providers/payments/types.js';
import type { AuthUser } from '../auth/tokens.js';
import { type IdempotentCommit, withoutKey } from '../idempotency/service.js';
import { postOperation } from '../wallet/ledger.js';
import {
  countPending,
  findPayment,
  findPaymentIdByReference,
  flagPayment,
  insertPayment,
  lockDuePayment,
  lockPayment,
  lockUserCheckouts,
  type PaymentRow,
  paymentsByDayAndStatus,
  successTotalsOf,
  updatePayment,
} from './repository.js';

/** How long the provider keeps a payment open; after it, a last re-fetch settles it. */
export const PAYMENT_EXPIRY_SECONDS = 3 * 3600;
/** Waits between the poller's later looks at a pending payment (the last one repeats). */
export const CHECK_BACKOFF_SECONDS = [5, 15, 60, 300] as const;
const PENDING_RETRY_AFTER_SECONDS = 60;

export interface CheckoutInput {
  pack_id: number;
  phone: string;
  operator?: { name: string; icon?: string } | undefined;
}

export interface PackLookup {
  findActive(
    id: number,
  ): Promise<{ id: number; name: string; credits: number; price: number; currency: string } | undefined>;
}

/** The affiliation's share of a settled payment: the godfather's commission, in the settlement's transaction. */
export interface ReferralCommissions {
  postReferralCommission(
    tx: Executor,
    payment: { id: number; userId: number; amount: number },
  ): Promise<void>;
}

/** Who follows the provider's transfers (withdrawal payouts): a `transfer.*` webhook is a hint to re-fetch. */
export interface TransferEvents {
  onTransferEvent(reference: string): Promise<unknown>;
}

export interface PaymentServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  driver: PaymentsDriver;
  packs: PackLookup;
  /** Pending payments one user may hold at once; null lifts the cap (RATE_LIMIT=off). */
  maxPending: number | null;
  /** The poller's first look after checkout (the sandbox's delay plus one second). */
  firstCheckAfterMs: number;
  /** Wakes the pollers once a payment is committed. */
  notifyCreated?: (id: number) => void;
  referrals?: ReferralCommissions;
  transfers?: TransferEvents;
}

export type Settlement = 'success' | 'failed' | 'pending' | 'unchanged' | 'flagged';

function paymentView(row: PaymentRow) {
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

export type PaymentView = ReturnType<typeof paymentView>;

/** The E.164 form of a Cameroon mobile number, typed internationally or as its nine national digits. */
function payerPhoneOf(raw: string): string {
  const phone = cameroonMobileOf(raw);
  if (!phone) throw ValidationFailed.field('phone', messages.paymentPhoneInvalid);
  return phone;
}

/** NotchPay's channel for the number: MTN or Orange when its prefix says so clearly, else the generic one. */
export function channelOf(phone: string): PaymentChannel {
  const national = phone.replace(/^\+237/, '');
  const prefix3 = Number(national.slice(0, 3));
  if (national.startsWith('67') || (prefix3 >= 650 && prefix3 <= 654) || (prefix3 >= 680 && prefix3 <= 683)) {
    return 'cm.mtn';
  }
  if (national.startsWith('69') || (prefix3 >= 655 && prefix3 <= 659) || (prefix3 >= 685 && prefix3 <= 689)) {
    return 'cm.orange';
  }
  return 'cm.mobile';
}

function toStart(row: PaymentRow): PaymentToStart {
  return {
    reference: row.reference,
    amount: row.amount,
    currency: 'XAF',
    payerPhone: row.payerPhone,
    channel: row.channel,
    description: paymentTexts.description(row.credits),
    createdAt: new Date(row.createdAt),
  };
}

const finalFailures: ReadonlySet<string> = new Set(providerFinalFailures);

export function createPaymentService(deps: PaymentServiceDeps) {
  const { db, clock, logger, driver, packs } = deps;

  /** When to look again after `checks` looks, never past the expiry (the last look is at it). */
  function nextCheck(row: PaymentRow, checks: number): string {
    const wait = CHECK_BACKOFF_SECONDS[Math.min(checks - 1, CHECK_BACKOFF_SECONDS.length - 1)] ?? 5;
    const next = addSeconds(clock.now(), wait);
    const expiry = new Date(row.expiresAt);
    return (next > expiry && clock.now() < expiry ? expiry : next).toISOString();
  }

  /** Asks the provider; a provider that never heard of it (the start did not reach it) is asked to start it. */
  async function providerWord(row: PaymentRow): Promise<ProviderPayment> {
    try {
      return await driver.fetch(toStart(row));
    } catch (error) {
      if (error instanceof PaymentProviderError && error.status === 404 && row.providerReference === null) {
        return driver.start(toStart(row));
      }
      throw error;
    }
  }

  /** The rules, on a payment locked by the caller's transaction. */
  async function settleLocked(tx: Executor, row: PaymentRow, source: string): Promise<Settlement> {
    const log = logger.child({ payment_id: row.id, reference: row.reference, source });
    const now = clock.now();
    const checks = row.checks + 1;
    let word: ProviderPayment;
    try {
      word = await providerWord(row);
    } catch (error) {
      // Unknown: keep it as it is and look again later; our own clock never fails a payment.
      log.warn({ err: error }, 'payment provider could not be asked; will look again');
      if (row.status === 'pending') {
        await updatePayment(tx, row.id, {
          checks,
          nextCheckAt: nextCheck(row, checks),
          updatedAt: now.toISOString(),
        });
      }
      return 'unchanged';
    }
    const status = String(word.status);
    const seen = {
      providerStatus: status,
      providerReference: word.providerReference ?? row.providerReference,
      paymentUrl: word.paymentUrl ?? row.paymentUrl,
      updatedAt: now.toISOString(),
    };
    const flag = async (reason: string) => {
      const details = {
        provider_status: status,
        amount: word.amount,
        currency: word.currency,
        status: row.status,
      };
      if (await flagPayment(tx, { paymentId: row.id, reason, details })) {
        log.warn({ reason, ...details }, 'payment flagged for an admin');
      }
      return 'flagged' as const;
    };

    if (row.status !== 'pending') {
      // A final state never moves; news against it goes to an admin.
      if (row.status === 'failed' && status === 'complete') return flag('complete_after_failed');
      if (row.status === 'success' && (status === 'refunded' || finalFailures.has(status))) {
        return flag(`${status}_after_success`);
      }
      return 'unchanged';
    }

    if (status === 'complete') {
      if (word.amount !== row.amount || word.currency !== row.currency) {
        await updatePayment(tx, row.id, {
          ...seen,
          status: 'failed',
          finishedAt: now.toISOString(),
          nextCheckAt: null,
        });
        await flag('amount_mismatch');
        return 'failed';
      }
      await updatePayment(tx, row.id, {
        ...seen,
        status: 'success',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      // The unique reference makes a second credit of this payment impossible, whatever runs twice.
      await postOperation(tx, {
        userId: row.userId,
        type: 'pack_purchase',
        currency: 'credits',
        amount: row.credits,
        description: paymentTexts.credit(row.credits),
        reference: `payment:${row.id}`,
      });
      // The godfather's commission on this purchase: same transaction, so exactly once as well.
      await deps.referrals?.postReferralCommission(tx, {
        id: row.id,
        userId: row.userId,
        amount: row.amount,
      });
      log.info({ credits: row.credits }, 'payment succeeded; credits granted');
      return 'success';
    }
    if (finalFailures.has(status)) {
      await updatePayment(tx, row.id, {
        ...seen,
        status: 'failed',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      log.info({ provider_status: status }, 'payment failed');
      return 'failed';
    }
    if (status === 'refunded') {
      await updatePayment(tx, row.id, { ...seen, checks, nextCheckAt: nextCheck(row, checks) });
      return flag('refunded_while_pending');
    }
    if (now >= new Date(row.expiresAt)) {
      // The provider's expiry has passed and this last re-fetch still says it is open: it is over.
      await updatePayment(tx, row.id, {
        ...seen,
        status: 'failed',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      log.info({ provider_status: status }, 'payment expired');
      return 'failed';
    }
    await updatePayment(tx, row.id, { ...seen, checks, nextCheckAt: nextCheck(row, checks) });
    return 'pending';
  }

  async function settle(id: number, source: string): Promise<Settlement | undefined> {
    return db.transaction(async (tx) => {
      const row = await lockPayment(tx, id);
      return row ? settleLocked(tx, row, source) : undefined;
    });
  }

  return {
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
        return row;
      });
      deps.notifyCreated?.(created.id);
      try {
        const started = await driver.start(toStart(created));
        const row = await updatePayment(db, created.id, {
          providerReference: started.providerReference,
          paymentUrl: started.paymentUrl,
          providerStatus: String(started.status),
          updatedAt: clock.now().toISOString(),
        });
        if (started.status !== 'pending') await settle(row.id, 'start');
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

    /** Locks the payment, re-fetches it and applies the provider's word once; undefined when it does not exist. */
    settle,

    /**
     * A webhook of `provider`: Unauthenticated when its signature is missing or wrong; otherwise the
     * event is only a hint to re-fetch (duplicates, unknown references and late news included).
     */
    async receiveWebhook(
      provider: string,
      rawBody: Buffer,
      headers: Record<string, string | string[] | undefined>,
    ): Promise<{ event: string; settlement?: Settlement | undefined }> {
      const event = provider === driver.name ? driver.verifyWebhook(rawBody, headers) : null;
      if (!event) throw new Unauthenticated();
      if (!event.reference) return { event: event.type };
      if (event.type.startsWith('transfer.')) {
        await deps.transfers?.onTransferEvent(event.reference);
        return { event: event.type };
      }
      if (!event.type.startsWith('payment.')) return { event: event.type };
      const id = await findPaymentIdByReference(db, event.reference);
      if (id === undefined) return { event: event.type };
      return { event: event.type, settlement: await settle(id, 'webhook') };
    },

    /** The poller's step: settles the most overdue pending payment; false when none is due. */
    async checkDue(): Promise<boolean> {
      return db.transaction(async (tx) => {
        const row = await lockDuePayment(tx, clock.now());
        if (!row) return false;
        await settleLocked(tx, row, 'poller');
        return true;
      });
    },
  };
}

export type PaymentService = ReturnType<typeof createPaymentService>;
