// Idempotency-Key (Stripe's practice): the same key and body from the same user within 24 h replays
// the first answer; the same key with another body is a 422; while the first request still runs, a
// 409. A service stores its answer with `complete()` inside the transaction that made the change, so
// a crash can never leave a change without its stored answer, nor an answer without its change.
import { createHash } from 'node:crypto';
import type { Executor } from '../../db/client.js';
import { Conflict, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { addSeconds } from '../../lib/time.js';
import { completeKey, deleteKey, findKey, insertPending } from './repository.js';

export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;
/** An in-flight key older than this belongs to a request that died; a retry may take it over. */
const IN_FLIGHT_SECONDS = 120;
export const IDEMPOTENCY_KEY_MAX = 255;

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

export interface IdempotencyClaim {
  /** Stores the answer; call inside the transaction that made the change. */
  complete(db: Executor, answer: StoredAnswer, now: Date): Promise<void>;
  /** Forgets the key (the request failed without a change worth replaying, e.g. a 422). */
  release(db: Executor): Promise<void>;
}

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

export function validateIdempotencyKey(key: string | string[] | undefined): string | undefined {
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

export async function beginIdempotent(
  db: Executor,
  request: { userId: number; scope: string; key: string; body: unknown },
  now: Date,
): Promise<IdempotencyOutcome> {
  const requestHash = createHash('sha256').update(canonical(request.body)).digest('hex');
  for (let attempt = 0; attempt < 3; attempt++) {
    const id = await insertPending(db, {
      userId: request.userId,
      scope: request.scope,
      key: request.key,
      requestHash,
      expiresAt: addSeconds(now, IN_FLIGHT_SECONDS),
    });
    if (id !== undefined) {
      return {
        claim: {
          complete: (executor, answer, at) =>
            completeKey(
              executor,
              id,
              answer.statusCode,
              answer.body,
              addSeconds(at, IDEMPOTENCY_TTL_SECONDS),
            ),
          release: (executor) => deleteKey(executor, id),
        },
      };
    }
    const existing = await findKey(db, request.userId, request.scope, request.key);
    if (!existing) continue;
    if (new Date(existing.expiresAt).getTime() <= now.getTime()) {
      // Expired (a replay window that ended, or an in-flight request that died): start afresh.
      await deleteKey(db, existing.id);
      continue;
    }
    if (existing.requestHash !== requestHash) {
      throw ValidationFailed.field('Idempotency-Key', messages.idempotencyKeyReused);
    }
    if (existing.statusCode === null) throw new Conflict();
    return { replay: { statusCode: existing.statusCode, body: existing.responseBody } };
  }
  throw new Conflict();
}
