// The slip's pure rules (issue 53): which scores win a leg, legs that can win together, the joint
// chance on one matrix, the figures and the verdict's ±2 % band, and a settled slip's return.
import { describe, expect, it } from 'vitest';
import { marketsFrom } from '../../src/engine/markets.js';
import { decodeMatrix, encodeMatrix, scoreMatrix } from '../../src/engine/score-matrix.js';
import { canAllWin, jointProbability, legWins, slipFigures, slipReturn } from '../../src/engine/slip.js';

describe('slip rules', () => {
  it('judges each market on a score, and knows no other pick', () => {
    expect(legWins('1x2', 'home', 2, 1)).toBe(true);
    expect(legWins('double_chance', 'draw_away', 2, 1)).toBe(false);
    expect(legWins('btts', 'no', 0, 3)).toBe(true);
    expect(legWins('over_under_2_5', 'under', 1, 1)).toBe(true);
    expect(legWins('exact_score', '2-1', 2, 1)).toBe(true);
    expect(legWins('1x2', 'yes', 0, 0)).toBeUndefined();
  });

  it('tells legs of one match that can all win from those that cannot', () => {
    expect(
      canAllWin([
        { market: '1x2', pick: 'home' },
        { market: 'over_under_2_5', pick: 'over' },
      ]),
    ).toBe(true);
    expect(
      canAllWin([
        { market: '1x2', pick: 'home' },
        { market: '1x2', pick: 'away' },
      ]),
    ).toBe(false);
    expect(
      canAllWin([
        { market: 'exact_score', pick: '1-1' },
        { market: 'btts', pick: 'no' },
      ]),
    ).toBe(false);
  });

  it('sums the matrix for legs of one match, and a stored matrix reads back exactly', () => {
    const matrix = scoreMatrix(1.7, 0.9, -0.05);
    const stored = decodeMatrix(encodeMatrix(matrix))!;
    expect([...stored.p]).toEqual([...matrix.p]);
    const markets = marketsFrom(matrix);
    expect(jointProbability(stored, [{ market: '1x2', pick: 'home' }])).toBeCloseTo(markets.oneXTwo.home, 12);
    const joint = jointProbability(stored, [
      { market: '1x2', pick: 'home' },
      { market: 'over_under_2_5', pick: 'over' },
    ]);
    expect(joint).toBeLessThan(markets.oneXTwo.home);
    expect(Math.abs(joint - markets.oneXTwo.home * markets.overUnder25.over)).toBeGreaterThan(0.01);
  });

  it('rounds the expected return half up and judges the verdict on ±2 %', () => {
    expect(slipFigures([0.5], [2.05], 1000)).toMatchObject({
      expectedReturn: 1025,
      expectedGain: 25,
      verdict: 'value',
    });
    expect(slipFigures([0.5], [2.04], 1000)).toMatchObject({ expectedReturn: 1020, verdict: 'fair' });
    expect(slipFigures([0.5], [1.95], 1000)).toMatchObject({ expectedReturn: 975, verdict: 'negative' });
    expect(slipFigures([0.5, 0.4], [2, 3], 100)).toMatchObject({
      probability: 0.2,
      odds: 6,
      expectedReturn: 120,
    });
  });

  it('returns the stake at the won legs’ odds, void legs at 1, nothing once one is lost', () => {
    expect(
      slipReturn(
        [
          { odds: 2, outcome: 'won' },
          { odds: 3, outcome: 'void' },
        ],
        1000,
      ),
    ).toEqual({ status: 'won', returned: 2000 });
    expect(
      slipReturn(
        [
          { odds: 2, outcome: 'won' },
          { odds: 3, outcome: 'lost' },
        ],
        1000,
      ),
    ).toEqual({ status: 'lost', returned: 0 });
    expect(slipReturn([{ odds: 2, outcome: 'void' }], 500)).toEqual({ status: 'void', returned: 500 });
  });
});
