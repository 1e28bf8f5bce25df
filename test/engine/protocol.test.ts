// The rolling origin cannot leak (issue 56): a fold's settings, weights and forecasts are the
// same whatever the later seasons hold, in both histories (every season, production's window);
// its search starts from the fixed neutral point; and the match-day-clustered, paired bootstrap.
import { describe, expect, it } from 'vitest';
import { NEUTRAL_MARKET_SETTINGS } from '../../scripts/engine/neutral.js';
import { runFold } from '../../scripts/engine/pools.js';
import { RECORDED_GOALS, type RecordedFit } from '../../scripts/engine/record-fit.js';
import { fitKey, type ProtocolData, type ProtocolOptions } from '../../scripts/engine/rolling-origin.js';
import {
  clusterBootstrap,
  dayClusteredRatio,
  matchDay,
  pairedRatioGap,
  ratioOf,
} from '../../src/engine/bootstrap.js';
import type { EvaluationMatch } from '../../src/engine/evaluation.js';
import { dayOf, MARKET_SETTINGS } from '../../src/engine/model.js';
import { seededRandom } from '../../src/engine/random.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';

const DAY = 86_400_000;
const TEAMS = ['Ajax', 'Benfica', 'Celtic', 'Dinamo', 'Everton', 'Fenerbahce'];
const SEASONS = ['2008-09', '2009-10', '2010-11', '2011-12', '2012-13'];

function poisson(lambda: number, random: () => number): number {
  let k = 0;
  let p = Math.exp(-lambda);
  let sum = p;
  const u = random();
  while (u > sum && k < 12) {
    k++;
    p *= lambda / k;
    sum += p;
  }
  return k;
}

/**
 * A league of six sides over five seasons (a double round-robin each, one round a week), priced
 * by its true strengths with noise, and the results-only fit's recorded forecasts. `twist` changes
 * every season from the one given on: other strengths, other results, other prices and forecasts.
 */
function league(twist: string | null): ProtocolData {
  const matches: EvaluationMatch[] = [];
  const recorded = new Map<string, RecordedFit>();
  SEASONS.forEach((season, s) => {
    const twisted = twist !== null && season >= twist;
    const random = seededRandom(1000 + s + (twisted ? 77 : 0));
    const strength = new Map(TEAMS.map((team, i) => [team, (twisted ? i - 2.5 : 2.5 - i) * 0.15]));
    const start = Date.UTC(2008 + s, 7, 9);
    let round = 0;
    for (const home of TEAMS)
      for (const away of TEAMS) {
        if (home === away) continue;
        const date = start + Math.floor(round++ / 3) * 7 * DAY + 15 * 3_600_000;
        const lambda = Math.exp(
          0.3 + 0.2 + strength.get(home)! - strength.get(away)! + 0.1 * (random() - 0.5),
        );
        const mu = Math.exp(0.3 + strength.get(away)! - strength.get(home)! + 0.1 * (random() - 0.5));
        const matrix = scoreMatrix(lambda, mu, -0.05);
        let h = 0;
        let d = 0;
        let over = 0;
        const cells: number[] = [];
        for (let x = 0; x <= 10; x++)
          for (let y = 0; y <= 10; y++) {
            const p = matrix.p[x * matrix.size + y]!;
            if (x > y) h += p;
            else if (x === y) d += p;
            if (x + y > 2) over += p;
            if (x <= RECORDED_GOALS && y <= RECORDED_GOALS) cells.push(p);
          }
        const book: [number, number, number] = [h, d, 1 - h - d];
        matches.push({
          league: 'XX',
          season,
          date,
          home,
          away,
          homeGoals: poisson(lambda, random),
          awayGoals: poisson(mu, random),
          bookmaker: book,
          bookmakerOverUnder: [over, 1 - over],
          market: { oneXTwo: book, overUnder: [over, 1 - over] },
          // Pre-match odds a little off the closing price, with a 3 % margin.
          prematchOdds: {
            collected_at: new Date(date - DAY).toISOString(),
            pinnacle: book.map(
              (p, k) => 1 / (1.03 * (p + (k === 1 ? 0 : (k === 0 ? 1 : -1) * 0.02 * (random() - 0.5)))),
            ) as [number, number, number],
            ou_pinnacle: [1 / (1.03 * over), 1 / (1.03 * (1 - over))],
          },
        });
        recorded.set(fitKey('XX', dayOf(date), home, away), {
          league: 'XX',
          date: dayOf(date),
          home,
          away,
          fit: [0.9 * h + 0.1 / 3, 0.9 * d + 0.1 / 3, 0.9 * (1 - h - d) + 0.1 / 3],
          over,
          goals: [lambda, mu],
          matrix: cells,
        });
      }
  });
  return { leagues: new Map([['XX', matches]]), recorded };
}

const OPTIONS: ProtocolOptions = {
  start: NEUTRAL_MARKET_SETTINGS,
  firstPredicted: '2008-09',
  rounds: 1,
  iterations: 25,
};

