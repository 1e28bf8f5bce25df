// The market rating (a Kalman filter per side since dixon-coles-7): it recovers known strengths
// from simulated market prices, learns an unknown side fast and a known one slowly, tells seasons
// by their label, never reads a match's own odds, and leaves the results-only model alone where no
// odds are known.
import { describe, expect, it } from 'vitest';
import { impliedProbabilities } from '../../src/engine/evaluation.js';
import {
  fitMarketRating,
  impliedGoals,
  impliedTotal,
  inverseOver,
  type MarketForecast,
  type MatchMarket,
  marketForecast,
  overProbability,
  pool1x2,
} from '../../src/engine/market-rating.js';
import { marketsFrom } from '../../src/engine/markets.js';
import { DEFAULT_SETTINGS, fitModel, MARKET_SETTINGS, MODEL_VERSIONS } from '../../src/engine/model.js';
import { predictFixture } from '../../src/engine/predict.js';
import { rakeMatrix, scoreMatrix } from '../../src/engine/score-matrix.js';
import type { PlayedMatch } from '../../src/engine/types.js';
import { seededRandom, simulateLeague } from './simulate.js';

const DAY = 86_400_000;

/** The market's view of each simulated match: the true probabilities, with a little noise. */
function priced(
  matches: readonly PlayedMatch[],
  teams: ReturnType<typeof simulateLeague>['teams'],
  seed = 3,
) {
  const random = seededRandom(seed);
  const byName = new Map(teams.map((team) => [team.name, team]));
  return matches.map((match) => {
    const home = byName.get(match.home)!;
    const away = byName.get(match.away)!;
    const truth = marketsFrom(
      scoreMatrix(
        Math.exp(Math.log(1.2) + 0.3 + home.attack - away.defence),
        Math.exp(Math.log(1.2) + away.attack - home.defence),
        0,
      ),
    );
    const noise = () => 1 + (random() - 0.5) * 0.06;
    const market: MatchMarket = {
      // As odds (1/p), which the evaluation turns back into margin-free probabilities.
      oneXTwo: impliedProbabilities<[number, number, number]>([
        1 / (truth.oneXTwo.home * noise()),
        1 / truth.oneXTwo.draw,
        1 / (truth.oneXTwo.away * noise()),
      ]),
      overUnder: [truth.overUnder25.over, truth.overUnder25.under],
    };
    return { ...match, market };
  });
}

