// English cases (issue 40) for responsible play's routes (issue 54).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nextAddress } from '../account/helpers.js';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: false } });
  user = await signIn(t);
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/wallet/limits', async () => {
    const limits = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/wallet/limits',
      headers: user.headers,
    });
    expectEnglish(limits, 200, en.playTexts.limits);
  });

  it('POST /api/user/wallet/limits', async () => {
    const set = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/wallet/limits',
      headers: user.headers,
      payload: { daily: 5000 },
    });
    expectEnglish(set, 200, en.playTexts.limitsSaved);
    const empty = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/wallet/limits',
      headers: user.headers,
      payload: {},
    });
    expectEnglish422(empty, 'body', en.playTexts.limitsNothing);
  });

  it('POST /api/admin/users/:id/birth-date', async () => {
    const changed = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/users/${user.id}/birth-date`,
      headers: admin.headers,
      payload: { birth_date: '1990-01-01' },
    });
    expectEnglish(changed, 200, en.playTexts.birthDateChanged);
    const future = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/users/${user.id}/birth-date`,
      headers: admin.headers,
      payload: { birth_date: '2999-01-01' },
    });
    expectEnglish422(future, 'birth_date', en.playTexts.birthDateInvalid);
  });

  it('POST /api/user/account/self-exclusion/code', async () => {
    const sent = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/self-exclusion/code',
      headers: user.headers,
      remoteAddress: nextAddress(),
    });
    expectEnglish(sent, 200, en.playTexts.exclusionCodeSent);
  });

  it('POST /api/user/account/self-exclusion', async () => {
    const wrong = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/self-exclusion',
      headers: user.headers,
      payload: { code: '000000', days: 1 },
      remoteAddress: nextAddress(),
    });
    expect(wrong.statusCode).toBe(400);
    expectEnglish(wrong, 400, en.messages.otpInvalid);
    await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/self-exclusion/code',
      headers: user.headers,
      remoteAddress: nextAddress(),
    });
    const confirmed = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/self-exclusion',
      headers: user.headers,
      payload: { code: t.outbox!.lastCode(user.phone), days: 1 },
      remoteAddress: nextAddress(),
    });
    expectEnglish(confirmed, 200, en.playTexts.excluded);
  });
});
