// Queries for bearer tokens: only their hashes are stored.
import { and, eq, inArray, isNull, lt, lte, or } from 'drizzle-orm';
import { type Executor, type NamedStatement, namedQuery } from '../../db/client.js';
import { accessTokens, streamKeys, users } from '../../db/schema/users.js';
import type { UserRole, UserStatus } from '../../lib/allowed-values.js';

export async function insertToken(db: Executor, userId: number, tokenHash: string, now: Date): Promise<void> {
  // created_at from the service's clock, not the database's: the absolute lifetime counts from it.
  const issuedAt = now.toISOString();
  await db.insert(accessTokens).values({ userId, tokenHash, lastUsedAt: issuedAt, createdAt: issuedAt });
}

/** The columns a token check reads: the token's times and what its user may do. */
function activeTokenQuery(db: Executor) {
  return db
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
    .innerJoin(users, eq(users.id, accessTokens.userId));
}

/**
 * The token check of every request the token cache cannot answer (each token once a cache
 * lifetime, so with many users a share of requests): a named statement on the driver.
 */
export const activeTokenStatement: NamedStatement = {
  name: 'access_token_by_hash',
  text: `SELECT t.id AS "tokenId", t.last_used_at AS "lastUsedAt", t.created_at AS "issuedAt",
      u.id AS "userId", u.phone, u.country, u.role, u.status
    FROM access_tokens t JOIN users u ON u.id = t.user_id
    WHERE t.token_hash = $1 AND t.revoked_at IS NULL
    LIMIT 1`,
};

export interface ActiveToken {
  tokenId: number;
  /** The driver's reading of the timestamps (a Date, or PostgreSQL's text): `new Date()` takes both. */
  lastUsedAt: Date | string;
  issuedAt: Date | string;
  user: { id: number; phone: string | null; country: string; role: UserRole; status: UserStatus };
}

export async function findActiveToken(db: Executor, tokenHash: string): Promise<ActiveToken | undefined> {
  const [row] = await namedQuery<
    Omit<ActiveToken, 'user'> & { userId: number } & Omit<ActiveToken['user'], 'id'>
  >(db, activeTokenStatement, [tokenHash]);
  if (!row) return undefined;
  const { tokenId, lastUsedAt, issuedAt, userId, phone, country, role, status } = row;
  return { tokenId, lastUsedAt, issuedAt, user: { id: userId, phone, country, role, status } };
}

export async function findActiveTokenById(db: Executor, tokenId: number) {
  const [row] = await activeTokenQuery(db)
    .where(and(eq(accessTokens.id, tokenId), isNull(accessTokens.revokedAt)))
    .limit(1);
  return row;
}

/**
 * Slides the idle window of tokens used at `usedAt` or later (one statement for all of a process's
 * due writes: its requests' and its open event streams'); a revoked token stays revoked, and a
 * stored time later than `usedAt` (another process's write) is never moved back.
 */
export async function touchTokens(db: Executor, tokenIds: number[], usedAt: Date): Promise<void> {
  const at = usedAt.toISOString();
  await db
    .update(accessTokens)
    .set({ lastUsedAt: at })
    .where(
      and(
        inArray(accessTokens.id, tokenIds),
        isNull(accessTokens.revokedAt),
        lt(accessTokens.lastUsedAt, at),
      ),
    );
}

export async function insertStreamKey(
  db: Executor,
  key: { keyHash: string; tokenId: number; expiresAt: Date },
): Promise<void> {
  await db.insert(streamKeys).values({ ...key, expiresAt: key.expiresAt.toISOString() });
}

/** Takes a stream key (it opens one stream only): the token it stands for, if it had not expired. */
export async function takeStreamKey(db: Executor, keyHash: string, now: Date): Promise<number | undefined> {
  const [row] = await db
    .delete(streamKeys)
    .where(eq(streamKeys.keyHash, keyHash))
    .returning({ tokenId: streamKeys.tokenId, expiresAt: streamKeys.expiresAt });
  if (!row || new Date(row.expiresAt).getTime() <= now.getTime()) return undefined;
  return row.tokenId;
}

export async function deleteExpiredStreamKeys(db: Executor, now: Date): Promise<number> {
  const deleted = await db
    .delete(streamKeys)
    .where(lte(streamKeys.expiresAt, now.toISOString()))
    .returning({ keyHash: streamKeys.keyHash });
  return deleted.length;
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
