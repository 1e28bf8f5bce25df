// Checkout's queries, on its table (`payments`).
import { and, asc, count, eq, gte, inArray, lt, lte, ne, sql } from 'drizzle-orm';
import { type Executor, type NamedStatement, namedQuery } from '../../db/client.js';
import { payments } from '../../db/schema/money.js';
import type { SpendingPeriod } from '../../lib/allowed-values.js';

export type PaymentRow = typeof payments.$inferSelect;
export type NewPayment = typeof payments.$inferInsert;

export async function insertPayment(db: Executor, values: NewPayment): Promise<PaymentRow> {
  const [row] = await db.insert(payments).values(values).returning();
  return row!;
}

export async function findPayment(db: Executor, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id));
  return row;
}

export async function findPaymentIdByReference(db: Executor, reference: string): Promise<number | undefined> {
  const [row] = await db.select({ id: payments.id }).from(payments).where(eq(payments.reference, reference));
  return row?.id;
}

/** The payment, locked until the caller's transaction ends (webhooks wait for each other here). */
export async function lockPayment(db: Executor, id: number): Promise<PaymentRow | undefined> {
  const [row] = await db.select().from(payments).where(eq(payments.id, id)).for('update');
  return row;
}

/** The pending payment whose check is most overdue, locked; one another worker holds is skipped. */
export async function lockDuePayment(db: Executor, now: Date): Promise<PaymentRow | undefined> {
  const [row] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.status, 'pending'), lte(payments.nextCheckAt, now.toISOString())))
    .orderBy(asc(payments.nextCheckAt), asc(payments.id))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function countPending(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, 'pending')));
  return Number(row?.total ?? 0);
}

/**
 * A checkout's spending in one statement (issue 57): its amount added to each of its windows'
 * totals (a row created at the window's first payment), their new totals returned, and the user's
 * pending payments counted: before, the totals read, the windows raised and the count were three.
 */
const raiseWindowsStatement: NamedStatement = {
  name: 'checkout_raise_windows',
  text: `WITH raised AS (
      INSERT INTO spending_totals (user_id, period, window_start, amount)
      SELECT $1, w.period, w.start, $4 FROM unnest($2::text[], $3::date[]) AS w(period, start)
      ON CONFLICT (user_id, period, window_start)
        DO UPDATE SET amount = spending_totals.amount + EXCLUDED.amount
      RETURNING period, amount
    )
    SELECT (SELECT json_object_agg(period, amount) FROM raised) AS totals,
      (SELECT count(*)::int FROM payments WHERE user_id = $1 AND status = 'pending') AS pending`,
};

/**
 * Adds `amount` (XAF, positive) to the user's totals of `windows`; their new totals by period, and
 * how many payments of theirs were pending before this one. The caller refuses (and so rolls back)
 * in its transaction, under the user's checkout lock.
 */
export async function raiseWindowsCountingPending(
  db: Executor,
  userId: number,
  windows: readonly { period: SpendingPeriod; start: string }[],
  amount: number,
): Promise<{ totals: Partial<Record<SpendingPeriod, number>>; pending: number }> {
  const [row] = await namedQuery<{ totals: Partial<Record<SpendingPeriod, number>> | null; pending: number }>(
    db,
    raiseWindowsStatement,
    [userId, windows.map((window) => window.period), windows.map((window) => window.start), amount],
  );
  return { totals: row?.totals ?? {}, pending: row?.pending ?? 0 };
}

export async function updatePayment(
  db: Executor,
  id: number,
  changes: Partial<Omit<NewPayment, 'id' | 'userId'>>,
): Promise<PaymentRow> {
  const [row] = await db.update(payments).set(changes).where(eq(payments.id, id)).returning();
  return row!;
}

/** The advisory-lock key space of checkouts (the user id is the second key). */
const CHECKOUT_LOCK_SPACE = 0x70617931;

/** Serializes one user's checkouts until the transaction ends (the pending cap is checked under it). */
export async function lockUserCheckouts(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${CHECKOUT_LOCK_SPACE}, ${userId})`);
}

/** A user's successful payments: how many, and their XAF total (the back office's user detail). */
export async function successTotalsOf(
  db: Executor,
  userId: number,
): Promise<{ count: number; amount: number }> {
  const [row] = await db
    .select({ total: count(), amount: sql<string>`coalesce(sum(${payments.amount}), 0)` })
    .from(payments)
    .where(and(eq(payments.userId, userId), eq(payments.status, 'success')));
  return { count: Number(row?.total ?? 0), amount: Number(row?.amount ?? 0) };
}

/** Payments started per UTC day and status over a range, with their XAF sums: one query. */
export async function paymentsByDayAndStatus(
  db: Executor,
  range: { from: string; before: string },
): Promise<{ day: string; status: PaymentRow['status']; total: number; amount: number }[]> {
  const day = sql<string>`to_char(${payments.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, status: payments.status, total: count(), amount: sql<string>`sum(${payments.amount})` })
    .from(payments)
    .where(and(gte(payments.createdAt, range.from), lt(payments.createdAt, range.before)))
    .groupBy(day, payments.status);
  return rows.map((row) => ({
    day: row.day,
    status: row.status,
    total: Number(row.total),
    amount: Number(row.amount ?? 0),
  }));
}

/** A page of the user's payments, by id, for the data export. */
export async function paymentsForExport(
  db: Executor,
  userId: number,
  afterId: number,
  limit: number,
): Promise<PaymentRow[]> {
  return db
    .select()
    .from(payments)
    .where(and(eq(payments.userId, userId), sql`${payments.id} > ${afterId}`))
    .orderBy(asc(payments.id))
    .limit(limit);
}

/** Payments still waiting for their provider's final word, and the oldest one's creation (epoch seconds). */
export async function pendingBacklog(db: Executor): Promise<{ count: number; oldestAt: number | null }> {
  const [row] = await db
    .select({
      count: count(),
      oldestAt: sql<number | null>`extract(epoch from min(${payments.createdAt}))::float8`,
    })
    .from(payments)
    .where(eq(payments.status, 'pending'));
  return { count: Number(row?.count ?? 0), oldestAt: row?.oldestAt ?? null };
}

/**
 * Erases the paying phone of at most `limit` final payments created before `before` (the 10-year
 * retention, housekeeping); how many. A pending payment keeps its phone: the provider may still be asked.
 */
export async function erasePaymentPhonesBefore(db: Executor, before: string, limit: number): Promise<number> {
  const batch = db
    .select({ id: payments.id })
    .from(payments)
    .where(
      and(sql`${payments.payerPhone} <> ''`, lt(payments.createdAt, before), ne(payments.status, 'pending')),
    )
    .orderBy(asc(payments.createdAt))
    .limit(limit);
  const rows = await db
    .update(payments)
    .set({ payerPhone: '' })
    .where(inArray(payments.id, batch))
    .returning({ id: payments.id });
  return rows.length;
}

/** The phones the user paid with (an account deletion scrubs them from the audit and the events). */
export async function payerPhonesOf(db: Executor, userId: number): Promise<string[]> {
  const rows = await db
    .selectDistinct({ phone: payments.payerPhone })
    .from(payments)
    .where(and(eq(payments.userId, userId), sql`${payments.payerPhone} <> ''`));
  return rows.map((row) => row.phone);
}
