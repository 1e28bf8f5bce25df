// Checkout: how a pack is bought by mobile money, as named steps, read top to bottom.
//
//   1. reserve        `reservePayment`: one transaction: the user's checkouts serialized, the account
//                     held active and read (one statement), responsible play (`admitSpending`,
//                     ./spending.ts: a self-exclusion, the age gate, the spending limits against their
//                     per-window totals, raised here in the statement that counts the pending
//                     payments), the pending cap, the payment row (our unique reference, the pack's
//                     snapshot), the idempotent answer. Nothing is asked of the provider yet.
//                     No undo needed: a payment the provider never hears of fails by itself once past
//                     its expiry (step 4, `not_found`), and no money can have moved.
//   2. start          `startPayment`: after that commit, in no transaction: the provider is asked to
//                     charge the payer. A failure leaves the payment pending: the poller resumes it.
//   3. answer         `checkout` answers the payment as step 2 left it (the row its update returned;
//                     read again only when the provider's word moved it or it was not started) and
//                     amends the idempotent answer.
//   4. provider's word `askProvider` (no transaction) then `applyPaymentWord` (the payment locked again
//                     and re-read): from step 2, a `payment.*` webhook or the poller, each through the
//                     leased claim of ../provider/follow.ts (`followPayment`). Our own clock never
//                     fails a payment.
//   5. settle or fail, in step 4's transaction: `settlePayment` (credits under the unique ledger
//                     reference `payment:<id>`, then `creditCommission`: the affiliation's policy, once)
//                     or `failPayment` (its amount taken back from its spending windows). A final state never moves: news against it raises a flag.
//                     Undone by an admin only: `creditLatePayment` credits a failed payment the provider
//                     completed after all (resolving its `late_complete` flag), once.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import { channels, type Wakeups } from '../../db/channels.js';
import type { Database, Transaction } from '../../db/client.js';
import type { FlagKind, Locale, PaymentStatus } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { NotFound, RateLimited, ValidationFailed } from '../../lib/errors.js';
import { catalogueFor, messages } from '../../lib/messages.js';
import { cameroonMobileOf, channelOf } from '../../lib/phone.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import type { AdminEventLog, UserEventLog } from '../../modules/events/service.js';
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
import type { CheckoutAccount } from '../../types/play.js';
import type { CommissionPolicy } from '../commissions.js';
import type { FlagRaiser } from '../flags/raise.js';
import type { Ledger } from '../ledger/ledger.js';
import type { PackService } from '../packs/service.js';
import {
  DriverMissing,
  LATE_CHECK_SECONDS,
  leasedFollower,
  nextLookAt,
  type ProviderAnswer,
} from '../provider/follow.js';
import {
  findPayment,
  insertPayment,
  lockDuePayment,
  lockPayment,
  lockUserCheckouts,
  type PaymentRow,
  updatePayment,
} from './repository.js';
import type { CheckoutInput, PaymentSchema } from './schemas.js';
import { type AgeGate, admitSpending, releaseSpending } from './spending.js';

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

/** What a checkout needs of the users module: the account held active until it commits, and read. */
export interface ActiveAccounts extends AccountLocales {
  /**
   * In the checkout's transaction: the account held active (401 once deleted), with its date of
   * birth, self-exclusion, spending limits in force and language.
   */
  holdForCheckout(tx: Transaction, userId: number): Promise<CheckoutAccount>;
}

/** What the checkout steps run on. */
export interface CheckoutDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The driver new payments use, and the one each older row names (`payments.provider`). */
  drivers: PaymentDrivers;
  /** The pack on sale, typed by its answer's schema. */
  packs: Pick<PackService, 'findActive'>;
  /** AGE_GATE on: the minimum age a checkout needs; null when it is off. */
  ageGate: AgeGate | null;
  /** Pending payments one user may hold at once; null lifts the cap (RATE_LIMIT=off). */
  maxPending: number | null;
  /** The poller's first look after checkout (the sandbox's delay plus one second). */
  firstCheckAfterMs: number;
  /** Wakes the payment pollers once a payment is committed. */
  wakeups: Wakeups;
  /** Moves balances with their ledger rows: the credits, the commission. */
  ledger: Ledger;
  /** The event logs: a payment's end is reported to its payer, a flag to the back office, in the settlement's transaction. */
  events: UserEventLog & AdminEventLog;
  /** The affiliation's commission policy (money's one port), asked in the settlement's transaction. */
  commissions?: CommissionPolicy;
  /** Raises a flag (a provider's word against our books) in the payment's transaction. */
  flags: FlagRaiser;
  /** The payer's account, held active while the payment is written (the users module). */
  accounts: ActiveAccounts;
}

