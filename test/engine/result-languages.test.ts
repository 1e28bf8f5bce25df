// The analysis in the account's language (issue 40): the same numbers in French and English, only
// the words change; the French text stays byte for byte what it was before English existed.
import { createHash } from 'node:crypto';
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

function contextFor(home: string, away: string, known = true): MatchContext {
  return {
    home: {
      name: home,
      known,
      matches: known ? 40 : 0,
      form: known ? recentForm(matches, home, asOf) : null,
    },
    away: {
      name: away,
      known,
      matches: known ? 40 : 0,
      form: known ? recentForm(matches, away, asOf) : null,
    },
    league: { name: 'Test League', known },
  };
}

const FIXTURES: Array<[string, string]> = [
  ['Team 00', 'Team 11'],
  ['Team 11', 'Team 00'],
  ['Team 05', 'Team 06'],
  ['Team 02', 'Team 03'],
];

function results(locale?: 'fr' | 'en') {
  return FIXTURES.flatMap(([home, away]) =>
    pronosticTypeSlugs.map(
      (slug) => buildResult(slug, model.predict(home, away), contextFor(home, away), locale).result,
    ),
  );
}

describe('the analysis in French and in English', () => {
  it('French by default, byte for byte the text written before English existed', () => {
    const french = results();
    expect(results('fr')).toEqual(french);
    // The digest of every French text and label of these fixtures, taken before the change.
    const digest = createHash('sha256')
      .update(JSON.stringify(french.map((result) => [result.pick_label, result.analysis])))
      .digest('hex');
    expect(digest).toBe(FRENCH_DIGEST);
  });

  it('English has the same numbers, English words, and no French', () => {
    const french = results('fr');
    const english = results('en');
    expect(english).toHaveLength(french.length);
    const texts = new Set<string>();
    english.forEach((result, index) => {
      const { analysis, pick_label, ...numbers } = result;
      const { analysis: frenchAnalysis, pick_label: frenchLabel, ...frenchNumbers } = french[index]!;
      expect(numbers).toEqual(frenchNumbers);
      expect(analysis).not.toBe(frenchAnalysis);
      expect(pick_label).not.toBe(frenchLabel);
      expect(analysis).toMatch(/goals?/);
      expect(analysis).not.toMatch(/\b(buts?|victoire|défaite|nul|équipe|match nul|le modèle)\b/i);
      expect(analysis).not.toMatch(/\b(bet|betting|wager|odds|guaranteed)\b/i);
      // English numbers: a decimal point and `54%`, never `1,4` or `54 %`.
      expect(analysis).not.toMatch(/\d,\d|\d %/);
      texts.add(analysis.split('.')[0]!);
    });
    expect(texts.size).toBeGreaterThan(3);
  });

  it('English labels and caveats', () => {
    const [home, away] = ['Team 00', 'Team 11'];
    const draw = buildResult('1x2', model.predict(home, away), contextFor(home, away), 'en').result;
    expect(['Team 00 win', 'Team 11 win', 'Draw']).toContain(draw.pick_label);
    const unknown = buildResult(
      'btts',
      globalModel(asOf).predict('Team A', 'Team B'),
      contextFor('Team A', 'Team B', false),
      'en',
    ).result;
    expect(['Both teams score', 'At least one team does not score']).toContain(unknown.pick_label);
    expect(unknown.analysis).toContain('This league is not covered by our data');
  });
});

// Taken again at dixon-coles-7: its seasons are told by their label, and a finished season has
// nothing left at stake, so a fixture's numbers (never its phrasing) moved.
const FRENCH_DIGEST = '7916e10ac18fb803f608705ecc33b1d40c405c6c55e050e1345e3ecc8a5c8a74';
