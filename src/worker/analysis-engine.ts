// The one analysis interface: what the worker and pronostic creation need from the prediction side,
// the name of the model that will run and the analysis itself. The football module's analyst
// implements it; tests pass their own (one that always fails, one that hangs) through buildApp.
import type { PronosticTypeSlug } from '../engine/types.js';

export interface AnalysisOutcome {
  /** DESIGN.md's result object. */
  result: Record<string, unknown>;
  /** The model that actually produced the result (e.g. the statistical one when the LLM failed). */
  aiModel: string;
}

export interface AnalysisEngine {
  /**
   * The pronostic types it answers (default: the engine's slug list). A job of another type (one
   * added in the back office before the engine knows it) is cancelled and refunded, never guessed at.
   */
  readonly supportedTypes?: readonly string[];
  /** The model that will run an analysis now (stored as `ai_model` at creation). */
  readonly modelName: string;
  /**
   * Analyses the match data a client sent (any shape: the engine tolerates odd values) for one
   * pronostic type. Throws only on a real failure, which the worker retries; honours the signal.
   */
  analyse(
    details: Record<string, unknown>,
    type: PronosticTypeSlug,
    signal?: AbortSignal,
  ): Promise<AnalysisOutcome>;
}
