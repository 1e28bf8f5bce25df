// The optional LLM narrative: a driver rewrites the statistical analysis text from the model's
// numbers, and only the text. `builtin` keeps the statistical text; `openai` asks any
// OpenAI-compatible chat-completions endpoint. A failure is the caller's cue to keep its own text.
import type { Config } from '../../config.js';
import { createBuiltinNarrator } from './builtin.js';
import { createOpenAiNarrator } from './openai.js';
import type { Narrator, NarratorDeps } from './types.js';

export * from './types.js';

export function createNarrator(config: Config, deps: NarratorDeps): Narrator {
  if (config.aiDriver === 'openai') {
    const { baseUrl, apiKey, model } = config.ai;
    // loadConfig refuses AI_DRIVER=openai without these; a hand-built config may not.
    if (baseUrl && apiKey && model) {
      const { timeoutMs, narrativeDeadlineMs: deadlineMs } = config.ai;
      return createOpenAiNarrator({ baseUrl, apiKey, model, timeoutMs, deadlineMs }, deps);
    }
    deps.logger.warn('AI_DRIVER=openai without AI_BASE_URL, AI_API_KEY and AI_MODEL: statistical text only');
  }
  return createBuiltinNarrator();
}
