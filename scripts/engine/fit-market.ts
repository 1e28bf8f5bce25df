// Fits every setting and weight of the market rating and its pooling, and validates the way
// they are fitted by rolling origin: each season is predicted with settings and weights fitted on
// the seasons before it only. The results-only fit's predictions come from `record-fit.ts`
// (recorded once: the Dixon–Coles refits are the slow part); the rating is refiltered here for
// each candidate, exactly as the engine runs it (`marketFilter` read day by day is
// `fitMarketRating` as of each day).
//
//   Validate (per season and per month, with 95 % intervals):
//     nice -n 10 npx tsx scripts/engine/fit-market.ts validate ../shared/data/football fit.json
//   Fit the shipped constants on every season up to 2017-18 and write src/engine/market-settings.ts:
//     nice -n 10 npx tsx scripts/engine/fit-market.ts ship ../shared/data/football fit.json
//
// Stage one, the filters: each filter's settings (noise, drifts, season shrink and variances)
// maximise the predictive density of the market's own figures (ln(pH/pA), the draw price beside
// the draw curve, the over/under total) over every match before the fold: how well the rating
// forecasts the next match's price, a far less noisy target than the results. Stage two, the
// pools: the 1X2 weights minimise the RPS of the training seasons' forecasts against the results,
// the over/under ones the log-loss (a logistic regression).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import {
  type EvaluationMatch,
  type GroupScores,
  outcomeOf,
  type Probabilities3,
  rps,
  type ScoredMatch,
  summarise,
} from '../../src/engine/evaluation.js';
import {
  type FilterScore,
  impliedGoals,
  inverseOver,
  type MarketForecast,
  marketFilter,
  marketForecast,
  overProbability,
  pool1x2,
  poolOver,
  prematchForecast,
  pricedDays,
} from '../../src/engine/market-rating.js';
import { dayOf, MARKET_SETTINGS } from '../../src/engine/model.js';
import { evaluationPlot } from '../../src/engine/plot.js';
import { poolShift, stakeSign } from '../../src/engine/predict.js';
import { seasonOf } from '../../src/engine/season.js';
import { seasonStakes } from '../../src/engine/stakes.js';
import type { BlendWeights, FilterSettings, MarketSettings } from '../../src/engine/types.js';
import { loadEvaluationFiles, PROTOCOL_LEAGUES } from '../../src/modules/football/evaluation-data.js';
import { logistic, nelderMead } from './optimise.js';
import { type RecordedFit, recordFits } from './record-fit.js';
import { leagueFiles, seasonsBetween } from './seasons.js';

const [mode, dir, fitFile] = process.argv.slice(2);
if (!(mode === 'validate' || mode === 'ship') || !dir)
  throw new Error('usage: fit-market.ts validate|ship <data dir> [fit.json]');

/** The rating reads every priced season from the first with odds; the folds start later. */
const FIRST_PRICED = '2005-06';
const LAST_FITTED = '2017-18';
/** Seasons whose predictions the first fold's pools are fitted on. */
const FIRST_PREDICTED = '2008-09';
/** Seasons reported by the rolling origin (Pinnacle's closing prices are the yardstick from 2012-13). */
const FOLDS = seasonsBetween('2012-13', LAST_FITTED);

/** Where the search starts: the shipped settings, with `START` (JSON) over them for experiments. */
const START: MarketSettings = {
  ...MARKET_SETTINGS,
  ...(JSON.parse(process.env.START ?? '{}') as Partial<MarketSettings>),
};

/**
 * The results-only fit's predictions: from the file given, else recorded now (a few minutes)
 * and kept in node_modules/.cache for the next run.
 */
