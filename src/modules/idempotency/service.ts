// Idempotency-Key (Stripe's practice): the same key and body from the same user within 24 h replays
// the first answer; the same key with another body is a 422; while the first request still runs, a
// 409. A claim's answer is recorded inside the transaction that makes the change (`IdempotentCommit.store`),
// so a crash can never leave a change without its stored answer, nor an answer without its change;
// and the row the change creates carries the claim's id under a unique index, so one key can never
// cause two changes, even when a claim whose request seemed dead is taken over.
import { createHash } from 'node:crypto';
import type { Database, Executor } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { RequestInFlight, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { addSeconds } from '../../lib/time.js';
import type { IdempotencyClaim, StoredAnswer } from '../../types/idempotency.js';
import { commitOf } from './commit.js';
import {
  completeKey,
  deleteExpiredKey,
  deleteExpiredKeys,
  deleteKeysOf,
  deletePendingKey,
  findKey,
  insertPending,
  replaceAnswerBody,
} from './repository.js';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** A pending key older than this belongs to a request that died; a retry may take it over. */
export const IN_FLIGHT_SECONDS = 120;
export const IDEMPOTENCY_KEY_MAX = 255;

export type IdempotencyOutcome = { replay: StoredAnswer } | { claim: IdempotencyClaim };

/** Canonical JSON (sorted keys) so that the same body in another key order is the same request. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) =>
      a < b ? -1 : a > b ? 1 : 0,
    );
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The header's value, or undefined when absent; a 422 on `Idempotency-Key` when malformed. */
function validateIdempotencyKey(key: string | string[] | undefined): string | undefined {
  if (key === undefined) return undefined;
  const value = Array.isArray(key) ? key[0] : key;
  if (
    value === undefined ||
    value.length === 0 ||
    value.length > IDEMPOTENCY_KEY_MAX ||
    !/^[\x21-\x7e]+$/.test(value)
  ) {
    throw ValidationFailed.field('Idempotency-Key', messages.idempotencyKeyInvalid);
  }
  return value;
}

export interface IdempotencyServiceDeps {
  db: Database;
  clock: Clock;
}

export function createIdempotencyService({ db, clock }: IdempotencyServiceDeps) {
  function claimOf(keyId: number): IdempotencyClaim {
    let recorded = false;
    return {
      keyId,
      get recorded() {
        return recorded;
      },
      async record(db, answer) {
        const stored = await completeKey(db, keyId, {
          statusCode: answer.statusCode,
          responseBody: answer.body,
          expiresAt: addSeconds(clock.now(), IDEMPOTENCY_TTL_SECONDS),
        });
        // Another request took the key over: throwing rolls this request's change back.
        if (!stored) throw new RequestInFlight();
        recorded = true;
      },
      async release() {
        recorded = true;
        await deletePendingKey(db, keyId);
      },
      async amend(body) {
        await replaceAnswerBody(db, keyId, body);
      },
    };
  }

  return {
    /** Claims the key for this request, or gives the answer to replay. */
    async begin(request: {
      userId: number;
      scope: string;
      key: string;
      body: unknown;
      /** The path's parameters: the same key and body on another resource is another request. */
      params?: Record<string, unknown>;
    }): Promise<IdempotencyOutcome> {
      // A route without parameters hashes its body alone (as keys stored before parameters counted).
      const fingerprint =
        request.params && Object.keys(request.params).length > 0
          ? { params: request.params, body: request.body }
          : request.body;
      const requestHash = createHash('sha256').update(canonical(fingerprint)).digest('hex');
      for (let attempt = 0; attempt < 3; attempt++) {
        const now = clock.now();
        const id = await insertPending(db, {
          userId: request.userId,
          scope: request.scope,
          key: request.key,
          requestHash,
          expiresAt: addSeconds(now, IN_FLIGHT_SECONDS),
        });
        if (id !== undefined) return { claim: claimOf(id) };
        const existing = await findKey(db, request.userId, request.scope, request.key);
        if (!existing) continue;
        if (new Date(existing.expiresAt).getTime() <= now.getTime()) {
          // Expired (a replay window that ended, or a claim whose request died): start afresh. The
          // old claim, if its request still runs, can no longer record its answer, so its change rolls back.
          await deleteExpiredKey(db, existing.id, now);
          continue;
        }
        if (existing.requestHash !== requestHash) {
          throw ValidationFailed.field('Idempotency-Key', messages.idempotencyKeyReused);
        }
        if (existing.statusCode === null) throw new RequestInFlight();
        return { replay: { statusCode: existing.statusCode, body: existing.responseBody } };
      }
      throw new RequestInFlight();
    },

    /** Deletes answers past their 24 hours and dead claims; returns how many. */
    /** In an account deletion's transaction: the user's stored answers deleted. */
    forgetUser(tx: Executor, userId: number): Promise<void> {
      return deleteKeysOf(tx, userId);
    },

    purgeExpired(now: Date): Promise<number> {
      return deleteExpiredKeys(db, now);
    },

    validateKey: validateIdempotencyKey,
    commitOf,
  };
}

export type IdempotencyService = ReturnType<typeof createIdempotencyService>;
