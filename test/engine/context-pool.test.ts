// The context-aware pool (issue 56): the fit's and the rating's 1X2 weights may move with the
// rating's uncertainty and with the season's last matches. Off unless fitted; production and the
// fitting script weigh a fixture the same way; the fitting stage finds a context that matters.
import { describe, expect, it } from 'vitest';
import { fitPools } from '../../scripts/engine/pools.js';
import type { Row } from '../../scripts/engine/rolling-origin.js';
import { type Probabilities3, rps } from '../../src/engine/evaluation.js';
import { type MarketForecast, pool1x2 } from '../../src/engine/market-rating.js';
import { MARKET_SETTINGS } from '../../src/engine/model.js';
import { contextWeights } from '../../src/engine/predict.js';
import { seededRandom } from '../../src/engine/random.js';
import type { BlendWeights } from '../../src/engine/types.js';

const FORECAST: MarketForecast = {
  oneXTwo: [0.5, 0.27, 0.23],
  over: 0.5,
  spread: 0.8,
  drawTendency: 0,
  steam: 0,
  variance: 0.4,
  late: 0.5,
};

describe('contextWeights', () => {
  const weights: BlendWeights = MARKET_SETTINGS.weights!.none;

  it('leaves the weights as they are without context terms or without a rating', () => {
    expect(contextWeights(weights, FORECAST)).toBe(weights);
    const withTerms = { ...weights, dcUncertain: 0.5, marketLate: -0.2 };
    expect(contextWeights(withTerms, null)).toBe(withTerms);
  });

  it("moves the fit's and the rating's weights by the uncertainty and the sides in their last matches", () => {
    const moved = contextWeights(
      { ...weights, dcUncertain: 0.5, marketUncertain: -0.25, dcLate: 0.1, marketLate: -0.2 },
      FORECAST,
    );
    expect(moved.dc).toBeCloseTo(weights.dc + 0.5 * 0.4 + 0.1 * 0.5, 12);
    expect(moved.market).toBeCloseTo(weights.market - 0.25 * 0.4 - 0.2 * 0.5, 12);
    expect(moved.prematch).toBe(weights.prematch);
  });
});

describe('fitting the context-aware pool', () => {
  // Simulated matches: the rating is right where it is sure (variance 0.05) and twice too sharp
  // where it is unsure (variance 1): its best weight falls with its uncertainty.
  const random = seededRandom(56);
  const sharpen = (p: Probabilities3): Probabilities3 => pool1x2([{ p, weight: 2 }]);
  const rows: Row[] = Array.from({ length: 2000 }, (_, i) => {
    const home = 0.25 + 0.4 * random();
    const truth: Probabilities3 = [home, 0.27, 0.73 - home];
    const unsure = i % 2 === 1;
    const u = random();
    const outcome = u < truth[0] ? 0 : u < truth[0] + truth[1] ? 1 : 2;
    const over = random() < 0.5;
    return {
      league: 'XX',
      season: '2015-16',
      date: i,
      home: `H${i}`,
      away: `A${i}`,
      homeGoals: outcome === 0 ? 1 : 0,
      awayGoals: outcome === 2 ? 1 : 0,
      outcome,
      over,
      book: truth,
      bookOver: null,
      baseline: [0.45, 0.27, 0.28],
      naiveBtts: 0.5,
      naiveScore: 0.1,
      fit: [0.45, 0.27, 0.28],
      fitOver: 0.4 + 0.2 * random(),
      fitMatrix: null,
      market: {
        ...FORECAST,
        oneXTwo: unsure ? sharpen(truth) : truth,
        over: 0.4 + 0.2 * random(),
        spread: random(),
        drawTendency: random() - 0.5,
        variance: unsure ? 1 : 0.05,
        late: 0,
      },
      inverse: 0.4 + 0.2 * random(),
      pre: null,
      preOver: null,
      stake: 0,
      closingOver: null,
    } satisfies Row;
  });
  const start = MARKET_SETTINGS.weights!.none;
  const meanRps = (weights: BlendWeights) => {
    let sum = 0;
    for (const row of rows) {
      const { dc, market } = contextWeights(weights, row.market);
      const pooled = pool1x2([
        { p: row.fit, weight: dc },
        { p: row.market!.oneXTwo, weight: market },
      ]);
      sum += rps(pooled, row.outcome);
    }
    return sum / rows.length;
  };

  it('is off unless asked: no context terms fitted', () => {
    const plain = fitPools(rows, start, 'none');
    expect(plain.dcUncertain).toBeUndefined();
    expect(plain.marketUncertain).toBeUndefined();
  });

  it('learns that an unsure rating weighs less, and scores better for it', () => {
    const plain = fitPools(rows, start, 'none');
    const context = fitPools(rows, start, 'none', { context: true });
    expect(context.marketUncertain).toBeLessThan(-0.2);
    // The unsure rating's weight near a half (twice too sharp), the sure one's near one.
    const sure = contextWeights(context, { ...FORECAST, variance: 0.05, late: 0 }).market;
    const unsure = contextWeights(context, { ...FORECAST, variance: 1, late: 0 }).market;
    expect(sure).toBeGreaterThan(0.8);
    expect(unsure).toBeLessThan(0.7);
    expect(meanRps(context)).toBeLessThan(meanRps(plain));
    // The pre-match-only pool has no rating to read a context from.
    expect(fitPools(rows, start, 'prematchOnly', { context: true }).marketUncertain).toBeUndefined();
  });
});
