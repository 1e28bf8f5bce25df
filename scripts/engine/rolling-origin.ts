// The rolling origin as functions of the data they are given (`fit-market.ts` is their command):
// the market rating's filters fitted on the market's own figures before a fold, every match's
// forecasts as the engine would see them, the pools fitted on the seasons before the fold. A fold
// reads nothing of its own season's results or of any later season: its search starts from a
// fixed neutral point (`neutral.ts`), its filters read only the days before it, its pools only the
// seasons before it (test/engine/protocol.test.ts changes the later seasons and checks it).
import { linkedDivisions, linkKey } from '../../src/engine/divisions.js';
import { type EvaluationMatch, outcomeOf, type Probabilities3 } from '../../src/engine/evaluation.js';
import {
  type DivisionLinks,
  type FilterScore,
  impliedGoals,
  inverseOver,
  linkSource,
  type MarketForecast,
  marketFilter,
  marketForecast,
  overProbability,
  prematchForecast,
  pricedDays,
} from '../../src/engine/market-rating.js';
import { dayOf } from '../../src/engine/model.js';
import { stakeSign } from '../../src/engine/predict.js';
import type { ScoreMatrix } from '../../src/engine/score-matrix.js';
import { DAY_MS, seasonOf } from '../../src/engine/season.js';
import { STAKE_CLASSES, seasonStakes } from '../../src/engine/stakes.js';
import type { FilterSettings, MarketSettings } from '../../src/engine/types.js';
import { nelderMead } from './optimise.js';
import { type RecordedFit, recordedMatrix } from './record-fit.js';
import { seasonStart } from './seasons.js';

export interface ProtocolData {
  /** Each league's matches, every priced season, in date order. */
  leagues: ReadonlyMap<string, readonly EvaluationMatch[]>;
  /** The results-only fit's walk-forward predictions, by `fitKey`. */
  recorded: ReadonlyMap<string, RecordedFit>;
  /**
   * Every linked division's matches (divisions.ts), the scored leagues' included: where a league's
   * promoted and relegated sides come from, and what the division offsets are fitted on. Absent:
   * the scored leagues only.
   */
  divisions?: ReadonlyMap<string, readonly EvaluationMatch[]>;
}

export interface ProtocolOptions {
  /** Where every search starts (`NEUTRAL_MARKET_SETTINGS`). */
  start: MarketSettings;
  /** The first season whose forecasts the pools are fitted on. */
  firstPredicted: string;
  /** Passes over the three filters (each a Nelder–Mead search; a second pass restarts them). */
  rounds?: number;
  /** Nelder–Mead steps per filter search. */
  iterations?: number;
  /**
   * Production's window: each season's forecasts read only the priced matches of the `windowDays`
   * before its start and the season's own earlier days, as the analyst reads its database.
   * Absent: every priced season from the first.
   */
  windowDays?: number;
  /** Fit the season's start on August–September (`MarketSettings.seasonStart`, with the carry-over). */
  seasonStart?: boolean;
  /** Fit the season's end (`MarketSettings.seasonEnd`) on the closing prices, after the stakes. */
  seasonEnd?: boolean;
  /** Fit the stake classes' terms on the closing prices (`MarketSettings.stakes`). */
  stakes?: boolean;
  /** The over/under pool's target: the results, or the closing view of the goals. */
  target?: 'outcome' | 'closing';
  /** Fit the linked divisions' offsets on every division's prices (`MarketSettings.divisions`). */
  links?: boolean;
  /** Fit the context-aware pool's terms (`BlendWeights.dcUncertain`…). */
  context?: boolean;
  /** With `stakes`, fit how the stake term grows toward the season's end (`MarketSettings.stakesRamp`). */
  stakesRamp?: boolean;
  /** With `stakes`, fit the away side's factor (`MarketSettings.stakesAway`). */
  stakesAway?: boolean;
  /** With `stakes`, fit the importance's term (`MarketSettings.stakesImportance`). */
  stakesImportance?: boolean;
  /** With `stakesImportance`, weigh the title's, top four's and top six's need apart (`stakesNeedTitle`…). */
  stakesLines?: boolean;
}

export const fitKey = (league: string, day: number, home: string, away: string) =>
  `${league}|${day}|${home}|${away}`;

