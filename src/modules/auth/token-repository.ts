// Queries for bearer tokens: only their hashes are stored.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { accessTokens, users } from '../../db/schema/index.js';

export async function insertToken(db: Executor, userId: number, tokenHash: string, now: Date): Promise<void> {
  await db.insert(accessTokens).values({ userId, tokenHash, lastUsedAt: now.toISOString() });
}

export async function findActiveToken(db: Executor, tokenHash: string) {
  const [row] = await db
    .select({
      tokenId: accessTokens.id,
      lastUsedAt: accessTokens.lastUsedAt,
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

/** Tokens idle past the window, or revoked, are of no further use. */
export async function deleteDeadTokens(db: Executor, idleSince: Date): Promise<number> {
  const deleted = await db
    .delete(accessTokens)
    .where(
      or(
        lt(accessTokens.lastUsedAt, idleSince.toISOString()),
        lt(accessTokens.revokedAt, idleSince.toISOString()),
      ),
    )
    .returning({ id: accessTokens.id });
  return deleted.length;
}