async function recordedFits(): Promise<RecordedFit[]> {
  if (fitFile) return JSON.parse(readFileSync(fitFile, 'utf8')) as RecordedFit[];
  const cache = `node_modules/.cache/pronostics-engine/fits-${FIRST_PREDICTED}-${LAST_FITTED}.json`;
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as RecordedFit[];
  const fits = await recordFits(dir!, FIRST_PREDICTED, LAST_FITTED);
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify(fits));
  return fits;
}
const recorded = new Map<string, RecordedFit>();
for (const fit of await recordedFits())
  recorded.set(`${fit.league}|${fit.date}|${fit.home}|${fit.away}`, fit);

const leagues = new Map<string, EvaluationMatch[]>();
for (const league of PROTOCOL_LEAGUES) {
  const files = leagueFiles(dir, league, seasonsBetween(FIRST_PRICED, LAST_FITTED));
  const matches = (await loadEvaluationFiles(files)).flatMap((file) => file.matches);
  leagues.set(
    league,
    matches.sort((a, b) => a.date - b.date),
  );
}

const logit = (p: number) => Math.log(p / (1 - p));
const clamp = (p: number) => Math.min(Math.max(p, 1e-4), 1 - 1e-4);

// ---------------------------------------------------------------------------------------------
// Stage one: the filters.

type FilterName = 'strength' | 'goals' | 'draw';
const FILTERS: FilterName[] = ['strength', 'goals', 'draw'];

