// English cases (issue 40) for the health route, the metrics route and the avatars served.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EN, en, expectEnglish, inEnglish } from '../english.js';
import { createTestApp, type TestApp } from '../helpers.js';

const TOKEN = 'metrics-token-0123456789abcdef';
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { metricsToken: TOKEN } });
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/', async () => {
    const response = await inEnglish(t.app, { method: 'GET', url: '/api/' });
    expectEnglish(response, 200, 'The service is running.');
  });

  it('the metrics route (hidden from the API document): its refusal in English', async () => {
    // The text is for Prometheus (no language); the refusal is an envelope.
    const refused = await inEnglish(t.app, { method: 'GET', url: '/metrics' });
    expectEnglish(refused, 401, en.messages.unauthenticated);
    const text = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { ...EN, authorization: `Bearer ${TOKEN}` },
    });
    expect(text.statusCode).toBe(200);
    expect(text.headers['content-language']).toBeUndefined();
  });

  it('GET /avatars/default.png', async () => {
    const response = await inEnglish(t.app, { method: 'GET', url: '/avatars/default.png' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-language']).toBeUndefined();
  });

  it('GET /avatars/:file', async () => {
    const missing = await inEnglish(t.app, {
      method: 'GET',
      url: '/avatars/1-0123456789abcdef0123456789abcdef.webp',
    });
    expectEnglish(missing, 404, en.messages.notFound);
  });
});
