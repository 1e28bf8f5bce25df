import { describe, expect, it } from 'vitest';
import { recentForm } from '../../src/engine/form.js';
import { fitModel, globalModel } from '../../src/engine/model.js';
import { buildResult, type MatchContext } from '../../src/engine/result.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { simulateLeague } from './simulate.js';

const DAY = 86_400_000;
const { matches } = simulateLeague({ teams: 12, seasons: 3, seed: 3 });
const asOf = matches.at(-1)!.date + DAY;
const model = fitModel(matches, asOf);

function contextFor(
  home: string,
  away: string,
  known = { home: true, away: true, league: true },
): MatchContext {
  return {
    home: {
      name: home,
      known: known.home,
      matches: known.home ? 40 : 0,
      form: recentForm(matches, home, asOf),
    },
    away: {
      name: away,
      known: known.away,
      matches: known.away ? 40 : 0,
      form: recentForm(matches, away, asOf),
    },
    league: { name: 'Test League', known: known.league },
  };
}

const sum = (values: Record<string, unknown>) =>
  Object.values(values).reduce<number>((total, value) => total + (typeof value === 'number' ? value : 0), 0);

const FIXTURES: Array<[string, string]> = [
  ['Team 00', 'Team 11'],
  ['Team 11', 'Team 00'],
  ['Team 05', 'Team 06'],
  ['Team 02', 'Team 03'],
];

describe('result object for every pronostic type', () => {
  it('has the DESIGN.md keys, and every market sums to 1 (double chance to 2)', () => {
    for (const [home, away] of FIXTURES) {
      for (const slug of pronosticTypeSlugs) {
        const { result } = buildResult(slug, model.predict(home, away), contextFor(home, away));
        expect(Object.keys(result).sort()).toEqual(
          [
            'analysis',
            'confidence',
            'data_quality',
            'expected_goals',
            'market',
            'pick',
            'pick_label',
            'probabilities',
            'scores',
          ].sort(),
        );
        expect(result.scores).toHaveLength(5);
        expect(result.confidence).toBeGreaterThan(0);
        expect(result.confidence).toBeLessThanOrEqual(1);
        expect(result.confidence).toBe(result.probabilities[result.pick]);
        if (result.market === 'double_chance') expect(sum(result.probabilities)).toBeCloseTo(2, 9);
        else expect(sum(result.probabilities)).toBeCloseTo(1, 9);
      }
    }
  });

  it('names the markets and picks as the table says', () => {
    const prediction = model.predict('Team 00', 'Team 11');
    const context = contextFor('Team 00', 'Team 11');
    const expectations: Record<string, [string, string[]]> = {
      '1x2': ['1x2', ['home', 'draw', 'away']],
      'double-chance': ['double_chance', ['home_draw', 'home_away', 'draw_away']],
      btts: ['btts', ['yes', 'no']],
      'over-under-2-5': ['over_under_2_5', ['over', 'under']],
    };
    for (const [slug, [market, keys]] of Object.entries(expectations)) {
      const { result } = buildResult(slug as never, prediction, context);
      expect(result.market).toBe(market);
      expect(Object.keys(result.probabilities).sort()).toEqual([...keys].sort());
      expect(keys).toContain(result.pick);
    }
    const exact = buildResult('exact-score', prediction, context).result;
    expect(exact.market).toBe('exact_score');
    expect(Object.keys(exact.probabilities)).toEqual([...exact.scores.map((entry) => entry.score), 'other']);
    expect(exact.pick).toBe(exact.scores[0]!.score);
    expect(exact.pick).toMatch(/^\d+-\d+$/);
  });

  it('full-analysis carries every market and picks the 1X2 outcome', () => {
    const prediction = model.predict('Team 02', 'Team 09');
    const context = contextFor('Team 02', 'Team 09');
    const full = buildResult('full-analysis', prediction, context).result;
    const oneXTwo = buildResult('1x2', prediction, context).result;
    expect(full.market).toBe('full_analysis');
    expect(full.pick).toBe(oneXTwo.pick);
    const markets = full.probabilities.markets as Record<
      string,
      { pick: string; confidence: number; probabilities: Record<string, number> }
    >;
    expect(Object.keys(markets).sort()).toEqual([
      '1x2',
      'btts',
      'double_chance',
      'exact_score',
      'over_under_2_5',
    ]);
    for (const [name, entry] of Object.entries(markets)) {
      expect(sum(entry.probabilities)).toBeCloseTo(name === 'double_chance' ? 2 : 1, 9);
      expect(entry.confidence).toBe(entry.probabilities[entry.pick]);
    }
    expect(full.probabilities.home).toBe(oneXTwo.probabilities.home);
  });

  it('writes a French analysis that names the teams, varies by situation and never urges a stake', () => {
    const texts = new Set<string>();
    for (const [home, away] of FIXTURES) {
      for (const slug of pronosticTypeSlugs) {
        const { analysis } = buildResult(slug, model.predict(home, away), contextFor(home, away)).result;
        expect(analysis).toContain(home);
        expect(analysis).toMatch(/buts/);
        expect(analysis).not.toMatch(/\b(pari|parie[rz]?|mise[rz]?|misez|cote|garanti|assuré|sûr)\b/i);
        texts.add(analysis.split('.')[0]!);
      }
    }
    expect(texts.size).toBeGreaterThan(3);
  });

  it('says so when a team or the league is unknown', () => {
    const unknownTeam = buildResult(
      '1x2',
      model.predict('Team 01', 'Inconnu FC'),
      contextFor('Team 01', 'Inconnu FC', { home: true, away: false, league: true }),
    ).result;
    expect(unknownTeam.data_quality.level).toBe('low');
    expect(unknownTeam.data_quality.away_matches).toBe(0);
    expect(unknownTeam.analysis).toContain('Inconnu FC ne figure pas dans nos données');

    const nothing = buildResult(
      'btts',
      globalModel(asOf).predict('Équipe A', 'Équipe B'),
      contextFor('Équipe A', 'Équipe B', { home: false, away: false, league: false }),
    ).result;
    expect(nothing.data_quality).toEqual({ home_matches: 0, away_matches: 0, level: 'low', odds: 'none' });
    expect(nothing.analysis).toContain('pas couvert par nos données');
  });

  it('grades data quality by the thinner side', () => {
    const build = (homeMatches: number, awayMatches: number) =>
      buildResult('1x2', model.predict('Team 00', 'Team 01'), {
        home: { name: 'Team 00', known: true, matches: homeMatches, form: null },
        away: { name: 'Team 01', known: true, matches: awayMatches, form: null },
        league: { name: 'L', known: true },
      }).result.data_quality.level;
    expect(build(60, 60)).toBe('high');
    expect(build(60, 15)).toBe('medium');
    expect(build(60, 3)).toBe('low');
  });
});