/** The summed predictive log density of each filter's figures over every match before `before`. */
function filterScore(settings: MarketSettings, before: number): FilterScore {
  const score: FilterScore = {
    strength: { logDensity: 0, count: 0 },
    goals: { logDensity: 0, count: 0 },
    draw: { logDensity: 0, count: 0 },
  };
  for (const matches of leagues.values()) {
    const filter = marketFilter(settings, score);
    for (const day of pricedDays(matches, before)) filter.read(day[0]!.date, day);
  }
  return score;
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

function fitFilters(start: MarketSettings, before: number): MarketSettings {
  let settings = start;
  for (const name of FILTERS) {
    // The draw filter has no league term (the draw curve is its league level).
    const keys = name === 'draw' ? KEYS.filter((key) => !key.startsWith('league')) : KEYS;
    const extras = name === 'strength' ? extrasOf(settings) : [];
    const candidateOf = (x: readonly number[]): MarketSettings => {
      const next = { ...settings, [name]: fromFree(settings[name], keys, x.slice(0, keys.length)) };
      return name === 'strength' ? withExtras(next, x.slice(keys.length)) : next;
    };
    const objective = (x: readonly number[]) => -filterScore(candidateOf(x), before)[name].logDensity;
    const best = nelderMead(objective, [...toFree(settings[name], keys), ...extras], 0.7, 160, 1e-7);
    settings = candidateOf(best.x);
  }
  return settings;
}

// ---------------------------------------------------------------------------------------------
// The forecasts: every predicted match with the rating's view of it, as the engine would see it.

interface Row {
  league: string;
  season: string;
  date: number;
  outcome: 0 | 1 | 2;
  over: boolean;
  book: Probabilities3;
  bookOver: [number, number] | null;
  baseline: Probabilities3;
  fit: Probabilities3;
  fitOver: number;
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

function rowsFor(settings: MarketSettings): Row[] {
  const rows: Row[] = [];
  for (const [league, matches] of leagues) {
    const filter = marketFilter(settings);
    const counts = [1, 1, 1];
    const days = pricedDays(matches, Number.POSITIVE_INFINITY);
    const byDay = new Map<number, EvaluationMatch[]>();
    for (const match of matches) {
      const day = dayOf(match.date);
      byDay.set(day, [...(byDay.get(day) ?? []), match]);
    }
    let next = 0;
    for (const day of [...byDay.keys()].sort((a, b) => a - b)) {
      // Everything priced before the day, then the day's forecasts.
      for (; next < days.length && days[next]![0]!.date < day; next++)
        filter.read(days[next]![0]!.date, days[next]!);
      const rating = filter.rating(day);
      const current = byDay.get(day)![0]!;
      const stakes = seasonStakes(
        matches.filter((m) => m.date < day && seasonOf(m) === seasonOf(current)),
        day,
      );
      for (const match of byDay.get(day)!) {
        const fit = recorded.get(`${league}|${day}|${match.home}|${match.away}`);
        if (fit && match.bookmaker) {
          const season = seasonOf(match);
          const market = rating ? marketForecast(rating, match.home, match.away, season) : null;
          const pre = prematchForecast(match.prematchOdds ?? undefined);
          const total = counts[0]! + counts[1]! + counts[2]!;
          rows.push({
            league,
            season,
            date: match.date,
            outcome: outcomeOf(match),
            over: match.homeGoals + match.awayGoals > 2,
            book: match.bookmaker,
            bookOver: match.bookmakerOverUnder,
            baseline: [counts[0]! / total, counts[1]! / total, counts[2]! / total],
            fit: fit.fit,
            fitOver: fit.over,
            market,
            inverse: market ? inverseOver(market) : null,
            pre: pre.oneXTwo,
            preOver: pre.over,
            closingOver: closingOverOf(match),
            stake: stakeSign({ home: stakes.get(match.home) ?? null, away: stakes.get(match.away) ?? null }),
          });
        }
      }
      for (const match of byDay.get(day)!) counts[outcomeOf(match)]! += 1;
    }
  }
  return rows;
}

// ---------------------------------------------------------------------------------------------
// Stage two: the pools.

type Mode = 'none' | 'prematch' | 'prematchOnly';

function oneXTwoOf(row: Row, w: BlendWeights): Probabilities3 {
  return pool1x2(
    [
      { p: row.fit, weight: w.dc },
      { p: row.market?.oneXTwo ?? null, weight: w.market },
      { p: row.pre, weight: w.prematch },
    ],
    poolShift(w, row.stake, row.market?.steam ?? 0),
  );
}

function closingOverOf(match: EvaluationMatch): number | null {
  if (match.bookmakerOverUnder && match.season && match.season >= '2019-20')
    return match.bookmakerOverUnder[0];
  const goals = match.bookmaker ? impliedGoals(match.bookmaker) : null;
  return goals ? clamp(overProbability(goals[0] + goals[1])) : null;
}

/**
 * The over/under pool's target: the results (`outcome`), or the closing view of the goals
 * (`closing`, TARGET=closing): the inverted closing 1X2 is mapped onto the results first by a
 * logistic fit on the training seasons (Poisson goals misjudge the total the same way in every
 * season), then the pool is fitted to it, a target with far less noise than a goal count.
 */
const OU_TARGET = process.env.TARGET ?? 'outcome';
function overTargets(rows: readonly Row[]): number[] {
  if (OU_TARGET === 'outcome') return rows.map((row) => (row.over ? 1 : 0));
  const known = rows.filter((row) => row.closingOver !== null);
  const [a, b] = logistic(
    known.map((row) => [1, logit(row.closingOver!)]),
    known.map((row) => (row.over ? 1 : 0)),
  );
  return rows.map((row) =>
    row.closingOver === null ? (row.over ? 1 : 0) : 1 / (1 + Math.exp(-(a! + b! * logit(row.closingOver)))),
  );
}

function overFeatures(row: Row, mode: Mode): number[] {
  const fit = logit(clamp(row.fitOver));
  if (mode === 'prematchOnly') return [1, fit, logit(clamp(row.preOver!))];
  const m = row.market!;
  return mode === 'none'
    ? [1, fit, logit(m.over), m.spread, m.drawTendency, logit(row.inverse!)]
    : [1, fit, logit(m.over), logit(clamp(row.preOver!))];
}

function fitPools(rows: readonly Row[], start: BlendWeights, mode: Mode): BlendWeights {
  const usable = rows.filter((row) => row.market && (mode === 'none' || row.pre));
  // The 1X2 weights (the rating's unless it is left out, the pre-match one with the fixture's
  // odds), and the stakes term.
  const names: ('dc' | 'market' | 'prematch' | 'stakes' | 'steam')[] = [
    'dc',
    ...(mode === 'prematchOnly' ? [] : (['market'] as const)),
    ...(mode === 'prematch' && START.steam ? (['steam'] as const) : []),
    ...(mode === 'none' ? [] : (['prematch'] as const)),
    'stakes',
  ];
  const weightsOf = (x: readonly number[]): BlendWeights => {
    const next = { ...start, market: 0, prematch: 0 };
    names.forEach((name, i) => {
      next[name] = x[i]!;
    });
    return next;
  };
  const fitted = nelderMead(
    (x) =>
      usable.reduce((sum, row) => sum + rps(oneXTwoOf(row, weightsOf(x)), row.outcome), 0) / usable.length,
    names.map((name) => start[name] ?? 0),
    0.2,
  );
  const best = weightsOf(fitted.x);
  const overRows = usable.filter((row) => mode === 'none' || row.preOver !== null);
  const beta = logistic(
    overRows.map((row) => overFeatures(row, mode)),
    overTargets(overRows),
  );
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  const oneXTwo = {
    dc: round(best.dc),
    market: round(best.market),
    prematch: round(best.prematch),
    stakes: round(best.stakes ?? 0),
    ...(best.steam ? { steam: round(best.steam) } : {}),
  };
  if (mode === 'none')
    return {
      ...oneXTwo,
      ouShift: round(beta[0]!),
      ouDc: round(beta[1]!),
      ouMarket: round(beta[2]!),
      ouPrematch: 0,
      ouSpread: round(beta[3]!),
      ouDraw: round(beta[4]!),
      ouInverse: round(beta[5]!),
    };
  if (mode === 'prematchOnly')
    return {
      ...oneXTwo,
      ouShift: round(beta[0]!),
      ouDc: round(beta[1]!),
      ouMarket: 0,
      ouPrematch: round(beta[2]!),
    };
  return {
    ...oneXTwo,
    ouShift: round(beta[0]!),
    ouDc: round(beta[1]!),
    ouMarket: round(beta[2]!),
    ouPrematch: round(beta[3]!),
  };
}

function overOf(row: Row, w: BlendWeights, mode: Mode): number {
  const m = row.market!;
  const shift =
    w.ouShift + (mode === 'none' ? (w.ouSpread ?? 0) * m.spread + (w.ouDraw ?? 0) * m.drawTendency : 0);
  return poolOver(shift, [
    { p: row.fitOver, weight: w.ouDc },
    { p: m.over, weight: w.ouMarket },
    { p: mode === 'none' ? null : row.preOver, weight: w.ouPrematch },
    { p: mode === 'none' ? row.inverse : null, weight: w.ouInverse ?? 0 },
  ]);
}

function scored(row: Row, w: BlendWeights, mode: Mode): ScoredMatch {
  const usesPre = mode === 'prematch' && row.pre !== null;
  const engine = row.market ? oneXTwoOf(row, usesPre ? w : { ...w, prematch: 0 }) : row.fit;
  const over = row.market && (mode === 'none' || row.preOver !== null) ? overOf(row, w, mode) : row.fitOver;
  const month = new Date(row.date).toISOString().slice(0, 7);
  return {
    league: row.league,
    season: row.season,
    month,
    block: row.season,
    date: row.date,
    outcome: row.outcome,
    engine,
    baseline: row.baseline,
    bookmaker: row.book,
    overUnder: row.bookOver
      ? { over: row.over, engine: [over, 1 - over], baseline: [0.5, 0.5], bookmaker: row.bookOver }
      : null,
  };
}

const seasonStart = (season: string) => Date.UTC(Number(season.slice(0, 4)), 6, 1);
const figure = (value: number | null | undefined) => (value == null ? '   -   ' : value.toFixed(4));
const interval = (ci: readonly number[] | null | undefined) =>
  ci ? `${ci[0]!.toFixed(4)}–${ci[1]!.toFixed(4)}` : '-';

if (mode === 'validate') {
  const modes = ['none', 'prematch'] as const;
  const all: Record<'none' | 'prematch', ScoredMatch[]> = { none: [], prematch: [] };
  for (const season of FOLDS) {
    const settings = fitFilters(START, seasonStart(season));
    const rows = rowsFor(settings);
    const training = rows.filter((row) => row.season >= FIRST_PREDICTED && row.season < season);
    const test = rows.filter((row) => row.season === season);
    for (const m of modes) {
      const weights = fitPools(training, START.weights[m], m);
      all[m].push(...test.map((row) => scored(row, weights, m)));
    }
    const fold = summarise(all.none.filter((match) => match.season === season));
    process.stderr.write(`fold ${season}: ${fold.rps_ratio.toFixed(4)} / ${figure(fold.ou_ratio)}\n`);
  }
  for (const m of modes) {
    const report = summarise(all[m]);
    console.log(
      `\nRolling origin, ${m === 'none' ? "without the match's own odds" : 'with its pre-match odds'}:`,
    );
    console.log(
      `pooled ${report.matches} matches: RPS ratio ${figure(report.rps_ratio)} (${interval(report.rps_ratio_ci)}), over/under ${figure(report.ou_ratio)} (${interval(report.ou_ratio_ci)})`,
    );
    console.log('season     RPS ratio (95 %)            O/U ratio (95 %)');
    for (const [season, group] of Object.entries(report.blocks))
      console.log(
        `${season}    ${figure(group.rps_ratio)} (${interval(group.rps_ratio_ci)})   ${figure(group.ou_ratio)}`,
      );
    console.log('league     RPS ratio (95 %)');
    for (const [league, group] of Object.entries(report.leagues) as [string, GroupScores][])
      console.log(`${league.padEnd(10)} ${figure(group.rps_ratio)} (${interval(group.rps_ratio_ci)})`);
    console.log('month      RPS ratio (95 %)            O/U ratio    matches');
    for (const [month, group] of Object.entries(report.months_of_year))
      console.log(
        `${month}         ${figure(group.rps_ratio)} (${interval(group.rps_ratio_ci)})   ${figure(group.ou_ratio)}      ${group.matches}`,
      );
    if (process.env.JSON_OUT) writeFileSync(`${process.env.JSON_OUT}.${m}.json`, JSON.stringify(report));
    // PLOT=file.svg: the reliability diagrams of the rolling origin (file-none.svg, file-prematch.svg).
    if (process.env.PLOT)
      writeFileSync(process.env.PLOT.replace(/\.svg$/, `-${m}.svg`), evaluationPlot(all[m]));
  }
} else {
  const settings = fitFilters(START, seasonStart(seasonsBetween(LAST_FITTED, LAST_FITTED, 1, 1)[0]!));
  const rows = rowsFor(settings).filter((row) => row.season >= FIRST_PREDICTED && row.season <= LAST_FITTED);
  const weights = {
    none: fitPools(rows, START.weights.none, 'none'),
    prematch: fitPools(rows, START.weights.prematch, 'prematch'),
    prematchOnly: fitPools(rows, START.weights.prematchOnly, 'prematchOnly'),
  };
  const fitted: MarketSettings = { ...settings, weights };
  writeFileSync(
    'src/engine/market-settings.ts',
    `// Written by \`npm run engine:fit -- <data dir>\` (scripts/engine/fit-market.ts), fitted on every season
// from ${FIRST_PRICED} (the rating) and ${FIRST_PREDICTED} (the pools) to ${LAST_FITTED}: do not edit by hand.
import type { MarketSettings } from './types.js';

export const FITTED_MARKET_SETTINGS: MarketSettings = ${JSON.stringify(fitted, null, 2)};
`,
  );
  spawnSync('npx', ['biome', 'format', '--write', 'src/engine/market-settings.ts'], { stdio: 'ignore' });
  console.log('src/engine/market-settings.ts written');
}
