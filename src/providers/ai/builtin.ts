// The `builtin` narrator: no LLM, the statistical text stands as written.
import type { Narrator } from './types.js';

export function createBuiltinNarrator(): Narrator {
  return {
    model: null,
    rewrite: async ({ draft }) => draft,
  };
}
