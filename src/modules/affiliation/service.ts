// The referral programme. A user applies a godfather's code once (no cycles, checked under one lock);
// the godfather earns REFERRAL_COMMISSION_PERCENT of each pack a godchild pays, in XAF, inside the
// payment's own settlement transaction. That money is withdrawn by mobile money: the request debits
// at once; an admin decides once (a rejection refunds in the same transaction); an approval is
// committed with its payout opened, and the payouts module sends and follows the transfer; the
// withdrawal stays `pending` until the payout is final (`payout-outcomes.ts` applies it). A payout
// that stays unknown is escalated to an admin, never refunded by itself: the money may have left.
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Config } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { dayRange } from '../../lib/day-range.js';
import {
  AlreadyDecided,
  InsufficientBalance,
  NotFound,
  OwnWithdrawal,
  PayoutNotEscalated,
  ValidationFailed,
} from '../../lib/errors.js';
import { messages, withdrawalTexts } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { cameroonMobileOf, maskPhone, normalizePhone } from '../../lib/phone.js';
import { isoTimestamp } from '../../lib/time.js';
import type { AuthUser } from '../../types/auth.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import type { AuditRecorder } from '../admin/service.js';
import type { AdminEventLog, UserEventLog } from '../events/service.js';
import { withoutKey } from '../idempotency/commit.js';
import { channelOf } from '../payments/service.js';
import type { PayoutService, PayoutView } from '../payouts/service.js';
import { avatarOf } from '../users/avatars.js';
import type { Ledger } from '../wallet/ledger.js';
import { refundWithdrawal, withdrawalView } from './payout-outcomes.js';
import {
  countActiveGodchildren,
  countAllGodchildren,
  countWithdrawals,
  findAccounts,
  findGodfatherOf,
  findUserByAffiliationCode,
  findWithdrawal,
  insertWithdrawal,
  isInGodfatherChain,
  listGodchildren,
  lockAffiliationGraph,
  lockGodfatherLink,
  lockWithdrawal,
  moneyBalanceOf,
  pageOfWithdrawals,
  pendingWithdrawalTotals,
  referralLinksOf,
  releaseReferralLinks,
  setGodfather,
  sumPaidWithdrawals,
  updateWithdrawal,
  type WithdrawalFilter,
  type WithdrawalRow,
  withdrawalsBlockingDeletion,
  withdrawalsForExport,
} from './repository.js';
import type {
  AdminWithdrawalsQuery as AdminWithdrawalsQuerySchema,
  ResolveBody,
  WithdrawalsQuery as WithdrawalsQuerySchema,
  WithdrawBody,
} from './schemas.js';

/** The largest withdrawal one request may ask for (XAF): above mobile-money operators' own caps. */
export const WITHDRAW_MAX = 1_000_000;
/** The godchildren list is not paginated (spec); it shows at most this many, newest first. */
export const GODCHILDREN_MAX = 1000;
const ICON_MAX = 512;

export interface AffiliationServiceDeps {
  db: Database;
  /** Moves balances with their ledger rows (the wallet's ledger). */
  ledger: Ledger;
  clock: Clock;
  logger: FastifyBaseLogger;
  config: Pick<Config, 'withdrawMin' | 'referralCommissionPercent'>;
  audit: AuditRecorder;
  /** The event logs: a decision is reported to the user, a request to the back office, in their transactions. */
  events: UserEventLog & AdminEventLog;
  /** Opens, sends and shows the transfers that pay approved withdrawals out. */
  payouts: Pick<PayoutService, 'open' | 'sendOnce' | 'freshWord' | 'closeByHand' | 'viewsOf'>;
}

type WithdrawInput = Static<typeof WithdrawBody>;
type WithdrawalsQuery = Static<typeof WithdrawalsQuerySchema>;
type AdminWithdrawalsQuery = Static<typeof AdminWithdrawalsQuerySchema>;

/** The public name of a user: their name, else their username, else their phone with the middle hidden. */
export function publicName(user: {
  name: string | null;
  username: string | null;
  phone: string | null;
}): string {
  // A deleted account keeps no name, username nor phone.
  if (user.phone === null) return user.name ?? user.username ?? messages.deletedAccountName;
  return user.name ?? user.username ?? maskPhone(user.phone);
}

export type WithdrawalView = ReturnType<typeof withdrawalView>;

