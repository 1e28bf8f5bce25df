// The narrator's contract, apart from its drivers (as messaging/types.ts does): what a driver is
// given, what it returns, and the one error it throws when no usable text came back.
import type { FastifyBaseLogger } from 'fastify';
import type { AnalysisFacts } from '../../engine/narration.js';
import type { Locale } from '../../lib/allowed-values.js';

export interface NarrativeRequest {
  /** The numbers the text must be written from (never changed by the narrator). */
  facts: AnalysisFacts;
  /** The statistical text, as a model answer to improve on (already in `locale`). */
  draft: string;
  /** The language the text is written in (the pronostic's); French when absent. */
  locale?: Locale;
}

export interface Narrator {
  /** The LLM's name for `ai_model` (e.g. `gpt-4o-mini`), or null when no LLM is used. */
  readonly model: string | null;
  /** The rewritten text, in the request's language; throws NarrativeError when no usable text came back. */
  rewrite(request: NarrativeRequest, signal?: AbortSignal): Promise<string>;
}

export class NarrativeError extends Error {
  override name = 'NarrativeError';
  /** `timeout`: one try had no answer in time; `deadline`: the whole rewrite ran out of time. */
  readonly reason: 'timeout' | 'deadline' | 'unavailable' | 'rejected' | 'malformed' | 'aborted';
  /** The endpoint's Retry-After, when it gave one. */
  readonly retryAfterMs: number | undefined;

  constructor(
    message: string,
    reason: NarrativeError['reason'],
    options: { cause?: unknown; retryAfterMs?: number } = {},
  ) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.retryAfterMs = options.retryAfterMs;
  }
}

export interface NarratorDeps {
  logger: FastifyBaseLogger;
  fetch?: typeof fetch;
  /** Pause before the first retry, doubled each time; tests shorten it. */
  retryDelayMs?: number;
}