/** What following a payment did: moved it to (or left it in) a status, nothing, or raised a flag. */
export type PaymentOutcome = PaymentStatus | 'unchanged' | 'flagged';

/** The provider's word, or `not_found` when it has never heard of the payment. */
export type PaymentWord = ProviderPayment | { status: 'not_found' };

export type PaymentView = Static<typeof PaymentSchema>;

export function paymentView(row: PaymentRow): PaymentView {
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

/**
 * The whole checkout: steps 1 to 3. A provider failure after the commit leaves the payment
 * pending: the poller resumes it.
 */
export async function checkout(
  deps: CheckoutDeps,
  user: AuthUser,
  input: CheckoutInput,
  commit: IdempotentCommit<PaymentView>,
): Promise<PaymentView> {
  const created = await reservePayment(deps, user, input, commit);
  deps.wakeups.send(channels.paymentCreated, String(created.id));
  // Step 3.
  const answer = paymentView(await startPayment(deps, created));
  await commit.amend(answer);
  return answer;
}

/** Step 1: the pending payment, committed with the idempotent answer before the provider hears of it. */
export async function reservePayment(
  deps: CheckoutDeps,
  user: AuthUser,
  input: CheckoutInput,
  commit: IdempotentCommit<PaymentView>,
): Promise<PaymentRow & { locale: Locale }> {
  const pack = await deps.packs.findActive(input.pack_id);
  if (!pack) throw ValidationFailed.field('pack_id', messages.unknownPack);
  const payerPhone = cameroonMobileOf(input.phone);
  if (!payerPhone) throw ValidationFailed.field('phone', messages.paymentPhoneInvalid);
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    // Checkouts of one user wait for each other here, so the cap holds under concurrency.
    await lockUserCheckouts(tx, user.id);
    // A deletion that committed after authentication: no payment, and no charge of the payer.
    const account = await deps.accounts.holdForCheckout(tx, user.id);
    // Refused here (403), nothing is kept; admitted, the price counts in its spending windows.
    const { pending } = await admitSpending(tx, {
      userId: user.id,
      amount: pack.price,
      now,
      play: account.play,
      ageGate: deps.ageGate,
    });
    if (deps.maxPending !== null && pending >= deps.maxPending) {
      throw new RateLimited(PENDING_RETRY_AFTER_SECONDS, messages.paymentTooManyPending);
    }
    const row = await insertPayment(tx, {
      userId: user.id,
      packId: pack.id,
      reference: `PAY-${randomBytes(10).toString('hex').toUpperCase()}`,
      provider: deps.drivers.current.name,
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
    return { ...row, locale: account.locale };
  });
}

/**
 * Step 2: asks the provider to charge the payer, after the commit and in no transaction; never
 * throws. The payment as it now stands: the row its update returned while pending, else read again.
 */
export async function startPayment(
  deps: CheckoutDeps,
  created: PaymentRow & { locale: Locale },
): Promise<PaymentRow> {
  try {
    const started = await deps.drivers.current.start(toStart(created, created.locale));
    const row = await updatePayment(deps.db, created.id, {
      providerReference: started.providerReference,
      paymentUrl: started.paymentUrl,
      providerStatus: String(started.status),
      updatedAt: deps.clock.now().toISOString(),
    });
    if (started.status === 'pending') return row;
    await followPayment(deps, row.id, 'start');
  } catch (error) {
    deps.logger.warn(
      { err: error, payment_id: created.id, reference: created.reference },
      'payment provider did not take the payment at start; the poller will resume it',
    );
  }
  // Moved by the provider's word, or not started (the poller may have looked meanwhile).
  return (await findPayment(deps.db, created.id)) ?? created;
}

/** Step 4's claims over the payment rows (by id, and the poller's most overdue): ask, then apply. */
export function paymentFollower(deps: CheckoutDeps) {
  return leasedFollower({
    db: deps.db,
    clock: deps.clock,
    rows: { lockDue: lockDuePayment, lock: lockPayment, recordLook: updatePayment },
    ask: (row: PaymentRow) => askProvider(deps, row),
    apply: (tx, claimed: PaymentRow, answer, source: string, event?: string | null) =>
      applyPaymentWord(deps, tx, claimed, answer, source, event),
  });
}

/** Step 4 for one payment: follows it to the provider's word and applies it once; undefined when it does not exist. */
export function followPayment(
  deps: CheckoutDeps,
  id: number,
  source: string,
  event?: string | null,
): Promise<PaymentOutcome | undefined> {
  return paymentFollower(deps).follow(id, source, event);
}

/** When to look next: the backoff up to the expiry (which gets its own look), then hourly. */
function nextCheck(deps: CheckoutDeps, row: PaymentRow, checks: number): string {
  const now = deps.clock.now();
  const expiry = new Date(row.expiresAt);
  if (now >= expiry) return addSeconds(now, LATE_CHECK_SECONDS).toISOString();
  return nextLookAt(now, checks, expiry).toISOString();
}

/**
 * Step 4, the ask: the provider's word on the payment (no transaction is open here). One it never
 * heard of is started again while the provider could still take it (before the expiry, no id of its
 * own); after that a 404 is `not_found`.
 */
export async function askProvider(deps: CheckoutDeps, row: PaymentRow): Promise<PaymentWord> {
  const own = deps.drivers.byName(row.provider);
  if (!own) throw new DriverMissing(row.provider);
  const asked = toStart(row, await deps.accounts.localeOf(deps.db, row.userId));
  try {
    return await own.fetch(asked);
  } catch (error) {
    if (!(error instanceof PaymentProviderError) || error.status !== 404 || row.providerReference !== null) {
      throw error;
    }
    if (deps.clock.now() < new Date(row.expiresAt)) return own.start(asked);
    return { status: 'not_found' };
  }
}

/** One application of the provider's word: the payment locked again, and who asked. */
interface Applying {
  deps: CheckoutDeps;
  tx: Transaction;
  row: PaymentRow;
  log: FastifyBaseLogger;
  now: Date;
  event: string | null;
}

/**
 * Step 4, the apply: the provider's word on the payment, locked again and re-read (its state may
 * have moved since the claim), then step 5.
 */
export async function applyPaymentWord(
  deps: CheckoutDeps,
  tx: Transaction,
  claimed: PaymentRow,
  answer: ProviderAnswer<PaymentWord>,
  source: string,
  event?: string | null,
): Promise<PaymentOutcome> {
  const row = await lockPayment(tx, claimed.id);
  if (!row) return 'unchanged';
  const log = deps.logger.child({ payment_id: row.id, reference: row.reference, source });
  const at: Applying = { deps, tx, row, log, now: deps.clock.now(), event: event ?? null };

  if (!answer.ok) {
    if (answer.error instanceof DriverMissing) {
      // Left alone: no driver here can ask its provider; a person must.
      if (row.status === 'pending') await updatePayment(tx, row.id, { nextCheckAt: null });
      return flagPayment(at, 'driver_missing', { provider: row.provider });
    }
    // Unknown: keep it as it is and look again later; our own clock never fails a payment.
    log.warn({ err: answer.error }, 'payment provider could not be asked; will look again');
    return row.status === 'pending'
      ? keepPaymentPending(at, { updatedAt: at.now.toISOString() })
      : 'unchanged';
  }
  const word = answer.word;
  const status = String(word.status);
  const found = 'reference' in word ? word : undefined;
  const seen = {
    providerStatus: status,
    providerReference: found?.providerReference ?? row.providerReference,
    paymentUrl: found?.paymentUrl ?? row.paymentUrl,
    updatedAt: at.now.toISOString(),
  };
  const said = { provider_status: status, amount: found?.amount, currency: found?.currency };

  if (row.status !== 'pending') {
    // A final state never moves; news against it goes to an admin.
    if (row.status === 'failed' && status === 'complete') return flagPayment(at, 'late_complete', said);
    if (row.status === 'success' && status === 'refunded')
      return flagPayment(at, 'refund_after_success', said);
    if (row.status === 'success' && finalFailures.has(status))
      return flagPayment(at, 'failed_after_success', said);
    return 'unchanged';
  }
  if (found && status === 'complete') {
    if (found.amount !== row.amount || found.currency !== row.currency) {
      // Paid, but not what we asked: no credits on a price we did not set; an admin decides.
      await failPayment(at, seen, 'payment complete with another amount or currency; failed and flagged');
      return flagPayment(at, found.amount !== row.amount ? 'amount_mismatch' : 'currency_mismatch', said);
    }
    return settlePayment(at, seen);
  }
  if (finalFailures.has(status)) return failPayment(at, seen, 'payment failed');
  if (status === 'refunded') {
    await keepPaymentPending(at, seen);
    return flagPayment(at, 'refunded_while_pending', said);
  }
  if (status === 'not_found') {
    const never = new Date(row.expiresAt).getTime() + NEVER_STARTED_GRACE_SECONDS * 1000;
    // The provider never had it and nothing will start it any more: no money can have moved.
    if (row.providerReference === null && at.now.getTime() >= never) {
      return failPayment(at, seen, 'payment never reached the provider');
    }
  }
  return keepPaymentPending(at, seen);
}

async function flagPayment(
  at: Applying,
  kind: FlagKind,
  details: Record<string, unknown>,
): Promise<'flagged'> {
  await at.deps.flags.raise(
    at.tx,
    {
      kind,
      targetType: 'payment',
      targetId: at.row.id,
      details: { status: at.row.status, ...details },
      providerEvent: at.event,
    },
    at.log,
  );
  return 'flagged';
}

/** Still pending: the next look, and the day-old flag. */
async function keepPaymentPending(at: Applying, seen: Partial<PaymentRow>): Promise<PaymentOutcome> {
  const { row } = at;
  await updatePayment(at.tx, row.id, { ...seen, nextCheckAt: nextCheck(at.deps, row, row.checks) });
  if (at.now.getTime() - new Date(row.createdAt).getTime() >= STUCK_PENDING_SECONDS * 1000) {
    return flagPayment(at, 'stuck_pending', { provider_status: seen.providerStatus ?? row.providerStatus });
  }
  return 'pending';
}

/** Step 5, failed: final, told to the payer; no credits. */
async function failPayment(at: Applying, seen: Partial<PaymentRow>, why: string): Promise<'failed'> {
  const { row } = at;
  const failed = await updatePayment(at.tx, row.id, {
    ...seen,
    status: 'failed',
    finishedAt: at.now.toISOString(),
    nextCheckAt: null,
  });
  // Only payments pending or succeeded count against a limit.
  await releaseSpending(at.tx, row);
  await at.deps.events.append(at.tx, row.userId, 'payment.failed', paymentView(failed));
  at.log.info({ provider_status: seen.providerStatus }, why);
  return 'failed';
}

/**
 * Step 5, paid: `success`, the pack's credits under the unique ledger reference `payment:<id>` (a
 * second credit of this payment is impossible, whatever runs twice), the godfather's commission,
 * and the payer told: one transaction.
 */
async function settlePayment(at: Applying, seen: Partial<PaymentRow>): Promise<'success'> {
  const { deps, tx, row } = at;
  const succeeded = await updatePayment(tx, row.id, {
    ...seen,
    status: 'success',
    finishedAt: at.now.toISOString(),
    nextCheckAt: null,
  });
  await deps.ledger.post(tx, {
    userId: row.userId,
    type: 'pack_purchase',
    currency: 'credits',
    amount: row.credits,
    // The payer's language: the settlement comes with no request of theirs.
    description: catalogueFor(await deps.accounts.localeOf(tx, row.userId)).paymentTexts.credit(row.credits),
    reference: `payment:${row.id}`,
  });
  await creditCommission(deps, tx, row, at.log);
  await deps.events.append(tx, row.userId, 'payment.succeeded', paymentView(succeeded));
  at.log.info({ credits: row.credits }, 'payment succeeded; credits granted');
  return 'success';
}

/**
 * Step 5, the commission the affiliation's policy grants on this purchase: in the settlement's
 * transaction, under the unique reference `payment:<id>:commission`, so exactly once as well.
 */
export async function creditCommission(
  deps: Pick<CheckoutDeps, 'ledger' | 'commissions'>,
  tx: Transaction,
  payment: { id: number; userId: number; amount: number },
  log: FastifyBaseLogger,
): Promise<void> {
  const commission = await deps.commissions?.commissionOn(tx, payment);
  if (!commission) return;
  await deps.ledger.post(tx, {
    userId: commission.beneficiaryId,
    type: 'referral_commission',
    currency: 'XAF',
    amount: commission.amount,
    description: catalogueFor(commission.locale).withdrawalTexts.commission(commission.percent),
    reference: `payment:${payment.id}:commission`,
  });
  log
    .child({ godfather_id: commission.beneficiaryId })
    .info({ commission: commission.amount }, 'referral commission earned');
}

/**
 * Undoes a wrong failure, by an admin's hand: credits a payment the provider completed after it was
 * failed (resolving its `late_complete` flag), once: the ledger reference `payment:<id>:late` is
 * unique. The payment stays `failed` (a final state never moves); the credit row says why.
 */
export async function creditLatePayment(
  deps: Pick<CheckoutDeps, 'ledger' | 'accounts'>,
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
}
