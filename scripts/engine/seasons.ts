// Season labels and the result files of a league, for the engine's scripts.
import { existsSync } from 'node:fs';

const startOf = (season: string) => Number(season.slice(0, 4));
const labelOf = (start: number) => `${start}-${String((start + 1) % 100).padStart(2, '0')}`;

/**
 * The season labels from `from` to `to`, both included; with offsets, from `from` shifted by
 * `first` to `to` shifted by `last` (`seasonsBetween('2008-09', '2008-09', -4, -1)`: the four before).
 */
export function seasonsBetween(from: string, to: string, first = 0, last = 0): string[] {
  const seasons: string[] = [];
  for (let start = startOf(from) + first; start <= startOf(to) + last; start++) seasons.push(labelOf(start));
  return seasons;
}

/** The files `<league>-<season>.csv` of `dir` that exist, in season order. */
export function leagueFiles(dir: string, league: string, seasons: readonly string[]): string[] {
  return seasons.map((season) => `${dir.replace(/\/+$/, '')}/${league}-${season}.csv`).filter(existsSync);
}
