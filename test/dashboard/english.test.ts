// English case (issue 40) for the dashboard.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { en, expectEnglish, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/dashboard', async () => {
    const dashboard = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/dashboard',
      headers: user.headers,
    });
    expectEnglish(dashboard, 200, en.messages.dashboard);
    const anonymous = await inEnglish(t.app, { method: 'GET', url: '/api/user/dashboard' });
    expectEnglish(anonymous, 401, en.messages.unauthenticated);
  });
});
