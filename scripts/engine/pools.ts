// Stage two of the engine's fit, and one rolling-origin fold: the 1X2 weights minimise the RPS of
// the training seasons' forecasts against the results, the over/under ones the log-loss (a
// logistic regression); a fold fits the filters and the pools on what came before it and
// forecasts its season.
import type { Probabilities3, ScoredMatch } from '../../src/engine/evaluation.js';
import { rps } from '../../src/engine/evaluation.js';
import { pool1x2, poolOver } from '../../src/engine/market-rating.js';
import { contextWeights, poolShift } from '../../src/engine/predict.js';
import type { BlendWeights, MarketSettings } from '../../src/engine/types.js';
import { logistic, nelderMead } from './optimise.js';
import {
  fitFilters,
  type ProtocolData,
  type ProtocolOptions,
  type Row,
  rowsFor,
  seasonStart,
} from './rolling-origin.js';

export type Mode = 'none' | 'prematch' | 'prematchOnly';

const logit = (p: number) => Math.log(p / (1 - p));
const clamp = (p: number) => Math.min(Math.max(p, 1e-4), 1 - 1e-4);

function oneXTwoOf(row: Row, weights: BlendWeights): Probabilities3 {
  const w = contextWeights(weights, row.market);
  return pool1x2(
    [
      { p: row.fit, weight: w.dc },
      { p: row.market?.oneXTwo ?? null, weight: w.market },
      { p: row.pre, weight: w.prematch },
    ],
    poolShift(w, row.stake, row.market?.steam ?? 0),
  );
}

/**
 * The over/under pool's target: the results (`outcome`), or the closing view of the goals
 * (`closing`): the inverted closing 1X2 is mapped onto the results first by a logistic fit on the
 * training seasons (Poisson goals misjudge the total the same way in every season), then the pool
 * is fitted to it, a target with far less noise than a goal count.
 */
