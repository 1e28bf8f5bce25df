// Both teams to score and the exact score, validated on the rolling origin against the results:
// the engine's figures are read off its score matrix (the results-only fit's, raked onto the
// pooled 1X2 and over/under, as `predictFixture` does), beside a naive baseline (the league's
// frequencies so far) and the market: the match's closing 1X2 and over/under turned into two
// Poisson scores (the yardstick, never an input; before 2019-20 the over/under is the average
// pre-match price). Log-loss, and calibration by bins and by a logistic fit.
import { dayClusteredRatio } from '../../src/engine/bootstrap.js';
import { impliedGoals, impliedTotal } from '../../src/engine/market-rating.js';
import { MAX_GOALS, rakeMatrix } from '../../src/engine/score-matrix.js';
import { logistic } from './optimise.js';
import type { Forecast } from './pools.js';

const FLOOR = 1e-12;
const loss = (p: number) => -Math.log(Math.max(p, FLOOR));
const logit = (p: number) => Math.log(p / (1 - p));
const clamp = (p: number) => Math.min(Math.max(p, 1e-4), 1 - 1e-4);

/** The market's two Poisson means: the 1X2's split, the over/under's total where priced. */
export function marketGoals(
  oneXTwo: readonly [number, number, number],
  overUnder: readonly [number, number] | null,
): [number, number] | null {
  const goals = impliedGoals(oneXTwo);
  if (!goals) return null;
  if (!overUnder) return goals;
  const scale = impliedTotal(overUnder[0]) / (goals[0] + goals[1]);
  return [goals[0] * scale, goals[1] * scale];
}

const poisson = (k: number, lambda: number) => {
  let p = Math.exp(-lambda);
  for (let i = 1; i <= k; i++) p *= lambda / i;
  return p;
};

/** One match: each forecaster's probability of both teams scoring and of the score that happened. */
export interface MarketCheck {
  date: number;
  btts: boolean;
  engineBtts: number;
  naiveBtts: number;
  marketBtts: number;
  engineScore: number;
  naiveScore: number;
  marketScore: number;
  /** The engine's likeliest score's probability, and whether it happened. */
  topProbability: number;
  topHit: boolean;
}

export function checkMarkets(forecast: Forecast): MarketCheck | null {
  const { row, oneXTwo, over } = forecast;
  const goals = marketGoals(row.book, row.bookOver);
  if (!row.fitMatrix || !goals) return null;
  const matrix = rakeMatrix(row.fitMatrix, oneXTwo, over);
  const size = matrix.size;
  let both = 0;
  let top = 0;
  let topCell = 0;
  for (let x = 0; x < size; x++)
    for (let y = 0; y < size; y++) {
      const p = matrix.p[x * size + y]!;
      if (x > 0 && y > 0) both += p;
      if (p > top) {
        top = p;
        topCell = x * size + y;
      }
    }
  const h = Math.min(row.homeGoals, MAX_GOALS);
  const a = Math.min(row.awayGoals, MAX_GOALS);
  return {
    date: row.date,
    btts: row.homeGoals > 0 && row.awayGoals > 0,
    engineBtts: both,
    naiveBtts: row.naiveBtts,
    marketBtts: (1 - Math.exp(-goals[0])) * (1 - Math.exp(-goals[1])),
    engineScore: matrix.p[h * size + a]!,
    naiveScore: row.naiveScore,
    marketScore: poisson(row.homeGoals, goals[0]) * poisson(row.awayGoals, goals[1]),
    topProbability: top,
    topHit: topCell === h * size + a,
  };
}

const BINS = [0, 0.3, 0.4, 0.45, 0.5, 0.55, 0.6, 0.7, 1.01];
const TOP_BINS = [0, 0.08, 0.1, 0.12, 0.14, 0.17, 1.01];

