// The worker's queries. A claim bumps `attempts`, and every later write is conditioned on the
// attempt it claimed: a worker whose lease ran out (and whose row another worker took) writes nothing.
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.js';
import { pronostics } from '../db/schema/index.js';

export interface ClaimedJob {
  id: number;
  userId: number;
  typeSlug: string;
  teamsDetails: Record<string, unknown>;
  creditsCost: number;
  attempts: number;
  deadlineAt: string;
}

/** Takes the next due row (or one past its deadline) that no live lease holds, and leases it. */
export async function claimNextJob(
  db: Executor,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedJob | undefined> {
  const nowText = now.toISOString();
  const result = await db.execute(sql`
    WITH next AS (
      SELECT id FROM pronostics
      WHERE status = 'processing'
        AND (run_after <= ${nowText} OR deadline_at <= ${nowText})
        AND (lease_until IS NULL OR lease_until <= ${nowText})
      ORDER BY run_after, id
      LIMIT 1
      FOR UPDATE SKIP LOCKED
    )
    UPDATE pronostics AS p
    SET lease_until = ${leaseUntil.toISOString()}, attempts = p.attempts + 1
    FROM next
    WHERE p.id = next.id
    RETURNING p.id, p.user_id, p.teams_details, p.credits_cost, p.attempts, p.deadline_at,
      (SELECT slug FROM pronostic_types t WHERE t.id = p.type_id) AS type_slug`);
  const row = (result as unknown as { rows: Record<string, unknown>[] }).rows[0];
  if (!row) return undefined;
  return {
    id: Number(row.id),
    userId: Number(row.user_id),
    typeSlug: String(row.type_slug),
    teamsDetails: (typeof row.teams_details === 'string'
      ? JSON.parse(row.teams_details)
      : row.teams_details) as Record<string, unknown>,
    creditsCost: Number(row.credits_cost),
    attempts: Number(row.attempts),
    deadlineAt: String(row.deadline_at),
  };
}

const claimed = (job: Pick<ClaimedJob, 'id' | 'attempts'>) =>
  and(eq(pronostics.id, job.id), eq(pronostics.status, 'processing'), eq(pronostics.attempts, job.attempts));

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
  error: string | null,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(pronostics)
    .set({ status: 'cancelled', result, finishedAt: now.toISOString(), leaseUntil: null, lastError: error })
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