export { seasonStart } from './seasons.js';

const logit = (p: number) => Math.log(p / (1 - p));
const clamp = (p: number) => Math.min(Math.max(p, 1e-4), 1 - 1e-4);

// ---------------------------------------------------------------------------------------------
// Stage one: the filters.

type FilterName = 'strength' | 'goals' | 'draw';
const FILTERS: FilterName[] = ['strength', 'goals', 'draw'];

/** The summed predictive log density of each filter's figures over every match before `before`. */
export function filterScore(
  data: ProtocolData,
  settings: MarketSettings,
  before: number,
  seasonStart = false,
): FilterScore {
  const score: FilterScore = {
    strength: { logDensity: 0, count: 0 },
    goals: { logDensity: 0, count: 0 },
    draw: { logDensity: 0, count: 0 },
    ...(seasonStart ? { seasonStart: { logDensity: 0, count: 0 } } : {}),
  };
  for (const [league, matches] of data.leagues) {
    const filter = marketFilter(settings, score, linksOf(data, league, settings, before));
    for (const day of pricedDays(matches, before)) filter.read(day[0]!.date, day);
  }
  return score;
}

/** Every division's matches: the linked ones when loaded, else the scored leagues. */
const divisionsOf = (data: ProtocolData) => data.divisions ?? data.leagues;

/**
 * A league's links to its neighbouring divisions' prices before `before` (from `from` on, when
 * windowed as production reads them); none when the settings do not link divisions.
 */
function linksOf(
  data: ProtocolData,
  league: string,
  settings: MarketSettings,
  before: number,
  from = Number.NEGATIVE_INFINITY,
): DivisionLinks | undefined {
  if (!settings.divisions) return undefined;
  const divisions = divisionsOf(data);
  const sources = linkedDivisions(league)
    .filter((code) => divisions.has(code))
    .map((code) => {
      const matches = divisions.get(code)!;
      return linkSource(
        code,
        from > Number.NEGATIVE_INFINITY ? matches.filter((m) => m.date >= from) : matches,
        settings,
        before,
      );
    });
  return sources.length > 0 ? { league, sources } : undefined;
}

/**
 * Where every search of the offsets starts: each at 0, the arrivals' variance a season's. A link
 * the data has no division of keeps no offset (its sides stay newcomers).
 */
export const NEUTRAL_DIVISIONS = (settings: MarketSettings) => ({
  variance: settings.strength.seasonVariance,
  offsets: {} as Record<string, number>,
});

/**
 * The linked divisions' offsets and the arrivals' variance, on the market's strength figures before
 * `before` of every division (each a league its neighbours' sides arrive in). An offset moves only
 * its arrivals, so each division's (one or two, from above and from below) are searched on that
 * division's figures; then (unless `keepVariance`) the variance on all of them. The rest of the
 * settings are held.
 */
export function fitDivisionLinks(
  data: ProtocolData,
  settings: MarketSettings,
  before: number,
  iterations = 120,
  keepVariance = false,
): MarketSettings {
  const divisions = divisionsOf(data);
  const start = settings.divisions ?? NEUTRAL_DIVISIONS(settings);
  const offsets: Record<string, number> = { ...start.offsets };
  const density = (candidate: MarketSettings, league: string) => {
    const score: FilterScore = {
      strength: { logDensity: 0, count: 0 },
      goals: { logDensity: 0, count: 0 },
      draw: { logDensity: 0, count: 0 },
    };
    const filter = marketFilter(candidate, score, linksOf(data, league, candidate, before));
    for (const day of pricedDays(divisions.get(league)!, before)) filter.read(day[0]!.date, day);
    return score.strength.logDensity;
  };
  const withDivisions = (variance: number, values: Record<string, number>): MarketSettings => ({
    ...settings,
    divisions: { variance, offsets: { ...values } },
  });
  const linked = [...divisions.keys()].filter((league) =>
    linkedDivisions(league).some((code) => divisions.has(code)),
  );
  for (const league of linked) {
    const keys = linkedDivisions(league)
      .filter((code) => divisions.has(code))
      .map((code) => linkKey(code, league));
    const objective = (x: readonly number[]) =>
      -density(
        withDivisions(start.variance, { ...offsets, ...Object.fromEntries(keys.map((k, i) => [k, x[i]!])) }),
        league,
      );
    const best = nelderMead(
      objective,
      keys.map((key) => offsets[key] ?? 0),
      0.3,
      iterations,
      1e-9,
    );
    keys.forEach((key, i) => {
      offsets[key] = Math.round(best.x[i]! * 1e4) / 1e4;
    });
  }
  if (keepVariance) return withDivisions(start.variance, offsets);
  const total = (logVariance: readonly number[]) =>
    -linked.reduce(
      (sum, league) => sum + density(withDivisions(Math.exp(logVariance[0]!), offsets), league),
      0,
    );
  const variance = nelderMead(total, [Math.log(start.variance)], 0.5, Math.min(iterations, 40), 1e-9);
  return withDivisions(Math.exp(variance.x[0]!), offsets);
}

