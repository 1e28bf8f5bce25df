// English cases (issue 40) for the slip routes (issue 53): messages, the verdict in words and a
// leg's refusal, in the request's language.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { matrixAnalyst } from './analyst.js';

let t: TestApp;
let user: SignedIn;
let pronosticId: number;
let slipId: number;

beforeAll(async () => {
  t = await createTestApp({ analyst: matrixAnalyst });
  user = await signIn(t, { credits: 20 });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: 1, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
  });
  pronosticId = created.json().data.pronostic.id;
  await t.app.runtime.analysisWorker.runOnce();
});
afterAll(() => t.close());

const legs = () => [{ pronostic_id: pronosticId, market: '1x2', pick: 'home', odds: 2.5 }];

describe('English', () => {
  it('POST /api/user/slips/check', async () => {
    const response = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/slips/check',
      headers: user.headers,
      payload: { legs: legs() },
    });
    expectEnglish(response, 200, en.slipTexts.checked);
    const slip = response.json().data.slip;
    expect(slip.verdict_text).toBe(
      en.slipTexts.verdict[slip.verdict as 'value'](slip.expected_return, slip.stake),
    );
    expect(slip.verdict_text).toMatch(/^On average this slip returns [\d,]+ XAF for 1,000 XAF staked/);
    const refused = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/slips/check',
      headers: user.headers,
      payload: { legs: [{ ...legs()[0], market: 'btts', pick: 'yes' }] },
    });
    expectEnglish422(refused, 'legs.0.market', en.slipTexts.marketNotOffered);
  });

  it('POST /api/user/slips', async () => {
    const response = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/slips',
      headers: user.headers,
      payload: { legs: legs(), stake: 2500 },
    });
    expectEnglish(response, 201, en.slipTexts.saved);
    slipId = response.json().data.slip.id;
    expect(response.json().data.slip.verdict_text).toContain('for 2,500 XAF staked');
  });

  it('GET /api/user/slips', async () => {
    const response = await inEnglish(t.app, { method: 'GET', url: '/api/user/slips', headers: user.headers });
    expectEnglish(response, 200, en.slipTexts.list);
  });

  it('GET /api/user/slips/summary', async () => {
    const response = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/slips/summary',
      headers: user.headers,
    });
    expectEnglish(response, 200, en.slipTexts.summary);
    expect(response.json().data.summary).toEqual({
      settled: 0,
      won: 0,
      staked: 0,
      returned: 0,
      expected_return: 0,
    });
  });

  it('GET /api/user/slips/:id', async () => {
    const response = await inEnglish(t.app, {
      method: 'GET',
      url: `/api/user/slips/${slipId}`,
      headers: user.headers,
    });
    expectEnglish(response, 200, en.slipTexts.detail);
    const missing = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/slips/999999',
      headers: user.headers,
    });
    expectEnglish(missing, 404, en.slipTexts.notFound);
  });

  it('DELETE /api/user/slips/:id', async () => {
    const response = await inEnglish(t.app, {
      method: 'DELETE',
      url: `/api/user/slips/${slipId}`,
      headers: user.headers,
    });
    expectEnglish(response, 200, en.slipTexts.deleted);
  });
});
