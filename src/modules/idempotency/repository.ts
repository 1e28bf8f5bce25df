// Queries for stored first answers of requests that carried an Idempotency-Key.
import { and, eq, lt } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { idempotencyKeys } from '../../db/schema/index.js';

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

export async function completeKey(
  db: Executor,
  id: number,
  statusCode: number,
  responseBody: unknown,
  expiresAt: Date,
): Promise<void> {
  await db
    .update(idempotencyKeys)
    .set({ statusCode, responseBody, expiresAt: expiresAt.toISOString() })
    .where(eq(idempotencyKeys.id, id));
}

export async function deleteKey(db: Executor, id: number): Promise<void> {
  await db.delete(idempotencyKeys).where(eq(idempotencyKeys.id, id));
}

export async function deleteExpiredKeys(db: Executor, now: Date): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.expiresAt, now.toISOString()))
    .returning({ id: idempotencyKeys.id });
  return rows.length;
}
