// What is still at stake for each side near the end of a season, from the league table as of a
// date: a side that can no longer win the title, reach or lose a Champions League (top-four) or
// European (top-six) place, or go down has "nothing to play for", and such sides do worse than
// their ratings against sides that still need points (docs/engine/results-fit.md). Only the last
// matches of a round-robin season are judged: a double one, or the triple and quadruple ones of
// small leagues (Scotland below its top division, Switzerland, Ireland), told by the season before
// (`seasonMeetings`). A season is told by its label, so one interrupted by a long pause (spring
// 2020) is still one season.
import { seededRandom } from './random.js';
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
  /** How often it has hosted each side this season (what is left of the round-robin is the rest). */
  hosted?: Map<string, number>;
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
  /** What three more points would change where it ends (in practice only): `SideNeed`. */
  need?: SideNeed;
}

/**
 * A side's need for points: the chances of the title, a top-four place, a top-six place and safety
 * with three more points, minus without (`lines`, in that order), and their sum (`total`).
 */
export interface SideNeed {
  total: number;
  lines: readonly [number, number, number, number];
}

/**
 * How many times each pair of sides meets in a league's season, from its last season's table: 2
 * (a double round-robin, one cut short, or one followed by play-offs among a few sides), 3 or 4 (a
 * small league's triple or quadruple round-robin: most sides played that multiple of the others),
 * or null for another format (a league split in two after its round-robin), whose end is not
 * judged: the split's pairings are not known before it. The sides of a promotion play-off, a
 * match or two, are not the league's.
 */
export function seasonMeetings(finished: ReadonlyMap<string, Standing>): number | null {
  const played = [...finished.values()].map((row) => row.played);
  const most = Math.max(0, ...played);
  const league = played.filter((n) => n >= most / 2);
  const others = league.length - 1;
  if (others < 1 || most <= 2 * others) return 2;
  // The usual number of matches (a relegation play-off's extra two are not the format's).
  const counts = new Map<number, number>();
  for (const n of league) counts.set(n, (counts.get(n) ?? 0) + 1);
  const usual = [...counts].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  return usual % others === 0 && usual >= 2 * others ? usual / others : null;
}

/** Each side's matches in a season of the table's sides meeting `meetings` times. */
const matchesEach = (table: ReadonlyMap<string, Standing>, meetings: number) => meetings * (table.size - 1);

/**
 * Whether a table can be judged: a round-robin (`meetings`, null for another format) of enough
 * sides, not finished (the next match opens the next season; a season paused with matches still
 * to play keeps its judgement), with a side in its last matches.
 */
function judgeable(table: ReadonlyMap<string, Standing>, meetings: number | null): meetings is number {
  if (meetings === null) return false;
  const total = matchesEach(table, meetings);
  const rows = [...table.values()];
  // A season played past its round-robin (a split, play-offs) is another format: no judgement.
  if (table.size < EUROPEAN_PLACES + RELEGATION_PLACES + 2 || rows.some((row) => row.played > total))
    return false;
  return rows.some((row) => row.played < total) && rows.some((row) => total - row.played <= LAST_MATCHES);
}

/**
 * The matches each side has left in its season's round-robin (`meetings`); empty where the season
 * is not judged (another format, a table too small or played past its round-robin).
 */
export function matchesLeft(
  table: ReadonlyMap<string, Standing>,
  meetings: number | null,
): Map<string, number> {
  const left = new Map<string, number>();
  if (!judgeable(table, meetings)) return left;
  const total = matchesEach(table, meetings);
  for (const [team, row] of table) left.set(team, total - row.played);
  return left;
}

/**
 * What each side in its last matches can still reach or lose, from a season's table (a
 * round-robin of `meetings`); empty for another format or a finished season.
 */
