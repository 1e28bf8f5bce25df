// Queries for bearer tokens: only their hashes are stored.
import { and, eq, isNull, lt, lte, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accessTokens, users } from '../../db/schema/users.js';

export async function insertToken(db: Executor, userId: number, tokenHash: string, now: Date): Promise<void> {
  // created_at from the service's clock, not the database's: the absolute lifetime counts from it.
  const issuedAt = now.toISOString();
  await db.insert(accessTokens).values({ userId, tokenHash, lastUsedAt: issuedAt, createdAt: issuedAt });
}

export async function findActiveToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      tokenId: accessTokens.id,
      lastUsedAt: accessTokens.lastUsedAt,
      issuedAt: accessTokens.createdAt,
      user: {
        id: users.id,
        phone: users.phone,
        country: users.country,
        role: users.role,
        status: users.status,
      },
    })
    .from(accessTokens)
    .innerJoin(users, eq(users.id, accessTokens.userId))
    .where(and(eq(accessTokens.tokenHash, tokenHash), isNull(accessTokens.revokedAt)))
    .limit(1);
  return row;
}

export async function touchToken(db: Executor, tokenId: number, now: Date): Promise<void> {
  await db.update(accessTokens).set({ lastUsedAt: now.toISOString() }).where(eq(accessTokens.id, tokenId));
}

export async function revokeToken(db: Executor, tokenId: number, now: Date): Promise<void> {
  await db.update(accessTokens).set({ revokedAt: now.toISOString() }).where(eq(accessTokens.id, tokenId));
}

/**
 * Tokens idle past the window, revoked, or issued at or before `issuedBy` (past their absolute
 * lifetime, which refuses a token once its age reaches it) are of no further use.
 */
export async function deleteDeadTokens(
  db: Executor,
  limits: { idleSince: Date; issuedBy: Date },
): Promise<number> {
  const idleSince = limits.idleSince.toISOString();
  const deleted = await db
    .delete(accessTokens)
    .where(
      or(
        lt(accessTokens.lastUsedAt, idleSince),
        lt(accessTokens.revokedAt, idleSince),
        lte(accessTokens.createdAt, limits.issuedBy.toISOString()),
      ),
    )
    .returning({ id: accessTokens.id });
  return deleted.length;
}

/** Revokes every token of the user still in force (its account is deleted); the trigger announces each. */
export async function revokeTokensOf(db: Executor, userId: number, now: Date): Promise<number> {
  const rows = await db
    .update(accessTokens)
    .set({ revokedAt: now.toISOString() })
    .where(and(eq(accessTokens.userId, userId), isNull(accessTokens.revokedAt)))
    .returning({ id: accessTokens.id });
  return rows.length;
}
