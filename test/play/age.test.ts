// Responsible play, the age (issue 54): the date of birth set once through the profile, changed
// after only by an admin (audited), and with AGE_GATE on a checkout refused without one or under
// AGE_MINIMUM, before anything is charged, to the exact birthday in Douala time.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, payments } from '../../src/db/schema/index.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { GATE_ON, setBirthDate } from './helpers.js';

let t: TestApp;
let off: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: GATE_ON });
  off = await createTestApp();
});
afterAll(async () => {
  await t.close();
  await off.close();
});

const paymentsOf = async (app: TestApp, userId: number) =>
  app.app.db.select().from(payments).where(eq(payments.userId, userId));

describe('the date of birth', () => {
  it('is null in the full user until set, then set once; another date is a 422, the same one changes nothing', async () => {
    const user = await signIn(t);
    const profile = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
    expect(profile.json().user).toMatchObject({ birth_date: null, self_excluded_until: null });
    const set = await setBirthDate(t, user, '1990-04-21');
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().user.birth_date).toBe('1990-04-21');
    expect((await setBirthDate(t, user, '1990-04-21')).statusCode).toBe(200);
    const again = await setBirthDate(t, user, '1991-04-21');
    expect(again.statusCode).toBe(422);
    expect(Object.keys(again.json().errors)).toEqual(['birth_date']);
    expect(again.json().message).toContain('support');
    const english = await setBirthDate(t, user, '1991-04-21', 'en');
    expect(english.json().message).toContain('already recorded');
  });

  it('must be a real past day at most 120 years ago (422 naming the field)', async () => {
    const user = await signIn(t);
    for (const bad of ['2030-01-01', '2026-03-10', '1900-01-01', '2001-02-29', 'yesterday']) {
      const response = await setBirthDate(t, user, bad);
      expect(response.statusCode, bad).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['birth_date']);
    }
  });

  it('is changed by an admin only, with an audit row', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const user = await signIn(t);
    await setBirthDate(t, user, '2010-01-01');
    const byUser = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/birth-date`,
      headers: user.headers,
      payload: { birth_date: '1990-01-01' },
    });
    expect(byUser.statusCode).toBe(403);
    const changed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/birth-date`,
      headers: admin.headers,
      payload: { birth_date: '1990-01-01' },
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().data).toEqual({ id: user.id, birth_date: '1990-01-01', age_status: 'adult' });
    const [row] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.birth_date'), eq(auditLog.targetId, String(user.id))));
    expect(row?.details).toEqual({
      before: { birth_date: '2010-01-01' },
      after: { birth_date: '1990-01-01' },
    });
    const bad = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/birth-date`,
      headers: admin.headers,
      payload: { birth_date: '2099-01-01' },
    });
    expect(bad.statusCode).toBe(422);
    const unknown = await t.app.inject({
      method: 'POST',
      url: '/api/admin/users/999999/birth-date',
      headers: admin.headers,
      payload: { birth_date: '1990-01-01' },
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('the age gate', () => {
  it('refuses a checkout without a date of birth (age_required), saying where to set it, nothing charged', async () => {
    const user = await signIn(t);
    const refused = await checkout(t, user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual({ reason: 'age_required' });
    expect(refused.json().message).toContain('Jeu responsable');
    const english = await checkout(t, user, {}, { 'accept-language': 'en' });
    expect(english.json().message).toContain('Responsible play');
    expect(await paymentsOf(t, user.id)).toEqual([]);
  });

  it('refuses under AGE_MINIMUM until the 18th birthday in Douala, then lets the purchase through', async () => {
    // 28 November 2026, 23:59 in Douala: the eve of the 18th birthday.
    t.clock.set('2026-11-28T22:59:00Z');
    const user = await signIn(t);
    expect((await setBirthDate(t, user, '2008-11-29')).statusCode).toBe(200);
    const refused = await checkout(t, user);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual({ reason: 'under_age' });
    expect(refused.json().message).toContain('18 ans');
    const english = await checkout(t, user, {}, { 'accept-language': 'en' });
    expect(english.json().message).toContain('aged 18 or over');
    expect(await paymentsOf(t, user.id)).toEqual([]);
    // Midnight in Douala (23:00 UTC): 18 today.
    t.clock.set('2026-11-28T23:00:00Z');
    expect((await checkout(t, user)).statusCode).toBe(201);
  });

  it('is off by default outside production: a client that never sends a date sees no change', async () => {
    const user = await signIn(off);
    expect((await checkout(off, user)).statusCode).toBe(201);
  });
});
