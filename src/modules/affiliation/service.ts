// The referral programme. A user applies a godfather's code once (no cycles, checked under one lock);
// the godfather earns REFERRAL_COMMISSION_PERCENT of each pack a godchild pays, in XAF, inside the
// payment's own settlement transaction. That money is withdrawn by mobile money: the request debits
// at once; an admin decides once (a rejection refunds in the same transaction); an approval is
// committed, then paid out by the payments provider as a transfer under `wd-<id>`, and the
// withdrawal stays `pending` until the provider's final word (webhook or poller, both re-fetching).
// A payout that stays unknown past PAYOUT_STUCK_SECONDS is escalated to an admin, never refunded by
// itself: the money may have left.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import type { WithdrawalStatus } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { dayRange } from '../../lib/day-range.js';
import {
  AlreadyDecided,
  InsufficientBalance,
  NotFound,
  PayoutNotEscalated,
  ValidationFailed,
} from '../../lib/errors.js';
import { messages, withdrawalTexts } from '../../lib/messages.js';
import { offsetOf, pageMeta, pageRequest } from '../../lib/pagination.js';
import { cameroonMobileOf, normalizePhone } from '../../lib/phone.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import {
  PaymentProviderError,
  type PaymentsDriver,
  type ProviderTransfer,
  providerTransferFailures,
  type TransferToSend,
} from '../../providers/payments/types.js';
import type { AuditRecorder } from '../admin/service.js';
import type { AuthUser } from '../auth/tokens.js';
import { type IdempotentCommit, withoutKey } from '../idempotency/service.js';
import { CHECK_BACKOFF_SECONDS, channelOf } from '../payments/service.js';
import { avatarOf } from '../users/avatars.js';
import { postOperation } from '../wallet/ledger.js';
import {
  countActiveGodchildren,
  countAllGodchildren,
  countWithdrawals,
  findAccounts,
  findGodfatherOf,
  findUserByAffiliationCode,
  findWithdrawal,
  findWithdrawalIdByTransferReference,
  insertWithdrawal,
  isInGodfatherChain,
  listGodchildren,
  listWithdrawals,
  lockAffiliationGraph,
  lockDuePayout,
  lockGodfatherLink,
  lockWithdrawal,
  moneyBalanceOf,
  pendingWithdrawalTotals,
  setGodfather,
  sumPaidWithdrawals,
  updateWithdrawal,
  type WithdrawalFilter,
  type WithdrawalRow,
} from './repository.js';

/** The largest withdrawal one request may ask for (XAF): above mobile-money operators' own caps. */
export const WITHDRAW_MAX = 1_000_000;
/** The godchildren list is not paginated (spec); it shows at most this many, newest first. */
export const GODCHILDREN_MAX = 1000;
/** How often an escalated payout is still looked at: a late final word still settles it. */
export const ESCALATED_CHECK_SECONDS = 3600;
const ICON_MAX = 512;

export interface AffiliationServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  config: Pick<Config, 'withdrawMin' | 'referralCommissionPercent' | 'payoutStuckSeconds'>;
  driver: PaymentsDriver;
  audit: AuditRecorder;
  /** The poller's first look at a payout after its approval (the sandbox's delay plus one second). */
  firstCheckAfterMs: number;
}

export interface WithdrawInput {
  amount: number;
  phone: string;
  operator: { name: string; icon: string };
}

export interface WithdrawalsQuery {
  status?: WithdrawalStatus;
  page?: number;
  per_page?: number;
}

export interface AdminWithdrawalsQuery extends WithdrawalsQuery {
  phone?: string;
  from?: string;
  to?: string;
  escalated?: boolean;
}

export type PayoutSettlement = 'success' | 'cancelled' | 'pending' | 'escalated' | 'unchanged';

/** The public name of a user: their name, else their username, else their phone with the middle hidden. */
export function publicName(user: { name: string | null; username: string | null; phone: string }): string {
  return user.name ?? user.username ?? maskPhone(user.phone);
}

/** `+237670000012` → `+237******12`: the first 4 characters, six stars (the length hidden too), the last 2. */
export function maskPhone(phone: string): string {
  return `${phone.slice(0, 4)}******${phone.slice(-2)}`;
}

