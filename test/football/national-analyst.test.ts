// A national teams' analysis (issue 52) is answered by the national-team model over the stored
// international results, for every pronostic type, whether the competition is named (`INT-AFCON`)
// or only the two national teams are (in French too); a club match still goes to its league.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { decodeMatrix } from '../../src/engine/score-matrix.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createAnalyst } from '../../src/modules/football/analyst.js';
import { inlineFitter } from '../../src/modules/football/fit-pool.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { createNarrator } from '../../src/providers/ai/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const clock = new ManualClock('2026-03-10T12:00:00Z');
let database: TestDatabase;
let football: FootballService;

/** Cameroon beats every side 3-0, Chad loses every match 0-2, the others draw among themselves. */
function results(): string {
  const others = ['Nigeria', 'Ghana', 'Senegal', 'Egypt'];
  const lines = ['date,home_team,away_team,home_score,away_score,tournament,city,country,neutral'];
  for (let i = 0; i < 60; i++) {
    const day = new Date(Date.parse('2026-03-01T00:00:00Z') - i * 3 * 86_400_000).toISOString().slice(0, 10);
    const other = others[i % 4]!;
    const tournament = i % 2 ? 'Friendly' : 'African Cup of Nations qualification';
    lines.push(`${day},Cameroon,${other},3,0,${tournament},Yaoundé,Cameroon,FALSE`);
    lines.push(`${day},${other},Chad,2,0,${tournament},City,${other},FALSE`);
    lines.push(`${day},${others[(i + 1) % 4]},${others[(i + 2) % 4]},1,1,Friendly,City,X,TRUE`);
  }
  return lines.join('\n');
}

const analyst = () =>
  createAnalyst({
    football,
    narrator: createNarrator(testConfig(), { logger: silent }),
    logger: silent,
    clock,
    fitter: inlineFitter(),
  });

beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  await football.importText(results(), 'results.csv');
});
afterAll(() => database.drop());

describe('national teams analysis', () => {
  it('answers every pronostic type from the national-team model, the strong side favoured', async () => {
    for (const type of pronosticTypeSlugs) {
      const outcome = await analyst().analyse(
        { home: 'Cameroun', away: 'Tchad', league: 'INT-AFCON', date: '2026-03-12' },
        type,
      );
      expect(outcome.aiModel).toBe('dixon-coles-7');
      const matrix = decodeMatrix(outcome.scoreMatrix!)!;
      let home = 0;
      let away = 0;
      for (let x = 0; x < matrix.size; x++)
        for (let y = 0; y < matrix.size; y++) {
          if (x > y) home += matrix.p[x * matrix.size + y]!;
          if (x < y) away += matrix.p[x * matrix.size + y]!;
        }
      expect(home).toBeGreaterThan(0.75);
      expect(away).toBeLessThan(0.08);
      const result = outcome.result as {
        data_quality: { home_matches: number; away_matches: number; odds: string };
      };
      expect(result.data_quality).toMatchObject({ home_matches: 60, away_matches: 60, odds: 'none' });
    }
  });

  it('takes two national teams named without a competition as a national teams match, neutral when told', async () => {
    const atHome = await analyst().analyse({ home: 'Cameroon', away: 'Nigeria', date: '2026-03-12' }, '1x2');
    const neutral = await analyst().analyse(
      { home: 'Cameroon', away: 'Nigeria', date: '2026-03-12', neutral: true },
      '1x2',
    );
    const pHome = (outcome: { result: Record<string, unknown> }) =>
      (outcome.result as { probabilities: { home: number } }).probabilities.home;
    expect(pHome(atHome)).toBeGreaterThan(0.6);
    // The home term only when the venue is not neutral.
    expect(pHome(neutral)).toBeLessThan(pHome(atHome));
    const { data_quality } = atHome.result as { data_quality: { home_matches: number } };
    expect(data_quality.home_matches).toBe(60);
  });

  it('gives a host at its own continental finals more than its home term in a qualifier (decision 0163)', async () => {
    // The finals' code is stored once an edition has a result (neither side of the fixture's).
    await football.importText(
      [
        'date,home_team,away_team,home_score,away_score,tournament,city,country,neutral',
        '2026-03-02,Senegal,Egypt,1,1,African Cup of Nations,Yaoundé,Cameroon,TRUE',
      ].join('\n'),
      'results.csv',
    );
    const hosting = (league: string) =>
      analyst().analyse(
        { home: 'Cameroon', away: 'Nigeria', league, date: '2026-03-12', neutral: false },
        '1x2',
      );
    const pHome = (outcome: { result: Record<string, unknown> }) =>
      (outcome.result as { probabilities: { home: number } }).probabilities.home;
    // The same ratings, Elo and draw term (-0.1 in both classes): only the finals host term differs.
    expect(pHome(await hosting('INT-AFCON'))).toBeGreaterThan(pHome(await hosting('INT-AFCON-Q')) + 0.002);
  });
});

describe('national teams named in the analysis’s language (decision 0160)', () => {
  // A pronostic made from a fixture carries the stored names ("Cameroon", "Chad"), one typed in
  // French the French ones: either way a French analysis says "Cameroun", an English one "Cameroon".
  const texts = (outcome: { result: Record<string, unknown> }) => JSON.stringify(outcome.result);

  it('names the teams in French in a French analysis, from the stored English names', async () => {
    for (const type of ['1x2', 'full-analysis'] as const) {
      const outcome = await analyst().analyse(
        { home: 'Cameroon', away: 'Chad', league: 'INT-AFCON', date: '2026-03-12' },
        type,
        undefined,
        { locale: 'fr' },
      );
      expect(texts(outcome)).toContain('Cameroun');
      expect(texts(outcome)).toContain('Tchad');
      expect(texts(outcome)).not.toMatch(/Cameroon|Chad/);
    }
  });

  it('names them in English in an English analysis, from French names or an alias', async () => {
    const outcome = await analyst().analyse(
      { home: 'Lions Indomptables', away: 'Tchad', date: '2026-03-12' },
      'full-analysis',
      undefined,
      { locale: 'en' },
    );
    expect(texts(outcome)).toContain('Cameroon');
    expect(texts(outcome)).toContain('Chad');
    expect(texts(outcome)).not.toMatch(/Cameroun|Tchad|Lions/);
  });
});
