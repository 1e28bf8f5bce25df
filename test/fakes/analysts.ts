// Test analysts for the worker's mechanics (claims, retries, cancellation); the real analyst has its
// own tests and runs in the end-to-end ones.
import type { PronosticTypeSlug } from '../../src/lib/allowed-values.js';
import type { Analyst } from '../../src/types/analyst.js';

/** Answers at once with a small, well-formed 1X2 result. */
export function fixedAnalyst(modelName = 'test-model-1'): Analyst & { calls: number } {
  const engine = {
    modelName,
    calls: 0,
    async analyse(details: Record<string, unknown>) {
      engine.calls += 1;
      return {
        aiModel: modelName,
        result: {
          market: '1x2',
          pick: 'home',
          pick_label: `Victoire de ${String(details.home)}`,
          confidence: 0.5,
          probabilities: { home: 0.5, draw: 0.3, away: 0.2 },
          analysis: `Analyse de test : ${String(details.home)} reçoit ${String(details.away)}.`,
        },
      };
    },
  };
  return engine;
}

export function failingAnalyst(): Analyst & { calls: number } {
  const engine = {
    modelName: 'failing-model',
    calls: 0,
    async analyse(): Promise<never> {
      engine.calls += 1;
      throw new Error('model exploded');
    },
  };
  return engine;
}

/** Hangs (honouring the abort signal) on matches whose home side is `home`; answers the others at once. */
export function hangingOn(home: string): Analyst & { hanging: number } {
  const answering = fixedAnalyst('selective-model');
  const engine = {
    modelName: 'selective-model',
    hanging: 0,
    analyse(details: Record<string, unknown>, type: PronosticTypeSlug, signal?: AbortSignal) {
      if (details.home !== home) return answering.analyse(details, type, signal);
      engine.hanging += 1;
      return new Promise<never>((_, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    },
  };
  return engine;
}

/** Never answers, but honours the abort signal like a well-behaved engine. */
export function hangingAnalyst(): Analyst & { started: number } {
  const engine = {
    modelName: 'hanging-model',
    started: 0,
    analyse(_details: Record<string, unknown>, _type: PronosticTypeSlug, signal?: AbortSignal) {
      engine.started += 1;
      return new Promise<never>((_, reject) => {
        signal?.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
      });
    },
  };
  return engine;
}
