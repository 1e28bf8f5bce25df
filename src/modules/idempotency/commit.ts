// The commits a service is given for its idempotent answer: `withoutKey` (a request without a key,
// the CLI, tests) and `commitOf` (a route's, over the claim its request holds). Pure: they build
// objects and do no I/O themselves. One of the pure helpers a module publishes to the others
// (docs/architecture.md, "Three ways of wiring").
import type { IdempotencyClaim, IdempotentCommit } from '../../types/idempotency.js';

/** The commit of a request without a key (and of callers outside HTTP: the CLI, tests). */
export const withoutKey: IdempotentCommit<unknown> = {
  keyId: null,
  store: async () => {},
  amend: async () => {},
};

/** The commit a route gives its service: records on `claim` `statusCode` and `answer(result)`. */
export function commitOf<T>(
  claim: IdempotencyClaim | null,
  statusCode: number,
  answer: (result: T) => unknown,
): IdempotentCommit<T> {
  if (!claim) return withoutKey;
  return {
    keyId: claim.keyId,
    store: (tx, result) => claim.record(tx, { statusCode, body: answer(result) }),
    amend: (result) => claim.amend(answer(result)),
  };
}
