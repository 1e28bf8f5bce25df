// The optional LLM narrative: a driver rewrites the statistical analysis text from the model's
// numbers, and only the text. `builtin` keeps the statistical text; `openai` asks any
// OpenAI-compatible chat-completions endpoint. A failure is the caller's cue to keep its own text.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { AnalysisFacts } from '../../engine/analysis-text.js';
import { createBuiltinNarrator } from './builtin.js';
import { createOpenAiNarrator } from './openai.js';

export interface NarrativeRequest {
  /** The numbers the text must be written from (never changed by the narrator). */
  facts: AnalysisFacts;
  /** The statistical text, as a model answer to improve on. */
  draft: string;
}

export interface Narrator {
  /** The LLM's name for `ai_model` (e.g. `gpt-4o-mini`), or null when no LLM is used. */
  readonly model: string | null;
  /** The rewritten French text; throws NarrativeError when no usable text came back. */
  rewrite(request: NarrativeRequest, signal?: AbortSignal): Promise<string>;
}

export class NarrativeError extends Error {
  override name = 'NarrativeError';
  readonly reason: 'timeout' | 'unavailable' | 'rejected' | 'malformed' | 'aborted';
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

export function createNarrator(config: Config, deps: NarratorDeps): Narrator {
  if (config.aiDriver === 'openai') {
    const { baseUrl, apiKey, model } = config.ai;
    // loadConfig refuses AI_DRIVER=openai without these; a hand-built config may not.
    if (baseUrl && apiKey && model) {
      return createOpenAiNarrator({ baseUrl, apiKey, model, timeoutMs: config.ai.timeoutMs }, deps);
    }
    deps.logger.warn('AI_DRIVER=openai without AI_BASE_URL, AI_API_KEY and AI_MODEL: statistical text only');
  }
  return createBuiltinNarrator();
}
