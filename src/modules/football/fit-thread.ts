// The worker thread's side of the fit pool (fit-pool.ts): fits a league's ratings off the main
// event loop. Ratings are plain data (Maps included), so they cross the thread boundary as they are.
import { parentPort } from 'node:worker_threads';
import { rateCupMatches } from '../../engine/cup-rating.js';
import { fitModel } from '../../engine/model.js';
import { tierOfGroup } from './cup-clubs.js';
import type { CupRatingRequest, FitRequest, FitResponse } from './fit-pool.js';
import { unpackMatches } from './packed-matches.js';

parentPort?.on('message', (request: FitRequest | CupRatingRequest) => {
  let response: FitResponse;
  try {
    if ('kind' in request) {
      // The cups' one-scale rating walks every domestic and cup result: 0.1–1 s off the event loop.
      parentPort?.postMessage({
        id: request.id,
        cupForecasts: rateCupMatches(request.matches, undefined, tierOfGroup),
      } satisfies FitResponse);
      return;
    }
    const linked = request.linked && {
      league: request.linked.league,
      neighbours: request.linked.neighbours.map((neighbour) => ({
        league: neighbour.league,
        matches: unpackMatches(neighbour.matches),
      })),
    };
    const matches = unpackMatches(request.matches);
    response = {
      id: request.id,
      ratings: fitModel(matches, request.asOf, undefined, undefined, linked).ratings,
    };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response);
});
