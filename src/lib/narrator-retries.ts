// How often the LLM narrator tries and how long it may pause between tries. The openai driver
// follows this policy and the configuration checks the narrator's settings against it at start,
// so both read it here rather than the configuration reaching into a provider.

/** Tries per rewrite: the first one and two retries. */
export const NARRATOR_ATTEMPTS = 3;
/** The longest pause between tries, whatever Retry-After asks. */
export const NARRATOR_MAX_PAUSE_MS = 5_000;

/** The longest a rewrite can take when every try runs to its timeout and every pause is the longest. */
export function narratorWorstCaseMs(timeoutMs: number): number {
  return NARRATOR_ATTEMPTS * timeoutMs + (NARRATOR_ATTEMPTS - 1) * NARRATOR_MAX_PAUSE_MS;
}
