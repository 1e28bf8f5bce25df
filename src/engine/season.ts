// Time in the engine: one day, and a league's seasons told apart by their label (`2019-20`), as
// the data names them. A pause is never a season break: a winter or World Cup pause, or a season
// suspended for months (spring 2020), stays inside its season.
import type { PlayedMatch } from './types.js';

export { DAY_MS } from '../lib/time.js';

/** The label of the season an instant falls in when the data gives none: July to June. */
export function seasonOfDate(instant: number): string {
  const date = new Date(instant);
  const start = date.getUTCMonth() >= 6 ? date.getUTCFullYear() : date.getUTCFullYear() - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** A match's season: the data's label, else the July-to-June season of its date. */
export function seasonOf(match: Pick<PlayedMatch, 'date' | 'season'>): string {
  return match.season || seasonOfDate(match.date);
}