function withdrawalView(row: WithdrawalRow) {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status,
    message: row.message,
    meta: { phone: row.phone, operator: { name: row.operator.name, icon: row.operator.icon } },
    created_at: isoTimestamp(row.createdAt),
  };
}

export type WithdrawalView = ReturnType<typeof withdrawalView>;

function adminWithdrawalView(
  row: WithdrawalRow,
  account:
    | { id: number; phone: string; name: string | null; username: string | null; status: string }
    | undefined,
) {
  return {
    ...withdrawalView(row),
    user: {
      id: row.userId,
      phone: account?.phone ?? null,
      name: account ? publicName(account) : null,
      status: account?.status ?? null,
    },
    decision:
      row.decision === null
        ? null
        : {
            status: row.decision,
            admin_id: row.decidedBy,
            message: row.decisionMessage,
            decided_at: row.decidedAt === null ? null : isoTimestamp(row.decidedAt),
          },
    payout:
      row.transferReference === null
        ? null
        : {
            provider: row.provider,
            reference: row.transferReference,
            provider_reference: row.providerReference,
            provider_status: row.providerStatus,
            checks: row.checks,
            next_check_at: row.nextCheckAt === null ? null : isoTimestamp(row.nextCheckAt),
            deadline_at: row.payoutDeadlineAt === null ? null : isoTimestamp(row.payoutDeadlineAt),
            finished_at: row.finishedAt === null ? null : isoTimestamp(row.finishedAt),
          },
    escalated: row.escalatedAt !== null,
    escalation:
      row.escalatedAt === null
        ? null
        : { reason: row.escalationReason, escalated_at: isoTimestamp(row.escalatedAt) },
  };
}

export type AdminWithdrawalView = ReturnType<typeof adminWithdrawalView>;

export interface WithdrawResult {
  userId: number;
  balance: number;
}

const transferFailures: ReadonlySet<string> = new Set(providerTransferFailures);

/** What the user reads when the provider did not pay: the reason, and that the money is back. */
function failureText(status: string): string {
  if (status === 'rejected') return withdrawalTexts.refused;
  if (status === 'expired') return withdrawalTexts.expired;
  return withdrawalTexts.failed;
}

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/** Gives a withdrawal's amount back, once (the refund's ledger reference is unique). */
async function refundWithdrawal(tx: Executor, withdrawal: { id: number; userId: number; amount: number }) {
  await postOperation(tx, {
    userId: withdrawal.userId,
    type: 'withdrawal_refund',
    currency: 'XAF',
    amount: withdrawal.amount,
    description: withdrawalTexts.refund(withdrawal.amount),
    reference: `withdrawal:${withdrawal.id}:refund`,
  });
}

