// What an idempotent request hands its service: the claim the idempotency plugin holds
// (plugins/app/idempotency.ts) and the commit a service stores its answer with, in its transaction.
// The idempotency module implements them (modules/idempotency/service.ts); the plugin and the
// services name them from here, below both (docs/architecture.md, "Types shared across layers").
import type { Executor, Transaction } from '../db/client.js';

export interface StoredAnswer {
  statusCode: number;
  body: unknown;
}

/** A key this request holds until it records its answer or releases it. */
export interface IdempotencyClaim {
  readonly keyId: number;
  /** Stores the answer; inside the change's transaction. RequestInFlight when the key was taken over. */
  record(db: Executor, answer: StoredAnswer): Promise<void>;
  /** Forgets the key: the request failed without a change worth replaying (e.g. a 422). */
  release(): Promise<void>;
  /** Replaces the stored body of a recorded key (same status): see IdempotentCommit.amend. */
  amend(body: unknown): Promise<void>;
  readonly recorded: boolean;
}

/**
 * What a service runs inside its transaction for a keyed request: the claim's id to store on the row
 * the change creates, and the answer to keep for `result`. Services take one of these and know
 * nothing of headers or status codes.
 */
export interface IdempotentCommit<T> {
  readonly keyId: number | null;
  store(tx: Transaction, result: T): Promise<void>;
  /**
   * After the transaction, when the effect went on outside it (a checkout calls its provider once
   * the payment is committed): stores the answer actually sent instead, so a replay gives the
   * client what the first request gave it (the payment URL included). If the process dies before
   * this, the replay is the committed state, which is still true.
   */
  amend(result: T): Promise<void>;
}
