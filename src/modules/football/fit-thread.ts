// The worker thread's side of the fit pool (fit-pool.ts): fits a league's ratings off the main
// event loop. Ratings are plain data (Maps included), so they cross the thread boundary as they are.
import { parentPort } from 'node:worker_threads';
import { fitModel } from '../../engine/model.js';
import type { FitRequest, FitResponse } from './fit-pool.js';
import { unpackMatches } from './packed-matches.js';

parentPort?.on('message', (request: FitRequest) => {
  let response: FitResponse;
  try {
    response = { id: request.id, ratings: fitModel(unpackMatches(request.matches), request.asOf).ratings };
  } catch (error) {
    response = { id: request.id, error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(response);
});
