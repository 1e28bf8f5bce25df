// The one analysis interface: what the analysis worker and pronostic creation need from the
// prediction side, the name of the model that will run and the analysis itself. The football
// module's analyst implements it; the container, the worker and the app name it from here, below
// them all, so the football module names nothing of the pronostics module that reaches it through
// the fixtures (decision 0114). Tests pass their own (one that always fails, one that hangs)
// through buildApp.
import type { PrematchOdds } from '../engine/types.js';
import type { Locale, PronosticTypeSlug } from '../lib/allowed-values.js';

/** What the analysis is given besides the match data (issue 25). */
export interface AnalysisInput {
  /** The fixture's latest pre-match odds collected before the analysis (never closing odds). */
  prematchOdds?: PrematchOdds;
  /** The language of its words (the pronostic's: its account's at creation); French by default. */
  locale?: Locale;
}

export interface AnalysisOutcome {
  /** DESIGN.md's result object. */
  result: Record<string, unknown>;
  /** The model that actually produced the result (e.g. the statistical one when the LLM failed). */
  aiModel: string;
  /** The score matrix the result was read off (engine `encodeMatrix`), stored and never shown. */
  scoreMatrix?: string;
}

export interface Analyst {
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
    input?: AnalysisInput,
  ): Promise<AnalysisOutcome>;
  /** Cheap facts for the start-up log, e.g. { matches: 0 } → a warning that no results are loaded. */
  describe?(): Promise<{ matches: number; leagues: number }>;
  /** Stops what it runs beside the event loop (the football analyst's fit thread). */
  close?(): Promise<void>;
}
