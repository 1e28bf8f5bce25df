import { describe, expect, it } from 'vitest';
import {
  eloGoalFactor,
  INTERNATIONAL_SETTINGS,
  type InternationalFixture,
  InternationalModel,
  type InternationalResult,
  LOGIT_START,
  orderedLogitProbabilities,
  stepOrderedLogit,
  walkInternational,
} from '../../src/engine/international.js';
import { marketsFrom } from '../../src/engine/markets.js';

const DAY = 86_400_000;

function result(
  day: number,
  home: string,
  away: string,
  homeGoals: number,
  awayGoals: number,
  extra: Partial<InternationalResult> = {},
): InternationalResult {
  return {
    date: Date.UTC(2020, 0, 1) + day * DAY,
    home,
    away,
    homeGoals,
    awayGoals,
    neutral: false,
    tournamentClass: 'qualifier',
    homeConfederation: 'CAF',
    awayConfederation: 'CAF',
    ...extra,
  };
}

const fixture = (
  home: string,
  away: string,
  extra: Partial<InternationalFixture> = {},
): InternationalFixture => ({
  home,
  away,
  neutral: true,
  tournamentClass: 'continental-final',
  homeConfederation: 'CAF',
  awayConfederation: 'CAF',
  ...extra,
});

describe('national-team forecaster', () => {
  it('learns who is stronger from results, and its matrix carries the pooled 1X2', () => {
    const model = new InternationalModel();
    for (let day = 0; day < 30; day++) {
      model.playDay([result(day, 'Cameroon', 'Chad', 3, 0), result(day, 'Chad', 'Cameroon', 0, 2)]);
    }
    const forecast = model.forecast(fixture('Cameroon', 'Chad'));
    expect(forecast.oneXTwo[0]).toBeGreaterThan(0.7);
    expect(forecast.known).toEqual({ home: true, away: true });
    expect(forecast.matches).toEqual({ home: 60, away: 60 });
    const markets = marketsFrom(forecast.matrix);
    expect(markets.oneXTwo.home).toBeCloseTo(forecast.oneXTwo[0], 6);
    expect(model.oneXTwo(fixture('Cameroon', 'Chad'))[0]).toBeCloseTo(forecast.oneXTwo[0], 3);
    expect(markets.expectedGoals.home).toBeGreaterThan(markets.expectedGoals.away);
  });

  it('gives the home term only when the venue is not neutral', () => {
    const model = new InternationalModel();
    const neutral = model.forecast(fixture('A', 'B'));
    expect(neutral.oneXTwo[0]).toBeCloseTo(neutral.oneXTwo[2], 9);
    const atHome = model.forecast(fixture('A', 'B', { neutral: false }));
    expect(atHome.oneXTwo[0]).toBeGreaterThan(atHome.oneXTwo[2] + 0.1);
  });

  it('gives a host at its own finals a larger home term than on its soil in a qualifier (decision 0163)', () => {
    const model = new InternationalModel();
    const atHome = (tournamentClass: InternationalFixture['tournamentClass']) =>
      model.rates(fixture('Egypt', 'Ghana', { neutral: false, tournamentClass })).lambda;
    expect(INTERNATIONAL_SETTINGS.finalsHome).toBeGreaterThan(0);
    expect(atHome('continental-final') / atHome('qualifier')).toBeCloseTo(
      Math.exp(INTERNATIONAL_SETTINGS.finalsHome),
      12,
    );
    expect(atHome('world-cup')).toBeCloseTo(atHome('continental-final'), 12);
    expect(atHome('friendly')).toBeCloseTo(atHome('qualifier'), 12);
    // On neutral ground at the finals there is no host: no home term at all.
    const neutral = model.rates(fixture('Egypt', 'Ghana'));
    expect(neutral.lambda).toBeCloseTo(neutral.mu, 12);
  });

  it('moves confederation offsets only on matches between confederations', () => {
    const within = new InternationalModel();
    within.playDay([result(0, 'Ghana', 'Togo', 5, 0)]);
    const otherSides = fixture('Brazil', 'Mali', { homeConfederation: 'CONMEBOL', awayConfederation: 'CAF' });
    // Two newcomers on neutral ground: equal rates unless their confederations' offsets differ.
    const ratio = (model: InternationalModel) => model.rates(otherSides).lambda / model.rates(otherSides).mu;
    expect(ratio(within)).toBeCloseTo(1, 12);
    const across = new InternationalModel();
    across.playDay([
      result(0, 'Argentina', 'Ghana', 5, 0, { homeConfederation: 'CONMEBOL', awayConfederation: 'CAF' }),
    ]);
    // Brazil and Mali never played, yet Brazil is now expected to score more: its confederation won.
    expect(ratio(across)).toBeGreaterThan(1.01);
  });

  it('learns a shoot-out draw as 120 minutes of goals: a larger step down than a 90-minute 0-0', () => {
    const ninety = new InternationalModel();
    ninety.playDay([result(0, 'Egypt', 'Ghana', 0, 0)]);
    const shootout = new InternationalModel();
    shootout.playDay([result(0, 'Egypt', 'Ghana', 0, 0, { shootout: true })]);
    // After a 0-0 in 120 minutes the expected goals were 4/3 of 90 minutes': a larger step down.
    expect(shootout.rates(fixture('Egypt', 'Ghana')).lambda).toBeLessThan(
      ninety.rates(fixture('Egypt', 'Ghana')).lambda,
    );
  });

  it('forecasts a whole match-day before learning any of it', () => {
    const seen: number[] = [];
    const results = [result(0, 'A', 'B', 1, 0), result(0, 'C', 'D', 4, 0), result(1, 'A', 'C', 2, 2)];
    walkInternational(results, (day, model) => {
      seen.push(model.matches);
      expect(day.every((entry) => entry.date === day[0]!.date)).toBe(true);
    });
    expect(seen).toEqual([0, 2]);
  });

  it('uses eloratings.net goal factors and an ordered logit that learns draws', () => {
    expect([0, 1, 2, 3, 5].map(eloGoalFactor)).toEqual([1, 1, 1.5, 14 / 8, 16 / 8]);
    const even = orderedLogitProbabilities(LOGIT_START, 0);
    expect(even[0]).toBeCloseTo(even[2], 9);
    let logit = LOGIT_START;
    for (let i = 0; i < 2000; i++) logit = stepOrderedLogit(logit, 0, 1, 0.01);
    expect(orderedLogitProbabilities(logit, 0)[1]).toBeGreaterThan(even[1] + 0.2);
    expect(INTERNATIONAL_SETTINGS.eloWeight).toBeGreaterThan(0);
  });
});
