// Responsible play, the self-exclusion (issue 54): confirmed with a code as a deletion is, it refuses
// checkout and new analyses (403 self_excluded with until) while sign-in, history, export and
// deletion still work; a new confirmation only lengthens it; a deletion and a new sign-up on the same
// number inherit it and the limits; when it ends, nothing restarts by itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { deleteAccount, deletionCode, nextAddress } from '../account/helpers.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { excludeSelf, limitsOf, setLimits } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    clock: new ManualClock('2026-06-01T10:00:00Z'),
    config: { tokenIdleTtlSeconds: 30 * 24 * 3600, rateLimit: false },
  });
});
afterAll(() => t.close());

const createPronostic = (user: SignedIn, lang?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: { ...user.headers, ...(lang ? { 'accept-language': lang } : {}) },
    payload: { type_id: 1, teams_details: { home: 'Coton Sport', away: 'Canon Yaoundé' } },
  });
const get = (user: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });

describe('self-exclusion', () => {
  it('is confirmed with its own code (a wrong one is a 400) for 1 to 1825 days', async () => {
    t.clock.set('2026-06-01T10:00:00Z');
    const user = await signIn(t);
    const wrong = await t.app.inject({
      method: 'POST',
      url: '/api/user/account/self-exclusion',
      headers: user.headers,
      payload: { code: '000000', days: 7 },
      remoteAddress: nextAddress(),
    });
    expect(wrong.statusCode).toBe(400);
    for (const days of [0, 1826]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/account/self-exclusion',
        headers: user.headers,
        payload: { code: '123456', days },
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['days']);
    }
    // A deletion's code does not confirm a pause.
    const deletion = await deletionCode(t, user);
    const crossed = await t.app.inject({
      method: 'POST',
      url: '/api/user/account/self-exclusion',
      headers: user.headers,
      payload: { code: deletion, days: 7 },
      remoteAddress: nextAddress(),
    });
    expect(crossed.statusCode).toBe(400);
    const confirmed = await excludeSelf(t, user, 7);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data).toEqual({ until: '2026-06-08T10:00:00.000000Z' });
    const profile = await get(user, '/api/user/profile');
    expect(profile.json().user.self_excluded_until).toBe('2026-06-08T10:00:00.000000Z');
  });

  it('refuses checkout and new analyses with its end while history, export and sign-in still work', async () => {
    t.clock.set('2026-06-01T10:00:00Z');
    const user = await signIn(t, { credits: 5 });
    expect((await excludeSelf(t, user, 30)).statusCode).toBe(200);
    const paying = await checkout(t, user);
    expect(paying.statusCode).toBe(403);
    expect(paying.json().data).toEqual({ reason: 'self_excluded', until: '2026-07-01T10:00:00.000000Z' });
    expect(paying.json().message).toContain('pause');
    const analysis = await createPronostic(user, 'en');
    expect(analysis.statusCode).toBe(403);
    expect(analysis.json().data.reason).toBe('self_excluded');
    expect(analysis.json().message).toContain('break from play');
    expect((await get(user, '/api/user/pronostics')).statusCode).toBe(200);
    expect((await get(user, '/api/user/wallet/operations')).statusCode).toBe(200);
    expect((await get(user, '/api/user/account/export')).statusCode).toBe(200);
    const again = await signIn(t, { phone: user.phone });
    expect((await get(again, '/api/user/profile')).statusCode).toBe(200);
  });

  it('only lengthens: a shorter confirmation keeps the later end', async () => {
    t.clock.set('2026-06-01T10:00:00Z');
    const user = await signIn(t);
    expect((await excludeSelf(t, user, 30)).json().data.until).toBe('2026-07-01T10:00:00.000000Z');
    expect((await excludeSelf(t, user, 1)).json().data.until).toBe('2026-07-01T10:00:00.000000Z');
    expect((await excludeSelf(t, user, 60)).json().data.until).toBe('2026-07-31T10:00:00.000000Z');
  });

  it('ends by itself, and nothing restarts: the limits stay as they were', async () => {
    t.clock.set('2026-06-01T10:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { daily: 5000 });
    expect((await excludeSelf(t, user, 1)).statusCode).toBe(200);
    t.clock.set('2026-06-02T09:59:59Z');
    expect((await checkout(t, user)).statusCode).toBe(403);
    t.clock.set('2026-06-02T10:00:00Z');
    expect((await checkout(t, user)).statusCode).toBe(201);
    expect((await limitsOf(t, user)).limits.daily).toBe(5000);
  });

  it('survives the account’s deletion: a new account on the number inherits it and the limits', async () => {
    t.clock.set('2026-06-01T10:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { daily: 2000, weekly: 3000 });
    await setLimits(t, user, { weekly: 9000 });
    expect((await excludeSelf(t, user, 10)).statusCode).toBe(200);
    const deleted = await deleteAccount(t, user, { code: await deletionCode(t, user) });
    expect(deleted.statusCode, deleted.body).toBe(200);

    const reborn = await signIn(t, { phone: user.phone });
    expect(reborn.id).not.toBe(user.id);
    const refused = await checkout(t, reborn);
    expect(refused.json().data).toEqual({ reason: 'self_excluded', until: '2026-06-11T10:00:00.000000Z' });
    const limits = await limitsOf(t, reborn);
    expect(limits.limits).toEqual({ daily: 2000, weekly: 3000, monthly: null });
    expect(limits.pending.weekly).toEqual({ amount: 9000, effective_at: '2026-06-04T10:00:00.000000Z' });
    // Another number inherits nothing.
    const stranger = await signIn(t);
    expect((await checkout(t, stranger)).statusCode).toBe(201);
  });
});
