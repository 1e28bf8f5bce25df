// Cash-out: how referral money becomes money on a phone, as named steps, read top to bottom. A
// withdrawal is the business object; its payout is the provider step.
//
//   1. debit           `requestWithdrawal`: one transaction: the withdrawal row, the ledger debit (never
//                      below zero), the back office's event, the idempotent answer.
//                      Undone by `refundWithdrawal`, once (its ledger reference is unique).
//   2. approve         `approveWithdrawal`: one transaction: the admin's decision, the payout opened
//                      (step 3), the audit row. Nothing is asked of the provider yet. At the four-eyes
//                      threshold it only asks a second admin, whose confirmation runs this step.
//                      Its alternative, `rejectWithdrawal`, undoes step 1 in the same kind of transaction.
//   3. open payout     `openPayout`: the payout row, its one create recorded as attempted
//                      (`create_attempted_at`) before the provider hears of it.
//   4. send once       `sendPayoutOnce`: after that commit, in no transaction: the only call that
//                      creates a transfer. A rolled-back approval can never have sent money.
//   5. provider's word `readTransfer` (no transaction) then `applyTransferWord` (the payout locked
//                      again and re-read): from step 4's answer, a `transfer.*` webhook or the poller,
//                      the last two through the leased claim of ../provider/follow.ts. Every doubt is
//                      resolved by reading the transfer under our reference, never by creating it again.
//   6. settle, refund or escalate, in step 5's transaction: `settleWithdrawal` (paid → `success`),
//                      `refundFailedWithdrawal` (the provider's final failure → `cancelled`, step 1
//                      undone), or `escalateWithdrawal` (stuck, refused, not what we asked: a person
//                      decides; never refunded here, the money may have left). News against a final
//                      payout is flagged, never dropped.
//
// Off the road: an admin closes an escalated withdrawal by hand (withdrawals.ts, `resolveEscalated`,
// with `closePayoutByHand` below), refunding through the same `refundWithdrawal`.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import type { FlagKind, Locale, PayoutHandOutcome } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import {
  AlreadyDecided,
  InsufficientBalance,
  NotFound,
  OwnWithdrawal,
  PayoutNotEscalated,
  ValidationFailed,
} from '../../lib/errors.js';
import { catalogueFor, messages, withdrawalTexts } from '../../lib/messages.js';
import { cameroonMobileOf, channelOf, maskPhone } from '../../lib/phone.js';
import { addSeconds, DAY_MS } from '../../lib/time.js';
import type { ApprovalDesk, ApprovalView } from '../../modules/admin/approvals.js';
import type { AuditRecorder } from '../../modules/admin/service.js';
import type { AdminEventLog, UserEventLog } from '../../modules/events/service.js';
import {
  type PaymentDrivers,
  PaymentProviderError,
  type ProviderTransfer,
  providerTransferFailures,
  type TransferToSend,
} from '../../providers/payments/types.js';
import type { AuthUser } from '../../types/auth.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import type { AccountLocales } from '../../types/locale.js';
import type { FlagRaiser } from '../flags/raise.js';
import type { Ledger } from '../ledger/ledger.js';
import { DriverMissing, LATE_CHECK_SECONDS, nextLookAt, type ProviderAnswer } from '../provider/follow.js';
import {
  findPayout,
  insertPayout,
  lockPayout,
  lockPayoutOfWithdrawal,
  type PayoutRow,
  payoutsOfWithdrawals,
  updatePayout,
} from './payout-repository.js';
import type { ResolveInput, WithdrawInput } from './schemas.js';
import { withdrawalView } from './views.js';
import {
  findWithdrawal,
  insertWithdrawal,
  lockApprovalSum,
  lockWithdrawal,
  moneyBalanceOf,
  sumApprovedSince,
  updateWithdrawal,
} from './withdrawal-repository.js';

/** The largest withdrawal one request may ask for (XAF): above mobile-money operators' own caps. */
export const WITHDRAW_MAX = 1_000_000;
const ICON_MAX = 512;
/** How long after an admin closed a payout by hand its transfer is still read for news against it. */
export const HAND_CLOSED_FOLLOW_SECONDS = 30 * 24 * 3600;

