// English cases (issue 40) for the track record's API routes (no query, so no 422; the page is
// tested with the pages).
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
  it('GET /api/track-record', async () => {
    const record = await inEnglish(t.app, { method: 'GET', url: '/api/track-record' });
    expectEnglish(record, 200, en.messages.trackRecord);
  });

  it('GET /api/user/track-record', async () => {
    const own = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/track-record',
      headers: user.headers,
    });
    expectEnglish(own, 200, en.messages.trackRecordOwn);
    const anonymous = await inEnglish(t.app, { method: 'GET', url: '/api/user/track-record' });
    expectEnglish(anonymous, 401, en.messages.unauthenticated);
  });
});
