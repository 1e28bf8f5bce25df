// What is still at stake for each side near the end of a season, from the league table as of a
// date: a side that can no longer win the title, reach or lose a Champions League (top-four) or
// European (top-six) place, or go down has "nothing to play for", and such sides do worse than
// their ratings against sides that still need points (docs/engine/results-fit.md). Only the last
// matches of a double round-robin season are judged. A season is told by its label, so one interrupted by a
// long pause (spring 2020) is still one season.
import { seasonOf } from './season.js';
import type { PlayedMatch } from './types.js';

export type Stake = 'live' | 'dead';

/** Stakes are judged once a side has at most this many matches left. */
const LAST_MATCHES = 10;
/** The Champions League line: four places in England, Spain, Germany and Italy (three in France until 2019-20; four is the usual line). */
const CHAMPIONS_PLACES = 4;
const EUROPEAN_PLACES = 6;
const RELEGATION_PLACES = 3;

interface Standing {
  points: number;
  played: number;
}

/** Points and matches played of each side over a run of matches. */
function tableOf(matches: readonly PlayedMatch[]): Map<string, Standing> {
  const table = new Map<string, Standing>();
  const standing = (team: string) => {
    let row = table.get(team);
    if (!row) {
      row = { points: 0, played: 0 };
      table.set(team, row);
    }
    return row;
  };
  for (const match of matches) {
    const home = standing(match.home);
    const away = standing(match.away);
    home.played++;
    away.played++;
    if (match.homeGoals > match.awayGoals) home.points += 3;
    else if (match.homeGoals < match.awayGoals) away.points += 3;
    else {
      home.points++;
      away.points++;
    }
  }
  return table;
}

/** Each side's stake as of `asOf`; sides (or seasons) not yet in their last matches are absent. */
export function seasonStakes(matches: readonly PlayedMatch[], asOf: number): Map<string, Stake> {
  const stakes = new Map<string, Stake>();
  const played = matches.filter((match) => match.date < asOf).sort((a, b) => a.date - b.date);
  const last = played.at(-1);
  if (!last) return stakes;
  const season = seasonOf(last);
  const table = tableOf(played.filter((match) => seasonOf(match) === season));

  const teams = table.size;
  const total = 2 * (teams - 1);
  const rows = [...table.values()];
  // Another format (a split league, play-offs) is not a double round-robin: no judgement.
  if (teams < EUROPEAN_PLACES + RELEGATION_PLACES + 2 || rows.some((row) => row.played > total))
    return stakes;
  // A finished season has nothing left at stake (the next match opens the next one); a season
  // paused with matches still to play keeps its judgement.
  if (rows.every((row) => row.played === total)) return stakes;
  const byPoints = rows.sort((a, b) => b.points - a.points);
  const pointsAt = (rank: number) => byPoints[rank - 1]!.points;
  const bestAt = (rank: number) => {
    const row = byPoints[rank - 1]!;
    return row.points + 3 * (total - row.played);
  };

  for (const [team, row] of table) {
    const left = total - row.played;
    if (left > LAST_MATCHES) continue;
    const best = row.points + 3 * left;
    // Can it still reach place `rank` (or above), or still lose it?
    const race = (rank: number) => best >= pointsAt(rank) && row.points <= bestAt(rank + 1);
    const title = best >= pointsAt(1) && row.points <= bestAt(2);
    const champions = race(CHAMPIONS_PLACES);
    const europe = race(EUROPEAN_PLACES);
    // Still in danger, and not yet down: it can still reach the points of the last safe place.
    const relegation =
      row.points <= bestAt(teams - RELEGATION_PLACES + 1) && best >= pointsAt(teams - RELEGATION_PLACES);
    stakes.set(team, title || champions || europe || relegation ? 'live' : 'dead');
  }
  return stakes;
}