/** What the cash-out steps run on: the capability's database, clock, ledger, provider and logs. */
export interface CashOutDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  drivers: PaymentDrivers;
  /** Moves balances with their ledger rows: the debit and the refund. */
  ledger: Ledger;
  /** The event logs: an end to the owner, a request to the back office, in their transactions. */
  events: UserEventLog & AdminEventLog;
  /** The owner's language: what the withdrawal says is written in it, not in an admin's. */
  accounts: AccountLocales;
  /** Raises a flag (news against a final payout, a missing driver) in the payout's transaction. */
  flags: FlagRaiser;
  config: Pick<Config, 'withdrawMin' | 'payoutStuckSeconds' | 'withdrawalSecondApprovalXaf'>;
  /** The poller's first look after the approval (the sandbox's delay plus one second). */
  firstCheckAfterMs: number;
}

/** An admin's decision runs on the same, audits it, and asks a second admin when four eyes apply. */
export type DecisionDeps = CashOutDeps & { audit: AuditRecorder; approvals: ApprovalDesk };

export interface WithdrawResult {
  userId: number;
  balance: number;
}

export type PayoutOutcome = 'success' | 'cancelled' | 'pending' | 'escalated' | 'unchanged' | 'flagged';

/** The provider's word, or `not_found` when it has never heard of the transfer. */
export type TransferWord = ProviderTransfer | { status: 'not_found' };

const transferFailures: ReadonlySet<string> = new Set(providerTransferFailures);

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Step 1: debits the amount at once and records the request (`pending`), or throws
 * InsufficientBalance with the balance as it is. The ledger's conditional update makes parallel
 * requests unable to overdraw; the debit, the row and the idempotent answer are one transaction.
 */
