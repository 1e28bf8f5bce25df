// Queries for pronostic types and pronostics. The owner is in every WHERE that lists; the detail
// query finds the row first so the service can tell "not yours" (403) from "none" (404).
import { and, asc, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type PronosticStatus, pronostics, pronosticTypes } from '../../db/schema/index.js';
import { escapeLike } from '../../lib/text.js';

export type PronosticRow = typeof pronostics.$inferSelect;
export type PronosticTypeRow = typeof pronosticTypes.$inferSelect;

export async function listActiveTypes(db: Executor): Promise<PronosticTypeRow[]> {
  return db
    .select()
    .from(pronosticTypes)
    .where(eq(pronosticTypes.active, true))
    .orderBy(asc(pronosticTypes.difficulty), asc(pronosticTypes.id));
}

export async function findActiveType(db: Executor, id: number): Promise<PronosticTypeRow | undefined> {
  const [row] = await db
    .select()
    .from(pronosticTypes)
    .where(and(eq(pronosticTypes.id, id), eq(pronosticTypes.active, true)))
    .limit(1);
  return row;
}

export async function insertPronostic(
  db: Executor,
  values: Pick<
    typeof pronostics.$inferInsert,
    | 'userId'
    | 'typeId'
    | 'creditsCost'
    | 'teamsDetails'
    | 'aiModel'
    | 'searchText'
    | 'runAfter'
    | 'deadlineAt'
    | 'idempotencyKeyId'
  >,
): Promise<PronosticRow> {
  const [row] = await db.insert(pronostics).values(values).returning();
  return row!;
}

export interface ListFilter {
  userId: number;
  status?: PronosticStatus;
  /** Already folded (lower-case, no accents). */
  search?: string;
}

function listConditions(filter: ListFilter) {
  return and(
    eq(pronostics.userId, filter.userId),
    isNull(pronostics.deletedAt),
    filter.status ? eq(pronostics.status, filter.status) : undefined,
    filter.search ? sql`${pronostics.searchText} LIKE ${`%${escapeLike(filter.search)}%`}` : undefined,
  );
}

export async function listPronostics(
  db: Executor,
  filter: ListFilter,
  page: { limit: number; offset: number },
): Promise<PronosticRow[]> {
  return db
    .select()
    .from(pronostics)
    .where(listConditions(filter))
    .orderBy(desc(pronostics.createdAt), desc(pronostics.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countPronostics(db: Executor, filter: ListFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(pronostics).where(listConditions(filter));
  return Number(row?.total ?? 0);
}

/** A live (not deleted) pronostic with its type, whoever owns it. */
export async function findLivePronostic(db: Executor, id: number) {
  const [row] = await db
    .select({ pronostic: pronostics, type: pronosticTypes })
    .from(pronostics)
    .innerJoin(pronosticTypes, eq(pronosticTypes.id, pronostics.typeId))
    .where(and(eq(pronostics.id, id), isNull(pronostics.deletedAt)))
    .limit(1);
  return row;
}

export async function softDeletePronostic(
  db: Executor,
  id: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(pronostics)
    .set({ deletedAt: now.toISOString() })
    .where(and(eq(pronostics.id, id), eq(pronostics.userId, userId), isNull(pronostics.deletedAt)))
    .returning({ id: pronostics.id });
  return rows.length > 0;
}
