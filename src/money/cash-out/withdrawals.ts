// Withdrawals, the business object of cash-out, as their callers see them: the request (step 1 of
// flow.ts, where the road from the debit to the money on a phone is written start to end), an
// admin's decision (steps 2 to 4, or the rejection that refunds), the hand close of an escalated
// payout (`resolveEscalated`: a payout that stays unknown is never refunded by itself, the money may
// have left), and the reads: the owner's list, the back office's, the referral wallet, the exports.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Executor, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { dayRange } from '../../lib/day-range.js';
import { NotFound, OwnWithdrawal, PayoutNotEscalated } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { normalizePhone } from '../../lib/phone.js';
import { isoTimestamp } from '../../lib/time.js';
import type { ApprovalDesk, ApprovalView } from '../../modules/admin/approvals.js';
import type { AuditRecorder } from '../../modules/admin/service.js';
import type { AdminEventLog, UserEventLog } from '../../modules/events/service.js';
import { withoutKey } from '../../modules/idempotency/commit.js';
import type { AuthUser } from '../../types/auth.js';
import type { IdempotentCommit } from '../../types/idempotency.js';
import type { AccountLocales } from '../../types/locale.js';
import type { Ledger } from '../ledger/ledger.js';
import {
  approveWithdrawal,
  freshTransferWord,
  rejectWithdrawal,
  requestWithdrawal,
  resolveByHand,
  type WithdrawResult,
} from './flow.js';
import type { PayoutService } from './payouts.js';
import type {
  AdminWithdrawalsFilter,
  AdminWithdrawalView,
  ResolveInput,
  WithdrawalsFilter,
  WithdrawInput,
} from './schemas.js';
import { adminWithdrawalView, type Requester, withdrawalView } from './views.js';
import {
  countWithdrawals,
  eraseWithdrawalPhonesBefore,
  findWithdrawal,
  moneyBalanceOf,
  pageOfWithdrawals,
  pendingWithdrawalTotals,
  receivingPhonesOf,
  sumPaidWithdrawals,
  type WithdrawalFilter,
  withdrawalsBlockingDeletion,
  withdrawalsForExport,
} from './withdrawal-repository.js';

export { WITHDRAW_MAX, type WithdrawResult } from './flow.js';

export interface WithdrawalServiceDeps {
  db: Database;
  /** Moves balances with their ledger rows (money's ledger). */
  ledger: Ledger;
  clock: Clock;
  logger: FastifyBaseLogger;
  config: Pick<Config, 'withdrawMin' | 'withdrawalSecondApprovalXaf'>;
  audit: AuditRecorder;
  /** Four eyes: a large approval waits for a second admin. */
  approvals: ApprovalDesk;
  /** The event logs: a decision is reported to the user, a request to the back office, in their transactions. */
  events: UserEventLog & AdminEventLog;
  /** The provider step: what the cash-out steps run on (flow.ts), and the payouts' views. */
  payouts: Pick<PayoutService, 'steps' | 'viewsOf'>;
  /** Who asked (the users service): the back office's view names the account. */
  accounts: WithdrawalAccounts;
}

/** What the back office and the messages need of the accounts (the users module). */
export type WithdrawalAccounts = {
  accountsByIds(ids: readonly number[]): Promise<Map<number, Requester>>;
} & AccountLocales;

