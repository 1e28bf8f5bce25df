// `GET /api/competitions` in the screens' language, with the user's token, through the typed client.
import { api, dataOf } from './api.js';
import type { Competition } from './competition-name.js';

/** Every competition, in the screens' language; the service's refusal as an ApiError. */
export async function loadCompetitions(): Promise<Competition[]> {
  return (await dataOf(api.GET('/api/competitions'))).competitions;
}