function judge(table: ReadonlyMap<string, Standing>, meetings: number | null): Map<string, Judgement> {
  const judged = new Map<string, Judgement>();
  if (!judgeable(table, meetings)) return judged;
  const teams = table.size;
  const total = matchesEach(table, meetings);
  const rows = [...table.values()];
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
export function stakeShare(
  table: ReadonlyMap<string, Standing>,
  team: string,
  ramp: number,
  meetings: number | null = 2,
): number {
  if (ramp === 0) return 1;
  const row = table.get(team);
  const left = row && meetings ? matchesEach(table, meetings) - row.played : LAST_MATCHES;
  return Math.exp(-ramp * Math.max(left - 1, 0));
}

/** The league's usual shares of home wins and draws: a simulated match's, its sides alike. */
const HOME_WIN = 0.45;
const DRAW = 0.27;
/**
 * Seasons simulated for a practical judgement: a share near 0.05 is read within about ±0.02, a
 * side's need within about ±0.02, in ~2.5 ms a table; 2,000 read them twice as closely in ~7 ms,
 * seconds on a league's first fit (decision 0169).
 */
const SIMULATIONS = 500;
/** Judgements kept by table (a fit reads the same seasons hundreds of times); cleared when full. */
const practicalJudgements = new Map<string, Map<string, Judgement>>();
const KEPT_JUDGEMENTS = 50_000;

/** FNV-1a: a simulation's seed from its table, so a judgement never depends on the order asked. */
function seedOf(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/** How often each side ends first, in the top four, the top six and down, and its need's count. */
interface SimulatedRest {
  first: Int32Array;
  champions: Int32Array;
  europe: Int32Array;
  down: Int32Array;
  /** How often three more points would carry side i over line l (`SideNeed.lines`' order): at `4i + l`. */
  needs: Int32Array;
}

/**
 * The rest of a season simulated SIMULATIONS times with its sides alike, from each side's points
 * (`start`) and the fixtures left (`homes[f]` hosts `aways[f]`); the need counted for the sides in
 * their last matches (`judged`). Its loop runs a few million times on a league's first fit, so it is
 * a small function of its own over typed arrays and index loops: inside the judgement, with
 * iterators, 2,000 seasons took ~22 ms a table; here, with the generator unboxed, ~7.
 */
function simulateRest(
  start: Float64Array,
  homes: Int32Array,
  aways: Int32Array,
  judged: Uint8Array,
  seed: number,
): SimulatedRest {
  const random = seededRandom(seed);
  const size = start.length;
  const safeRank = size - RELEGATION_PLACES;
  const counts: SimulatedRest = {
    first: new Int32Array(size),
    champions: new Int32Array(size),
    europe: new Int32Array(size),
    down: new Int32Array(size),
    needs: new Int32Array(4 * size),
  };
  const { first, champions, europe, down, needs } = counts;
  const points = new Float64Array(size);
  const order = new Int32Array(size);
  for (let run = 0; run < SIMULATIONS; run++) {
    // Points ahead of a tie-break drawn at random (under a point, so never past a whole point).
    for (let i = 0; i < size; i++) points[i] = start[i]! + 0.5 * random();
    for (let f = 0; f < homes.length; f++) {
      const u = random();
      if (u < HOME_WIN) points[homes[f]!]! += 3;
      else if (u < HOME_WIN + DRAW) {
        points[homes[f]!]! += 1;
        points[aways[f]!]! += 1;
      } else points[aways[f]!]! += 3;
    }
    // Best first, by insertion (a league's twenty-odd sides; the tie-breaks make every total distinct).
    for (let i = 0; i < size; i++) {
      let at = i;
      while (at > 0 && points[order[at - 1]!]! < points[i]!) {
        order[at] = order[at - 1]!;
        at--;
      }
      order[at] = i;
    }
    // A side's rank with three points more is the sides above it then: a prefix of the order that
    // only grows down the table.
    let above = 0;
    for (let rank = 0; rank < size; rank++) {
      const i = order[rank]!;
      while (points[order[above]!]! > points[i]! + 3) above++;
      if (rank === 0) first[i]!++;
      if (rank < CHAMPIONS_PLACES) champions[i]!++;
      if (rank < EUROPEAN_PLACES) europe[i]!++;
      if (rank >= safeRank) down[i]!++;
      if (judged[i] === 0) continue;
      if (above < 1 && rank >= 1) needs[4 * i]!++;
      if (above < CHAMPIONS_PLACES && rank >= CHAMPIONS_PLACES) needs[4 * i + 1]!++;
      if (above < EUROPEAN_PLACES && rank >= EUROPEAN_PLACES) needs[4 * i + 2]!++;
      if (above < safeRank && rank >= safeRank) needs[4 * i + 3]!++;
    }
  }
  return counts;
}

/**
 * The matches left between the table's sides (`homes[f]` hosts `aways[f]`, host by host), each pair
 * meeting `meetings` times: a pair's remaining meetings go, one by one, to the side that has hosted
 * the other less (the one listed first on a tie; a triple round-robin's odd meeting is not known
 * in advance, and the need hardly depends on where it is played).
 */
function fixturesLeft(
  teams: readonly string[],
  rows: readonly Standing[],
  meetings: number,
): [number, number][] {
  const size = teams.length;
  const hosts = new Int32Array(size * size);
  for (let i = 0; i < size; i++)
    for (let j = i + 1; j < size; j++) {
      let hi = rows[i]!.hosted!.get(teams[j]!) ?? 0;
      let hj = rows[j]!.hosted!.get(teams[i]!) ?? 0;
      for (let left = meetings - hi - hj; left > 0; left--)
        if (hi <= hj) {
          hi++;
          hosts[i * size + j]!++;
        } else {
          hj++;
          hosts[j * size + i]!++;
        }
    }
  const fixtures: [number, number][] = [];
  for (let h = 0; h < size; h++)
    for (let a = 0; a < size; a++) for (let n = hosts[h * size + a]!; n > 0; n--) fixtures.push([h, a]);
  return fixtures;
}

/**
 * What each side in its last matches can still reach or lose in practice: the rest of the season
 * (`fixturesLeft`) simulated with its sides alike, a race open for a side while its chance of
 * ending on either side of the line is over `decided`, decided for it beyond 1 − `decided`.
 * Arithmetic (`judge`) calls a race open while any run of results leaves it so: 8 points clear of
 * the drop with four matches left is "in the fight" there, safe here, as a bettor sees it. A table
 * without its pairings (or whose pairings do not add up to what is left to play) is judged by
 * arithmetic.
 */
function judgeInPractice(
  table: ReadonlyMap<string, Standing>,
  decided: number,
  meetings: number | null,
): Map<string, Judgement> {
  if (!judgeable(table, meetings)) return new Map();
  const teams = [...table.keys()];
  const rows = teams.map((team) => table.get(team)!);
  if (rows.some((row) => !row.hosted)) return judge(table, meetings);
  // Looked up before the pairings are listed: a fit reads each table many times. A double
  // round-robin's key (its simulation's seed) is as it was before other formats were judged.
  const format = meetings === 2 ? '' : `${meetings}x|`;
  const key = `${format}${decided}|${teams.map((team, i) => `${team}:${rows[i]!.points}:${rows[i]!.played}`).join('|')}`;
  const kept = practicalJudgements.get(key);
  if (kept) return kept;
  const total = matchesEach(table, meetings);
  const fixtures = fixturesLeft(teams, rows, meetings);
  const left = rows.map(() => 0);
  for (const [h, a] of fixtures) {
    left[h]!++;
    left[a]!++;
  }
  if (rows.some((row, i) => total - row.played !== left[i])) return judge(table, meetings);

  const { first, champions, europe, down, needs } = simulateRest(
    Float64Array.from(rows, (row) => row.points),
    Int32Array.from(fixtures, ([h]) => h),
    Int32Array.from(fixtures, ([, a]) => a),
    Uint8Array.from(left, (n) => (n <= LAST_MATCHES ? 1 : 0)),
    seedOf(key),
  );
  const open = (count: number) => count > decided * SIMULATIONS && count < (1 - decided) * SIMULATIONS;
  const sure = (count: number) => count >= (1 - decided) * SIMULATIONS;
  const needOf = (i: number): SideNeed => {
    const [t, c, e, s] = [needs[4 * i]!, needs[4 * i + 1]!, needs[4 * i + 2]!, needs[4 * i + 3]!];
    return {
      total: (t + c + e + s) / SIMULATIONS,
      lines: [t / SIMULATIONS, c / SIMULATIONS, e / SIMULATIONS, s / SIMULATIONS],
    };
  };
  const judged = new Map<string, Judgement>();
  for (const [i, team] of teams.entries()) {
    if (left[i]! > LAST_MATCHES) continue;
    judged.set(team, {
      title: open(first[i]!),
      champions: open(champions[i]!),
      europe: open(europe[i]!),
      relegation: open(down[i]!),
      champion: sure(first[i]!),
      down: sure(down[i]!),
      need: needOf(i),
    });
  }
  if (practicalJudgements.size >= KEPT_JUDGEMENTS) practicalJudgements.clear();
  practicalJudgements.set(key, judged);
  return judged;
}

/**
 * Each side's class as of the table (sides not yet in their last matches are absent): by
 * arithmetic, or in practice when `decided` is set (`MarketSettings.stakesDecided`); none in a
 * season of another format (`meetings` null, `seasonMeetings`).
 */
export function stakeClasses(
  table: ReadonlyMap<string, Standing>,
  decided?: number,
  meetings: number | null = 2,
): Map<string, StakeClass> {
  const classes = new Map<string, StakeClass>();
  for (const [team, j] of decided ? judgeInPractice(table, decided, meetings) : judge(table, meetings))
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

/**
 * How much each side in its last matches still needs points (`SideNeed`), from the rest of the
 * season simulated as `stakeClasses` judges it in practice (the same simulation when `decided` is
 * the classes'; the need does not depend on it); empty when the table cannot be simulated
 * (another format, no pairings).
 */
export function stakeNeeds(
  table: ReadonlyMap<string, Standing>,
  decided = 0.05,
  meetings: number | null = 2,
): Map<string, SideNeed> {
  const needs = new Map<string, SideNeed>();
  for (const [team, j] of judgeInPractice(table, decided, meetings)) if (j.need) needs.set(team, j.need);
  return needs;
}

/** A season's table, kept match by match (the market rating's, when it prices stakes). */
export function addToTable(table: Map<string, Standing>, match: PlayedMatch): void {
  for (const [team, scored, conceded] of [
    [match.home, match.homeGoals, match.awayGoals],
    [match.away, match.awayGoals, match.homeGoals],
  ] as const) {
    const row = table.get(team) ?? { points: 0, played: 0, hosted: new Map<string, number>() };
    row.played++;
    row.points += scored > conceded ? 3 : scored === conceded ? 1 : 0;
    table.set(team, row);
  }
  const hosted = table.get(match.home)!.hosted;
  hosted?.set(match.away, (hosted.get(match.away) ?? 0) + 1);
}

/**
 * Each side's stake as of `asOf`; sides (or seasons) not yet in their last matches are absent. The
 * season's format is read from the one before it among `matches` (a double round-robin without).
 */
export function seasonStakes(matches: readonly PlayedMatch[], asOf: number): Map<string, Stake> {
  const stakes = new Map<string, Stake>();
  const played = matches.filter((match) => match.date < asOf).sort((a, b) => a.date - b.date);
  const last = played.at(-1);
  if (!last) return stakes;
  const season = seasonOf(last);
  const labels = played.map((match) => seasonOf(match));
  // The latest season before this one (a league's labels sort as its seasons run).
  const before = labels.reduce<string | undefined>(
    (latest, label) => (label < season && (latest === undefined || label > latest) ? label : latest),
    undefined,
  );
  const meetings =
    before === undefined ? 2 : seasonMeetings(tableOf(played.filter((_, i) => labels[i] === before)));
  const table = tableOf(played.filter((_, i) => labels[i] === season));
  for (const [team, j] of judge(table, meetings))
    stakes.set(team, j.title || j.champions || j.europe || j.relegation ? 'live' : 'dead');
  return stakes;
}