function adminWithdrawalView(
  row: WithdrawalRow,
  account:
    | { id: number; phone: string | null; name: string | null; username: string | null; status: string }
    | undefined,
  payout: PayoutView | undefined,
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
    payout: payout ?? null,
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

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export function createAffiliationService(deps: AffiliationServiceDeps) {
  const { db, clock, logger, config, audit, payouts } = deps;

  async function adminViewOf(id: number): Promise<AdminWithdrawalView> {
    const row = await findWithdrawal(db, id);
    if (!row) throw new NotFound(messages.withdrawalNotFound);
    const [[account], views] = await Promise.all([findAccounts(db, [row.userId]), payouts.viewsOf([id])]);
    return adminWithdrawalView(row, account, views.get(id));
  }

  /** The filters as the repository takes them; 422 naming the field on a bad phone or date. */
  function adminFilter(query: AdminWithdrawalsQuery): WithdrawalFilter {
    const errors: Record<string, string[]> = {};
    const phone = query.phone === undefined ? undefined : normalizePhone(query.phone);
    if (query.phone !== undefined && !phone) errors.phone = [messages.invalidPhoneFilter];
    const { from, before } = dayRange(query, errors);
    const escalated = query.escalated === undefined ? undefined : query.escalated === 'true';
    return { status: query.status, phone, escalated, from, before };
  }

  return {
    /** What stops the user's account from being deleted now (pending and escalated withdrawals). */
    withdrawalsBlockingDeletion(db: Executor, userId: number) {
      return withdrawalsBlockingDeletion(db, userId);
    },

    /** In an account deletion's transaction: godchildren freed of their godfather, and the user of theirs. */
    releaseReferralLinks(tx: Transaction, userId: number): Promise<number> {
      return releaseReferralLinks(tx, userId);
    },

    /** A page of the user's withdrawals, after `afterId`, for their data export. */
    async exportPage(userId: number, afterId: number, limit: number) {
      const rows = await withdrawalsForExport(db, userId, afterId, limit);
      return rows.map((row) => ({
        ...withdrawalView(row),
        decision: row.decision,
        decided_at: row.decidedAt === null ? null : isoTimestamp(row.decidedAt),
        finished_at: row.finishedAt === null ? null : isoTimestamp(row.finishedAt),
      }));
    },

    /** The user's referral links, for their data export. */
    async exportReferrals(userId: number) {
      const links = await referralLinksOf(db, userId);
      return {
        affiliation_code: links?.affiliationCode ?? null,
        godfather_id: links?.godfatherId ?? null,
        godchildren_ids: links?.godchildren ?? [],
      };
    },

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
      tx: Transaction,
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
      await deps.ledger.post(tx, {
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
      const { rows, total } = await pageOfWithdrawals(db, filter, page);
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
        const posted = await deps.ledger.post(tx, {
          userId: user.id,
          type: 'withdrawal',
          currency: 'XAF',
          amount: -input.amount,
          description: withdrawalTexts.debit(input.amount),
          reference: `withdrawal:${row.id}`,
        });
        if (!posted) throw new InsufficientBalance(user.id, await moneyBalanceOf(tx, user.id), input.amount);
        await deps.events.appendAdmin(tx, 'withdrawal.requested', {
          ...withdrawalView(row),
          user_id: user.id,
        });
        const result = { userId: user.id, balance: posted.balanceAfter };
        await commit.store(tx, result);
        return result;
      });
    },

    /** The back office's list: filters status, phone (receiving number or account), dates, escalated. */
    async listForAdmin(query: AdminWithdrawalsQuery) {
      const filter = adminFilter(query);
      const page = pageRequest(query);
      const { rows, total } = await pageOfWithdrawals(db, filter, page);
      const [accounts, views] = await Promise.all([
        findAccounts(db, [...new Set(rows.map((row) => row.userId))]),
        payouts.viewsOf(rows.map((row) => row.id)),
      ]);
      const byId = new Map(accounts.map((account) => [account.id, account]));
      return {
        withdrawals: rows.map((row) => adminWithdrawalView(row, byId.get(row.userId), views.get(row.id))),
        meta: pageMeta(page, total),
      };
    },

    /**
     * Approves a withdrawal (AlreadyDecided when it has a decision; OwnWithdrawal for the admin's
     * own): the decision, its audit row and the payout (its one create recorded as attempted) commit
     * together; then the payouts module sends the transfer, once, outside any transaction.
     */
    async approve(admin: { id: number }, id: number, message?: string): Promise<AdminWithdrawalView> {
      const payout = await db.transaction(async (tx) => {
        const current = await lockWithdrawal(tx, id);
        if (!current) throw new NotFound(messages.withdrawalNotFound);
        if (current.userId === admin.id) throw new OwnWithdrawal();
        if (current.decision !== null) throw new AlreadyDecided();
        const note = message?.trim() || null;
        const row = await updateWithdrawal(tx, id, {
          decision: 'approved',
          decidedBy: admin.id,
          decidedAt: clock.now().toISOString(),
          decisionMessage: note,
          message: withdrawalTexts.paying,
        });
        const opened = await payouts.open(tx, row);
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
          },
        });
        return opened;
      });
      try {
        await payouts.sendOnce(payout.id);
      } catch (error) {
        // Only our own database can fail here (the provider's answers are applied, never thrown):
        // the payout stays pending and the poller reads it; it is never sent again.
        logger.error({ err: error, withdrawal_id: id }, 'payout create answer could not be recorded');
      }
      return adminViewOf(id);
    },

    /** Rejects a withdrawal with the admin's reason: `cancelled` and refunded, with the audit row, in one transaction. */
    async reject(admin: { id: number }, id: number, message: string): Promise<AdminWithdrawalView> {
      const note = message.trim();
      if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
      await db.transaction(async (tx) => {
        const current = await lockWithdrawal(tx, id);
        if (!current) throw new NotFound(messages.withdrawalNotFound);
        if (current.userId === admin.id) throw new OwnWithdrawal();
        if (current.decision !== null) throw new AlreadyDecided();
        const now = clock.now().toISOString();
        const rejected = await updateWithdrawal(tx, id, {
          decision: 'rejected',
          decidedBy: admin.id,
          decidedAt: now,
          decisionMessage: note,
          status: 'cancelled',
          message: note,
          finishedAt: now,
        });
        await refundWithdrawal(deps.ledger, tx, current);
        await deps.events.append(tx, current.userId, 'withdrawal.cancelled', {
          ...withdrawalView(rejected),
          reason: note,
        });
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
      });
      return adminViewOf(id);
    },

    /**
     * Closes by hand a payout escalated to an admin (the money's fate known outside the provider's
     * API): `paid` makes it `success`; `failed` makes it `cancelled` and refunds it in the same
     * transaction (once: the refund's reference is unique), but only when a provider read made now
     * shows a final failure, or with `override: true` (the message is the reason): the money may
     * have left. Only a pending, approved, escalated withdrawal (else PayoutNotEscalated, 409); never
     * the admin's own (403); audited in the same transaction. Later provider news against it is flagged.
     */
    async resolveEscalated(
      admin: { id: number },
      id: number,
      input: Static<typeof ResolveBody>,
    ): Promise<AdminWithdrawalView> {
      const note = input.message.trim();
      if (note.length < 3) throw ValidationFailed.field('message', messages.blankField);
      const before = await findWithdrawal(db, id);
      if (!before) throw new NotFound(messages.withdrawalNotFound);
      if (before.userId === admin.id) throw new OwnWithdrawal();
      if (before.status !== 'pending' || before.decision !== 'approved' || before.escalatedAt === null) {
        throw new PayoutNotEscalated();
      }
      let providerRead: { status: string; final_failure: boolean } | { error: string } | null = null;
      if (input.outcome === 'failed' && !input.override) {
        // The provider is read here, outside any transaction: a failure by hand must rest on its word.
        try {
          providerRead = (await payouts.freshWord(id)) ?? null;
        } catch (error) {
          providerRead = { error: error instanceof Error ? error.message : String(error) };
        }
        if (!providerRead || !('final_failure' in providerRead) || !providerRead.final_failure) {
          throw ValidationFailed.field('override', messages.withdrawalFailureUnconfirmed);
        }
      }
      await db.transaction(async (tx) => {
        const current = await lockWithdrawal(tx, id);
        if (!current) throw new NotFound(messages.withdrawalNotFound);
        if (current.status !== 'pending' || current.decision !== 'approved' || current.escalatedAt === null) {
          throw new PayoutNotEscalated();
        }
        const now = clock.now().toISOString();
        const paid = input.outcome === 'paid';
        const resolved = await updateWithdrawal(tx, id, {
          status: paid ? 'success' : 'cancelled',
          message: paid ? withdrawalTexts.paid : note,
          finishedAt: now,
        });
        if (!paid) await refundWithdrawal(deps.ledger, tx, current);
        await deps.events.append(
          tx,
          current.userId,
          paid ? 'withdrawal.succeeded' : 'withdrawal.cancelled',
          paid ? withdrawalView(resolved) : { ...withdrawalView(resolved), reason: note },
        );
        const providerFinal =
          providerRead !== null && 'final_failure' in providerRead && providerRead.final_failure;
        await payouts.closeByHand(tx, id, input.outcome, providerFinal);
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
            provider_read: providerRead,
            override: input.override === true,
            refunded: paid ? 0 : current.amount,
          },
        });
      });
      return adminViewOf(id);
    },

    /**
     * What the provider says now of an escalated withdrawal's transfer, for an admin about to close
     * it by hand: read outside any transaction, nothing written (the resolution reads it again and
     * audits that read). A provider that cannot be reached gives `error` instead of a status.
     */
    async readEscalatedPayout(
      admin: { id: number },
      id: number,
    ): Promise<{ status: string | null; final_failure: boolean; error: string | null; read_at: string }> {
      const row = await findWithdrawal(db, id);
      if (!row) throw new NotFound(messages.withdrawalNotFound);
      if (row.userId === admin.id) throw new OwnWithdrawal();
      if (row.status !== 'pending' || row.decision !== 'approved' || row.escalatedAt === null) {
        throw new PayoutNotEscalated();
      }
      const readAt = isoTimestamp(clock.now());
      let word: { status: string; final_failure: boolean } | undefined;
      try {
        word = await payouts.freshWord(id);
      } catch (error) {
        return {
          status: null,
          final_failure: false,
          error: error instanceof Error ? error.message : String(error),
          read_at: readAt,
        };
      }
      if (!word) throw new PayoutNotEscalated();
      return { status: word.status, final_failure: word.final_failure, error: null, read_at: readAt };
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

    /** Pending withdrawals whose payout is escalated to an admin. */
    escalatedCount(): Promise<number> {
      return countWithdrawals(db, { status: 'pending', escalated: true });
    },

    /** One withdrawal as the back office sees it. */
    adminView: adminViewOf,
  };
}

export type AffiliationService = ReturnType<typeof createAffiliationService>;