export function createAffiliationService(deps: AffiliationServiceDeps) {
  const { db, clock, logger, config, driver, audit } = deps;

  function toSend(row: WithdrawalRow): TransferToSend {
    return {
      reference: row.transferReference ?? `wd-${row.id}`,
      amount: row.amount,
      currency: 'XAF',
      phone: row.phone,
      channel: row.channel,
      recipientName: maskPhone(row.phone),
      description: withdrawalTexts.payoutDescription(row.id),
      approvedAt: new Date(row.decidedAt ?? row.createdAt),
    };
  }

  /** When to look again after `checks` looks: the payments backoff, then hourly once escalated. */
  function nextCheck(row: WithdrawalRow, checks: number, escalated: boolean): string {
    if (escalated) return addSeconds(clock.now(), ESCALATED_CHECK_SECONDS).toISOString();
    const wait = CHECK_BACKOFF_SECONDS[Math.min(checks - 1, CHECK_BACKOFF_SECONDS.length - 1)] ?? 5;
    const next = addSeconds(clock.now(), wait);
    const deadline = row.payoutDeadlineAt ? new Date(row.payoutDeadlineAt) : undefined;
    // The deadline itself gets a look, so an escalation is never later than it must be.
    return (deadline && next > deadline && clock.now() < deadline ? deadline : next).toISOString();
  }

  /** The provider's word; a transfer it never heard of (the send did not reach it) is sent now. */
  async function providerWord(row: WithdrawalRow): Promise<ProviderTransfer> {
    try {
      return await driver.fetchTransfer(toSend(row));
    } catch (error) {
      if (error instanceof PaymentProviderError && error.status === 404 && row.providerReference === null) {
        return driver.sendTransfer(toSend(row));
      }
      throw error;
    }
  }

  /** Flags the payout for an admin once; returns whether it is (now) escalated. */
  async function escalate(tx: Executor, row: WithdrawalRow, reason: string, log: FastifyBaseLogger) {
    if (row.escalatedAt !== null) return;
    await updateWithdrawal(tx, row.id, { escalatedAt: clock.now().toISOString(), escalationReason: reason });
    log.warn(
      { reason },
      'withdrawal payout escalated to an admin: it is not final and is never refunded automatically',
    );
  }

  /** The rules, on an approved withdrawal locked by the caller's transaction. */
  async function settleLocked(
    tx: Transaction,
    row: WithdrawalRow,
    source: string,
    given?: ProviderTransfer,
  ): Promise<PayoutSettlement> {
    const log = logger.child({ withdrawal_id: row.id, reference: row.transferReference, source });
    if (row.status !== 'pending' || row.decision !== 'approved') return 'unchanged';
    const now = clock.now();
    // The send's own answer is not one of the poller's looks: its schedule stays as approval set it.
    const checks = given ? row.checks : row.checks + 1;
    const pastDeadline = row.payoutDeadlineAt !== null && now >= new Date(row.payoutDeadlineAt);
    let word = given;
    if (!word) {
      try {
        word = await providerWord(row);
      } catch (error) {
        const refused = error instanceof PaymentProviderError && !error.retryable;
        log.warn({ err: error }, 'payout provider could not be asked or refused; will look again');
        const escalated = refused || pastDeadline || row.escalatedAt !== null;
        if (refused)
          await escalate(tx, row, `provider_refused${error.status ? `_${error.status}` : ''}`, log);
        else if (pastDeadline) await escalate(tx, row, 'stuck_unknown', log);
        await updateWithdrawal(tx, row.id, { checks, nextCheckAt: nextCheck(row, checks, escalated) });
        return escalated ? 'escalated' : 'unchanged';
      }
    }
    const status = String(word.status);
    const seen = {
      providerStatus: status,
      providerReference: word.providerReference ?? row.providerReference,
      checks,
    };

    if (status === 'complete') {
      if (word.amount !== row.amount) {
        // Paid, but not what we asked: a person must look; the withdrawal is neither paid nor refunded.
        await updateWithdrawal(tx, row.id, { ...seen, nextCheckAt: null });
        await escalate(tx, row, 'amount_mismatch', log);
        return 'escalated';
      }
      await updateWithdrawal(tx, row.id, {
        ...seen,
        status: 'success',
        message: withdrawalTexts.paid,
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      log.info({ amount: row.amount }, 'withdrawal paid out');
      return 'success';
    }
    if (transferFailures.has(status)) {
      await updateWithdrawal(tx, row.id, {
        ...seen,
        status: 'cancelled',
        message: failureText(status),
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      // The provider's final word that nothing was paid: the money goes back, once (unique reference).
      await refundWithdrawal(tx, row);
      log.info({ provider_status: status }, 'withdrawal payout failed; refunded');
      return 'cancelled';
    }
    // `pending`, `sent`, or a word we do not know: still under way, or unknown.
    const escalated = pastDeadline || row.escalatedAt !== null;
    await updateWithdrawal(tx, row.id, {
      ...seen,
      nextCheckAt: given && !escalated ? row.nextCheckAt : nextCheck(row, checks, escalated),
    });
    if (pastDeadline) await escalate(tx, row, `stuck_${status}`, log);
    return escalated ? 'escalated' : 'pending';
  }

  async function adminViewOf(id: number): Promise<AdminWithdrawalView> {
    const row = await findWithdrawal(db, id);
    if (!row) throw new NotFound(messages.withdrawalNotFound);
    const [account] = await findAccounts(db, [row.userId]);
    return adminWithdrawalView(row, account);
  }

  async function settle(id: number, source: string, given?: ProviderTransfer) {
    return db.transaction(async (tx) => {
      const row = await lockWithdrawal(tx, id);
      return row ? settleLocked(tx, row, source, given) : undefined;
    });
  }

  /** The filters as the repository takes them; 422 naming the field on a bad phone or date. */
  function adminFilter(query: AdminWithdrawalsQuery): WithdrawalFilter {
    const errors: Record<string, string[]> = {};
    const phone = query.phone === undefined ? undefined : normalizePhone(query.phone);
    if (query.phone !== undefined && !phone) errors.phone = [messages.invalidPhoneFilter];
    const { from, before } = dayRange(query, errors);
    return { status: query.status, phone, escalated: query.escalated, from, before };
  }

  return {
    /**
     * Makes the owner of `rawCode` the user's godfather: once, not oneself, never a cycle of any
     * length, never a blocked account. Every apply takes one lock, so two applies that would close a
     * cycle together cannot both pass the check.
     */
    async applyCode(user: AuthUser, rawCode: string): Promise<{ name: string }> {
      const code = rawCode.trim().toUpperCase();
      if (!/^[A-Z0-9]{8}$/.test(code))
        throw ValidationFailed.field('affiliation_code', messages.affiliationCodeInvalid);
      return db.transaction(async (tx) => {
        await lockAffiliationGraph(tx);
        const own = await lockGodfatherLink(tx, user.id);
        if (own?.godfatherId != null) {
          throw ValidationFailed.field('affiliation_code', messages.affiliationAlreadyApplied);
        }
        const godfather = await findUserByAffiliationCode(tx, code);
        if (godfather?.status !== 'active') {
          throw ValidationFailed.field('affiliation_code', messages.affiliationCodeUnknown);
        }
        if (godfather.id === user.id)
          throw ValidationFailed.field('affiliation_code', messages.affiliationCodeOwn);
        if (await isInGodfatherChain(tx, godfather.id, user.id)) {
          throw ValidationFailed.field('affiliation_code', messages.affiliationCycle);
        }
        if (!(await setGodfather(tx, user.id, godfather.id))) {
          throw ValidationFailed.field('affiliation_code', messages.affiliationAlreadyApplied);
        }
        return { name: publicName(godfather) };
      });
    },

    /**
     * The godfather's commission on a godchild's settled pack payment, in the settlement's own
     * transaction (the payments module calls it once per payment; the reference makes twice impossible).
     */
    async postReferralCommission(
      tx: Executor,
      payment: { id: number; userId: number; amount: number },
    ): Promise<void> {
      const godfather = await findGodfatherOf(tx, payment.userId);
      if (!godfather) return;
      const log = logger.child({ payment_id: payment.id, godfather_id: godfather.id });
      if (godfather.status !== 'active') {
        log.info('referral commission withheld: the godfather is blocked');
        return;
      }
      const commission = Math.floor((payment.amount * config.referralCommissionPercent) / 100);
      if (commission <= 0) return;
      await postOperation(tx, {
        userId: godfather.id,
        type: 'referral_commission',
        currency: 'XAF',
        amount: commission,
        description: withdrawalTexts.commission(config.referralCommissionPercent),
        reference: `payment:${payment.id}:commission`,
      });
      log.info({ commission }, 'referral commission earned');
    },

    async overview(user: AuthUser) {
      const [balance, paid, godchildren] = await Promise.all([
        moneyBalanceOf(db, user.id),
        sumPaidWithdrawals(db, user.id),
        countActiveGodchildren(db, user.id),
      ]);
      return {
        wallet: { balance, total_earned: balance + paid },
        godchildren_count: godchildren,
        withdraw_min: config.withdrawMin,
      };
    },

    async godchildren(user: AuthUser) {
      const rows = await listGodchildren(db, user.id, GODCHILDREN_MAX);
      return rows.map((row) => ({
        id: row.id,
        name: publicName(row),
        phone: row.phone,
        avatar: avatarOf(row),
        created_at: isoTimestamp(row.createdAt),
      }));
    },

    async listOwn(user: AuthUser, query: WithdrawalsQuery) {
      const page = pageRequest(query);
      const filter = { userId: user.id, status: query.status };
      const [rows, total] = await Promise.all([
        listWithdrawals(db, filter, { limit: page.perPage, offset: offsetOf(page) }),
        countWithdrawals(db, filter),
      ]);
      return { withdrawals: rows.map(withdrawalView), meta: pageMeta(page, total) };
    },

    /**
     * Debits the amount at once and records the request (`pending`), or throws InsufficientBalance
     * with the balance as it is. The ledger's conditional update makes parallel requests unable to
     * overdraw; the debit, the row and the idempotent answer are one transaction.
     */
    async withdraw(
      user: AuthUser,
      input: WithdrawInput,
      commit: IdempotentCommit<WithdrawResult> = withoutKey,
    ): Promise<WithdrawResult> {
      const errors: Record<string, string[]> = {};
      const max = Math.max(WITHDRAW_MAX, config.withdrawMin);
      if (input.amount < config.withdrawMin)
        errors.amount = [withdrawalTexts.amountTooLow(config.withdrawMin)];
      else if (input.amount > max) errors.amount = [`Le montant maximum d’un retrait est de ${max} XAF.`];
      const phone = cameroonMobileOf(input.phone);
      if (!phone) errors.phone = [messages.withdrawalPhoneInvalid];
      const icon = input.operator.icon.trim();
      if (!isHttpUrl(icon) || icon.length > ICON_MAX)
        errors['operator.icon'] = [messages.withdrawalIconInvalid];
      if (!phone || Object.keys(errors).length > 0) throw new ValidationFailed(errors);
      const now = clock.now().toISOString();
      return db.transaction(async (tx) => {
        const row = await insertWithdrawal(tx, {
          userId: user.id,
          amount: input.amount,
          message: withdrawalTexts.waiting,
          phone,
          // NotchPay's channel comes from the number; the operator the client showed is display only.
          channel: channelOf(phone),
          operator: { name: input.operator.name.trim(), icon },
          idempotencyKeyId: commit.keyId,
          createdAt: now,
          updatedAt: now,
        });
        const posted = await postOperation(tx, {
          userId: user.id,
          type: 'withdrawal',
          currency: 'XAF',
          amount: -input.amount,
          description: withdrawalTexts.debit(input.amount),
          reference: `withdrawal:${row.id}`,
        });
        if (!posted) throw new InsufficientBalance(user.id, await moneyBalanceOf(tx, user.id), input.amount);
        const result = { userId: user.id, balance: posted.balanceAfter };
        await commit.store(tx, result);
        return result;
      });
    },

    /** The back office's list: filters status, phone (receiving number or account), dates, escalated. */
    async listForAdmin(query: AdminWithdrawalsQuery) {
      const filter = adminFilter(query);
      const page = pageRequest(query);
      const [rows, total] = await Promise.all([
        listWithdrawals(db, filter, { limit: page.perPage, offset: offsetOf(page) }),
        countWithdrawals(db, filter),
      ]);
      const accounts = await findAccounts(db, [...new Set(rows.map((row) => row.userId))]);
      const byId = new Map(accounts.map((account) => [account.id, account]));
      return {
        withdrawals: rows.map((row) => adminWithdrawalView(row, byId.get(row.userId))),
        meta: pageMeta(page, total),
      };
    },

    /**
     * Approves a withdrawal (AlreadyDecided when it has a decision), commits the decision and its
     * audit row, then asks the provider to pay it out, outside the transaction. A provider failure
     * there leaves the payout to the poller, which sends it (never twice) or escalates it.
     */
    async approve(admin: { id: number }, id: number, message?: string): Promise<AdminWithdrawalView> {
      const approved = await db.transaction(async (tx) => {
        const current = await lockWithdrawal(tx, id);
        if (!current) throw new NotFound(messages.withdrawalNotFound);
        if (current.decision !== null) throw new AlreadyDecided();
        const now = clock.now();
        const note = message?.trim() || null;
        const row = await updateWithdrawal(tx, id, {
          decision: 'approved',
          decidedBy: admin.id,
          decidedAt: now.toISOString(),
          decisionMessage: note,
          provider: driver.name,
          transferReference: `wd-${id}`,
          message: withdrawalTexts.paying,
          nextCheckAt: new Date(now.getTime() + deps.firstCheckAfterMs).toISOString(),
          payoutDeadlineAt: addSeconds(now, config.payoutStuckSeconds).toISOString(),
        });
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
            provider: driver.name,
          },
        });
        return row;
      });
      try {
        const word = await driver.sendTransfer(toSend(approved));
        await settle(id, 'approve', word);
      } catch (error) {
        logger.warn(
          { err: error, withdrawal_id: id, reference: approved.transferReference },
          'payout provider did not take the transfer at approval; the poller resumes it',
        );
        if (error instanceof PaymentProviderError && !error.retryable) {
          // Refused outright (a bad number, a missing key…): no transfer exists; a person decides.
          await db.transaction(async (tx) => {
            const row = await lockWithdrawal(tx, id);
            if (row?.status !== 'pending') return;
            await updateWithdrawal(tx, id, { nextCheckAt: null });
            await escalate(
              tx,
              row,
              `provider_refused${error.status ? `_${error.status}` : ''}`,
              logger.child({ withdrawal_id: id }),
            );
          });
        }
      }
      return adminViewOf(id);
    },

    /** Rejects a withdrawal with the admin's reason: `cancelled` and refunded, with the audit row, in one transaction. */
    async reject(admin: { id: number }, id: number, message: string): Promise<AdminWithdrawalView> {
      const note = message.trim();
      if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
      const row = await db.transaction(async (tx) => {
        const current = await lockWithdrawal(tx, id);
        if (!current) throw new NotFound(messages.withdrawalNotFound);
        if (current.decision !== null) throw new AlreadyDecided();
        const now = clock.now().toISOString();
        const updated = await updateWithdrawal(tx, id, {
          decision: 'rejected',
          decidedBy: admin.id,
          decidedAt: now,
          decisionMessage: note,
          status: 'cancelled',
          message: note,
          finishedAt: now,
        });
        await refundWithdrawal(tx, current);
        await audit.record(tx, {
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
        return updated;
      });
      const [account] = await findAccounts(db, [row.userId]);
      return adminWithdrawalView(row, account);
    },

    /**
     * Closes by hand a payout escalated to an admin (the money's fate known outside the provider's
     * API): `paid` makes it `success`; `failed` makes it `cancelled` and refunds it in the same
     * transaction (once: the refund's reference is unique). Only a pending, approved, escalated
     * withdrawal (else PayoutNotEscalated, 409); audited in the same transaction. A provider event
     * after that changes nothing: the settlement only touches pending withdrawals.
     */
    async resolveEscalated(
      admin: { id: number },
      id: number,
      input: { outcome: 'paid' | 'failed'; message: string },
    ): Promise<AdminWithdrawalView> {
      const note = input.message.trim();
      if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
      const row = await db.transaction(async (tx) => {
        const current = await lockWithdrawal(tx, id);
        if (!current) throw new NotFound(messages.withdrawalNotFound);
        if (current.status !== 'pending' || current.decision !== 'approved' || current.escalatedAt === null) {
          throw new PayoutNotEscalated();
        }
        const now = clock.now().toISOString();
        const paid = input.outcome === 'paid';
        const updated = await updateWithdrawal(tx, id, {
          status: paid ? 'success' : 'cancelled',
          message: paid ? withdrawalTexts.paid : note,
          finishedAt: now,
          nextCheckAt: null,
        });
        if (!paid) {
          await refundWithdrawal(tx, current);
        }
        await audit.record(tx, {
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
            provider_status: current.providerStatus,
            refunded: paid ? 0 : current.amount,
          },
        });
        return updated;
      });
      const [account] = await findAccounts(db, [row.userId]);
      return adminWithdrawalView(row, account);
    },

    /** A user's pending withdrawals and godchildren (the back office's user detail). */
    async adminFiguresOf(userId: number) {
      const [pending, godchildren] = await Promise.all([
        pendingWithdrawalTotals(db, userId),
        countAllGodchildren(db, userId),
      ]);
      return { pending, godchildren };
    },

    /** Every pending withdrawal: how many, and their XAF total. */
    pendingTotals() {
      return pendingWithdrawalTotals(db);
    },

    /** One withdrawal as the back office sees it. */
    adminView: adminViewOf,

    /** Locks the payout, re-fetches the transfer and applies the provider's word once. */
    settlePayout: settle,

    /** A `transfer.*` webhook's reference (already authenticated): only a hint to re-fetch. */
    async onTransferEvent(reference: string): Promise<PayoutSettlement | undefined> {
      const id = await findWithdrawalIdByTransferReference(db, reference);
      return id === undefined ? undefined : settle(id, 'webhook');
    },

    /** The poller's step: settles the most overdue payout; false when none is due. */
    async checkDuePayout(): Promise<boolean> {
      return db.transaction(async (tx) => {
        const row = await lockDuePayout(tx, clock.now());
        if (!row) return false;
        await settleLocked(tx, row, 'poller');
        return true;
      });
    },
  };
}

export type AffiliationService = ReturnType<typeof createAffiliationService>;