/** Predicted and observed shares per bin of the predicted probability. */
function bins(pairs: readonly (readonly [number, boolean])[], edges: readonly number[]): string[] {
  const lines: string[] = [];
  for (let b = 0; b + 1 < edges.length; b++) {
    const inside = pairs.filter(([p]) => p >= edges[b]! && p < edges[b + 1]!);
    if (inside.length === 0) continue;
    const predicted = inside.reduce((sum, [p]) => sum + p, 0) / inside.length;
    const observed = inside.filter(([, y]) => y).length / inside.length;
    lines.push(
      `  ${edges[b]!.toFixed(2)}–${Math.min(edges[b + 1]!, 1).toFixed(2)}  predicted ${predicted.toFixed(3)}  observed ${observed.toFixed(3)}  (${inside.length})`,
    );
  }
  return lines;
}

/** The calibration line: logit P(yes) = a + b · logit p (a = 0, b = 1 when calibrated). */
export function calibrationLine(pairs: readonly (readonly [number, boolean])[]): [number, number] {
  const [a, b] = logistic(
    pairs.map(([p]) => [1, logit(clamp(p))]),
    pairs.map(([, y]) => (y ? 1 : 0)),
  );
  return [a!, b!];
}

/** The report's lines for one mode. */
export function marketsReport(checks: readonly MarketCheck[]): string[] {
  const n = checks.length;
  if (n === 0) return ['  no match with a recorded score matrix and a market price'];
  const mean = (read: (c: MarketCheck) => number) => checks.reduce((sum, c) => sum + read(c), 0) / n;
  const bttsLoss = (p: number, yes: boolean) => loss(yes ? p : 1 - p);
  const engineBtts = Float64Array.from(checks, (c) => bttsLoss(c.engineBtts, c.btts));
  const marketBtts = Float64Array.from(checks, (c) => bttsLoss(c.marketBtts, c.btts));
  const engineScore = Float64Array.from(checks, (c) => loss(c.engineScore));
  const marketScore = Float64Array.from(checks, (c) => loss(c.marketScore));
  const dates = Float64Array.from(checks, (c) => c.date);
  const sum = (values: Float64Array) => values.reduce((s, v) => s + v, 0);
  const ci = (a: Float64Array, b: Float64Array) => {
    const [low, high] = dayClusteredRatio(dates, a, b);
    return `${(sum(a) / sum(b)).toFixed(4)} (${low.toFixed(4)}–${high.toFixed(4)})`;
  };
  const bttsPairs = checks.map((c) => [c.engineBtts, c.btts] as const);
  const [a, b] = calibrationLine(bttsPairs);
  const [ma, mb] = calibrationLine(checks.map((c) => [c.marketBtts, c.btts] as const));
  return [
    `  both teams to score, ${n} matches (observed ${(checks.filter((c) => c.btts).length / n).toFixed(3)}):`,
    `  log-loss engine ${mean((c) => bttsLoss(c.engineBtts, c.btts)).toFixed(4)}, naive ${mean((c) => bttsLoss(c.naiveBtts, c.btts)).toFixed(4)}, market (closing 1X2 and over/under as Poisson) ${mean((c) => bttsLoss(c.marketBtts, c.btts)).toFixed(4)}`,
    `  ratio engine / market ${ci(engineBtts, marketBtts)}; calibration line engine a ${a.toFixed(3)} b ${b.toFixed(3)}, market a ${ma.toFixed(3)} b ${mb.toFixed(3)}`,
    ...bins(bttsPairs, BINS),
    '  exact score:',
    `  log-loss engine ${mean((c) => loss(c.engineScore)).toFixed(4)}, naive ${mean((c) => loss(c.naiveScore)).toFixed(4)}, market Poisson ${mean((c) => loss(c.marketScore)).toFixed(4)}; ratio engine / market ${ci(engineScore, marketScore)}`,
    `  the likeliest score: predicted ${mean((c) => c.topProbability).toFixed(4)}, happened ${(checks.filter((c) => c.topHit).length / n).toFixed(4)}`,
    ...bins(
      checks.map((c) => [c.topProbability, c.topHit] as const),
      TOP_BINS,
    ),
  ];
}