function correlation(a: readonly number[], b: readonly number[]): number {
  const mean = (x: readonly number[]) => x.reduce((s, v) => s + v, 0) / x.length;
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  for (let i = 0; i < a.length; i++) {
    sab += (a[i]! - ma) * (b[i]! - mb);
    saa += (a[i]! - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  }
  return sab / Math.sqrt(saa * sbb);
}

/** The simulated league with each season's fixtures in a random order (no side plays all its home games first). */
function shuffledLeague(teams: number, seasons: number, seed: number) {
  const league = simulateLeague({ teams, seasons, seed });
  const random = seededRandom(seed + 1);
  const perSeason = teams * (teams - 1);
  const matches: PlayedMatch[] = [];
  for (let season = 0; season < seasons; season++) {
    const block = league.matches.slice(season * perSeason, (season + 1) * perSeason);
    const dates = block.map((match) => match.date);
    const order = block.map((match) => ({ match, key: random() })).sort((a, b) => a.key - b.key);
    order.forEach(({ match }, i) => {
      matches.push({ ...match, date: dates[i]! });
    });
  }
  return { teams: league.teams, matches };
}

describe('market rating', () => {
  const league = shuffledLeague(16, 3, 11);
  const matches = priced(league.matches, league.teams);
  const asOf = matches.at(-1)!.date + DAY;

  it('recovers the known strengths and home advantage from past prices alone', () => {
    // No goals at all: the rating reads only the odds.
    const blind = matches.map((match) => ({ ...match, homeGoals: 0, awayGoals: 0 }));
    const rating = fitMarketRating(blind, asOf, MARKET_SETTINGS)!;
    expect(rating).not.toBeNull();
    const truth = league.teams.map((team) => team.attack + team.defence);
    const fitted = league.teams.map((team) => rating.teams.get(team.name)!.strength);
    expect(correlation(truth, fitted)).toBeGreaterThan(0.97);
    // The strongest and weakest sides come out in that order.
    expect(fitted[0]!).toBeGreaterThan(fitted[1]!);
    expect(fitted.at(-1)!).toBeLessThan(fitted.at(-2)!);
    // Its forecast of a fixture is close to the market's price of it.
    const strong = league.teams[0]!.name;
    const weak = league.teams.at(-1)!.name;
    const last = matches.filter((m) => m.home === strong && m.away === weak).at(-1)!;
    const forecast = marketForecast(rating, strong, weak);
    for (let k = 0; k < 3; k++) expect(forecast.oneXTwo[k]!).toBeCloseTo(last.market.oneXTwo![k]!, 1);
    // Goal tendencies: over/under prices of the last matches, off by a few points on average (one
    // tendency per side cannot follow a lopsided pairing exactly).
    const recent = matches.slice(-60);
    const error =
      recent.reduce(
        (sum, m) => sum + Math.abs(marketForecast(rating, m.home, m.away).over - m.market.overUnder![0]),
        0,
      ) / recent.length;
    expect(error).toBeLessThan(0.045);
    // Goal tendencies: the goal total a Poisson mean implies is inverted exactly.
    expect(impliedTotal(overProbability(2.7))).toBeCloseTo(2.7, 6);
  });

  it('starts a promoted side at the level of the last season’s weakest sides', () => {
    const rating = fitMarketRating(matches, asOf, MARKET_SETTINGS)!;
    const strengths = [...rating.teams.values()].map((team) => team.strength).sort((a, b) => a - b);
    expect(rating.newcomer.strength).toBeLessThan(strengths[4]!);
    const forecast = marketForecast(rating, 'Promoted FC', league.teams[0]!.name);
    expect(forecast.oneXTwo[2]).toBeGreaterThan(forecast.oneXTwo[0]);
  });

  it('reads only matches before the day: a match’s own prices never move its forecast', () => {
    const day = matches.at(-1)!.date;
    const poisoned = matches.map((match) =>
      match.date === day
        ? { ...match, market: { oneXTwo: [0.98, 0.01, 0.01], overUnder: [0.99, 0.01] } as MatchMarket }
        : match,
    );
    const clean = fitModel(matches, day);
    const dirty = fitModel(poisoned, day);
    for (const match of matches.filter((m) => m.date === day)) {
      expect(dirty.predict(match.home, match.away).markets).toEqual(
        clean.predict(match.home, match.away).markets,
      );
    }
  });

  it('falls back to the results-only model without priced matches, or when the prices are stale', () => {
    const bare = league.matches;
    const day = bare.at(-1)!.date + DAY;
    const withMarket = fitModel(bare, day);
    const resultsOnly = fitModel(bare, day, { ...DEFAULT_SETTINGS, market: null });
    expect(withMarket.ratings.market).toBeNull();
    for (const [home, away] of [
      [league.teams[0]!.name, league.teams[5]!.name],
      [league.teams[9]!.name, league.teams[2]!.name],
    ] as const) {
      expect(withMarket.predict(home, away).markets).toEqual(resultsOnly.predict(home, away).markets);
      expect(withMarket.predict(home, away).odds).toBe('none');
    }
    // Prices that stop long before the day (a season without odds): results only again.
    const late = fitModel(matches, asOf + 400 * DAY);
    expect(late.ratings.market).toBeNull();
  });

  it('uses a fixture’s pre-match odds in the second mode and says so', () => {
    const model = fitModel(matches, asOf);
    const [home, away] = [league.teams[3]!.name, league.teams[8]!.name];
    const without = model.predict(home, away);
    // Past matches' odds pooled through the rating, none of this match's own: `market`.
    expect(model.ratings.market).not.toBeNull();
    expect(without.odds).toBe('market');
    // The market says the away side is a clear favourite: the prediction moves toward it.
    const withOdds = model.predict(home, away, {
      prematchOdds: { collected_at: '2018-05-01T10:00:00Z', pinnacle: [5.5, 4.2, 1.6] },
    });
    expect(withOdds.odds).toBe('prematch');
    expect(withOdds.markets.oneXTwo.away).toBeGreaterThan(without.markets.oneXTwo.away + 0.05);
    // Nonsense odds are ignored rather than trusted.
    expect(
      model.predict(home, away, {
        prematchOdds: { collected_at: '2018-05-01T10:00:00Z', pinnacle: [0.5, 1, 2] },
      }).odds,
    ).toBe('market');
  });
});

describe('draw tendencies and the over/under pool', () => {
  const league = shuffledLeague(16, 3, 11);
  const base = priced(league.matches, league.teams);
  // The market prices draws higher when certain sides play (a closed style) and lower for others,
  // beyond what the favourite's odds imply: a known draw tendency per side, on the logit scale.
  const tendency = new Map(league.teams.map((team, i) => [team.name, [0.3, -0.3, 0, 0][i % 4]!]));
  const logit = (p: number) => Math.log(p / (1 - p));
  const styled = base.map((match) => {
    const [pH, pD, pA] = match.market.oneXTwo!;
    const shifted = 1 / (1 + Math.exp(-(logit(pD) + tendency.get(match.home)! + tendency.get(match.away)!)));
    const rest = (1 - shifted) / (pH + pA);
    return {
      ...match,
      market: { ...match.market, oneXTwo: [pH * rest, shifted, pA * rest] as MatchMarket['oneXTwo'] },
    };
  });
  const asOf = styled.at(-1)!.date + DAY;

  it('recovers each side’s draw tendency from past draw prices alone', () => {
    const blind = styled.map((match) => ({ ...match, homeGoals: 0, awayGoals: 0 }));
    const rating = fitMarketRating(blind, asOf, MARKET_SETTINGS)!;
    const truth = league.teams.map((team) => tendency.get(team.name)!);
    const fitted = league.teams.map((team) => rating.teams.get(team.name)!.draw);
    expect(correlation(truth, fitted)).toBeGreaterThan(0.9);
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const closed = fitted.filter((_, i) => i % 4 === 0);
    const open = fitted.filter((_, i) => i % 4 === 1);
    expect(mean(closed) - mean(open)).toBeGreaterThan(0.3);
    // The strengths are still those of the favourite's odds.
    const strengths = league.teams.map((team) => rating.teams.get(team.name)!.strength);
    expect(
      correlation(
        league.teams.map((team) => team.attack + team.defence),
        strengths,
      ),
    ).toBeGreaterThan(0.97);
    // Plain prices (no style): every tendency stays near zero.
    const plain = fitMarketRating(base, asOf, MARKET_SETTINGS)!;
    for (const team of plain.teams.values()) expect(Math.abs(team.draw)).toBeLessThan(0.1);
  });

  it('expects fewer goals between sides whose games the market prices as closed', () => {
    const model = fitModel(styled, asOf);
    const rating = model.ratings.market!;
    const [home, away] = [league.teams[4]!.name, league.teams[8]!.name];
    const open = marketForecast(rating, home, away);
    expect(open.spread).toBeGreaterThanOrEqual(0);
    const closedRating = {
      ...rating,
      teams: new Map([...rating.teams].map(([name, team]) => [name, { ...team, draw: team.draw + 0.3 }])),
    };
    const closed = predictFixture({ ...model.ratings, market: closedRating }, home, away);
    const plain = model.predict(home, away);
    expect(MARKET_SETTINGS.weights.none.ouDraw!).toBeLessThan(0);
    expect(closed.markets.overUnder25.over).toBeLessThan(plain.markets.overUnder25.over - 0.01);
    // The 1X2 is the rating's and the fit's, as before: the draw tendency moves only the goal total.
    expect(closed.markets.oneXTwo.home).toBeCloseTo(plain.markets.oneXTwo.home, 2);
    // A pool that does not weigh it (no draw term, no inversion) ignores it.
    const blind = {
      ...model.ratings.blend!,
      none: { ...model.ratings.blend!.none, ouDraw: 0, ouInverse: 0 },
    };
    const ignoring = predictFixture({ ...model.ratings, blend: blind, market: closedRating }, home, away);
    expect(ignoring.markets.overUnder25.over).toBeCloseTo(
      predictFixture({ ...model.ratings, blend: blind }, home, away).markets.overUnder25.over,
      10,
    );
  });

  it("weighs the rating by its uncertainty when the pool's context terms are set", () => {
    const model = fitModel(styled, asOf);
    const [home, away] = [league.teams[4]!.name, league.teams[8]!.name];
    const { variance } = marketForecast(model.ratings.market!, home, away);
    const none = model.ratings.blend!.none;
    const context = { ...model.ratings.blend!, none: { ...none, marketUncertain: -0.5 } };
    const fixed = { ...model.ratings.blend!, none: { ...none, market: none.market - 0.5 * variance } };
    const withContext = predictFixture({ ...model.ratings, blend: context }, home, away).markets.oneXTwo;
    expect(withContext.home).toBeCloseTo(
      predictFixture({ ...model.ratings, blend: fixed }, home, away).markets.oneXTwo.home,
      10,
    );
    expect(variance).toBeGreaterThan(0);
    expect(Math.abs(withContext.home - model.predict(home, away).markets.oneXTwo.home)).toBeGreaterThan(1e-4);
  });
});

describe('the goals the 1X2 prices imply', () => {
  const oneXTwoOf = (home: number, away: number): [number, number, number] => {
    const { oneXTwo } = marketsFrom(scoreMatrix(home, away, 0));
    return [oneXTwo.home, oneXTwo.draw, oneXTwo.away];
  };

  it('recovers the expected goals of each side from Poisson 1X2 probabilities', () => {
    for (const home of [0.4, 0.9, 1.5, 2.2, 3.2]) {
      for (const away of [0.3, 0.8, 1.3, 2.0, 2.8]) {
        const goals = impliedGoals(oneXTwoOf(home, away))!;
        expect(goals[0]).toBeCloseTo(home, 6);
        expect(goals[1]).toBeCloseTo(away, 6);
      }
    }
    // A bookmaker's margin (probabilities summing above one) changes nothing.
    const withMargin = oneXTwoOf(1.7, 1.1).map((p) => p * 1.05) as [number, number, number];
    expect(impliedGoals(withMargin)![0]).toBeCloseTo(1.7, 6);
    // For one split, a higher draw price means fewer goals.
    const open = impliedGoals([0.45, 0.24, 0.31])!;
    const closed = impliedGoals([0.43, 0.28, 0.29])!;
    expect(closed[0] + closed[1]).toBeLessThan(open[0] + open[1] - 0.3);
    // Prices no pair of sensible means gives, and nonsense, are refused.
    expect(impliedGoals([0.001, 0.998, 0.001])).toBeNull();
    expect(impliedGoals([Number.NaN, 0.3, 0.3])).toBeNull();
  });

  it('turns a forecast’s 1X2 and draw tendency into an over 2.5', () => {
    const forecast: MarketForecast = {
      oneXTwo: oneXTwoOf(1.6, 1.1),
      over: 0.5,
      spread: 0.4,
      drawTendency: 0,
      variance: 0,
      steam: 0,
      late: 0,
    };
    expect(inverseOver(forecast)).toBeCloseTo(overProbability(2.7), 6);
    // Sides whose games are priced closed: the same split with more draws, fewer goals.
    expect(inverseOver({ ...forecast, drawTendency: 0.3 })).toBeLessThan(overProbability(2.7) - 0.05);
    expect(inverseOver({ ...forecast, drawTendency: -0.3 })).toBeGreaterThan(overProbability(2.7) + 0.05);
  });

  it('learns a league’s goal level from past 1X2 prices without any over/under price', () => {
    const league = shuffledLeague(16, 3, 5);
    // The same results, priced by a market that expects a fifth fewer or a quarter more goals.
    const pricedAt = (scale: number) =>
      priced(league.matches, league.teams).map((match) => {
        // Both sides' means scaled: the favourite stays the favourite, the draw moves.
        const goals = impliedGoals(match.market.oneXTwo!)!;
        return {
          ...match,
          market: { oneXTwo: oneXTwoOf(goals[0] * scale, goals[1] * scale), overUnder: null },
        };
      });
    const low = pricedAt(0.8);
    const high = pricedAt(1.25);
    const asOf = low.at(-1)!.date + DAY;
    const [home, away] = [league.teams[2]!.name, league.teams[9]!.name];
    const overOf = (matches: typeof low, version: string) =>
      fitModel(matches, asOf, MODEL_VERSIONS[version]!).predict(home, away).markets.overUnder25.over;
    // The results are the same in both: only the prices tell the two goal levels apart, which
    // the results-only model cannot.
    const gap = overOf(high, 'dixon-coles-7') - overOf(low, 'dixon-coles-7');
    const resultsOnly = overOf(high, 'dixon-coles-3') - overOf(low, 'dixon-coles-3');
    expect(resultsOnly).toBe(0);
    expect(gap).toBeGreaterThan(0.08);
  });
});

describe('the goal total an over/under price implies', () => {
  it('inverts the Poisson over probability across the range, and stays in its bracket at the ends', () => {
    for (let total = 0.5; total <= 6; total += 0.25) {
      expect(impliedTotal(overProbability(total))).toBeCloseTo(total, 9);
    }
    let previous = 0;
    for (let over = 0.05; over < 0.96; over += 0.05) {
      const total = impliedTotal(over);
      expect(total).toBeGreaterThan(previous);
      previous = total;
    }
    for (const extreme of [0, 1e-9, 0.9999999, 1, Number.NaN]) {
      const total = impliedTotal(extreme);
      expect(total).toBeGreaterThanOrEqual(0.2);
      expect(total).toBeLessThanOrEqual(9);
    }
  });
});

describe('raking the score matrix', () => {
  it('meets the pooled 1X2 and over/under targets and keeps one consistent matrix', () => {
    const matrix = scoreMatrix(1.6, 1.1, -0.05);
    const raked = rakeMatrix(matrix, [0.4, 0.3, 0.3], 0.45);
    const markets = marketsFrom(raked);
    expect(markets.oneXTwo.home).toBeCloseTo(0.4, 4);
    expect(markets.oneXTwo.draw).toBeCloseTo(0.3, 4);
    expect(markets.overUnder25.over).toBeCloseTo(0.45, 4);
    expect(raked.p.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
  });

  it('pools log-linearly: equal weights on one forecast give it back', () => {
    const p: [number, number, number] = [0.5, 0.3, 0.2];
    const pooled = pool1x2([
      { p, weight: 0.5 },
      { p, weight: 0.5 },
    ]);
    for (let k = 0; k < 3; k++) expect(pooled[k]!).toBeCloseTo(p[k]!, 10);
    expect(predictFixture).toBeTypeOf('function');
  });
});