/** A filter's settings as free parameters: logs of the variances, the logit of the shrink. */
const KEYS: (keyof FilterSettings)[] = [
  'noise',
  'drift',
  'seasonShrink',
  'seasonVariance',
  'newcomerVariance',
  'leagueDrift',
  'leagueVariance',
];
function toFree(filter: FilterSettings, keys: readonly (keyof FilterSettings)[]): number[] {
  return keys.map((key) => (key === 'seasonShrink' ? logit(filter[key]) : Math.log(filter[key])));
}
function fromFree(
  base: FilterSettings,
  keys: readonly (keyof FilterSettings)[],
  x: readonly number[],
): FilterSettings {
  const next = { ...base };
  keys.forEach((key, i) => {
    next[key] = key === 'seasonShrink' ? 1 / (1 + Math.exp(-x[i]!)) : Math.exp(x[i]!);
  });
  return next;
}

/**
 * The strength filter's companions, searched with it on the same objective (the 1X2 figure's
 * density): the Asian handicap's scale and noise, the price moves' gain and weight.
 */
function extrasOf(settings: MarketSettings): number[] {
  return [
    ...(settings.handicap ? [settings.handicap.scale, Math.log(settings.handicap.noise)] : []),
    ...(settings.steam ? [logit(settings.steam.gain), settings.steam.weight] : []),
  ];
}
function withExtras(settings: MarketSettings, x: readonly number[]): MarketSettings {
  let i = 0;
  const next = { ...settings };
  if (settings.handicap) next.handicap = { scale: x[i++]!, noise: Math.exp(x[i++]!) };
  if (settings.steam) next.steam = { gain: 1 / (1 + Math.exp(-x[i++]!)), weight: x[i++]! };
  return next;
}

/**
 * Each filter's settings, searched in turn from `start` on the market's figures before `before`;
 * then, when asked, the season's start and the stake classes' terms.
 */
export function fitFilters(
  data: ProtocolData,
  start: MarketSettings,
  before: number,
  options: Pick<
    ProtocolOptions,
    | 'rounds'
    | 'iterations'
    | 'seasonStart'
    | 'seasonEnd'
    | 'stakes'
    | 'stakesRamp'
    | 'stakesAway'
    | 'stakesImportance'
    | 'stakesLines'
    | 'links'
  > = {},
): MarketSettings {
  let settings = searchFilters(data, start, before, options);
  if (options.seasonStart) settings = fitSeasonStart(data, settings, before, options.iterations);
  if (options.stakes)
    settings = fitStakes(data, settings, before, options.iterations, {
      ramp: options.stakesRamp,
      away: options.stakesAway,
      importance: options.stakesImportance,
      lines: options.stakesImportance && options.stakesLines,
    });
  if (options.stakes && options.seasonEnd)
    settings = fitSeasonEnd(data, settings, before, options.iterations);
  if (options.links) settings = fitDivisionLinks(data, settings, before, options.iterations);
  return settings;
}

