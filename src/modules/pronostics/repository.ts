// Queries for pronostic types and pronostics, the API's and the analysis worker's. The owner is in
// every WHERE that lists; the detail query finds the row first so the service can tell "not yours"
// (403) from "none" (404). The worker's claim bumps `attempts`, and every later write is fenced by
// the attempt it claimed: a worker whose lease ran out (and whose row another took) writes nothing.
import { and, asc, count, desc, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type PronosticStatus, pronostics, pronosticTypes } from '../../db/schema/index.js';
import type { PronosticTypeSlug } from '../../engine/types.js';
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

/** A user's live pronostics counted by status, in one grouped query. */
export async function countPronosticsByStatus(
  db: Executor,
  userId: number,
): Promise<{ status: PronosticStatus; total: number }[]> {
  const rows = await db
    .select({ status: pronostics.status, total: count() })
    .from(pronostics)
    .where(and(eq(pronostics.userId, userId), isNull(pronostics.deletedAt)))
    .groupBy(pronostics.status);
  return rows.map((row) => ({ status: row.status, total: Number(row.total) }));
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

/** A row the analysis worker holds: what it needs to analyse, refund, and fence its writes. */
export type ClaimedJob = Pick<
  PronosticRow,
  'id' | 'userId' | 'teamsDetails' | 'creditsCost' | 'attempts' | 'deadlineAt'
> & { typeSlug: PronosticTypeSlug };

/** Takes the next due row (or one past its deadline) that no live lease holds, and leases it. */
export async function claimNextJob(
  db: Executor,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedJob | undefined> {
  const nowText = now.toISOString();
  // SKIP LOCKED: concurrent claimers each take another row instead of waiting on this one.
  const next = db
    .select({ id: pronostics.id })
    .from(pronostics)
    .where(
      and(
        eq(pronostics.status, 'processing'),
        or(lte(pronostics.runAfter, nowText), lte(pronostics.deadlineAt, nowText)),
        or(isNull(pronostics.leaseUntil), lte(pronostics.leaseUntil, nowText)),
      ),
    )
    .orderBy(asc(pronostics.runAfter), asc(pronostics.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(pronostics)
    .set({ leaseUntil: leaseUntil.toISOString(), attempts: sql`${pronostics.attempts} + 1` })
    .where(eq(pronostics.id, sql`(${next})`))
    .returning({
      id: pronostics.id,
      userId: pronostics.userId,
      teamsDetails: pronostics.teamsDetails,
      creditsCost: pronostics.creditsCost,
      attempts: pronostics.attempts,
      deadlineAt: pronostics.deadlineAt,
      typeSlug: sql<PronosticTypeSlug>`(SELECT ${pronosticTypes.slug} FROM ${pronosticTypes} WHERE ${pronosticTypes.id} = ${pronostics.typeId})`,
    });
  return row;
}

const claimed = (job: Pick<ClaimedJob, 'id' | 'attempts'>) =>
  and(eq(pronostics.id, job.id), eq(pronostics.status, 'processing'), eq(pronostics.attempts, job.attempts));

/** Writes the result; false when the claim was lost (the result is then discarded). */
export async function markSucceeded(
  db: Executor,
  job: ClaimedJob,
  outcome: { result: Record<string, unknown>; aiModel: string; searchText: string },
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(pronostics)
    .set({
      status: 'success',
      result: outcome.result,
      aiModel: outcome.aiModel,
      searchText: outcome.searchText,
      finishedAt: now.toISOString(),
      leaseUntil: null,
      lastError: null,
    })
    .where(claimed(job))
    .returning({ id: pronostics.id });
  return rows.length > 0;
}

export async function scheduleRetry(
  db: Executor,
  job: ClaimedJob,
  runAfter: Date,
  error: string,
): Promise<void> {
  await db
    .update(pronostics)
    .set({ runAfter: runAfter.toISOString(), leaseUntil: null, lastError: error.slice(0, 1000) })
    .where(claimed(job));
}

/** Sets `cancelled` with its reason; returns whether this call did it (the caller then refunds). */
export async function markCancelled(
  db: Executor,
  job: ClaimedJob,
  result: { reason: string; message: string },
  error: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(pronostics)
    .set({
      status: 'cancelled',
      result,
      finishedAt: now.toISOString(),
      leaseUntil: null,
      lastError: error.slice(0, 1000),
    })
    .where(claimed(job))
    .returning({ id: pronostics.id });
  return rows.length > 0;
}

/** Gives the row back untried (shutdown): the attempt it claimed does not count. */
export async function releaseJob(db: Executor, job: ClaimedJob): Promise<void> {
  await db
    .update(pronostics)
    .set({ leaseUntil: null, attempts: sql`${pronostics.attempts} - 1` })
    .where(claimed(job));
}
