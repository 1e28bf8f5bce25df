// Queries of the slips and their legs (the owner in every WHERE that lists), the settlement's scan
// of the open ones, and the checks' daily counter. The detail query finds the row first so the
// service can tell "not yours" (403) from "none" (404).
import { and, asc, count, desc, eq, gt, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import { type Executor, preparedOnce } from '../../db/client.js';
import { type SlipLegRow, type SlipRow, slipChecksDaily, slipLegs, slips } from '../../db/schema/slips.js';
import type { SettlementOutcome, SlipStatus } from '../../lib/allowed-values.js';

export type NewSlip = Pick<SlipRow, 'userId' | 'stake' | 'probability' | 'odds' | 'expectedReturn'>;
export type NewLeg = Omit<SlipLegRow, 'slipId' | 'outcome'>;

export async function insertSlip(db: Executor, slip: NewSlip, legs: readonly NewLeg[]): Promise<SlipRow> {
  const [row] = await db.insert(slips).values(slip).returning();
  await db.insert(slipLegs).values(legs.map((leg) => ({ ...leg, slipId: row!.id })));
  return row!;
}

export async function legsOf(db: Executor, slipIds: readonly number[]): Promise<SlipLegRow[]> {
  if (slipIds.length === 0) return [];
  return db
    .select()
    .from(slipLegs)
    .where(inArray(slipLegs.slipId, [...slipIds]))
    .orderBy(asc(slipLegs.slipId), asc(slipLegs.position));
}

const live = (userId: number, status?: SlipStatus) =>
  and(eq(slips.userId, userId), isNull(slips.deletedAt), status ? eq(slips.status, status) : undefined);

export async function listSlips(
  db: Executor,
  userId: number,
  filter: { status?: SlipStatus; limit: number; offset: number },
): Promise<SlipRow[]> {
  return db
    .select()
    .from(slips)
    .where(live(userId, filter.status))
    .orderBy(desc(slips.createdAt), desc(slips.id))
    .limit(filter.limit)
    .offset(filter.offset);
}

export async function countSlips(db: Executor, userId: number, status?: SlipStatus): Promise<number> {
  const [row] = await db.select({ total: count() }).from(slips).where(live(userId, status));
  return row?.total ?? 0;
}

/** A live slip by id, whoever owns it (the service tells 403 from 404). */
export async function findLiveSlip(db: Executor, id: number): Promise<SlipRow | undefined> {
  const [row] = await db
    .select()
    .from(slips)
    .where(and(eq(slips.id, id), isNull(slips.deletedAt)));
  return row;
}

export async function softDeleteSlip(db: Executor, userId: number, id: number, now: Date): Promise<void> {
  await db
    .update(slips)
    .set({ deletedAt: now.toISOString() })
    .where(and(eq(slips.id, id), eq(slips.userId, userId), isNull(slips.deletedAt)));
}

/**
 * The caller's settled slips summed, deleted ones too: the mirror of their own play is not one a
 * loss can be taken out of (decision 0128).
 */
export async function summaryOf(db: Executor, userId: number) {
  const [row] = await db
    .select({
      settled: count(),
      won: sql<number>`count(*) FILTER (WHERE ${slips.status} = 'won')`.mapWith(Number),
      staked: sql<number>`coalesce(sum(${slips.stake}), 0)`.mapWith(Number),
      returned: sql<number>`coalesce(sum(${slips.returned}), 0)`.mapWith(Number),
      expectedReturn: sql<number>`coalesce(sum(${slips.expectedReturn}), 0)`.mapWith(Number),
    })
    .from(slips)
    .where(and(eq(slips.userId, userId), isNotNull(slips.settledAt)));
  return row!;
}

/** A user's slips, deleted ones too, after `afterId` (their data export). */
export async function slipsForExport(db: Executor, userId: number, afterId: number, limit: number) {
  return db
    .select()
    .from(slips)
    .where(and(eq(slips.userId, userId), gt(slips.id, afterId)))
    .orderBy(asc(slips.id))
    .limit(limit);
}

/** Open slips after `afterId`, in id order (the settlement's keyset scan of the partial index). */
export async function openSlipsAfter(db: Executor, afterId: number, limit: number): Promise<SlipRow[]> {
  return db
    .select()
    .from(slips)
    .where(and(eq(slips.status, 'open'), gt(slips.id, afterId)))
    .orderBy(asc(slips.id))
    .limit(limit);
}

/** Settles one open slip and its legs; undefined when it was no longer open (another pass did it). */
export async function settleSlip(
  db: Executor,
  slip: { id: number; status: Exclude<SlipStatus, 'open'>; returned: number },
  legOutcomes: ReadonlyArray<{ position: number; outcome: SettlementOutcome }>,
  now: Date,
): Promise<SlipRow | undefined> {
  const [row] = await db
    .update(slips)
    .set({ status: slip.status, returned: slip.returned, settledAt: now.toISOString() })
    .where(and(eq(slips.id, slip.id), eq(slips.status, 'open')))
    .returning();
  if (!row) return undefined;
  for (const leg of legOutcomes) {
    await db
      .update(slipLegs)
      .set({ outcome: leg.outcome })
      .where(and(eq(slipLegs.slipId, slip.id), eq(slipLegs.position, leg.position)));
  }
  return row;
}

/** Slips saved per UTC day in [from, before) (the console's counts). */
export async function slipsSavedByDay(db: Executor, range: { from: string; before: string }) {
  return db
    .select({
      day: sql<string>`to_char(${slips.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
      total: count(),
    })
    .from(slips)
    .where(sql`${slips.createdAt} >= ${range.from} AND ${slips.createdAt} < ${range.before}`)
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

/** `checks` more checks today (the database's UTC day, as rows are stamped: decision 0002). */
export async function addChecks(db: Executor, checks: number): Promise<void> {
  // Prepared once: every process runs it every few seconds while slips are checked.
  const prepare = () =>
    db
      .insert(slipChecksDaily)
      .values({ day: sql`(now() AT TIME ZONE 'UTC')::date`, checked: sql.placeholder('checks') })
      .onConflictDoUpdate({
        target: slipChecksDaily.day,
        set: { checked: sql`${slipChecksDaily.checked} + excluded.checked` },
      })
      .prepare('slip_checks_add');
  await preparedOnce(db, 'slip_checks_add', prepare).execute({ checks });
}

/** Slips checked per day in [from, before) (the console's counts). */
export async function checksByDay(db: Executor, range: { from: string; before: string }) {
  return db
    .select({ day: slipChecksDaily.day, total: slipChecksDaily.checked })
    .from(slipChecksDaily)
    .where(sql`${slipChecksDaily.day} >= ${range.from} AND ${slipChecksDaily.day} < ${range.before}`)
    .orderBy(slipChecksDaily.day);
}
