// What the worker and pronostic creation need from the prediction side: the name of the model that
// will run, and the analysis itself. The football module's analyst is the real one; tests pass
// their own (one that always fails, one that hangs) through buildApp.
export interface AnalysisOutcome {
  result: Record<string, unknown>;
  /** The model that actually produced the result (e.g. the statistical one when the LLM failed). */
  aiModel: string;
}

export interface AnalysisEngine {
  readonly modelName: string;
  analyse(details: Record<string, unknown>, typeSlug: string, signal?: AbortSignal): Promise<AnalysisOutcome>;
}
