// End to end with the real football analyst: create through HTTP, the worker analyses, the client
// reads DESIGN.md's result object back, for each of the six types.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
