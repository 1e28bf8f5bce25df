// The HTTP call both provider drivers make: one POST with a timeout, retried once when the provider
// is down (5xx) or unreachable, so a passing outage does not cost the user a sign-in.
import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import { describeFetchError, isTimeout, parseJson } from '../http-answers.js';
import { type MessagingDriverName, MessagingError } from './types.js';

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_RETRY_DELAY_MS = 250;

/** What the HTTP drivers take besides their settings; tests shorten the waits. */
export interface HttpDriverDeps {
  logger: FastifyBaseLogger;
  fetch?: typeof fetch;
  /** Per attempt, including reading the answer. */
  timeoutMs?: number;
  /** Pause before the one retry. */
  retryDelayMs?: number;
}

export interface ProviderAnswer {
  status: number;
  /** The parsed JSON body, or undefined when the body is not JSON (a proxy's HTML page, say). */
  body: unknown;
}

interface PostOptions extends HttpDriverDeps {
  provider: MessagingDriverName;
  url: string;
  headers: Record<string, string>;
  body: string;
  /** Turns a provider's error answer into our error. */
  toError(answer: ProviderAnswer): MessagingError;
}

/** Returns the parsed body of a 2xx answer; throws MessagingError otherwise. */
export async function postWithRetry(options: PostOptions): Promise<unknown> {
  const { provider, logger } = options;
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const retryDelayMs = options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS;

  for (let attempt = 1; ; attempt++) {
    let failure: MessagingError;
    try {
      const signal = AbortSignal.timeout(timeoutMs);
      const response = await doFetch(options.url, {
        method: 'POST',
        headers: options.headers,
        body: options.body,
        signal,
      });
      const answer = { status: response.status, body: parseJson(await response.text()) };
      if (response.ok) return answer.body;
      failure = options.toError(answer);
      if (response.status < 500) throw failure;
    } catch (error) {
      if (error instanceof MessagingError) throw error;
      if (isTimeout(error)) {
        // Not retried: the provider may already have accepted the message, and a second full wait
        // would keep the person's sign-in request hanging twice as long.
        throw new MessagingError(`${provider}: no answer within ${timeoutMs} ms`, {
          provider,
          reason: 'timeout',
          retryable: true,
          cause: error,
        });
      }
      failure = new MessagingError(`${provider}: unreachable (${describeFetchError(error)})`, {
        provider,
        reason: 'unavailable',
        retryable: true,
        cause: error,
      });
    }
    if (attempt >= 2) throw failure;
    logger.warn(
      { provider, status: failure.status, providerCode: failure.providerCode },
      'messaging provider failed, retrying once',
    );
    if (retryDelayMs > 0) await sleep(retryDelayMs);
  }
}
