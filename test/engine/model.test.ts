import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, fitModel, globalModel } from '../../src/engine/model.js';
import { buildResult, type MatchContext } from '../../src/engine/result.js';
import type { PlayedMatch } from '../../src/engine/types.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { simulateLeague } from './simulate.js';

const DAY = 86_400_000;
const { teams, matches } = simulateLeague({ teams: 20, seasons: 5, seed: 7 });
const asOf = matches.at(-1)!.date + DAY;

function rankCorrelation(a: number[], b: number[]): number {
  const rank = (values: number[]) => {
    const order = values.map((value, i) => [value, i] as const).sort((x, y) => x[0] - y[0]);
    const ranks = new Array<number>(values.length);
    order.forEach(([, i], r) => {
      ranks[i] = r;
    });
    return ranks;
  };
  const ra = rank(a);
  const rb = rank(b);
  const n = a.length;
  const d2 = ra.reduce((sum, r, i) => sum + (r - rb[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

function context(home: string, away: string, known = true): MatchContext {
  return {
    home: { name: home, known, matches: known ? 60 : 0, form: null },
    away: { name: away, known, matches: known ? 60 : 0, form: null },
    league: { name: 'Test League', known },
  };
}

describe('Dixon–Coles fit on simulated seasons', () => {
  const model = fitModel(matches, asOf);

  it('recovers the order of attack and defence strengths', () => {
    const fittedAttack = teams.map((team) => model.ratings.teams.get(team.name)!.attack);
    const fittedDefence = teams.map((team) => model.ratings.teams.get(team.name)!.defence);
    expect(
      rankCorrelation(
        fittedAttack,
        teams.map((team) => team.attack),
      ),
    ).toBeGreaterThan(0.9);
    expect(
      rankCorrelation(
        fittedDefence,
        teams.map((team) => team.defence),
      ),
    ).toBeGreaterThan(0.85);
    // The strongest side out-rates the weakest by a wide margin at both ends.
    expect(fittedAttack[0]! - fittedAttack[19]!).toBeGreaterThan(0.6);
    expect(fittedDefence[0]! - fittedDefence[19]!).toBeGreaterThan(0.4);
  });

  it('recovers the home advantage and the goal level within tolerance', () => {
    expect(model.ratings.homeAdvantage).toBeGreaterThan(0.3 - 0.1);
    expect(model.ratings.homeAdvantage).toBeLessThan(0.3 + 0.1);
    expect(Math.exp(model.ratings.intercept)).toBeGreaterThan(1.0);
    expect(Math.exp(model.ratings.intercept)).toBeLessThan(1.45);
    expect(Math.abs(model.ratings.rho)).toBeLessThan(0.2);
    // Independent Poisson goals: no draw imbalance to correct.
    expect(Math.abs(model.ratings.draw.base)).toBeLessThan(0.15);
    expect(Math.abs(model.ratings.draw.slope)).toBeLessThan(0.3);
  });

  it('uses only matches before the as-of date', () => {
    const midway = matches[800]!.date;
    const early = fitModel(matches, midway);
    expect(early.ratings.matches).toBe(matches.filter((match) => match.date < midway).length);
  });

  it('is deterministic: the same input gives the same ratings and result', () => {
    const again = fitModel(matches, asOf);
    expect([...again.ratings.teams.entries()]).toEqual([...model.ratings.teams.entries()]);
    for (const slug of pronosticTypeSlugs) {
      const first = buildResult(slug, model.predict('Team 03', 'Team 11'), context('Team 03', 'Team 11'));
      const second = buildResult(slug, again.predict('Team 03', 'Team 11'), context('Team 03', 'Team 11'));
      expect(second).toEqual(first);
    }
  });

  it('gives a strong home side the edge and a level fixture a real draw chance', () => {
    const strong = model.predict('Team 00', 'Team 19').markets.oneXTwo;
    expect(strong.home).toBeGreaterThan(0.7);
    const reverse = model.predict('Team 19', 'Team 00').markets.oneXTwo;
    expect(reverse.away).toBeGreaterThan(reverse.home);
    const level = model.predict('Team 10', 'Team 10x').markets.oneXTwo;
    expect(level.draw).toBeGreaterThan(0.2);
  });
});

describe('thin and strange data', () => {
  it('plays an unknown team at the league newcomer level, below the average side', () => {
    const model = fitModel(matches, asOf);
    const prediction = model.predict('Nowhere FC', 'Team 10');
    expect(prediction.known).toEqual({ home: false, away: true });
    expect(prediction.ratings.home.attack).toBe(DEFAULT_SETTINGS.newcomer.attack);
  });

  it('answers from global priors, home advantage included, when nothing is known', () => {
    const model = globalModel(asOf);
    const { oneXTwo } = model.predict('Alpha', 'Beta').markets;
    expect(oneXTwo.home).toBeGreaterThan(oneXTwo.away);
    const built = buildResult(
      'full-analysis',
      model.predict('Alpha', 'Beta'),
      context('Alpha', 'Beta', false),
    );
    expect(built.result.data_quality).toEqual({
      home_matches: 0,
      away_matches: 0,
      level: 'low',
      odds: 'none',
    });
  });

  it('never throws on odd matches and still returns a sane fit', () => {
    const odd: PlayedMatch[] = [
      { date: Number.NaN, home: 'A', away: 'B', homeGoals: 1, awayGoals: 0 },
      { date: asOf - DAY, home: 'A', away: 'A', homeGoals: 1, awayGoals: 0 },
      { date: asOf - DAY, home: 'A', away: 'B', homeGoals: -1, awayGoals: 0 },
      { date: asOf - DAY, home: 'A', away: 'B', homeGoals: Number.POSITIVE_INFINITY, awayGoals: 0 },
      { date: asOf - DAY, home: '', away: 'B', homeGoals: 2, awayGoals: 0 },
      { date: asOf - 2 * DAY, home: 'A', away: 'B', homeGoals: 30, awayGoals: 0 },
    ];
    for (const input of [odd, [], odd.slice(0, 1)]) {
      const model = fitModel(input, asOf);
      const markets = model.predict('A', 'B').markets;
      const sum = markets.oneXTwo.home + markets.oneXTwo.draw + markets.oneXTwo.away;
      expect(sum).toBeCloseTo(1, 9);
      for (const value of Object.values(markets.oneXTwo)) expect(Number.isFinite(value)).toBe(true);
    }
    expect(() => fitModel(matches, Number.NaN).predict('Team 01', 'Team 02')).not.toThrow();
  });
});
