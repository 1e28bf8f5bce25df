// Season labels and the result files of a league, for the engine's scripts. A league's seasons are
// `2019-20` (July to June) or, for the extra leagues that play in a calendar year, `2019`; the data
// folder holds a division's season files (`E1-2019-20.csv`), the seasons without odds under
// `results-only/`, and one file per extra league under `extra/` (`BRA.csv`, every season).
import { existsSync } from 'node:fs';
import type { EvaluationMatch } from '../../src/engine/evaluation.js';
import { seasonOf } from '../../src/engine/season.js';
import { DIVISION_CODES, EXTRA_LEAGUE_CODES, isExtraLeague } from '../../src/lib/competitions.js';
import { loadEvaluationFiles } from '../../src/modules/football/evaluation-data.js';

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

/** When a season starts: 1 July for `2019-20`, 1 January for a calendar year `2019`. */
export function seasonStart(season: string): number {
  return Date.UTC(startOf(season), /^\d{4}$/.test(season) ? 0 : 6, 1);
}

/** `LEAGUES=all`: every division and extra league of the catalogue. */
export const ALL_LEAGUES: readonly string[] = [...DIVISION_CODES, ...EXTRA_LEAGUE_CODES];

/** A division's files of `dir` that exist, in season order: its season file, else its results-only one. */
export function leagueFiles(dir: string, league: string, seasons: readonly string[]): string[] {
  const root = dir.replace(/\/+$/, '');
  return seasons
    .map((season) =>
      [`${root}/${league}-${season}.csv`, `${root}/results-only/${league}-${season}.csv`].find(existsSync),
    )
    .filter((file): file is string => file !== undefined);
}

/**
 * A league's matches of the seasons `seasons` (July-to-June labels), in date order: a division's
 * season files, or an extra league's country file cut to the seasons starting from the first of
 * them to the end of the last (its calendar years included: `2009` lies within `2008-09`–`2009-10`).
 */
export async function leagueMatches(
  dir: string,
  league: string,
  seasons: readonly string[],
): Promise<EvaluationMatch[]> {
  if (seasons.length === 0) return [];
  let matches: EvaluationMatch[];
  if (isExtraLeague(league)) {
    const file = `${dir.replace(/\/+$/, '')}/extra/${league}.csv`;
    const from = seasonStart(seasons[0]!);
    const to = seasonStart(labelOf(startOf(seasons.at(-1)!) + 1));
    matches = existsSync(file)
      ? (await loadEvaluationFiles([file]))
          .flatMap((loaded) => loaded.matches)
          .filter((match) => {
            const start = seasonStart(seasonOf(match));
            return match.league === league && start >= from && start < to;
          })
      : [];
  } else {
    matches = (await loadEvaluationFiles(leagueFiles(dir, league, seasons))).flatMap(
      (loaded) => loaded.matches,
    );
  }
  return matches.sort((a, b) => a.date - b.date);
}