export function createWithdrawalService(deps: WithdrawalServiceDeps) {
  const { db, clock, config, audit, payouts, accounts, approvals } = deps;
  const decisionDeps = () => ({ ...payouts.steps, audit, approvals });

  async function adminViewOf(id: number): Promise<AdminWithdrawalView> {
    const row = await findWithdrawal(db, id);
    if (!row) throw new NotFound(messages.withdrawalNotFound);
    const [byId, views] = await Promise.all([accounts.accountsByIds([row.userId]), payouts.viewsOf([id])]);
    return adminWithdrawalView(row, byId.get(row.userId), views.get(id));
  }

  /** The filters as the repository takes them; 422 naming the field on a bad phone or date. */
  function adminFilter(query: AdminWithdrawalsFilter): WithdrawalFilter {
    const errors: Record<string, string[]> = {};
    const phone = query.phone === undefined ? undefined : normalizePhone(query.phone);
    if (query.phone !== undefined && !phone) errors.phone = [messages.invalidPhoneFilter];
    const { from, before } = dayRange(query, errors);
    const escalated = query.escalated === undefined ? undefined : query.escalated === 'true';
    return { status: query.status, phone, escalated, from, before };
  }

  return {
    /** Final withdrawals older than `before` lose their receiving phone, `limit` at most (housekeeping); how many. */
    erasePhonesBefore(before: Date, limit: number): Promise<number> {
      return eraseWithdrawalPhonesBefore(db, before.toISOString(), limit);
    },

    /** The numbers the user withdrew to (an account's deletion takes them out of the audit and events). */
    phonesOf(tx: Transaction, userId: number): Promise<string[]> {
      return receivingPhonesOf(tx, userId);
    },

    /** Who asked for the withdrawal (a flag's resolution checks it is not the admin's own). */
    async ownerOf(tx: Transaction, id: number): Promise<number | undefined> {
      return (await findWithdrawal(tx, id))?.userId;
    },

    /** What stops the user's account from being deleted now (pending and escalated withdrawals). */
    blockingDeletion(db: Executor, userId: number) {
      return withdrawalsBlockingDeletion(db, userId);
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

    /**
     * The referral wallet the affiliation's overview shows: the money balance, what was earned (the
     * balance plus what was paid out) and the smallest withdrawal.
     */
    async referralWallet(
      userId: number,
    ): Promise<{ balance: number; totalEarned: number; withdrawMin: number }> {
      const [balance, paid] = await Promise.all([moneyBalanceOf(db, userId), sumPaidWithdrawals(db, userId)]);
      return { balance, totalEarned: balance + paid, withdrawMin: config.withdrawMin };
    },

    async listOwn(user: AuthUser, query: WithdrawalsFilter) {
      const page = pageRequest(query);
      const filter = { userId: user.id, status: query.status };
      const { rows, total } = await pageOfWithdrawals(db, filter, page);
      return { withdrawals: rows.map(withdrawalView), meta: pageMeta(page, total) };
    },

    /** Step 1 of flow.ts: debits the amount at once and records the request. */
    withdraw(
      user: AuthUser,
      input: WithdrawInput,
      commit: IdempotentCommit<WithdrawResult> = withoutKey,
    ): Promise<WithdrawResult> {
      return requestWithdrawal(deps, user, input, commit);
    },

    /** The back office's list: filters status, phone (receiving number or account), dates, escalated. */
    async listForAdmin(query: AdminWithdrawalsFilter) {
      const filter = adminFilter(query);
      const page = pageRequest(query);
      const { rows, total } = await pageOfWithdrawals(db, filter, page);
      const [byId, views] = await Promise.all([
        accounts.accountsByIds(rows.map((row) => row.userId)),
        payouts.viewsOf(rows.map((row) => row.id)),
      ]);
      return {
        withdrawals: rows.map((row) => adminWithdrawalView(row, byId.get(row.userId), views.get(row.id))),
        meta: pageMeta(page, total),
      };
    },

    /**
     * Approves a withdrawal and sends its payout once (flow.ts, steps 2 to 4); the back office's view
     * after. At the four-eyes threshold, the pending approval instead (a second admin confirms it).
     */
    async approve(
      admin: { id: number },
      id: number,
      message?: string,
    ): Promise<{ withdrawal: AdminWithdrawalView } | { approval: ApprovalView }> {
      const pending = await approveWithdrawal(decisionDeps(), admin, id, message);
      return pending ? { approval: pending } : { withdrawal: await adminViewOf(id) };
    },

    /** A second admin confirms a pending approval: the withdrawal approved by them and paid out once. */
    async confirmApproval(
      admin: { id: number },
      approvalId: number,
      id: number,
    ): Promise<{ approval: ApprovalView; withdrawal: AdminWithdrawalView }> {
      const approval = await approveWithdrawal(decisionDeps(), admin, id, undefined, { approvalId });
      return { approval: approval!, withdrawal: await adminViewOf(id) };
    },

    /** Rejects a withdrawal with the admin's reason, refunded (flow.ts); the back office's view after. */
    async reject(admin: { id: number }, id: number, message: string): Promise<AdminWithdrawalView> {
      await rejectWithdrawal(decisionDeps(), admin, id, message);
      return adminViewOf(id);
    },

    /** Closes an escalated withdrawal by an admin's hand (flow.ts); the back office's view after. */
    async resolveEscalated(
      admin: { id: number },
      id: number,
      input: ResolveInput,
    ): Promise<AdminWithdrawalView> {
      await resolveByHand(decisionDeps(), admin, id, input);
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
        word = await freshTransferWord(payouts.steps, id);
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

    /** A user's pending withdrawals: how many, and their XAF total (the back office's user detail). */
    pendingTotalsOf(userId: number) {
      return pendingWithdrawalTotals(db, userId);
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

export type WithdrawalService = ReturnType<typeof createWithdrawalService>;
