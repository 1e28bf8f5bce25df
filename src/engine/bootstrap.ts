// Bootstrap intervals that respect how the matches hang together: a match day's matches share
// its news, weather and the market's mood, so the unit resampled is the match day (every match of
// that UTC day, every league), never the single match. Several columns (the engine's losses, the
// yardstick's, a variant's) are resampled with the same days, so a difference between two of
// them is paired: each resample compares them on the same matches.
import { seededRandom } from './random.js';
import { DAY_MS } from './season.js';

export const BOOTSTRAP_SAMPLES = 1000;
export const BOOTSTRAP_SEED = 20_240_601;

/** The match day of an instant (its UTC day number): the bootstrap's cluster. */
export const matchDay = (instant: number): number => Math.floor(instant / DAY_MS);

/**
 * The 95 % percentile interval of `statistic(sums)`, where `sums[k]` is column k summed over a
 * resample of the clusters (drawn with replacement, as many as there are; seeded). `clusters[i]`
 * names match i's cluster; every column has one value per match.
 */
export function clusterBootstrap(
  clusters: ArrayLike<number>,
  columns: readonly ArrayLike<number>[],
  statistic: (sums: readonly number[]) => number,
  { samples = BOOTSTRAP_SAMPLES, seed = BOOTSTRAP_SEED } = {},
): [number, number] {
  const n = clusters.length;
  if (n === 0) return [Number.NaN, Number.NaN];
  // Each cluster's sum of each column, in the order clusters first appear.
  const index = new Map<number, number>();
  const totals: number[][] = [];
  for (let i = 0; i < n; i++) {
    let c = index.get(clusters[i]!);
    if (c === undefined) {
      c = totals.length;
      index.set(clusters[i]!, c);
      totals.push(new Array<number>(columns.length).fill(0));
    }
    const row = totals[c]!;
    for (let k = 0; k < columns.length; k++) row[k]! += columns[k]![i]!;
  }
  const count = totals.length;
  const random = seededRandom(seed);
  const values = new Float64Array(samples);
  const sums = new Array<number>(columns.length);
  for (let b = 0; b < samples; b++) {
    sums.fill(0);
    for (let draw = 0; draw < count; draw++) {
      const row = totals[Math.floor(random() * count)]!;
      for (let k = 0; k < columns.length; k++) sums[k]! += row[k]!;
    }
    values[b] = statistic(sums);
  }
  values.sort();
  return [values[Math.floor(0.025 * samples)]!, values[Math.ceil(0.975 * samples) - 1]!];
}

/** Σ a / Σ b: a ratio of mean losses over the same matches. */
export const ratioOf = ([a, b]: readonly number[]) => a! / b!;

/** Σ a / Σ c − Σ b / Σ c: two forecasts' ratios to one yardstick, paired on the same matches. */
export const ratioGapOf = ([a, b, c]: readonly number[]) => (a! - b!) / c!;

/** The interval of Σ engine / Σ yardstick, match days resampled. */
export function dayClusteredRatio(
  dates: ArrayLike<number>,
  engine: ArrayLike<number>,
  yardstick: ArrayLike<number>,
): [number, number] {
  return clusterBootstrap(
    Float64Array.from(dates as ArrayLike<number>, matchDay),
    [engine, yardstick],
    ratioOf,
  );
}

/**
 * A paired comparison of two forecasts of the same matches against one yardstick: the gap of
 * their ratios (Σ a − Σ b) / Σ yardstick, its value and its interval, match days resampled.
 */
export function pairedRatioGap(
  dates: ArrayLike<number>,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  yardstick: ArrayLike<number>,
): { gap: number; ci: [number, number] } {
  let sa = 0;
  let sb = 0;
  let sc = 0;
  for (let i = 0; i < dates.length; i++) {
    sa += a[i]!;
    sb += b[i]!;
    sc += yardstick[i]!;
  }
  return {
    gap: (sa - sb) / sc,
    ci: clusterBootstrap(
      Float64Array.from(dates as ArrayLike<number>, matchDay),
      [a, b, yardstick],
      ratioGapOf,
    ),
  };
}
