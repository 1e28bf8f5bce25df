// Bearer tokens: opaque, random, stored as a keyed hash; valid while used at least once per
// TOKEN_IDLE_TTL_SECONDS, and never once TOKEN_MAX_AGE_SECONDS old. Each use slides the window, but
// the row is rewritten only when its last_used_at is older than min(15 s, a tenth of the window),
// and those writes are gathered: each process writes its tokens' last uses in one statement at most
// TOUCH_WRITE_MS later (decision 0166). A read rarely costs a write, the stored time only ever lags
// the real last use, and a token may expire up to a touch interval (and that second) early, never
// late. A checked token is kept in memory for TOKEN_CACHE_SECONDS (see token-cache.ts for why that
// stays exact).

import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import { channels } from '../../db/channels.js';
import type { Database, DatabaseHandle, Executor, Transaction } from '../../db/client.js';
import type { UserStatus } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash, newToken } from '../../lib/crypto.js';
import { Unauthenticated } from '../../lib/errors.js';
import { addSeconds } from '../../lib/time.js';
import { writeBehind } from '../../lib/write-behind.js';
import type { AuthUser } from '../../types/auth.js';
import { TokenCache } from './token-cache.js';
import {
  deleteDeadTokens,
  deleteExpiredStreamKeys,
  findActiveToken,
  findActiveTokenById,
  insertStreamKey,
  insertToken,
  revokeToken,
  revokeTokensOf,
  takeStreamKey,
  touchTokens,
} from './token-repository.js';

const TOKEN_TEXT = '[A-Za-z0-9_-]{20,128}';
const BEARER = new RegExp(`^Bearer (${TOKEN_TEXT})$`);
const STREAM_KEY = new RegExp(`^${TOKEN_TEXT}$`);

/** How long a stream key opens a stream (DESIGN.md "Events"). */
export const STREAM_KEY_SECONDS = 60;

/** How long a token's due last-use write may wait to be written with the others (decision 0166). */
export const TOUCH_WRITE_MS = 1_000;

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
  /** Logout forgets the user's push devices (the devices service), in the revocation's transaction. */
  devices?: LogoutDevices;
  /** Says a last-use write that failed (kept, and tried again). */
  logger?: Pick<FastifyBaseLogger, 'warn'>;
}

/** What logout needs of the push devices: forget all of a user's, in the caller's transaction. */
export interface LogoutDevices {
  forgetAll(tx: Transaction, userId: number): Promise<number>;
}

