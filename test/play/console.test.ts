// Responsible play in the back office (issue 54): an account's detail carries its age status, its
// limits with pending changes and its self-exclusion, read-only.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { excludeSelf, setBirthDate, setLimits } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock('2026-06-01T10:00:00Z'), config: { rateLimit: false } });
});
afterAll(() => t.close());

it('shows an account’s age status, limits with pending changes and self-exclusion', async () => {
  const admin = await signIn(t, { role: 'admin' });
  const user = await signIn(t);
  const detail = async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users/${user.id}`,
      headers: admin.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    return response.json().data.play;
  };
  expect(await detail()).toEqual({
    birth_date: null,
    age_status: 'unknown',
    self_excluded_until: null,
    limits: { daily: null, weekly: null, monthly: null },
    pending: { daily: null, weekly: null, monthly: null },
  });
  await setBirthDate(t, user, '2010-05-05');
  await setLimits(t, user, { daily: 1000 });
  await setLimits(t, user, { daily: 2000 });
  expect((await excludeSelf(t, user, 3)).statusCode).toBe(200);
  expect(await detail()).toEqual({
    birth_date: '2010-05-05',
    age_status: 'under_age',
    self_excluded_until: '2026-06-04T10:00:00.000000Z',
    limits: { daily: 1000, weekly: null, monthly: null },
    pending: {
      daily: { amount: 2000, effective_at: '2026-06-04T10:00:00.000000Z' },
      weekly: null,
      monthly: null,
    },
  });
});
