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

export interface Standing {
  points: number;
  played: number;
}

/** Points and matches played of each side over a run of matches. */
function tableOf(matches: readonly PlayedMatch[]): Map<string, Standing> {
  const table = new Map<string, Standing>();
  for (const match of matches) addToTable(table, match);
  return table;
}

/**
 * The stake classes the market rating can price (`MarketSettings.stakes`), for a side in its last
 * matches: the title decided for it (`champion`), in the title race, in a race for a European place,
 * safe with nothing to play for, in the relegation fight, or already down.
 */
export const STAKE_CLASSES = ['champion', 'title', 'europe', 'safe', 'relegation', 'relegated'] as const;
export type StakeClass = (typeof STAKE_CLASSES)[number];

interface Judgement {
  title: boolean;
  champions: boolean;
  europe: boolean;
  relegation: boolean;
  /** Champion already: no side can reach its points. */
  champion: boolean;
  /** Down already: it cannot reach the last safe place's points. */
  down: boolean;
}

/** Each side's matches in a double round-robin season of the table's sides. */
const matchesEach = (table: ReadonlyMap<string, Standing>) => 2 * (table.size - 1);

/**
 * What each side in its last matches can still reach or lose, from a season's table (a double
 * round-robin); empty for another format or a finished season.
 */
function judge(table: ReadonlyMap<string, Standing>): Map<string, Judgement> {
  const judged = new Map<string, Judgement>();
  const teams = table.size;
  const total = matchesEach(table);
  const rows = [...table.values()];
  // Another format (a split league, play-offs) is not a double round-robin: no judgement.
  if (teams < EUROPEAN_PLACES + RELEGATION_PLACES + 2 || rows.some((row) => row.played > total))
    return judged;
  // A finished season has nothing left at stake (the next match opens the next one); a season
  // paused with matches still to play keeps its judgement.
  if (rows.every((row) => row.played === total)) return judged;
  const byPoints = [...rows].sort((a, b) => b.points - a.points);
  const pointsAt = (rank: number) => byPoints[rank - 1]!.points;
  const bestAt = (rank: number) => {
    const row = byPoints[rank - 1]!;
    return row.points + 3 * (total - row.played);
  };
  const safeRank = teams - RELEGATION_PLACES;
  for (const [team, row] of table) {
    const left = total - row.played;
    if (left > LAST_MATCHES) continue;
    const best = row.points + 3 * left;
    // Can it still reach place `rank` (or above), or still lose it?
    const race = (rank: number) => best >= pointsAt(rank) && row.points <= bestAt(rank + 1);
    const others = byPoints.filter((other) => other !== row);
    judged.set(team, {
      title: best >= pointsAt(1) && row.points <= bestAt(2),
      champions: race(CHAMPIONS_PLACES),
      europe: race(EUROPEAN_PLACES),
      // Still in danger, and not yet down: it can still reach the points of the last safe place.
      relegation: row.points <= bestAt(safeRank + 1) && best >= pointsAt(safeRank),
      champion: others.every((other) => other.points + 3 * (total - other.played) < row.points),
      down: best < pointsAt(safeRank),
    });
  }
  return judged;
}

/**
 * The share of its class's term a side's stake carries (`MarketSettings.stakesRamp`): all of it in
 * its last match, e^−ramp less for each match more it has to play; 1 without a ramp.
 */
export function stakeShare(table: ReadonlyMap<string, Standing>, team: string, ramp: number): number {
  if (ramp === 0) return 1;
  const row = table.get(team);
  const left = row ? matchesEach(table) - row.played : LAST_MATCHES;
  return Math.exp(-ramp * Math.max(left - 1, 0));
}

/** Each side's class as of the table (sides not yet in their last matches are absent). */
export function stakeClasses(table: ReadonlyMap<string, Standing>): Map<string, StakeClass> {
  const classes = new Map<string, StakeClass>();
  for (const [team, j] of judge(table))
    classes.set(
      team,
      j.down
        ? 'relegated'
        : j.champion
          ? 'champion'
          : j.title
            ? 'title'
            : j.relegation
              ? 'relegation'
              : j.champions || j.europe
                ? 'europe'
                : 'safe',
    );
  return classes;
}

/** A season's table, kept match by match (the market rating's, when it prices stakes). */
export function addToTable(table: Map<string, Standing>, match: PlayedMatch): void {
  for (const [team, scored, conceded] of [
    [match.home, match.homeGoals, match.awayGoals],
    [match.away, match.awayGoals, match.homeGoals],
  ] as const) {
    const row = table.get(team) ?? { points: 0, played: 0 };
    row.played++;
    row.points += scored > conceded ? 3 : scored === conceded ? 1 : 0;
    table.set(team, row);
  }
}

/** Each side's stake as of `asOf`; sides (or seasons) not yet in their last matches are absent. */
export function seasonStakes(matches: readonly PlayedMatch[], asOf: number): Map<string, Stake> {
  const stakes = new Map<string, Stake>();
  const played = matches.filter((match) => match.date < asOf).sort((a, b) => a.date - b.date);
  const last = played.at(-1);
  if (!last) return stakes;
  const season = seasonOf(last);
  const table = tableOf(played.filter((match) => seasonOf(match) === season));
  for (const [team, j] of judge(table))
    stakes.set(team, j.title || j.champions || j.europe || j.relegation ? 'live' : 'dead');
  return stakes;
}