export function createTokenService({ db, config, clock, database, devices, logger }: TokenServiceDeps) {
  const hashOf = (token: string) => keyedHash(config.appSecret, 'token', token);
  const cache = new TokenCache<AuthUser>((config.tokenCacheSeconds ?? 0) * 1000);
  const touchMs = touchIntervalMs(config);

  const lastUses = createLastUses({ db, touchMs, idleMs: config.tokenIdleTtlSeconds * 1000, logger });

  /** The lifetime and idle checks, on a row just read or on a cached one alike. */
  function usable(issuedAtMs: number, lastUsedAtMs: number, nowMs: number): boolean {
    // The absolute lifetime: however active, a stolen token stops working some day.
    if (nowMs - issuedAtMs >= config.tokenMaxAgeSeconds * 1000) return false;
    // Expire early rather than late: the stored time may lag the real last use by one touch interval.
    return nowMs - lastUsedAtMs < config.tokenIdleTtlSeconds * 1000 - touchMs;
  }

  const streamKeyHashOf = (key: string) => keyedHash(config.appSecret, 'stream_key', key);

  /** A token row just read, checked (revoked, blocked, lifetime, idle) and touched when due. */
  async function admit(found: Awaited<ReturnType<typeof findActiveToken>>) {
    if (!found) throw new Unauthenticated();
    const status: UserStatus = found.user.status;
    if (status !== 'active') throw new Unauthenticated();
    const now = clock.now();
    const issuedAtMs = new Date(found.issuedAt).getTime();
    const stored = new Date(found.lastUsedAt).getTime();
    const lastUsedAtMs = Math.max(stored, lastUses.knownHere(found.tokenId));
    if (!usable(issuedAtMs, lastUsedAtMs, now.getTime())) throw new Unauthenticated();
    const usedAtMs = await lastUses.used(found.tokenId, lastUsedAtMs, now.getTime());
    const user: AuthUser = {
      id: found.user.id,
      // Only a deleted account has no phone, and its status was refused above.
      phone: found.user.phone ?? '',
      country: found.user.country,
      role: found.user.role,
      tokenId: found.tokenId,
      tokenIssuedAtMs: issuedAtMs,
    };
    return { user, status, issuedAtMs, lastUsedAtMs: usedAtMs, readAtMs: now.getTime() };
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
      if (cached) {
        if (!usable(cached.issuedAtMs, cached.lastUsedAtMs, nowMs)) throw new Unauthenticated();
        // A hit whose last-use write is due makes it as a lookup would, with no read; the others
        // (nearly every hit) answer without awaiting anything.
        if (lastUses.due(cached.lastUsedAtMs, nowMs))
          cached.lastUsedAtMs = await lastUses.used(cached.tokenId, cached.lastUsedAtMs, nowMs);
        return cached.user;
      }
      const generation = cache.generation;
      const { user, status, issuedAtMs, lastUsedAtMs, readAtMs } = await admit(
        await findActiveToken(db, hash),
      );
      cache.set(
        hash,
        { user, status, tokenId: user.tokenId, issuedAtMs, lastUsedAtMs, readAtMs },
        generation,
      );
      return user;
    },

    /** A single-use key that opens `user`'s event stream for the next STREAM_KEY_SECONDS. */
    async issueStreamKey(user: AuthUser): Promise<{ stream_key: string; expires_at: string }> {
      const key = newToken();
      const expiresAt = addSeconds(clock.now(), STREAM_KEY_SECONDS);
      await insertStreamKey(db, { keyHash: streamKeyHashOf(key), tokenId: user.tokenId, expiresAt });
      return { stream_key: key, expires_at: expiresAt.toISOString() };
    },

    /**
     * The user behind a stream key, which it uses up (whichever process it reaches first), or
     * Unauthenticated: unknown, used, expired, or its token no longer usable.
     */
    async authenticateStreamKey(key: string): Promise<AuthUser> {
      if (!STREAM_KEY.test(key)) throw new Unauthenticated();
      const tokenId = await takeStreamKey(db, streamKeyHashOf(key), clock.now());
      if (tokenId === undefined) throw new Unauthenticated();
      return (await admit(await findActiveTokenById(db, tokenId))).user;
    },

    /**
     * Slides the idle window of tokens that hold open event streams, as their requests would (an
     * open stream is a use); one statement for them all.
     */
    async keepAlive(tokenIds: number[]): Promise<void> {
      if (tokenIds.length > 0) await touchTokens(db, tokenIds, clock.now());
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

    /** Writes the last uses gathered so far (tests look at the rows; a failure is thrown). */
    writeTouches: lastUses.write,

    /** Writes the last uses gathered (the process is closing: a failure loses them). */
    close: lastUses.close,

    /**
     * Revokes the token the request came with (only that one) and forgets all the user's push
     * devices (DESIGN.md), in one transaction: both happen or neither.
     */
    async logout(user: AuthUser): Promise<void> {
      await db.transaction(async (tx) => {
        await revokeToken(tx, user.tokenId, clock.now());
        await devices?.forgetAll(tx, user.id);
      });
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
    async purgeDead(): Promise<number> {
      // This process's gathered uses first: a token used a moment ago is not idle.
      await lastUses.write();
      const now = clock.now();
      return deleteDeadTokens(db, {
        idleSince: addSeconds(now, -config.tokenIdleTtlSeconds),
        issuedBy: addSeconds(now, -config.tokenMaxAgeSeconds),
      });
    },

    /** Deletes the stream keys past their minute (a used one is already gone); how many. */
    purgeExpiredStreamKeys(): Promise<number> {
      return deleteExpiredStreamKeys(db, clock.now());
    },
  };
}

export type TokenService = ReturnType<typeof createTokenService>;

export interface LastUsesDeps {
  db: Database;
  /** How old a stored last use may get before a use rewrites it. */
  touchMs: number;
  /** The idle window. */
  idleMs: number;
  logger?: Pick<FastifyBaseLogger, 'warn'> | undefined;
}

/**
 * A process's tokens' last uses (decision 0166): each use whose write is due, gathered and written
 * with the others at most TOUCH_WRITE_MS later, except near the token's idle limit.
 */
function createLastUses({ db, touchMs, idleMs, logger }: LastUsesDeps) {
  /**
   * Tokens whose last use is due to be written, each with its latest use. A batch is written with
   * its earliest use, so the stored time never runs ahead of a token's real last use; this process
   * reads its own pending uses over the stored ones.
   */
  let pending = new Map<number, number>();
  /** The batch being written (still this process's knowledge until the write lands). */
  let writing = new Map<number, number>();
  const touches = writeBehind<Map<number, number>>({
    delayMs: TOUCH_WRITE_MS,
    take() {
      if (pending.size === 0) return undefined;
      const batch = pending;
      pending = new Map();
      return batch;
    },
    giveBack(batch) {
      for (const [tokenId, usedAtMs] of batch)
        pending.set(tokenId, Math.max(usedAtMs, pending.get(tokenId) ?? 0));
    },
    async write(batch) {
      let earliest = Number.POSITIVE_INFINITY;
      for (const usedAtMs of batch.values()) earliest = Math.min(earliest, usedAtMs);
      writing = batch;
      try {
        await touchTokens(db, [...batch.keys()], new Date(earliest));
      } finally {
        writing = new Map();
      }
    },
    failed(error) {
      logger?.warn({ err: error, tokens: pending.size }, 'token last uses could not be written yet; kept');
    },
  });

  /** Whether a use at `nowMs` rewrites a last use stored at `lastUsedAtMs`. */
  const due = (lastUsedAtMs: number, nowMs: number) => nowMs - lastUsedAtMs >= touchMs;

  /**
   * A use at `nowMs` of a token last used at `lastUsedAtMs` (stored, cached or pending here):
   * written when due, with the others unless the token is near its idle limit, where a gathered
   * write's delay could make another process, reading the stored time, refuse it early.
   */
  async function used(tokenId: number, lastUsedAtMs: number, nowMs: number): Promise<number> {
    if (!due(lastUsedAtMs, nowMs)) return lastUsedAtMs;
    if (nowMs - lastUsedAtMs >= idleMs - 2 * touchMs) {
      await touchTokens(db, [tokenId], new Date(nowMs));
    } else {
      pending.set(tokenId, nowMs);
      touches.due();
    }
    return nowMs;
  }

  return {
    due,
    used,
    /** This process's latest use of `tokenId` not yet stored (gathered or being written), or 0. */
    knownHere: (tokenId: number) => Math.max(pending.get(tokenId) ?? 0, writing.get(tokenId) ?? 0),
    write: touches.write,
    close: touches.close,
  };
}