function overTargets(rows: readonly Row[], target: 'outcome' | 'closing'): number[] {
  if (target === 'outcome') return rows.map((row) => (row.over ? 1 : 0));
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

/** The over/under weights of a mode from the logistic regression's coefficients. */
function overWeights(beta: readonly number[], mode: Mode, round: (value: number) => number) {
  const [shift, dc, second, third, fourth, fifth] = beta.map(round);
  if (mode === 'none')
    return {
      ouShift: shift!,
      ouDc: dc!,
      ouMarket: second!,
      ouPrematch: 0,
      ouSpread: third!,
      ouDraw: fourth!,
      ouInverse: fifth!,
    };
  if (mode === 'prematchOnly') return { ouShift: shift!, ouDc: dc!, ouMarket: 0, ouPrematch: second! };
  return { ouShift: shift!, ouDc: dc!, ouMarket: second!, ouPrematch: third! };
}

/** What a pool fit learns beside the weights: the over/under's target, the steam and context terms. */
export interface PoolOptions {
  target?: 'outcome' | 'closing';
  /** The sides' recent price moves (pre-match mode only). */
  steam?: boolean;
  /** The context-aware pool (`BlendWeights.dcUncertain`…), in the modes with the rating. */
  context?: boolean;
}

const CONTEXT_TERMS = ['dcUncertain', 'marketUncertain', 'dcLate', 'marketLate'] as const;
type PoolTerm = 'dc' | 'market' | 'prematch' | 'stakes' | 'steam' | (typeof CONTEXT_TERMS)[number];

export function fitPools(
  rows: readonly Row[],
  start: BlendWeights,
  mode: Mode,
  { target = 'outcome', steam = false, context = false }: PoolOptions = {},
): BlendWeights {
  const usable = rows.filter((row) => row.market && (mode === 'none' || row.pre));
  // The 1X2 weights (the rating's unless it is left out, the pre-match one with the fixture's
  // odds), the stakes term and, when asked, the context's.
  const names: PoolTerm[] = [
    'dc',
    ...(mode === 'prematchOnly' ? [] : (['market'] as const)),
    ...(mode === 'prematch' && steam ? (['steam'] as const) : []),
    ...(mode === 'none' ? [] : (['prematch'] as const)),
    'stakes',
    ...(context && mode !== 'prematchOnly' ? CONTEXT_TERMS : []),
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
      usable.reduce((sum, row) => sum + rps(oneXTwoOf(row, weightsOf(x)), row.outcome), 0) /
      Math.max(usable.length, 1),
    names.map((name) => start[name] ?? 0),
    0.2,
  );
  const best = weightsOf(fitted.x);
  const overRows = usable.filter((row) => mode === 'none' || row.preOver !== null);
  // No training match for the over/under (a slice without prices): the start's weights stand.
  const beta = overRows.length
    ? logistic(
        overRows.map((row) => overFeatures(row, mode)),
        overTargets(overRows, target),
      )
    : mode === 'none'
      ? [
          start.ouShift,
          start.ouDc,
          start.ouMarket,
          start.ouSpread ?? 0,
          start.ouDraw ?? 0,
          start.ouInverse ?? 0,
        ]
      : mode === 'prematchOnly'
        ? [start.ouShift, start.ouDc, start.ouPrematch]
        : [start.ouShift, start.ouDc, start.ouMarket, start.ouPrematch];
  const round = (value: number) => Math.round(value * 1e4) / 1e4;
  return {
    dc: round(best.dc),
    market: round(best.market),
    prematch: round(best.prematch),
    stakes: round(best.stakes ?? 0),
    ...(best.steam ? { steam: round(best.steam) } : {}),
    ...Object.fromEntries(
      CONTEXT_TERMS.filter((name) => names.includes(name)).map((name) => [name, round(best[name] ?? 0)]),
    ),
    ...overWeights(beta, mode, round),
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

/** A test match's forecast as the engine makes it in a mode: its 1X2 and its over 2.5. */
export interface Forecast {
  row: Row;
  oneXTwo: Probabilities3;
  over: number;
}

/**
 * A test match's forecast in `mode`, as production makes it (`predict.ts`): with the fixture's
 * pre-match odds where it has them, and where it has none (an extra league's files carry closing
 * prices only) with the weights of the mode without them, not the pre-match mode's weights with
 * their pre-match share dropped.
 */
export function forecastOf(
  row: Row,
  weights: Record<'none' | 'prematch', BlendWeights>,
  mode: Mode,
): Forecast {
  const oneXTwoPre = mode === 'prematch' && row.pre !== null;
  const overPre = mode === 'prematch' && row.preOver !== null;
  const oneXTwo = row.market ? oneXTwoOf(row, oneXTwoPre ? weights.prematch : weights.none) : row.fit;
  const over = row.market
    ? overPre
      ? overOf(row, weights.prematch, 'prematch')
      : overOf(row, weights.none, 'none')
    : row.fitOver;
  return { row, oneXTwo, over };
}

export function scored({ row, oneXTwo, over }: Forecast): ScoredMatch {
  return {
    league: row.league,
    season: row.season,
    month: new Date(row.date).toISOString().slice(0, 7),
    block: row.season,
    date: row.date,
    home: row.home,
    away: row.away,
    outcome: row.outcome,
    engine: oneXTwo,
    baseline: row.baseline,
    bookmaker: row.book,
    overUnder: row.bookOver
      ? { over: row.over, engine: [over, 1 - over], baseline: [0.5, 0.5], bookmaker: row.bookOver }
      : null,
  };
}

export interface Fold {
  season: string;
  settings: MarketSettings;
  weights: Record<'none' | 'prematch', BlendWeights>;
  forecasts: Record<'none' | 'prematch', Forecast[]>;
}

/**
 * One fold of the rolling origin: the filters fitted on the market's figures before the season's
 * start, from the neutral point; the pools on the forecasts of `firstPredicted` to the season
 * before; the season's matches forecast with both.
 */
export function runFold(data: ProtocolData, options: ProtocolOptions, season: string): Fold {
  const settings = fitFilters(data, options.start, seasonStart(season), options);
  const rows = rowsFor(data, settings, options.windowDays);
  // Every forecast dated before the fold starts: by date, not by label, so a calendar-year league's
  // fold (`2019`, from January) reads no European season that runs past its start, and back.
  const start = seasonStart(season);
  const training = rows.filter((row) => row.season >= options.firstPredicted && row.date < start);
  const test = rows.filter((row) => row.season === season);
  const fold: Fold = {
    season,
    settings,
    weights: {} as Fold['weights'],
    forecasts: {} as Fold['forecasts'],
  };
  for (const mode of ['none', 'prematch'] as const) {
    const weights = fitPools(training, options.start.weights[mode], mode, {
      target: options.target,
      steam: Boolean(options.start.steam),
      context: options.context,
    });
    fold.weights[mode] = weights;
  }
  for (const mode of ['none', 'prematch'] as const)
    fold.forecasts[mode] = test.map((row) => forecastOf(row, fold.weights, mode));
  return fold;
}
