// Where a league's fit runs. The API's event loop must not stall for the 50–150 ms of a fit, so the
// analyst hands fits to one worker thread (fit-thread.ts) and awaits the ratings; the CLI and tests
// may fit inline. One thread is enough: fits are cached per league and day, so they are rare.
import { Worker } from 'node:worker_threads';
import { fitModel } from '../../engine/model.js';
import type { PlayedMatch, Ratings } from '../../engine/types.js';
import { type PackedMatches, packMatches } from './packed-matches.js';

export interface FitRequest {
  id: number;
  /** The matches packed (packed-matches.ts): transferred, not copied, off the event loop. */
  matches: PackedMatches;
  asOf: number;
}

export type FitResponse = { id: number; ratings: Ratings } | { id: number; error: string };

export interface LeagueFitter {
  fit(matches: PlayedMatch[], asOf: number): Promise<Ratings>;
  close(): Promise<void>;
}

/** Fits on the calling thread (the CLI, benchmarks, tests that count fits). */
export function inlineFitter(): LeagueFitter {
  return {
    async fit(matches, asOf) {
      return fitModel(matches, asOf).ratings;
    },
    async close() {},
  };
}

/**
 * Fits on a worker thread, started on first use and restarted after a crash. Under tsx (development,
 * tests) the thread runs the TypeScript entry with tsx's loader; built, the compiled one.
 */
export function threadFitter(): LeagueFitter {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(typescript ? './fit-thread.ts' : './fit-thread.js', import.meta.url);
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<number, { resolve: (ratings: Ratings) => void; reject: (error: Error) => void }>();

  const failAll = (error: Error) => {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = undefined;
  };

  const start = (): Worker => {
    // Under tsx the thread registers tsx's loader itself, then imports the TypeScript entry.
    const thread = typescript
      ? new Worker(
          `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`,
          { eval: true },
        )
      : new Worker(entry);
    thread.on('message', (response: FitResponse) => {
      const waiting = pending.get(response.id);
      if (!waiting) return;
      pending.delete(response.id);
      if ('error' in response) waiting.reject(new Error(`fit failed: ${response.error}`));
      else waiting.resolve(response.ratings);
      if (pending.size === 0) thread.unref();
    });
    thread.on('error', (error) => failAll(error));
    thread.on('exit', (code) => {
      if (worker === thread) failAll(new Error(`fit thread exited with code ${code}`));
    });
    thread.unref();
    return thread;
  };

  return {
    fit(matches, asOf) {
      worker ??= start();
      const thread = worker;
      const id = nextId++;
      return new Promise<Ratings>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        // Held while a fit is owed, so a caller awaiting it is never left behind by an idle exit.
        thread.ref();
        const packed = packMatches(matches);
        thread.postMessage({ id, matches: packed, asOf } satisfies FitRequest, [
          packed.numbers.buffer as ArrayBuffer,
          packed.names.buffer as ArrayBuffer,
        ]);
      });
    },
    async close() {
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
      failAll(new Error('fit thread closed'));
    },
  };
}