describe('the rolling origin cannot leak', () => {
  it('a fold gives the same settings, weights and forecasts whatever the later seasons hold', () => {
    const fold = runFold(league(null), OPTIONS, '2010-11');
    const later = runFold(league('2011-12'), OPTIONS, '2010-11');
    expect(fold.forecasts.none.length).toBe(30);
    expect(later).toEqual(fold);
    // The test can see a change: the same twist from the fold's own season on changes it.
    expect(runFold(league('2010-11'), OPTIONS, '2010-11').forecasts.none).not.toEqual(fold.forecasts.none);
  });

  it('and with production window', () => {
    const windowed = { ...OPTIONS, windowDays: 400 };
    const fold = runFold(league(null), windowed, '2010-11');
    expect(runFold(league('2011-12'), windowed, '2010-11')).toEqual(fold);
    // The window reads less history than every season: the forecasts differ.
    expect(fold.forecasts.none).not.toEqual(runFold(league(null), OPTIONS, '2010-11').forecasts.none);
  });

  it('a league without pre-match odds keeps the start weights of that mode instead of failing', () => {
    const data = league(null);
    const bare: ProtocolData = {
      ...data,
      leagues: new Map(
        [...data.leagues].map(([name, list]) => [name, list.map((m) => ({ ...m, prematchOdds: null }))]),
      ),
    };
    const fold = runFold(bare, OPTIONS, '2010-11');
    expect(fold.weights.prematch.ouPrematch).toBeCloseTo(
      NEUTRAL_MARKET_SETTINGS.weights.prematch.ouPrematch,
      4,
    );
    expect(fold.forecasts.prematch.length).toBe(30);
  });

  it('a test match without pre-match odds is forecast in the pre-match mode as production does: as without them', () => {
    const data = league(null);
    // Pre-match odds in the training seasons, none in the fold's (an extra league's closing-only files).
    const bareFold: ProtocolData = {
      ...data,
      leagues: new Map(
        [...data.leagues].map(([name, list]) => [
          name,
          list.map((m) => (m.season === '2010-11' ? { ...m, prematchOdds: null } : m)),
        ]),
      ),
    };
    const fold = runFold(bareFold, OPTIONS, '2010-11');
    expect(fold.weights.prematch.prematch).toBeGreaterThan(0);
    expect(fold.forecasts.prematch.map((f) => f.oneXTwo)).toEqual(fold.forecasts.none.map((f) => f.oneXTwo));
    expect(fold.forecasts.prematch.map((f) => f.over)).toEqual(fold.forecasts.none.map((f) => f.over));
    // With its odds, the mode does use them.
    const priced = runFold(data, OPTIONS, '2010-11');
    expect(priced.forecasts.prematch.map((f) => f.oneXTwo)).not.toEqual(
      priced.forecasts.none.map((f) => f.oneXTwo),
    );
  });

  it('every search starts from the fixed neutral point, not the shipped settings', () => {
    expect(NEUTRAL_MARKET_SETTINGS.strength).not.toEqual(MARKET_SETTINGS.strength);
    expect(NEUTRAL_MARKET_SETTINGS.weights.none.stakes).toBe(0);
    // Same data, same start: the same fold twice (nothing carried between runs).
    expect(runFold(league(null), OPTIONS, '2010-11')).toEqual(runFold(league(null), OPTIONS, '2010-11'));
  });
});

describe('the match-day-clustered, paired bootstrap', () => {
  it('is seeded: the same interval every run', () => {
    const dates = Array.from({ length: 200 }, (_, i) => Math.floor(i / 5) * DAY);
    const random = seededRandom(3);
    const a = dates.map(() => random());
    const b = dates.map(() => 0.5);
    expect(dayClusteredRatio(dates, a, b)).toEqual(dayClusteredRatio(dates, a, b));
    const [low, high] = dayClusteredRatio(dates, a, b);
    const ratio = a.reduce((s, v) => s + v, 0) / b.reduce((s, v) => s + v, 0);
    expect(low).toBeLessThan(ratio);
    expect(high).toBeGreaterThan(ratio);
  });

  it('resamples match days: losses shared within a day widen the interval', () => {
    // 100 days of 10 matches; each day's matches share its loss.
    const dates = Array.from({ length: 1000 }, (_, i) => Math.floor(i / 10) * DAY + (i % 10) * 3_600_000);
    const random = seededRandom(9);
    const dayLoss = Array.from({ length: 100 }, () => random());
    const a = dates.map((_, i) => dayLoss[Math.floor(i / 10)]!);
    const b = dates.map(() => 0.5);
    const [low, high] = dayClusteredRatio(dates, a, b);
    // One match a cluster: the same losses look ten times more numerous.
    const [singleLow, singleHigh] = clusterBootstrap(
      dates.map((_, i) => i),
      [a, b],
      ratioOf,
    );
    expect(high - low).toBeGreaterThan(2.5 * (singleHigh - singleLow));
    expect(matchDay(dates[9]!)).toBe(matchDay(dates[0]!));
  });

  it('pairs two forecasts: a constant gap has no width, an identical pair is zero', () => {
    const dates = Array.from({ length: 300 }, (_, i) => Math.floor(i / 3) * DAY);
    const random = seededRandom(5);
    const book = dates.map(() => 0.2 + 0.1 * random());
    const a = book.map((v) => v * (1 + 0.5 * (random() - 0.5)));
    expect(pairedRatioGap(dates, a, a, book)).toEqual({ gap: 0, ci: [0, 0] });
    // b is a plus 1 % of the yardstick on every match: the gap is −0.01 in every resample.
    const b = a.map((v, i) => v + 0.01 * book[i]!);
    const { gap, ci } = pairedRatioGap(dates, a, b, book);
    expect(gap).toBeCloseTo(-0.01, 10);
    expect(ci[0]).toBeCloseTo(-0.01, 10);
    expect(ci[1]).toBeCloseTo(-0.01, 10);
    // Unpaired, the two ratios' own intervals overlap widely.
    const [aLow, aHigh] = dayClusteredRatio(dates, a, book);
    expect(aHigh - aLow).toBeGreaterThan(0.02);
  });
});
