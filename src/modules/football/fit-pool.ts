// Where a league's fit runs. The API's event loop must not stall for the 50–150 ms of a fit, so the
// analyst hands fits to one worker thread (fit-thread.ts) and awaits the ratings; the CLI and tests
// may fit inline. One thread is enough: fits are cached per league and day, so they are rare.
import { Worker } from 'node:worker_threads';
import { type CupForecast, type RatingMatch, rateCupMatches } from '../../engine/cup-rating.js';
import type { LinkedHistory } from '../../engine/divisions.js';
import { fitModel } from '../../engine/model.js';
import type { PlayedMatch, Ratings } from '../../engine/types.js';
import { tierOfGroup } from './cup-clubs.js';
import { type PackedMatches, packMatches } from './packed-matches.js';

export interface FitRequest {
  id: number;
  /** The matches packed (packed-matches.ts): transferred, not copied, off the event loop. */
  matches: PackedMatches;
  asOf: number;
  /** The league's code and its linked divisions' matches, packed alike (the market rating's arrivals). */
  linked?: { league: string; neighbours: { league: string; matches: PackedMatches }[] };
}

/** The cup rating's walk over every domestic and cup result (cup-rating.ts), its forecasts back. */
export interface CupRatingRequest {
  id: number;
  kind: 'cups';
  matches: RatingMatch[];
}

export type FitResponse =
  | { id: number; ratings: Ratings }
  | { id: number; cupForecasts: CupForecast[] }
  | { id: number; error: string };

export interface LeagueFitter {
  /** `linked`: the league's neighbouring divisions' matches, for the sides promoted or relegated from them. */
  fit(matches: PlayedMatch[], asOf: number, linked?: LinkedHistory<PlayedMatch>): Promise<Ratings>;
  /** The cup rating walked over `matches` (in date order), the ones marked `forecast` forecast. */
  rateCups(matches: RatingMatch[]): Promise<CupForecast[]>;
  close(): Promise<void>;
}

/** Fits on the calling thread (the CLI, benchmarks, tests that count fits). */
export function inlineFitter(): LeagueFitter {
  return {
    async fit(matches, asOf, linked) {
      return fitModel(matches, asOf, undefined, undefined, linked).ratings;
    },
    async rateCups(matches) {
      return rateCupMatches(matches, undefined, tierOfGroup);
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
  const pending = new Map<
    number,
    { resolve: (answer: FitResponse) => void; reject: (error: Error) => void }
  >();

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
      else waiting.resolve(response);
      if (pending.size === 0) thread.unref();
    });
    thread.on('error', (error) => failAll(error));
    thread.on('exit', (code) => {
      if (worker === thread) failAll(new Error(`fit thread exited with code ${code}`));
    });
    thread.unref();
    return thread;
  };

  /** Sends one request (its id given here), held referenced until its answer. */
  const send = (message: (id: number) => { request: unknown; transfer: ArrayBuffer[] }) => {
    worker ??= start();
    const thread = worker;
    const id = nextId++;
    return new Promise<FitResponse>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      // Held while an answer is owed, so a caller awaiting it is never left behind by an idle exit.
      thread.ref();
      const { request, transfer } = message(id);
      thread.postMessage(request, transfer);
    });
  };

  return {
    async rateCups(matches) {
      const answer = await send((id) => ({
        request: { id, kind: 'cups', matches } satisfies CupRatingRequest,
        transfer: [],
      }));
      if (!('cupForecasts' in answer)) throw new Error('cup rating answered without forecasts');
      return answer.cupForecasts;
    },
    async fit(matches, asOf, linked) {
      const answer = await send((id) => {
        const packed = packMatches(matches);
        const neighbours = (linked?.neighbours ?? []).map((neighbour) => ({
          league: neighbour.league,
          matches: packMatches(neighbour.matches),
        }));
        const request: FitRequest = {
          id,
          matches: packed,
          asOf,
          ...(linked ? { linked: { league: linked.league, neighbours } } : {}),
        };
        const transfer = [packed, ...neighbours.map((neighbour) => neighbour.matches)].flatMap((each) => [
          each.numbers.buffer as ArrayBuffer,
          each.names.buffer as ArrayBuffer,
        ]);
        return { request, transfer };
      });
      if (!('ratings' in answer)) throw new Error('fit answered without ratings');
      return answer.ratings;
    },
    async close() {
      const thread = worker;
      worker = undefined;
      if (thread) await thread.terminate();
      failAll(new Error('fit thread closed'));
    },
  };
}
