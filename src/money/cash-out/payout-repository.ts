// Cash-out's queries on payouts, the provider step's table (`payouts`).
import { and, asc, eq, inArray, isNull, lt, lte, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { payouts } from '../../db/schema/money.js';

export type PayoutRow = typeof payouts.$inferSelect;
export type NewPayout = typeof payouts.$inferInsert;

export async function insertPayout(db: Executor, values: NewPayout): Promise<PayoutRow> {
  const [row] = await db.insert(payouts).values(values).returning();
  return row!;
}

export async function findPayout(db: Executor, id: number): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id));
  return row;
}

export async function findPayoutIdByReference(db: Executor, reference: string): Promise<number | undefined> {
  const [row] = await db.select({ id: payouts.id }).from(payouts).where(eq(payouts.reference, reference));
  return row?.id;
}

export async function payoutsOfWithdrawals(db: Executor, withdrawalIds: number[]): Promise<PayoutRow[]> {
  if (withdrawalIds.length === 0) return [];
  return db.select().from(payouts).where(inArray(payouts.withdrawalId, withdrawalIds));
}

/** The payout, locked until the transaction ends (the poller, webhooks and admins wait here). */
export async function lockPayout(db: Executor, id: number): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.id, id)).for('update');
  return row;
}

export async function lockPayoutOfWithdrawal(
  db: Executor,
  withdrawalId: number,
): Promise<PayoutRow | undefined> {
  const [row] = await db.select().from(payouts).where(eq(payouts.withdrawalId, withdrawalId)).for('update');
  return row;
}

/**
 * The payout whose look is most overdue (pending, or closed by hand and still read for news against
 * it), locked; one another poller holds is skipped.
 */
export async function lockDuePayout(db: Executor, now: Date): Promise<PayoutRow | undefined> {
  const [row] = await db
    .select()
    .from(payouts)
    .where(lte(payouts.nextCheckAt, now.toISOString()))
    .orderBy(asc(payouts.nextCheckAt), asc(payouts.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function updatePayout(
  db: Executor,
  id: number,
  changes: Partial<Omit<NewPayout, 'id' | 'withdrawalId' | 'amount' | 'reference'>>,
): Promise<PayoutRow> {
  const [row] = await db
    .update(payouts)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(payouts.id, id))
    .returning();
  return row!;
}

/** Payouts not final yet, and the oldest one's creation (epoch seconds). */
export async function pendingBacklog(db: Executor): Promise<{ count: number; oldestAt: number | null }> {
  const [row] = await db
    .select({
      count: sql<number>`count(*)::int`,
      oldestAt: sql<number | null>`extract(epoch from min(${payouts.createdAt}))::float8`,
    })
    .from(payouts)
    .where(eq(payouts.status, 'pending'));
  return { count: Number(row?.count ?? 0), oldestAt: row?.oldestAt ?? null };
}

/**
 * Erases the receiving phone of at most `limit` final payouts created before `before` (the 10-year
 * retention, housekeeping), none still read for news; how many.
 */
export async function erasePayoutPhonesBefore(db: Executor, before: string, limit: number): Promise<number> {
  const batch = db
    .select({ id: payouts.id })
    .from(payouts)
    .where(
      and(
        sql`${payouts.phone} <> ''`,
        lt(payouts.createdAt, before),
        ne(payouts.status, 'pending'),
        isNull(payouts.nextCheckAt),
      ),
    )
    .orderBy(asc(payouts.createdAt))
    .limit(limit);
  const rows = await db
    .update(payouts)
    .set({ phone: '' })
    .where(inArray(payouts.id, batch))
    .returning({ id: payouts.id });
  return rows.length;
}
