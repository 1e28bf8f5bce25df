// The content-type spellings behind Fastify's body-validation bypasses (CVE-2025-32442,
// CVE-2026-25223, GHSA-573f-x89g-hqp9): odd casing, a tab or spaces before the semicolon, an empty
// parameter. Whatever the spelling, an invalid body never reaches the handler: nothing is debited.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

const SPELLINGS = [
  'application/json',
  'Application/JSON',
  'application/json\t; charset=utf-8',
  'application/json ; charset=utf-8',
  'application/json;',
  'application/json; charset=',
  ' application/json',
  'application/json\t',
  'application/jsonx',
  'application/json, text/plain',
];

describe('content-type spellings cannot bypass body validation', () => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp();
    user = await signIn(t, { credits: 5 });
  });
  afterAll(() => t.close());

  it.each(SPELLINGS)('%j with an invalid body: refused, nothing debited', async (contentType) => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: { ...user.headers, 'content-type': contentType },
      // type_id is a string that is not a number and teams_details is missing.
      payload: '{"type_id":"un","credits_cost":0}',
    });
    expect([400, 415, 422]).toContain(response.statusCode);
    expect(response.json()).toHaveProperty('message');
    const dashboard = await t.app.inject({
      method: 'GET',
      url: '/api/user/dashboard',
      headers: user.headers,
    });
    expect(dashboard.json().user.credits_balance).toBe(5);
  });
});