export async function requestWithdrawal(
  deps: Pick<CashOutDeps, 'db' | 'clock' | 'ledger' | 'events' | 'accounts'> & {
    config: Pick<Config, 'withdrawMin'>;
  },
  user: AuthUser,
  input: WithdrawInput,
  commit: IdempotentCommit<WithdrawResult>,
): Promise<WithdrawResult> {
  const { db, clock, config, accounts } = deps;
  const errors: Record<string, string[]> = {};
  const max = Math.max(WITHDRAW_MAX, config.withdrawMin);
  if (input.amount < config.withdrawMin) errors.amount = [withdrawalTexts.amountTooLow(config.withdrawMin)];
  else if (input.amount > max) errors.amount = [withdrawalTexts.amountTooHigh(max)];
  const phone = cameroonMobileOf(input.phone);
  if (!phone) errors.phone = [messages.withdrawalPhoneInvalid];
  const icon = input.operator.icon.trim();
  if (!isHttpUrl(icon) || icon.length > ICON_MAX) errors['operator.icon'] = [messages.withdrawalIconInvalid];
  if (!phone || Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  const now = clock.now().toISOString();
  return db.transaction(async (tx) => {
    // Stored texts are read later, maybe after the request: the account's language, not the request's.
    const texts = catalogueFor(await accounts.localeOf(tx, user.id)).withdrawalTexts;
    const row = await insertWithdrawal(tx, {
      userId: user.id,
      amount: input.amount,
      message: texts.waiting,
      phone,
      // NotchPay's channel comes from the number; the operator the client showed is display only.
      channel: channelOf(phone),
      operator: { name: input.operator.name.trim(), icon },
      idempotencyKeyId: commit.keyId,
      createdAt: now,
      updatedAt: now,
    });
    const posted = await deps.ledger.post(tx, {
      userId: user.id,
      type: 'withdrawal',
      currency: 'XAF',
      amount: -input.amount,
      description: texts.debit(input.amount),
      reference: `withdrawal:${row.id}`,
    });
    if (!posted) throw new InsufficientBalance(user.id, await moneyBalanceOf(tx, user.id), input.amount);
    await deps.events.appendAdmin(tx, 'withdrawal.requested', { ...withdrawalView(row), user_id: user.id });
    const result = { userId: user.id, balance: posted.balanceAfter };
    await commit.store(tx, result);
    return result;
  });
}

/** Undoes step 1: gives a withdrawal's amount back, once (the refund's ledger reference is unique), in the owner's language. */
export async function refundWithdrawal(
  ledger: Ledger,
  tx: Transaction,
  withdrawal: { id: number; userId: number; amount: number },
  locale: Locale,
): Promise<void> {
  await ledger.post(tx, {
    userId: withdrawal.userId,
    type: 'withdrawal_refund',
    currency: 'XAF',
    amount: withdrawal.amount,
    description: catalogueFor(locale).withdrawalTexts.refund(withdrawal.amount),
    reference: `withdrawal:${withdrawal.id}:refund`,
  });
}

/**
 * Steps 2 to 4: approves a withdrawal (AlreadyDecided when it has a decision; OwnWithdrawal for the
 * admin's own), opens its payout and sends it once. The withdrawal stays `pending`: only the
 * payout's final word (steps 5 and 6) ends it.
 *
 * Four eyes (DESIGN, "Admin routes and the back office"): when this withdrawal and the user's others
 * approved in the last 24 h reach WITHDRAWAL_SECOND_APPROVAL_XAF, nothing is approved yet: a pending
 * approval is returned instead, and a second admin confirms it (`confirming`: its id), which runs
 * this same step as the deciding admin. While one is pending, a direct approval is a 409.
 */
export async function approveWithdrawal(
  deps: DecisionDeps,
  admin: { id: number },
  id: number,
  message?: string,
  confirming?: { approvalId: number },
): Promise<ApprovalView | undefined> {
  const { db, clock, logger, audit, accounts, approvals } = deps;
  // Step 2. The decision, the payout and the audit row commit together or not at all: a payout
  // never exists without its approval.
  const decided = await db.transaction(async (tx) => {
    const current = await lockWithdrawal(tx, id);
    if (!current) throw new NotFound(messages.withdrawalNotFound);
    const approval =
      confirming &&
      (await approvals.lockForDecision(tx, confirming.approvalId, admin, {
        action: 'withdrawal.approve',
        targetId: id,
      }));
    if (current.userId === admin.id) throw new OwnWithdrawal();
    if (current.decision !== null) throw new AlreadyDecided();
    if (!approval) {
      await approvals.refuseIfPending(tx, 'withdrawal.approve', id);
      await lockApprovalSum(tx, current.userId);
      const since = new Date(clock.now().getTime() - DAY_MS).toISOString();
      const earlier = await sumApprovedSince(tx, current.userId, since, id);
      if (current.amount + earlier >= deps.config.withdrawalSecondApprovalXaf) {
        const details = {
          user_id: current.userId,
          amount: current.amount,
          approved_24h: earlier,
          message: message?.trim() || null,
        };
        return { pending: await approvals.request(tx, admin, 'withdrawal.approve', id, details) };
      }
    }
    // The note is the asking admin's when a second one confirms.
    const note = (approval ? (approval.details.message as string | null) : message?.trim()) || null;
    const row = await updateWithdrawal(tx, id, {
      decision: 'approved',
      decidedBy: admin.id,
      decidedAt: clock.now().toISOString(),
      decisionMessage: note,
      message: catalogueFor(await accounts.localeOf(tx, current.userId)).withdrawalTexts.paying,
    });
    const opened = await openPayout(deps, tx, row);
    await audit.record(tx, {
      adminId: admin.id,
      action: 'withdrawal.approve',
      targetType: 'withdrawal',
      targetId: id,
      details: {
        user_id: row.userId,
        amount: row.amount,
        phone: row.phone,
        message: note,
        provider: opened.provider,
        ...(approval ? { approval_id: approval.id, requested_by: approval.requestedBy } : {}),
      },
    });
    const confirmed = approval ? await approvals.decide(tx, approval, admin, 'confirmed') : undefined;
    return { payout: opened, confirmed };
  });
  if ('pending' in decided) return decided.pending;
  // Step 4. After the commit, outside any transaction: a provider call never holds a row lock or a
  // connection, and a rolled-back approval can never have sent money.
  try {
    await sendPayoutOnce(deps, decided.payout.id);
  } catch (error) {
    // Only our own database can fail here (the provider's answers are applied, never thrown):
    // the payout stays pending and the poller reads it (step 5); it is never sent again.
    logger.error({ err: error, withdrawal_id: id }, 'payout create answer could not be recorded');
  }
  return decided.confirmed;
}

/**
 * Step 3, in the approval's transaction: the payout row, recording that its one create is about to
 * be attempted (a crash after the send is read back, never sent twice). No undo: from here only the
 * provider's word or an admin's hand closes it.
 */
export function openPayout(
  deps: Pick<CashOutDeps, 'clock' | 'drivers' | 'config' | 'firstCheckAfterMs'>,
  tx: Transaction,
  withdrawal: { id: number; amount: number; phone: string; channel: PayoutRow['channel'] },
): Promise<PayoutRow> {
  const now = deps.clock.now();
  return insertPayout(tx, {
    withdrawalId: withdrawal.id,
    provider: deps.drivers.current.name,
    reference: `wd-${withdrawal.id}`,
    amount: withdrawal.amount,
    currency: 'XAF',
    phone: withdrawal.phone,
    channel: withdrawal.channel,
    createAttemptedAt: now.toISOString(),
    nextCheckAt: new Date(now.getTime() + deps.firstCheckAfterMs).toISOString(),
    deadlineAt: addSeconds(now, deps.config.payoutStuckSeconds).toISOString(),
  });
}

/** The transfer as the provider is asked to create or read it. */
function transferOf(row: PayoutRow): TransferToSend {
  return {
    reference: row.reference,
    amount: row.amount,
    currency: 'XAF',
    phone: row.phone,
    channel: row.channel,
    recipientName: maskPhone(row.phone),
    description: withdrawalTexts.payoutDescription(row.withdrawalId),
    approvedAt: new Date(row.createAttemptedAt),
  };
}

function driverOf(drivers: PaymentDrivers, row: PayoutRow) {
  const own = drivers.byName(row.provider);
  if (!own) throw new DriverMissing(row.provider);
  return own;
}

/**
 * Step 4: sends the payout's one create request, in no transaction, then applies its answer (step
 * 5). Called once, right after the approval commits; nothing else ever asks the provider to create
 * a transfer.
 */
export async function sendPayoutOnce(deps: CashOutDeps, payoutId: number): Promise<PayoutOutcome> {
  const row = await findPayout(deps.db, payoutId);
  if (row?.status !== 'pending' || row.createAnsweredAt !== null) return 'unchanged';
  let answer: ProviderAnswer<TransferWord>;
  try {
    answer = { ok: true, word: await driverOf(deps.drivers, row).sendTransfer(transferOf(row)) };
  } catch (error) {
    // A 404 here is the driver's re-read after an uncertain create: nothing exists yet. The poller
    // reads it again; it is never sent a second time.
    answer =
      error instanceof PaymentProviderError && error.status === 404
        ? { ok: true, word: { status: 'not_found' } }
        : { ok: false, error };
  }
  return deps.db.transaction((tx) => applyTransferWord(deps, tx, payoutId, answer, 'approve', true));
}

/** Step 5, the ask: reads the transfer (no transaction is open here); a 404 is `not_found`, never a reason to create it. */
export async function readTransfer(drivers: PaymentDrivers, row: PayoutRow): Promise<TransferWord> {
  try {
    return await driverOf(drivers, row).fetchTransfer(transferOf(row));
  } catch (error) {
    if (error instanceof PaymentProviderError && error.status === 404) return { status: 'not_found' };
    throw error;
  }
}

/** One application of the provider's word: the payout locked again, and who asked. */
interface Applying {
  deps: CashOutDeps;
  tx: Transaction;
  row: PayoutRow;
  log: FastifyBaseLogger;
  now: Date;
  /** The create's own answer: recorded as answered, and it keeps the first look the approval scheduled. */
  send: boolean;
  event: string | null;
}

/**
 * Step 5, the apply: the provider's word on the payout, locked again and re-read (a webhook or an
 * admin may have moved it since the claim), then step 6.
 */
export async function applyTransferWord(
  deps: CashOutDeps,
  tx: Transaction,
  payoutId: number,
  answer: ProviderAnswer<TransferWord>,
  source: string,
  send = false,
  event: string | null = null,
): Promise<PayoutOutcome> {
  const row = await lockPayout(tx, payoutId);
  if (!row) return 'unchanged';
  const log = deps.logger.child({ withdrawal_id: row.withdrawalId, reference: row.reference, source });
  const at: Applying = { deps, tx, row, log, now: deps.clock.now(), send, event };
  if (!answer.ok) return applyUnanswered(at, answer.error);
  const word = answer.word;
  const status = String(word.status);
  const found = 'reference' in word ? word : undefined;
  const seen = {
    providerStatus: status,
    providerReference: found?.providerReference ?? row.providerReference,
    ...(send ? { createAnsweredAt: at.now.toISOString() } : {}),
  };
  const said = { provider_status: status, amount: found?.amount, currency: found?.currency };

  if (row.status !== 'pending') return newsOnClosedPayout(at, status, said);
  if (found && status === 'complete') {
    if (found.amount !== row.amount || found.currency !== row.currency) {
      // Paid, but not what we asked: neither paid nor refunded in our books; a person must look.
      const kind = found.amount !== row.amount ? 'amount_mismatch' : 'currency_mismatch';
      await updatePayout(tx, row.id, { ...seen, nextCheckAt: null });
      await flagPayout(at, kind, said);
      await escalateWithdrawal(at, kind);
      return 'escalated';
    }
    await updatePayout(tx, row.id, {
      ...seen,
      status: 'paid',
      finishedAt: at.now.toISOString(),
      nextCheckAt: null,
    });
    await settleWithdrawal(deps, tx, row.withdrawalId);
    log.info({ amount: row.amount }, 'withdrawal paid out');
    return 'success';
  }
  if (transferFailures.has(status)) {
    await updatePayout(tx, row.id, {
      ...seen,
      status: 'failed',
      finishedAt: at.now.toISOString(),
      nextCheckAt: null,
    });
    // The provider's final word that nothing was paid: the money goes back, once (unique reference).
    await refundFailedWithdrawal(deps, tx, row.withdrawalId, status);
    log.info({ provider_status: status }, 'withdrawal payout failed; refunded');
    return 'cancelled';
  }
  // `pending`, `sent`, `not_found`, or a word we do not know: under way, or unknown. A transfer the
  // provider never heard of is read again until the deadline, then escalated: never created again.
  return keepPayoutPending(at, seen, at.now >= new Date(row.deadlineAt), `stuck_${status}`);
}

/** Step 5 when the provider could not be asked, or refused: looked at again, or escalated. */
async function applyUnanswered(at: Applying, error: unknown): Promise<PayoutOutcome> {
  const { tx, row, log, now, send } = at;
  if (error instanceof DriverMissing) {
    // No driver here can ask its provider: left alone (never read, never created), for a person.
    await updatePayout(tx, row.id, { nextCheckAt: null });
    await flagPayout(at, 'driver_missing', { provider: row.provider });
    if (row.status !== 'pending') return 'flagged';
    await escalateWithdrawal(at, 'driver_missing');
    return 'escalated';
  }
  const refused = error instanceof PaymentProviderError && !error.retryable;
  log.warn({ err: error }, 'payout provider could not be asked or refused; will look again');
  if (row.status !== 'pending') {
    if (row.nextCheckAt !== null) await keepReadingClosed(at, undefined);
    return 'unchanged';
  }
  const status = error instanceof PaymentProviderError ? error.status : undefined;
  const why = `provider_refused${status ? `_${status}` : ''}`;
  if (refused && send) {
    // Refused outright at create (a bad number, a missing key…): no transfer exists; a person decides.
    await updatePayout(tx, row.id, { createAnsweredAt: now.toISOString(), nextCheckAt: null });
    await escalateWithdrawal(at, why);
    return 'escalated';
  }
  return keepPayoutPending(
    at,
    {},
    refused || now >= new Date(row.deadlineAt),
    refused ? why : 'stuck_unknown',
  );
}

/** Step 5 on a payout final in our books (paid, refunded, or closed by an admin): news against it needs a person. */
async function newsOnClosedPayout(
  at: Applying,
  status: string,
  said: Record<string, unknown>,
): Promise<PayoutOutcome> {
  const { row } = at;
  // Closed by an admin before the provider's final word: read hourly until that word comes.
  if (row.nextCheckAt !== null) await keepReadingClosed(at, status);
  const contradicts =
    (row.status === 'failed' && status === 'complete') ||
    (row.status === 'paid' && transferFailures.has(status));
  if (!contradicts) return 'unchanged';
  await flagPayout(at, 'contradicts_final', said);
  return 'flagged';
}

/** Still under way: the next look (hourly once past the deadline), escalated at the deadline. */
async function keepPayoutPending(
  at: Applying,
  changes: Partial<PayoutRow>,
  late: boolean,
  why: string,
): Promise<PayoutOutcome> {
  const { tx, row, now, send } = at;
  const nextCheckAt =
    send && !late
      ? row.nextCheckAt
      : late
        ? addSeconds(now, LATE_CHECK_SECONDS).toISOString()
        : nextLookAt(now, row.checks, new Date(row.deadlineAt)).toISOString();
  await updatePayout(tx, row.id, { ...changes, nextCheckAt });
  if (!late) return 'pending';
  await escalateWithdrawal(at, why);
  return 'escalated';
}

/**
 * A payout an admin closed by hand is read hourly until the provider's final word (so news against
 * the admin's call reaches a flag without a webhook), for HAND_CLOSED_FOLLOW_SECONDS.
 */
async function keepReadingClosed(at: Applying, status: string | undefined): Promise<void> {
  const { tx, row, now } = at;
  const final = status !== undefined && (status === 'complete' || transferFailures.has(status));
  const closedAt = new Date(row.finishedAt ?? now.toISOString()).getTime();
  const over = now.getTime() >= closedAt + HAND_CLOSED_FOLLOW_SECONDS * 1000;
  await updatePayout(tx, row.id, {
    ...(status !== undefined ? { providerStatus: status } : {}),
    nextCheckAt: final || over ? null : addSeconds(now, LATE_CHECK_SECONDS).toISOString(),
  });
}

function flagPayout(at: Applying, kind: FlagKind, details: Record<string, unknown>): Promise<boolean> {
  const { row } = at;
  return at.deps.flags.raise(
    at.tx,
    {
      kind,
      targetType: 'withdrawal',
      targetId: row.withdrawalId,
      details: { payout_status: row.status, reference: row.reference, ...details },
      providerEvent: at.event,
    },
    at.log,
  );
}

/** Step 6, paid: the withdrawal becomes `success`, with the payout in one transaction. False when it was already final. */
export async function settleWithdrawal(
  deps: Pick<CashOutDeps, 'clock' | 'events' | 'accounts'>,
  tx: Transaction,
  withdrawalId: number,
): Promise<boolean> {
  const row = await lockWithdrawal(tx, withdrawalId);
  // Already final (resolved by hand meanwhile): nothing moves; news against it is flagged (step 5).
  if (row?.status !== 'pending') return false;
  const locale = await deps.accounts.localeOf(tx, row.userId);
  const paid = await updateWithdrawal(tx, row.id, {
    status: 'success',
    message: catalogueFor(locale).withdrawalTexts.paid,
    finishedAt: deps.clock.now().toISOString(),
  });
  await deps.events.append(tx, row.userId, 'withdrawal.succeeded', withdrawalView(paid));
  return true;
}

/** What the user reads when the provider did not pay: the reason, and that the money is back. */
function failureText(status: string, locale: Locale): string {
  const texts = catalogueFor(locale).withdrawalTexts;
  if (status === 'rejected') return texts.refused;
  if (status === 'expired') return texts.expired;
  return texts.failed;
}

/**
 * Step 6, the provider's final failure: the withdrawal becomes `cancelled` and step 1 is undone
 * (refunded once), with the payout in one transaction. False when it was already final.
 */
export async function refundFailedWithdrawal(
  deps: Pick<CashOutDeps, 'clock' | 'events' | 'accounts' | 'ledger'>,
  tx: Transaction,
  withdrawalId: number,
  providerStatus: string,
): Promise<boolean> {
  const row = await lockWithdrawal(tx, withdrawalId);
  if (row?.status !== 'pending') return false;
  const locale = await deps.accounts.localeOf(tx, row.userId);
  const reason = failureText(providerStatus, locale);
  const cancelled = await updateWithdrawal(tx, row.id, {
    status: 'cancelled',
    message: reason,
    finishedAt: deps.clock.now().toISOString(),
  });
  await refundWithdrawal(deps.ledger, tx, row, locale);
  await deps.events.append(tx, row.userId, 'withdrawal.cancelled', { ...withdrawalView(cancelled), reason });
  return true;
}

/**
 * Step 6, doubt: the withdrawal is escalated to an admin (once), with the reason and the evidence
 * logged. Never refunded here: the money may have left; an admin closes it by hand.
 */
async function escalateWithdrawal(at: Applying, reason: string): Promise<void> {
  const { tx, row } = at;
  const withdrawal = await lockWithdrawal(tx, row.withdrawalId);
  if (withdrawal && withdrawal.escalatedAt === null && withdrawal.status === 'pending') {
    await updateWithdrawal(tx, withdrawal.id, {
      escalatedAt: at.deps.clock.now().toISOString(),
      escalationReason: reason,
    });
  }
  at.log.warn(
    {
      reason,
      create_attempted_at: row.createAttemptedAt,
      create_answered_at: row.createAnsweredAt,
      checks: row.checks,
      provider_status: row.providerStatus,
    },
    'withdrawal payout escalated to an admin: it is not final and is never refunded automatically',
  );
}

/**
 * Step 2's alternative, undoing step 1: rejects a withdrawal with the admin's reason (`cancelled` and
 * refunded, with the audit row, in one transaction). AlreadyDecided once decided; never the admin's own.
 */
export async function rejectWithdrawal(
  deps: DecisionDeps,
  admin: { id: number },
  id: number,
  message: string,
): Promise<void> {
  const note = message.trim();
  if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
  await deps.db.transaction(async (tx) => {
    const current = await lockWithdrawal(tx, id);
    if (!current) throw new NotFound(messages.withdrawalNotFound);
    if (current.userId === admin.id) throw new OwnWithdrawal();
    if (current.decision !== null) throw new AlreadyDecided();
    const now = deps.clock.now().toISOString();
    const rejected = await updateWithdrawal(tx, id, {
      decision: 'rejected',
      decidedBy: admin.id,
      decidedAt: now,
      decisionMessage: note,
      status: 'cancelled',
      message: note,
      finishedAt: now,
    });
    await refundWithdrawal(deps.ledger, tx, current, await deps.accounts.localeOf(tx, current.userId));
    // Rejecting the withdrawal itself cancels an approval waiting for a second admin.
    await deps.approvals.cancelPending(tx, admin, 'withdrawal.approve', id);
    await deps.events.append(tx, current.userId, 'withdrawal.cancelled', {
      ...withdrawalView(rejected),
      reason: note,
    });
    await deps.audit.record(tx, {
      adminId: admin.id,
      action: 'withdrawal.reject',
      targetType: 'withdrawal',
      targetId: id,
      details: {
        user_id: current.userId,
        amount: current.amount,
        message: note,
        refunded: current.amount,
      },
    });
  });
}

/** The provider's word on a withdrawal's transfer, read now (no transaction); undefined when it has no payout. */
export async function freshTransferWord(
  deps: Pick<CashOutDeps, 'db' | 'drivers'>,
  withdrawalId: number,
): Promise<{ status: string; final_failure: boolean } | undefined> {
  const [row] = await payoutsOfWithdrawals(deps.db, [withdrawalId]);
  if (!row) return undefined;
  const status = String((await readTransfer(deps.drivers, row)).status);
  return { status, final_failure: transferFailures.has(status) };
}

/**
 * Off the road: closes by hand a payout escalated to an admin (the money's fate known outside the
 * provider's API): `paid` makes it `success`; `failed` makes it `cancelled` and undoes step 1 in the
 * same transaction (once: the refund's reference is unique), but only when a provider read made now
 * shows a final failure, or with `override: true` (the message is the reason): the money may have
 * left. Only a pending, approved, escalated withdrawal (else PayoutNotEscalated, 409); never the
 * admin's own (403); audited in the same transaction. Later provider news against it is flagged.
 */
export async function resolveByHand(
  deps: DecisionDeps,
  admin: { id: number },
  id: number,
  input: ResolveInput,
): Promise<void> {
  const note = input.message.trim();
  if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
  const before = await findWithdrawal(deps.db, id);
  if (!before) throw new NotFound(messages.withdrawalNotFound);
  if (before.userId === admin.id) throw new OwnWithdrawal();
  if (before.status !== 'pending' || before.decision !== 'approved' || before.escalatedAt === null) {
    throw new PayoutNotEscalated();
  }
  let providerRead: { status: string; final_failure: boolean } | { error: string } | null = null;
  if (input.outcome === 'failed' && !input.override) {
    // The provider is read here, outside any transaction: a failure by hand must rest on its word.
    try {
      providerRead = (await freshTransferWord(deps, id)) ?? null;
    } catch (error) {
      providerRead = { error: error instanceof Error ? error.message : String(error) };
    }
    if (!providerRead || !('final_failure' in providerRead) || !providerRead.final_failure) {
      throw ValidationFailed.field('override', messages.withdrawalFailureUnconfirmed);
    }
  }
  await deps.db.transaction(async (tx) => {
    const current = await lockWithdrawal(tx, id);
    if (!current) throw new NotFound(messages.withdrawalNotFound);
    if (current.status !== 'pending' || current.decision !== 'approved' || current.escalatedAt === null) {
      throw new PayoutNotEscalated();
    }
    const now = deps.clock.now().toISOString();
    const paid = input.outcome === 'paid';
    const locale = await deps.accounts.localeOf(tx, current.userId);
    const resolved = await updateWithdrawal(tx, id, {
      status: paid ? 'success' : 'cancelled',
      message: paid ? catalogueFor(locale).withdrawalTexts.paid : note,
      finishedAt: now,
    });
    if (!paid) await refundWithdrawal(deps.ledger, tx, current, locale);
    await deps.events.append(
      tx,
      current.userId,
      paid ? 'withdrawal.succeeded' : 'withdrawal.cancelled',
      paid ? withdrawalView(resolved) : { ...withdrawalView(resolved), reason: note },
    );
    const providerFinal =
      providerRead !== null && 'final_failure' in providerRead && providerRead.final_failure;
    await closePayoutByHand(deps, tx, id, input.outcome, providerFinal);
    await deps.audit.record(tx, {
      adminId: admin.id,
      action: 'withdrawal.resolve',
      targetType: 'withdrawal',
      targetId: id,
      details: {
        user_id: current.userId,
        amount: current.amount,
        outcome: input.outcome,
        message: note,
        escalation_reason: current.escalationReason,
        provider_read: providerRead,
        override: input.override === true,
        refunded: paid ? 0 : current.amount,
      },
    });
  });
}

/**
 * Off the road: closes a withdrawal's payout by an admin's hand, in the admin's transaction. Unless
 * the provider's final word is already known (`providerFinal`), its transfer is still read hourly:
 * later news against the admin's call is flagged, webhook or not.
 */
export async function closePayoutByHand(
  deps: Pick<CashOutDeps, 'clock' | 'drivers'>,
  tx: Transaction,
  withdrawalId: number,
  outcome: PayoutHandOutcome,
  providerFinal = false,
): Promise<void> {
  const row = await lockPayoutOfWithdrawal(tx, withdrawalId);
  if (row?.status !== 'pending') return;
  const now = deps.clock.now();
  const followable = !providerFinal && deps.drivers.byName(row.provider) !== undefined;
  await updatePayout(tx, row.id, {
    status: outcome,
    finishedAt: now.toISOString(),
    nextCheckAt: followable ? addSeconds(now, LATE_CHECK_SECONDS).toISOString() : null,
  });
}
