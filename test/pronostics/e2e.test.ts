// End to end with the real football analyst: create through HTTP, the worker analyses, the client
// reads DESIGN.md's result object back, for each of the six types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { marketsFrom } from '../../src/engine/markets.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';
import { simulateLeague } from '../engine/simulate.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const markets: Record<string, string> = {
  1: '1x2',
  2: 'double_chance',
  3: 'btts',
  4: 'over_under_2_5',
  5: 'exact_score',
  6: 'full_analysis',
};

describe('pronostic analysed by the real engine', () => {
  it.each(Object.entries(markets))('type %s gives a %s result', async (typeId, market) => {
    const user = await signIn(t, { credits: 10 });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: Number(typeId), teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
    });
    expect(created.statusCode).toBe(201);
    const id = created.json().data.pronostic.id;
    expect(await t.app.runtime.analysisWorker.drain()).toBeGreaterThanOrEqual(1);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${id}`,
      headers: user.headers,
    });
    const pronostic = response.json().data.pronostic;
    expect(pronostic.status).toBe('success');
    expect(pronostic.ai_model).toMatch(/^dixon-coles-\d+/);
    const result = pronostic.result;
    expect(result.market).toBe(market);
    expect(typeof result.pick).toBe('string');
    expect(typeof result.pick_label).toBe('string');
    expect(result.confidence).toBeGreaterThan(0);
    expect(result.confidence).toBeLessThanOrEqual(1);
    expect(result.expected_goals).toEqual({ home: expect.any(Number), away: expect.any(Number) });
    expect(result.scores).toHaveLength(5);
    // No results loaded: the engine answers from its priors and says the data is thin.
    expect(result.data_quality).toEqual({ home_matches: 0, away_matches: 0, level: 'low', odds: 'none' });
    expect(result.analysis.length).toBeGreaterThan(40);
    const sum = Object.entries(result.probabilities as Record<string, unknown>)
      .filter(([, value]) => typeof value === 'number')
      .reduce((total, [, value]) => total + (value as number), 0);
    expect(sum).toBeCloseTo(market === 'double_chance' ? 2 : 1, 6);
    if (market === 'full_analysis') {
      expect(Object.keys(result.probabilities.markets).sort()).toEqual(
        ['1x2', 'btts', 'double_chance', 'exact_score', 'over_under_2_5'].sort(),
      );
    }
  });
});

/** A simulated season as a results file, each match with Pinnacle's closing 1X2 from the true odds. */
function pricedSeason(league: string): string {
  const { teams, matches } = simulateLeague({ teams: 10, seasons: 1, seed: 3, start: Date.UTC(2025, 10, 1) });
  const strength = new Map(teams.map((team) => [team.name, team]));
  const rows = matches.map((match) => {
    const home = strength.get(match.home)!;
    const away = strength.get(match.away)!;
    const truth = marketsFrom(
      scoreMatrix(
        Math.exp(Math.log(1.2) + 0.3 + home.attack - away.defence),
        Math.exp(Math.log(1.2) + away.attack - home.defence),
        0,
      ),
    ).oneXTwo;
    const odds = [truth.home, truth.draw, truth.away].map((p) => (1 / (p * 1.03)).toFixed(2));
    const day = new Date(match.date).toISOString().slice(0, 10).split('-').reverse().join('/');
    return [league, day, match.home, match.away, match.homeGoals, match.awayGoals, ...odds].join(',');
  });
  return ['Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSCH,PSCD,PSCA', ...rows].join('\n');
}

describe('what the market told the analysis', () => {
  it('a league with priced past matches and a match without odds of its own answers odds: market', async () => {
    const report = await t.app.services.football.importText(pricedSeason('E0'), 'E0-2025-26.csv');
    expect(report.inserted).toBe(90);
    const user = await signIn(t, { credits: 10 });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: { home: 'Team 00', away: 'Team 09', league: 'E0' } },
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(await t.app.runtime.analysisWorker.drain()).toBeGreaterThanOrEqual(1);
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${created.json().data.pronostic.id}`,
      headers: user.headers,
    });
    const { result } = response.json().data.pronostic;
    expect(result.data_quality).toMatchObject({ level: 'medium', odds: 'market' });
  });

  it('the OpenAPI document declares the three values wherever a pronostic’s result is answered', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const found: unknown[] = [];
    const walk = (node: unknown): void => {
      if (typeof node !== 'object' || node === null) return;
      const record = node as Record<string, unknown>;
      const quality = (record.properties as Record<string, { properties?: { odds?: unknown } }> | undefined)
        ?.data_quality;
      if (quality) found.push(quality.properties?.odds);
      for (const value of Object.values(record)) walk(value);
    };
    walk(document.paths['/api/user/pronostic/{id}']);
    walk(document.paths['/api/user/pronostics']);
    expect(found.length).toBeGreaterThanOrEqual(2);
    for (const odds of found) expect(odds).toMatchObject({ enum: ['prematch', 'market', 'none'] });
  });
});
