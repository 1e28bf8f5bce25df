// Queries for stored first answers of requests that carried an Idempotency-Key. Every write that
// records or forgets a claim names the claim's row and its state, so a request whose key was taken
// over (or already answered) changes nothing.
import { and, eq, isNotNull, isNull, lt, lte } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/idempotency.js';

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

export async function insertPending(
  db: Executor,
  values: { userId: number; scope: string; key: string; requestHash: string; expiresAt: Date },
): Promise<number | undefined> {
  const [row] = await db
    .insert(idempotencyKeys)
    .values({ ...values, expiresAt: values.expiresAt.toISOString() })
    .onConflictDoNothing()
    .returning({ id: idempotencyKeys.id });
  return row?.id;
}

export async function findKey(db: Executor, userId: number, scope: string, key: string) {
  const [row] = await db
    .select()
    .from(idempotencyKeys)
    .where(
      and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)),
    )
    .limit(1);
  return row;
}

/** Stores the answer of a pending claim; false when the claim is no longer pending (taken over). */
export async function completeKey(
  db: Executor,
  id: number,
  answer: { statusCode: number; responseBody: unknown; expiresAt: Date },
): Promise<boolean> {
  const rows = await db
    .update(idempotencyKeys)
    .set({
      statusCode: answer.statusCode,
      responseBody: answer.responseBody,
      expiresAt: answer.expiresAt.toISOString(),
    })
    .where(and(eq(idempotencyKeys.id, id), isNull(idempotencyKeys.statusCode)))
    .returning({ id: idempotencyKeys.id });
  return rows.length > 0;
}

/** Replaces the stored answer's body of a key already answered (never a pending claim). */
export async function replaceAnswerBody(db: Executor, id: number, responseBody: unknown): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ responseBody })
    .where(and(eq(idempotencyKeys.id, id), isNotNull(idempotencyKeys.statusCode)));
}

/** Forgets a claim still pending (its request failed with nothing worth replaying). */
export async function deletePendingKey(db: Executor, id: number): Promise<void> {
  await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.id, id), isNull(idempotencyKeys.statusCode)));
}

/**
 * Deletes a key whose time is up (an answer past its 24 h, or a claim whose request died). The
 * condition is re-checked under the row lock: a claim completed meanwhile has a later expiry and stays.
 */
export async function deleteExpiredKey(db: Executor, id: number, now: Date): Promise<void> {
  await db
    .delete(idempotencyKeys)
    .where(and(eq(idempotencyKeys.id, id), lte(idempotencyKeys.expiresAt, now.toISOString())));
}

export async function deleteExpiredKeys(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now.toISOString()))
    .returning({ id: idempotencyKeys.id });
  return rows.length;
}

/** The account is deleted: its stored answers (which repeat its data) go with it. */
export async function deleteKeysOf(db: Executor, userId: number): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, userId));
}
