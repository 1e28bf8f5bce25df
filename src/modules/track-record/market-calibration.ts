// The bookmakers' calibration beside ours, pure: each settled match's market pick (its likeliest
// 1X2 outcome, margin-free) and whether it happened, grouped by the pick's probability. The page
// shows only aggregates: deciles merged with their neighbours until every bin holds at least
// MARKET_BIN_MIN matches, so no bin ever gives away one match's odds.

/** The fewest matches a published bin may hold. */
export const MARKET_BIN_MIN = 30;

export interface MarketPoint {
  /** The market's probability of its own pick (the largest of the three). */
  probability: number;
  /** The pick happened. */
  won: boolean;
}

export interface MarketBin {
  from: number;
  to: number;
  count: number;
  mean_probability: number;
  hit_rate: number;
}

const round4 = (value: number) => Math.round(value * 10_000) / 10_000;

/** The market's pick of one match: its likeliest outcome (home first on a tie) and whether it won. */
export function marketPoint(
  probabilities: readonly [number, number, number],
  actual: 'home' | 'draw' | 'away',
): MarketPoint {
  const outcomes = ['home', 'draw', 'away'] as const;
  let best = 0;
  for (let i = 1; i < 3; i++) if (probabilities[i]! > probabilities[best]!) best = i;
  return { probability: probabilities[best]!, won: outcomes[best] === actual };
}

/**
 * Bins of at least `min` points: the deciles [0, 0.1) … [0.9, 1] (empty ones skipped), merged
 * left to right until each holds `min`; a short remainder joins the last bin. Fewer than `min`
 * points in all: no bin.
 */
export function marketBins(points: readonly MarketPoint[], min = MARKET_BIN_MIN): MarketBin[] {
  if (!Number.isInteger(min) || min < 1) throw new RangeError('min must be a positive integer');
  const deciles = Array.from({ length: 10 }, () => ({ count: 0, won: 0, sum: 0 }));
  for (const point of points) {
    if (!Number.isFinite(point.probability)) continue;
    const p = Math.min(Math.max(point.probability, 0), 1);
    const decile = deciles[Math.min(Math.floor(p * 10), 9)]!;
    decile.count += 1;
    decile.sum += p;
    if (point.won) decile.won += 1;
  }
  const merged: Array<{ from: number; to: number; count: number; won: number; sum: number }> = [];
  let open: (typeof merged)[number] | undefined;
  deciles.forEach((decile, index) => {
    if (decile.count === 0) return;
    open ??= { from: index / 10, to: index / 10, count: 0, won: 0, sum: 0 };
    open.to = (index + 1) / 10;
    open.count += decile.count;
    open.won += decile.won;
    open.sum += decile.sum;
    if (open.count >= min) {
      merged.push(open);
      open = undefined;
    }
  });
  if (open) {
    const last = merged[merged.length - 1];
    if (!last) return [];
    last.to = open.to;
    last.count += open.count;
    last.won += open.won;
    last.sum += open.sum;
  }
  return merged.map((bin) => ({
    from: bin.from,
    to: bin.to,
    count: bin.count,
    mean_probability: round4(bin.sum / bin.count),
    hit_rate: round4(bin.won / bin.count),
  }));
}
