// The season-end reading of a rolling-origin run (`fit-market.ts season-end`): forecasts grouped by
// days to their league's last match day, each block's RPS ratios and spreads of ln(pH/pA).
import { describe, expect, it } from 'vitest';
import { type ForecastLine, seasonEndReport } from '../../scripts/engine/season-end.js';

const DAY = 86_400_000;
const LAST = Date.UTC(2019, 4, 26);

function line(daysBefore: number, overrides: Partial<ForecastLine> = {}): ForecastLine {
  return {
    league: 'E0',
    season: '2018-19',
    date: LAST - daysBefore * DAY,
    home: 'Home',
    away: 'Away',
    outcome: 0,
    engine: [0.5, 0.25, 0.25],
    book: [0.5, 0.25, 0.25],
    pre: [0.5, 0.25, 0.25],
    fit: [0.4, 0.3, 0.3],
    market: [0.5, 0.25, 0.25],
    stake: 0,
    ...overrides,
  };
}

/** A block's row as numbers: matches, three RPS ratios, four spreads. */
function row(report: string[], block: string): number[] {
  const found = report.find((text) => text.startsWith(block));
  if (!found) throw new Error(`no row for ${block}`);
  return found.slice(27).trim().split(/\s+/).map(Number);
}

describe('the season-end reading', () => {
  it('groups forecasts by days to their own league season’s last match day', () => {
    const report = seasonEndReport([
      line(0),
      line(0, { league: 'D1', date: LAST - 7 * DAY }), // D1's own last day
      line(3),
      line(20),
      line(40),
      line(41),
    ]);
    expect(row(report, 'last day')[0]).toBe(2);
    expect(row(report, '1-7 days')[0]).toBe(1);
    expect(row(report, '8-28 days')[0]).toBe(1);
    expect(row(report, 'the rest')[0]).toBe(2);
  });

  it('reads the spread of ln(pH/pA) between the closing price, the pre-match price and the engine', () => {
    // Closing ln(pH/pA) = 0; the engine at ln 2 and −ln 2, the pre-match price at 0: spread ln 2.
    const even: [number, number, number] = [0.375, 0.25, 0.375];
    const report = seasonEndReport([
      line(0, { book: even, pre: even, market: even, engine: [0.5, 0.25, 0.25] }),
      line(0, { book: even, pre: even, market: even, engine: [0.25, 0.25, 0.5] }),
    ]);
    const [, , , , closingEngine, closingRating, closingPre, preEngine] = row(report, 'last day');
    expect(closingEngine).toBeCloseTo(Math.LN2, 4);
    expect(closingRating).toBe(0);
    expect(closingPre).toBe(0);
    expect(preEngine).toBeCloseTo(Math.LN2, 4);
  });

  it('scores each forecaster against the closing price on the same matches, leaving out those without a pre-match price', () => {
    const report = seasonEndReport([
      line(60, { outcome: 0, engine: [0.6, 0.2, 0.2], pre: [0.4, 0.3, 0.3] }),
      line(60, { outcome: 2, engine: [0.6, 0.2, 0.2], pre: [0.4, 0.3, 0.3] }),
      line(60, { outcome: 2, pre: null, engine: [1, 0, 0] }),
    ]);
    // Alone in their season, these matches are its last day.
    const [matches, engine, rating, pre] = row(report, 'last day');
    expect(matches).toBe(2);
    // Closing [0.5, 0.25, 0.25]: RPS 0.15625 (home won) + 0.40625 (away won).
    const closing = 0.15625 + 0.40625;
    expect(engine).toBeCloseTo((0.1 + 0.5) / closing, 4);
    expect(rating).toBeCloseTo(1, 4);
    expect(pre).toBeCloseTo((0.225 + 0.325) / closing, 4);
  });
});
