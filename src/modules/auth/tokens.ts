// Bearer tokens: opaque, random, stored as a keyed hash; valid while used at least once per
// TOKEN_IDLE_TTL_SECONDS, and never once TOKEN_MAX_AGE_SECONDS old. Each use slides the window, but
// the row is rewritten only when its last_used_at is older than min(15 s, a tenth of the window): a
// read rarely costs a write, and a token may expire up to that much early, never late. A checked
// token is kept in memory for TOKEN_CACHE_SECONDS (see token-cache.ts for why that stays exact).

import type { Config } from '../../config.js';
import { channels } from '../../db/channels.js';
import type { Database, DatabaseHandle, Executor } from '../../db/client.js';
import type { UserRole, UserStatus } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash, newToken } from '../../lib/crypto.js';
import { Unauthenticated } from '../../lib/errors.js';
import { addSeconds } from '../../lib/time.js';
import { TokenCache } from './token-cache.js';
import {
  deleteDeadTokens,
  findActiveToken,
  insertToken,
  revokeToken,
  revokeTokensOf,
  touchToken,
} from './token-repository.js';

export interface AuthUser {
  id: number;
  phone: string;
  country: string;
  role: UserRole;
  tokenId: number;
}

const BEARER = /^Bearer ([A-Za-z0-9_-]{20,128})$/;

export function touchIntervalMs(config: Pick<Config, 'tokenIdleTtlSeconds'>): number {
  return Math.min(15_000, (config.tokenIdleTtlSeconds * 1000) / 10);
}

export interface TokenServiceDeps {
  db: Database;
  config: Pick<Config, 'appSecret' | 'tokenIdleTtlSeconds' | 'tokenMaxAgeSeconds'> &
    Partial<Pick<Config, 'tokenCacheSeconds'>>;
  clock: Clock;
  /** Where the database announces token and user changes (the cache listens there). */
  database?: Pick<DatabaseHandle, 'listen'>;
}

export function createTokenService({ db, config, clock, database }: TokenServiceDeps) {
  const hashOf = (token: string) => keyedHash(config.appSecret, 'token', token);
  const cache = new TokenCache<AuthUser>((config.tokenCacheSeconds ?? 0) * 1000);
  const touchMs = touchIntervalMs(config);

  /** The lifetime and idle checks, on a row just read or on a cached one alike. */
  function usable(issuedAtMs: number, lastUsedAtMs: number, nowMs: number): boolean {
    // The absolute lifetime: however active, a stolen token stops working some day.
    if (nowMs - issuedAtMs >= config.tokenMaxAgeSeconds * 1000) return false;
    // Expire early rather than late: the stored time may lag the real last use by one touch interval.
    return nowMs - lastUsedAtMs < config.tokenIdleTtlSeconds * 1000 - touchMs;
  }

  return {
    /** A new token for `userId`, written with `db` (the sign-in's transaction, or the pool). */
    async issue(db: Executor, userId: number): Promise<string> {
      const token = newToken();
      await insertToken(db, userId, hashOf(token), clock.now());
      return token;
    },

    /** The user behind an `Authorization` header, or Unauthenticated. */
    async authenticate(header: string | undefined): Promise<AuthUser> {
      const match = header ? BEARER.exec(header.trim()) : null;
      if (!match?.[1]) throw new Unauthenticated();
      const hash = hashOf(match[1]);
      const nowMs = clock.now().getTime();
      const cached = cache.get(hash, nowMs);
      // A hit answers only while no last_used_at write is due; one that is due reads the row again.
      if (cached && nowMs - cached.lastUsedAtMs < touchMs) {
        if (!usable(cached.issuedAtMs, cached.lastUsedAtMs, nowMs)) throw new Unauthenticated();
        return cached.user;
      }
      const generation = cache.generation;
      const found = await findActiveToken(db, hash);
      if (!found) throw new Unauthenticated();
      const status: UserStatus = found.user.status;
      if (status !== 'active') throw new Unauthenticated();
      const now = clock.now();
      const issuedAtMs = new Date(found.issuedAt).getTime();
      let lastUsedAtMs = new Date(found.lastUsedAt).getTime();
      if (!usable(issuedAtMs, lastUsedAtMs, now.getTime())) throw new Unauthenticated();
      if (now.getTime() - lastUsedAtMs >= touchMs) {
        await touchToken(db, found.tokenId, now);
        lastUsedAtMs = now.getTime();
      }
      const user: AuthUser = {
        id: found.user.id,
        // Only a deleted account has no phone, and its status was refused above.
        phone: found.user.phone ?? '',
        country: found.user.country,
        role: found.user.role,
        tokenId: found.tokenId,
      };
      cache.set(
        hash,
        { user, status, tokenId: found.tokenId, issuedAtMs, lastUsedAtMs, readAtMs: now.getTime() },
        generation,
      );
      return user;
    },

    /**
     * Turns the cache on (when TOKEN_CACHE_SECONDS > 0) once this process hears the database's
     * `auth_changed` announcements; returns what turns it off. Only processes that authenticate call it.
     */
    async watchChanges(): Promise<() => Promise<void>> {
      if (cache.ttlMs === 0 || !database) return async () => {};
      const unlisten = await database.listen(channels.authChanged, (payload) => cache.apply(payload), {
        lost: () => cache.deaf(),
        restored: () => cache.listening(),
      });
      cache.listening();
      return async () => {
        cache.deaf();
        await unlisten();
      };
    },

    /** The cache, for its tests and the benchmark's figures. */
    cache,

    /** Revokes the token the request came with (only that one). */
    async logout(user: AuthUser): Promise<void> {
      await revokeToken(db, user.tokenId, clock.now());
      // This process forgets it at once; the others when the trigger's announcement reaches them.
      cache.forgetToken(user.tokenId);
    },

    /**
     * Revokes every token of the user, in their account deletion's transaction; this process's cache
     * forgets them at once (the others on the triggers' announcements, when it commits).
     */
    async revokeAllOf(tx: Executor, userId: number): Promise<number> {
      const revoked = await revokeTokensOf(tx, userId, clock.now());
      cache.forgetUser(userId);
      return revoked;
    },

    /** Deletes tokens no longer usable (revoked, idle past the window, or past their lifetime); how many. */
    purgeDead(): Promise<number> {
      const now = clock.now();
      return deleteDeadTokens(db, {
        idleSince: addSeconds(now, -config.tokenIdleTtlSeconds),
        issuedBy: addSeconds(now, -config.tokenMaxAgeSeconds),
      });
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;