function searchFilters(
  data: ProtocolData,
  start: MarketSettings,
  before: number,
  { rounds = 2, iterations = 160 }: Pick<ProtocolOptions, 'rounds' | 'iterations'>,
): MarketSettings {
  let settings = start;
  for (let round = 0; round < rounds; round++) {
    for (const name of FILTERS) {
      // The draw filter has no league term (the draw curve is its league level).
      const keys = name === 'draw' ? KEYS.filter((key) => !key.startsWith('league')) : KEYS;
      const extras = name === 'strength' ? extrasOf(settings) : [];
      const current = settings;
      const candidateOf = (x: readonly number[]): MarketSettings => {
        const next = { ...current, [name]: fromFree(current[name], keys, x.slice(0, keys.length)) };
        return name === 'strength' ? withExtras(next, x.slice(keys.length)) : next;
      };
      const objective = (x: readonly number[]) => -filterScore(data, candidateOf(x), before)[name].logDensity;
      const best = nelderMead(objective, [...toFree(current[name], keys), ...extras], 0.7, iterations, 1e-7);
      settings = candidateOf(best.x);
    }
  }
  return settings;
}

/**
 * The season's start, on the market's strength figures of August and September before `before`
 * only: how far a side is pulled toward the league's mean and how much its belief opens over the
 * summer (the strength filter's season shrink and variance, refitted there), and how fast the
 * season's first matches are believed (their noise's factor, for each side's first `matches`).
 */
/** The season's first prices' noise factor stays within [0.05, 2]: believed at most twenty times more. */
const NOISE_LOW = 0.05;
const NOISE_SPAN = 1.95;

export function fitSeasonStart(
  data: ProtocolData,
  settings: MarketSettings,
  before: number,
  iterations = 160,
): MarketSettings {
  const start = settings.seasonStart ?? { matches: 6, noise: 1 };
  const candidateOf = (x: readonly number[]): MarketSettings => ({
    ...settings,
    strength: {
      ...settings.strength,
      seasonShrink: 1 / (1 + Math.exp(-x[0]!)),
      seasonVariance: Math.exp(x[1]!),
    },
    seasonStart: { matches: start.matches, noise: NOISE_LOW + NOISE_SPAN / (1 + Math.exp(-x[2]!)) },
  });
  const best = nelderMead(
    (x) => -filterScore(data, candidateOf(x), before, true).seasonStart!.logDensity,
    [
      logit(settings.strength.seasonShrink),
      Math.log(settings.strength.seasonVariance),
      logit((start.noise - NOISE_LOW) / NOISE_SPAN),
    ],
    0.5,
    iterations,
    1e-7,
  );
  return candidateOf(best.x);
}

/** A side's last five matches are the season's end (fixed before any run, not searched). */
const SEASON_END_MATCHES = 5;

/**
 * The season's end, on the market's strength figures before `before`: how much a price is
 * believed when either side has five matches or fewer left (its noise's factor), and how much the
 * sides' strengths open before it is read (a late price's news lasting). Needs the stakes' table.
 */
export function fitSeasonEnd(
  data: ProtocolData,
  settings: MarketSettings,
  before: number,
  iterations = 160,
): MarketSettings {
  const end = settings.seasonEnd ?? { matches: SEASON_END_MATCHES, noise: 1, drift: 0.005 };
  const candidateOf = (x: readonly number[]): MarketSettings => ({
    ...settings,
    seasonEnd: { matches: end.matches, noise: Math.exp(x[0]!), drift: Math.exp(x[1]!) },
  });
  const best = nelderMead(
    (x) => -filterScore(data, candidateOf(x), before).strength.logDensity,
    [Math.log(end.noise), Math.log(end.drift)],
    0.5,
    iterations,
    1e-7,
  );
  return candidateOf(best.x);
}

/**
 * The stake classes' terms (κ per class on ln(pH/pA)), on the market's strength figures before
 * `before`: the closing prices of the last ten matches of each season say what each class is worth,
 * with far less noise than the results.
 */
