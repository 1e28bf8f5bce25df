// Idempotency-Key for any route that opts in with `config: { idempotency: '<scope>' }`: before the
// handler it claims the key (or replays the stored answer, or answers 409 / 422); the handler hands
// `request.idempotent(status, answer)` to its service, which stores the answer in the transaction
// of its change; a 402 refusal is stored as it is sent, and any other failure releases the key.
import type { FastifyInstance, onSendAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { IdempotencyClaim, IdempotentCommit } from '../../types/idempotency.js';
import { currentUser } from './auth.js';
import { addRouteHook } from './route-hooks.js';

/** Refusals replayed like successes (DESIGN, Idempotency: "201 or 402"). */
const STORED_REFUSALS: ReadonlySet<number> = new Set([402]);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Opts the route in to Idempotency-Key; the scope keeps keys of different actions apart. */
    idempotency?: string;
  }
  interface FastifyRequest {
    /** The key this request holds, when it sent one to a route that opted in. */
    idempotencyClaim: IdempotencyClaim | null;
    /** What the handler gives its service: stores `answer(result)` with `statusCode` in the change's transaction. */
    idempotent<T>(statusCode: number, answer: (result: T) => unknown): IdempotentCommit<T>;
  }
}

async function idempotencyPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('idempotencyClaim', null);
  app.decorateRequest('idempotent', function idempotent<
    T,
  >(this: { idempotencyClaim: IdempotencyClaim | null }, statusCode: number, answer: (result: T) => unknown) {
    return app.services.idempotency.commitOf(this.idempotencyClaim, statusCode, answer);
  });

  // Only the routes that declare an idempotency scope get the two hooks, after the app-wide ones:
  // after validation, authentication and the text guard, so a malformed body is a 422 that claims nothing.
  app.addHook('onRoute', (route) => {
    const scope = (route.config as { idempotency?: string } | undefined)?.idempotency;
    if (!scope) return;
    const claim: preHandlerAsyncHookHandler = async (request, reply) => {
      const key = app.services.idempotency.validateKey(request.headers['idempotency-key']);
      if (key === undefined) return;
      const outcome = await app.services.idempotency.begin({
        userId: currentUser(request).id,
        scope,
        key,
        body: request.body,
        params: request.params as Record<string, unknown>,
      });
      if ('replay' in outcome) {
        // The stored answer was built from this route's response schema when it was first sent.
        return reply.code(outcome.replay.statusCode).send(outcome.replay.body);
      }
      request.idempotencyClaim = outcome.claim;
    };
    const settle: onSendAsyncHookHandler = async (request, reply, payload) => {
      const held = request.idempotencyClaim;
      if (!held || held.recorded) return payload;
      if (STORED_REFUSALS.has(reply.statusCode) && typeof payload === 'string') {
        // Nothing changed, so the refusal is stored on its own; if another request took the key over
        // meanwhile, that request's answer is the one to keep.
        await held
          .record(app.db, { statusCode: reply.statusCode, body: JSON.parse(payload) })
          .catch(() => undefined);
      } else {
        await held.release();
      }
      return payload;
    };
    addRouteHook(route, 'preHandler', claim);
    addRouteHook(route, 'onSend', settle);
  });
}

export default fp(idempotencyPlugin, { name: 'idempotency', dependencies: ['context', 'auth'] });
