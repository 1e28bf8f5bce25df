// Both teams to score and the exact score on the rolling origin (issue 56): the engine's figures
// read off its raked matrix, the market's from its closing 1X2 and over/under as two Poisson
// scores, and the calibration line that says whether a forecast is too sure.
import { describe, expect, it } from 'vitest';
import {
  calibrationLine,
  checkMarkets,
  marketGoals,
  marketsReport,
} from '../../scripts/engine/markets-check.js';
import type { Forecast } from '../../scripts/engine/pools.js';
import type { Row } from '../../scripts/engine/rolling-origin.js';
import { overProbability } from '../../src/engine/market-rating.js';
import { seededRandom } from '../../src/engine/random.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';

/** Independent Poisson 1X2 of two means. */
function oneXTwo(lambda: number, mu: number): [number, number, number] {
  const m = scoreMatrix(lambda, mu, 0);
  let h = 0;
  let d = 0;
  for (let x = 0; x < m.size; x++)
    for (let y = 0; y < m.size; y++) {
      if (x > y) h += m.p[x * m.size + y]!;
      else if (x === y) d += m.p[x * m.size + y]!;
    }
  return [h, d, 1 - h - d];
}

describe('BTTS and exact-score validation', () => {
  it("recovers the market's Poisson means from its 1X2 and over/under", () => {
    const book = oneXTwo(1.6, 1.1);
    const over = overProbability(2.7);
    const [h, a] = marketGoals(book, [over, 1 - over])!;
    expect(h).toBeCloseTo(1.6, 2);
    expect(a).toBeCloseTo(1.1, 2);
  });

  it("reads the engine's BTTS and the score that happened off the matrix raked onto its pooled figures", () => {
    const matrix = scoreMatrix(1.5, 1.0, 0);
    const book = oneXTwo(1.5, 1.0);
    const over = overProbability(2.5);
    const row = {
      homeGoals: 2,
      awayGoals: 1,
      date: 0,
      book,
      bookOver: [over, 1 - over],
      fitMatrix: matrix,
      naiveBtts: 0.5,
      naiveScore: 0.05,
    } as unknown as Row;
    const check = checkMarkets({ row, oneXTwo: book, over } as Forecast)!;
    // Raked onto its own margins, the matrix is unchanged: P(2-1) and P(both score) of Poisson(1.5, 1.0).
    const p21 = ((Math.exp(-1.5) * 1.5 ** 2) / 2) * Math.exp(-1) * 1;
    expect(check.engineScore).toBeCloseTo(p21, 4);
    expect(check.marketScore).toBeCloseTo(p21, 3);
    expect(check.engineBtts).toBeCloseTo((1 - Math.exp(-1.5)) * (1 - Math.exp(-1)), 4);
    expect(check.btts).toBe(true);
    expect(check.topHit).toBe(false);
    // A pooled 1X2 further toward the home side moves the matrix with it.
    const home = checkMarkets({ row, oneXTwo: [0.6, 0.22, 0.18], over } as Forecast)!;
    expect(home.engineScore).toBeGreaterThan(check.engineScore);
    expect(marketsReport([check, home]).join('\n')).toContain('both teams to score, 2 matches');
  });

  it('a calibrated forecast has a calibration line near a = 0, b = 1; an overconfident one b < 1', () => {
    const random = seededRandom(11);
    const calibrated: [number, boolean][] = [];
    const overconfident: [number, boolean][] = [];
    for (let i = 0; i < 20_000; i++) {
      const p = 0.3 + 0.4 * random();
      const happened = random() < p;
      calibrated.push([p, happened]);
      const z = Math.log(p / (1 - p)) * 2;
      overconfident.push([1 / (1 + Math.exp(-z)), happened]);
    }
    const [a, b] = calibrationLine(calibrated);
    expect(Math.abs(a)).toBeLessThan(0.05);
    expect(b).toBeGreaterThan(0.85);
    expect(b).toBeLessThan(1.15);
    expect(calibrationLine(overconfident)[1]).toBeLessThan(0.6);
  });
});