export function fitStakes(
  data: ProtocolData,
  settings: MarketSettings,
  before: number,
  iterations = 300,
  {
    ramp = false,
    away = false,
    importance = false,
    lines = false,
  }: { ramp?: boolean; away?: boolean; importance?: boolean; lines?: boolean } = {},
): MarketSettings {
  // The classes' terms, then the ramp's, the away factor's, the importance's and its lines' when asked.
  const extra = [
    ...(ramp ? (['stakesRamp'] as const) : []),
    ...(away ? (['stakesAway'] as const) : []),
    ...(importance ? (['stakesImportance'] as const) : []),
    ...(importance && lines ? (['stakesNeedTitle', 'stakesNeedChampions', 'stakesNeedEurope'] as const) : []),
  ];
  const candidateOf = (x: readonly number[]): MarketSettings => ({
    ...settings,
    stakes: Object.fromEntries(STAKE_CLASSES.map((name, i) => [name, x[i]!])),
    ...Object.fromEntries(extra.map((name, i) => [name, x[STAKE_CLASSES.length + i]!])),
  });
  const best = nelderMead(
    (x) => -filterScore(data, candidateOf(x), before).strength.logDensity,
    [
      ...STAKE_CLASSES.map((name) => settings.stakes?.[name] ?? 0),
      ...extra.map((name) => settings[name] ?? 0),
    ],
    0.1,
    iterations,
    1e-9,
  );
  return candidateOf(best.x.map((value) => Math.round(value * 1e4) / 1e4));
}

/**
 * The shift watch's two constants that best forecast the market's figures (strength and goals)
 * between `from` and `to` (the 2020 restart), the other settings held: a small grid, since each
 * candidate is one pass of the filters.
 */
export function fitShiftWatch(
  data: ProtocolData,
  settings: MarketSettings,
  from: number,
  to: number,
): { matches: number; limit: number; logDensity: number } {
  let best = { matches: 60, limit: 4, logDensity: Number.NEGATIVE_INFINITY };
  for (const matches of [10, 15, 20, 30, 40, 60, 90, 120])
    for (const limit of [2, 2.5, 3, 3.5, 4, 5, 6]) {
      const candidate = { ...settings, shiftWatch: { matches, limit } };
      const after = filterScore(data, candidate, to);
      const before = filterScore(data, candidate, from);
      const logDensity =
        after.strength.logDensity -
        before.strength.logDensity +
        after.goals.logDensity -
        before.goals.logDensity;
      if (logDensity > best.logDensity) best = { matches, limit, logDensity };
    }
  return best;
}

// ---------------------------------------------------------------------------------------------
// The forecasts: every predicted match with the rating's view of it, as the engine would see it.

export interface Row {
  league: string;
  season: string;
  date: number;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  outcome: 0 | 1 | 2;
  over: boolean;
  book: Probabilities3;
  bookOver: [number, number] | null;
  baseline: Probabilities3;
  /** The naive forecasts of both teams to score and of the exact score (the league's frequencies so far). */
  naiveBtts: number;
  naiveScore: number;
  fit: Probabilities3;
  fitOver: number;
  fitMatrix: ScoreMatrix | null;
  market: MarketForecast | null;
  inverse: number | null;
  pre: Probabilities3 | null;
  preOver: number | null;
  /** +1: only the home side still plays for something; −1: only the away side; else 0. */
  stake: number;
  /**
   * The match's own closing view of its goals (a training target only, never an input): its
   * closing over/under where the data has it, else its closing 1X2 turned into Poisson goals.
   */
  closingOver: number | null;
}

function closingOverOf(match: EvaluationMatch): number | null {
  if (match.bookmakerOverUnder && match.season && match.season >= '2019-20')
    return match.bookmakerOverUnder[0];
  const goals = match.bookmaker ? impliedGoals(match.bookmaker) : null;
  return goals ? clamp(overProbability(goals[0] + goals[1])) : null;
}

/** The league's frequencies so far: results, both teams scoring, each score (0 to 10 a side). */
class Frequencies {
  results = [1, 1, 1];
  btts = [1, 1];
  scores = new Map<string, number>();
  count = 0;
  add(match: EvaluationMatch): void {
    this.results[outcomeOf(match)]! += 1;
    this.btts[match.homeGoals > 0 && match.awayGoals > 0 ? 0 : 1]! += 1;
    const key = `${Math.min(match.homeGoals, 10)}-${Math.min(match.awayGoals, 10)}`;
    this.scores.set(key, (this.scores.get(key) ?? 0) + 1);
    this.count++;
  }
  /** The share of a score, smoothed by a tenth of a match over the 121 scores. */
  score(match: EvaluationMatch): number {
    const key = `${Math.min(match.homeGoals, 10)}-${Math.min(match.awayGoals, 10)}`;
    return ((this.scores.get(key) ?? 0) + 0.1) / (this.count + 12.1);
  }
}

