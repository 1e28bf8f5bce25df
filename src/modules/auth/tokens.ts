// Bearer tokens: opaque, random, stored as a keyed hash; valid while used at least once per
// TOKEN_IDLE_TTL_SECONDS, and never once TOKEN_MAX_AGE_SECONDS old. Each use slides the window, but
// the row is rewritten only when its last_used_at is older than min(15 s, a tenth of the window): a
// read rarely costs a write, and a token may expire up to that much early, never late.
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/client.js';
import type { UserRole, UserStatus } from '../../db/schema/index.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash, newToken } from '../../lib/crypto.js';
import { Unauthenticated } from '../../lib/errors.js';
import { addSeconds } from '../../lib/time.js';
import {
  deleteDeadTokens,
  findActiveToken,
  insertToken,
  revokeToken,
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
  config: Pick<Config, 'appSecret' | 'tokenIdleTtlSeconds' | 'tokenMaxAgeSeconds'>;
  clock: Clock;
}

export function createTokenService({ db, config, clock }: TokenServiceDeps) {
  const hashOf = (token: string) => keyedHash(config.appSecret, 'token', token);

  return {
    /** A new token for `userId`, written with `executor` (the sign-in's transaction). */
    async issue(executor: Executor, userId: number): Promise<string> {
      const token = newToken();
      await insertToken(executor, userId, hashOf(token), clock.now());
      return token;
    },

    /** The user behind an `Authorization` header, or Unauthenticated. */
    async authenticate(header: string | undefined): Promise<AuthUser> {
      const match = header ? BEARER.exec(header.trim()) : null;
      if (!match?.[1]) throw new Unauthenticated();
      const found = await findActiveToken(db, hashOf(match[1]));
      if (!found) throw new Unauthenticated();
      const status: UserStatus = found.user.status;
      if (status !== 'active') throw new Unauthenticated();
      const now = clock.now();
      // The absolute lifetime: however active, a stolen token stops working some day.
      if (now.getTime() - new Date(found.issuedAt).getTime() >= config.tokenMaxAgeSeconds * 1000) {
        throw new Unauthenticated();
      }
      const idleMs = now.getTime() - new Date(found.lastUsedAt).getTime();
      // Expire early rather than late: the stored time may lag the real last use by one touch interval.
      if (idleMs >= config.tokenIdleTtlSeconds * 1000 - touchIntervalMs(config)) throw new Unauthenticated();
      if (idleMs >= touchIntervalMs(config)) await touchToken(db, found.tokenId, now);
      return {
        id: found.user.id,
        phone: found.user.phone,
        country: found.user.country,
        role: found.user.role,
        tokenId: found.tokenId,
      };
    },

    /** Revokes the token the request came with (only that one). */
    async logout(user: AuthUser): Promise<void> {
      await revokeToken(db, user.tokenId, clock.now());
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
