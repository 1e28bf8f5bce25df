// Queries on the account module's tables: the last data export of each user (the hourly limit, held
// by the database so that every API process sees it), and the files a deletion still has to remove.
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accountExports, accountFileDeletions } from '../../db/schema/account.js';

/**
 * Takes the user's export slot when their last export is at least `intervalSeconds` old (or there
 * was none): one statement, so two processes cannot both take it. Returns undefined when taken,
 * else when the last export was (the slot is still in use).
 */
export async function claimExport(
  db: Executor,
  userId: number,
  now: Date,
  intervalSeconds: number,
): Promise<string | undefined> {
  const at = now.toISOString();
  const taken = await db
    .insert(accountExports)
    .values({ userId, lastExportAt: at })
    .onConflictDoUpdate({
      target: accountExports.userId,
      set: { lastExportAt: at },
      setWhere: sql`${accountExports.lastExportAt} <= ${at}::timestamptz - make_interval(secs => ${intervalSeconds})`,
    })
    .returning({ userId: accountExports.userId });
  if (taken.length > 0) return undefined;
  const [row] = await db
    .select({ lastExportAt: accountExports.lastExportAt })
    .from(accountExports)
    .where(eq(accountExports.userId, userId));
  return row?.lastExportAt ?? at;
}

/** The deleted account's export slot is of no further use. */
export async function deleteExportSlot(db: Executor, userId: number): Promise<void> {
  await db.delete(accountExports).where(eq(accountExports.userId, userId));
}

/** Records files to remove (in the deletion's transaction, so none is forgotten if the process dies). */
export async function recordFileDeletions(
  db: Executor,
  userId: number,
  keys: readonly string[],
): Promise<void> {
  if (keys.length === 0) return;
  await db
    .insert(accountFileDeletions)
    .values(keys.map((key) => ({ key, userId })))
    .onConflictDoNothing();
}

/** The storage confirmed these files are gone. */
export async function forgetFileDeletions(db: Executor, keys: readonly string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(accountFileDeletions).where(inArray(accountFileDeletions.key, [...keys]));
}

/** A removal failed: counted, with its error, for the next try and the operator. */
export async function fileDeletionFailed(db: Executor, key: string, error: string): Promise<void> {
  await db
    .update(accountFileDeletions)
    .set({ attempts: sql`${accountFileDeletions.attempts} + 1`, lastError: error.slice(0, 500) })
    .where(eq(accountFileDeletions.key, key));
}

/** The oldest files still to remove. */
export async function pendingFileDeletions(db: Executor, limit: number): Promise<string[]> {
  const rows = await db
    .select({ key: accountFileDeletions.key })
    .from(accountFileDeletions)
    .orderBy(asc(accountFileDeletions.createdAt), asc(accountFileDeletions.key))
    .limit(limit);
  return rows.map((row) => row.key);
}