function rowOf(
  league: string,
  match: EvaluationMatch,
  fit: RecordedFit,
  market: MarketForecast | null,
  frequencies: Frequencies,
  stake: number,
): Row {
  const pre = prematchForecast(match.prematchOdds ?? undefined);
  const [h, d, a] = frequencies.results as [number, number, number];
  return {
    league,
    season: seasonOf(match),
    date: match.date,
    home: match.home,
    away: match.away,
    homeGoals: match.homeGoals,
    awayGoals: match.awayGoals,
    outcome: outcomeOf(match),
    over: match.homeGoals + match.awayGoals > 2,
    book: match.bookmaker!,
    bookOver: match.bookmakerOverUnder,
    baseline: [h / (h + d + a), d / (h + d + a), a / (h + d + a)],
    naiveBtts: frequencies.btts[0]! / (frequencies.btts[0]! + frequencies.btts[1]!),
    naiveScore: frequencies.score(match),
    fit: fit.fit,
    fitOver: fit.over,
    fitMatrix: recordedMatrix(fit),
    market,
    inverse: market ? inverseOver(market) : null,
    pre: pre.oneXTwo,
    preOver: pre.over,
    closingOver: closingOverOf(match),
    stake,
  };
}

/** One league's forecasts of the days from `from` on (of `season` only, when given). */
function leagueRows(
  data: ProtocolData,
  league: string,
  matches: readonly EvaluationMatch[],
  settings: MarketSettings,
  from: number,
  season: string | null,
): Row[] {
  const rows: Row[] = [];
  // The neighbours' prices are read lazily, each only up to the day a side is looked up.
  const filter = marketFilter(
    settings,
    undefined,
    linksOf(data, league, settings, Number.POSITIVE_INFINITY, from),
  );
  const frequencies = new Frequencies();
  const days = pricedDays(matches, Number.POSITIVE_INFINITY).filter((day) => day[0]!.date >= from);
  const byDay = new Map<number, EvaluationMatch[]>();
  for (const match of matches) {
    if (match.date < from) continue;
    const day = dayOf(match.date);
    byDay.set(day, [...(byDay.get(day) ?? []), match]);
  }
  let next = 0;
  for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
    const dayMatches = byDay.get(day)!;
    // Everything priced before the day, then the day's forecasts.
    for (; next < days.length && days[next]![0]!.date < day; next++)
      filter.read(days[next]![0]!.date, days[next]!);
    const current = seasonOf(dayMatches[0]!);
    if (season === null || current === season) {
      const rating = filter.rating(day);
      const stakes = seasonStakes(
        matches.filter((m) => m.date >= from && m.date < day && seasonOf(m) === current),
        day,
      );
      for (const match of dayMatches) {
        const fit = data.recorded.get(fitKey(league, day, match.home, match.away));
        if (!fit || !match.bookmaker) continue;
        const market = rating ? marketForecast(rating, match.home, match.away, seasonOf(match)) : null;
        const stake = stakeSign({
          home: stakes.get(match.home) ?? null,
          away: stakes.get(match.away) ?? null,
        });
        rows.push(rowOf(league, match, fit, market, frequencies, stake));
      }
    }
    for (const match of dayMatches) frequencies.add(match);
  }
  return rows;
}

/**
 * Every recorded match's forecasts with the rating filtered by `settings`: read from the first
 * priced season, or (`windowDays`) each season from its own window, as production reads it.
 */
export function rowsFor(data: ProtocolData, settings: MarketSettings, windowDays?: number): Row[] {
  const rows: Row[] = [];
  for (const [league, matches] of data.leagues) {
    if (windowDays === undefined) {
      rows.push(...leagueRows(data, league, matches, settings, Number.NEGATIVE_INFINITY, null));
      continue;
    }
    for (const season of new Set(matches.map((match) => seasonOf(match))))
      rows.push(
        ...leagueRows(data, league, matches, settings, seasonStart(season) - windowDays * DAY_MS, season),
      );
  }
  return rows;
}
