// Cash-out's queries on withdrawals, on its own table (`withdrawals`), and the one read of `users` it
// needs: the money balance a refused request answers with (402). Balances are never written here:
// the ledger does it in the step's transaction.
import { and, asc, count, desc, eq, gte, inArray, lt, ne, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { withdrawals } from '../../db/schema/money.js';
import { users } from '../../db/schema/users.js';
import type { WithdrawalStatus } from '../../lib/allowed-values.js';
import type { PageRequest } from '../../lib/pagination.js';

export type WithdrawalRow = typeof withdrawals.$inferSelect;
export type NewWithdrawal = typeof withdrawals.$inferInsert;

export async function moneyBalanceOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ balance: users.moneyBalance }).from(users).where(eq(users.id, userId));
  return row?.balance ?? 0;
}

export async function sumPaidWithdrawals(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, 'success')));
  return Number(row?.total ?? 0);
}

export async function insertWithdrawal(db: Executor, values: NewWithdrawal): Promise<WithdrawalRow> {
  const [row] = await db.insert(withdrawals).values(values).returning();
  return row!;
}

export async function findWithdrawal(db: Executor, id: number): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id));
  return row;
}

/** The withdrawal, locked until the transaction ends (decisions, webhooks and the poller wait here). */
export async function lockWithdrawal(db: Executor, id: number): Promise<WithdrawalRow | undefined> {
  const [row] = await db.select().from(withdrawals).where(eq(withdrawals.id, id)).for('update');
  return row;
}

export async function updateWithdrawal(
  db: Executor,
  id: number,
  changes: Partial<Omit<NewWithdrawal, 'id' | 'userId' | 'amount'>>,
): Promise<WithdrawalRow> {
  const [row] = await db
    .update(withdrawals)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(withdrawals.id, id))
    .returning();
  return row!;
}

export interface WithdrawalFilter {
  userId?: number;
  status?: WithdrawalStatus;
  /** The receiving number or the account's phone, E.164. */
  phone?: string;
  escalated?: boolean;
  /** Inclusive lower bound, an ISO timestamp. */
  from?: string;
  /** Exclusive upper bound, an ISO timestamp. */
  before?: string;
}

function filterConditions(filter: WithdrawalFilter) {
  return and(
    filter.userId !== undefined ? eq(withdrawals.userId, filter.userId) : undefined,
    filter.status ? eq(withdrawals.status, filter.status) : undefined,
    filter.phone
      ? or(
          eq(withdrawals.phone, filter.phone),
          sql`${withdrawals.userId} IN (SELECT id FROM users WHERE phone = ${filter.phone})`,
        )
      : undefined,
    filter.escalated === undefined
      ? undefined
      : filter.escalated
        ? sql`${withdrawals.escalatedAt} IS NOT NULL`
        : sql`${withdrawals.escalatedAt} IS NULL`,
    filter.from ? gte(withdrawals.createdAt, filter.from) : undefined,
    filter.before ? lt(withdrawals.createdAt, filter.before) : undefined,
  );
}

/** One page of withdrawals, with the filter's total. */
export function pageOfWithdrawals(
  db: Executor,
  filter: WithdrawalFilter,
  page: PageRequest,
): Promise<Paged<WithdrawalRow>> {
  return pageOf(
    db,
    withdrawals,
    { where: filterConditions(filter), orderBy: [desc(withdrawals.createdAt), desc(withdrawals.id)] },
    page,
  );
}

export async function countWithdrawals(db: Executor, filter: WithdrawalFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(withdrawals).where(filterConditions(filter));
  return Number(row?.total ?? 0);
}

/** Pending withdrawals (of one user, or everyone's): how many, and their XAF total. */
export async function pendingWithdrawalTotals(
  db: Executor,
  userId?: number,
): Promise<{ count: number; amount: number }> {
  const [row] = await db
    .select({ total: count(), amount: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.status, 'pending'),
        userId === undefined ? undefined : eq(withdrawals.userId, userId),
      ),
    );
  return { count: Number(row?.total ?? 0), amount: Number(row?.amount ?? 0) };
}

/** What stops the user's account from being deleted now: pending withdrawals, and of them escalated ones. */
export async function withdrawalsBlockingDeletion(
  db: Executor,
  userId: number,
): Promise<{ pending: number; escalated: number }> {
  const [row] = await db
    .select({
      pending: count(),
      escalated: sql<string>`count(*) filter (where ${withdrawals.escalatedAt} IS NOT NULL)`,
    })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), eq(withdrawals.status, 'pending')));
  return { pending: Number(row?.pending ?? 0), escalated: Number(row?.escalated ?? 0) };
}

/** A page of the user's withdrawals, by id, for the data export. */
export async function withdrawalsForExport(
  db: Executor,
  userId: number,
  afterId: number,
  limit: number,
): Promise<WithdrawalRow[]> {
  return db
    .select()
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), sql`${withdrawals.id} > ${afterId}`))
    .orderBy(asc(withdrawals.id))
    .limit(limit);
}

/**
 * Erases the receiving phone of at most `limit` final withdrawals created before `before` (the
 * 10-year retention, housekeeping); how many.
 */
export async function eraseWithdrawalPhonesBefore(
  db: Executor,
  before: string,
  limit: number,
): Promise<number> {
  const batch = db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(
      and(
        sql`${withdrawals.phone} <> ''`,
        lt(withdrawals.createdAt, before),
        ne(withdrawals.status, 'pending'),
      ),
    )
    .orderBy(asc(withdrawals.createdAt))
    .limit(limit);
  const rows = await db
    .update(withdrawals)
    .set({ phone: '' })
    .where(inArray(withdrawals.id, batch))
    .returning({ id: withdrawals.id });
  return rows.length;
}

/** The numbers the user withdrew to (an account deletion scrubs them from the audit and the events). */
export async function receivingPhonesOf(db: Executor, userId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ phone: withdrawals.phone })
    .from(withdrawals)
    .where(and(eq(withdrawals.userId, userId), sql`${withdrawals.phone} <> ''`));
  return rows.map((row) => row.phone);
}

/** The advisory-lock space of a user's withdrawal approvals: the 24 h sum is read and added to in turns. */
const APPROVAL_SUM_LOCK_SPACE = 7_300_011;

/**
 * Taken before a user's approved withdrawals are summed for four eyes: two admins approving two of
 * the user's withdrawals at once see each other's, so splitting never gets past the threshold.
 */
export async function lockApprovalSum(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${APPROVAL_SUM_LOCK_SPACE}, ${userId})`);
}

/**
 * XAF of the user's other withdrawals approved since `since` (decision `approved`, refunded ones
 * left out: their money never left), for the four-eyes threshold.
 */
export async function sumApprovedSince(
  db: Executor,
  userId: number,
  since: string,
  exceptId: number,
): Promise<number> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${withdrawals.amount}), 0)` })
    .from(withdrawals)
    .where(
      and(
        eq(withdrawals.userId, userId),
        eq(withdrawals.decision, 'approved'),
        ne(withdrawals.status, 'cancelled'),
        gte(withdrawals.decidedAt, since),
        ne(withdrawals.id, exceptId),
      ),
    );
  return Number(row?.total ?? 0);
}
