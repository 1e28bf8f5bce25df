// Responsible play, the spending limits (issue 54): set at once or after 72 h, refused checkouts
// (403 limit_reached, resets_at, nothing charged) across the Douala day, ISO week and month edges
// with the manual clock, failed payments no longer counting, and two checkouts racing one limit.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { payments } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp, usingPostgres } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { limitsOf, setLimits } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    clock: new ManualClock('2026-03-10T12:00:00Z'),
    config: { rateLimit: false, tokenIdleTtlSeconds: 30 * 24 * 3600 },
  });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const FAILING_PHONE = '+237670000000';
const countPayments = async (userId: number) =>
  (await t.app.db.select().from(payments).where(eq(payments.userId, userId))).length;

describe('setting limits', () => {
  it('starts with none, applies a new or lower limit at once and a higher one or a removal after 72 h', async () => {
    t.clock.set('2026-03-10T12:00:00Z');
    const user = await signIn(t);
    expect(await limitsOf(t, user)).toEqual({
      limits: { daily: null, weekly: null, monthly: null },
      pending: { daily: null, weekly: null, monthly: null },
    });
    const set = await setLimits(t, user, { daily: 5000, monthly: 50000 });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json().data.limits).toEqual({ daily: 5000, weekly: null, monthly: 50000 });
    expect((await setLimits(t, user, { daily: 3000 })).json().data.limits.daily).toBe(3000);
    const raised = (await setLimits(t, user, { daily: 10000, monthly: null })).json().data;
    expect(raised.limits).toEqual({ daily: 3000, weekly: null, monthly: 50000 });
    expect(raised.pending.daily).toEqual({ amount: 10000, effective_at: '2026-03-13T12:00:00.000000Z' });
    expect(raised.pending.monthly).toEqual({ amount: null, effective_at: '2026-03-13T12:00:00.000000Z' });
    t.clock.set('2026-03-13T11:59:59Z');
    expect((await limitsOf(t, user)).limits.daily).toBe(3000);
    t.clock.set('2026-03-13T12:00:00Z');
    expect(await limitsOf(t, user)).toEqual({
      limits: { daily: 10000, weekly: null, monthly: null },
      pending: { daily: null, weekly: null, monthly: null },
    });
  });

  it('takes whole numbers of at least 100 or null, and at least one of them (422 naming the field)', async () => {
    const user = await signIn(t);
    for (const [body, field] of [
      [{ daily: 99 }, 'daily'],
      [{ weekly: 1.5 }, 'weekly'],
      [{ monthly: '5000' }, 'monthly'],
      [{}, 'body'],
    ] as const) {
      const response = await setLimits(t, user, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual([field]);
    }
  });

  it('keeps each user’s limits their own', async () => {
    const one = await signIn(t);
    const other = await signIn(t);
    await setLimits(t, one, { daily: 1000 });
    expect((await limitsOf(t, other)).limits.daily).toBeNull();
  });
});

describe('a checkout against a limit', () => {
  it('is refused past the daily limit, nothing charged, until the Douala day turns at 23:00 UTC', async () => {
    t.clock.set('2026-03-11T20:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { daily: 1500 });
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201); // 1000 XAF
    const refused = await checkout(t, user, { pack_id: 1 }); // 500 more: exactly 1500 is allowed
    expect(refused.statusCode).toBe(201);
    const past = await checkout(t, user, { pack_id: 1 });
    expect(past.statusCode).toBe(403);
    expect(past.json().data).toEqual({ reason: 'limit_reached', resets_at: '2026-03-11T23:00:00.000000Z' });
    expect(past.json().message).toContain('Jeu responsable');
    const english = await checkout(t, user, { pack_id: 1 }, { 'accept-language': 'en' });
    expect(english.json().message).toContain('spending limit');
    expect(await countPayments(user.id)).toBe(2);
    t.clock.set('2026-03-11T22:59:59Z');
    expect((await checkout(t, user, { pack_id: 1 })).statusCode).toBe(403);
    t.clock.set('2026-03-11T23:00:00Z');
    expect((await checkout(t, user, { pack_id: 1 })).statusCode).toBe(201);
  });

  it('counts the ISO week from Monday 00:00 in Douala (Sunday 23:00 UTC)', async () => {
    // Sunday 15 March 2026, 22:00 in Douala.
    t.clock.set('2026-03-15T21:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { weekly: 1000 });
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201);
    const refused = await checkout(t, user, { pack_id: 1 });
    expect(refused.json().data).toEqual({
      reason: 'limit_reached',
      resets_at: '2026-03-15T23:00:00.000000Z',
    });
    t.clock.set('2026-03-15T23:00:00Z');
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201);
  });

  it('counts the month, and answers the latest reset when several windows are passed', async () => {
    t.clock.set('2026-03-31T22:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { daily: 1000, monthly: 1000 });
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201);
    const refused = await checkout(t, user, { pack_id: 1 });
    // The day ends at 23:00 UTC on 31 March, the month at the same instant.
    expect(refused.json().data.resets_at).toBe('2026-03-31T23:00:00.000000Z');
    t.clock.set('2026-03-31T23:00:00Z');
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201);
  });

  it('counts a pending payment, and no longer counts one that failed', async () => {
    t.clock.set('2026-04-02T10:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { daily: 1000 });
    expect((await checkout(t, user, { pack_id: 2, phone: FAILING_PHONE })).statusCode).toBe(201);
    expect((await checkout(t, user, { pack_id: 1 })).statusCode).toBe(403);
    t.clock.advance(3000);
    await t.app.runtime.paymentPoller.drain();
    const [failed] = await t.app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(failed?.status).toBe('failed');
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201);
  });

  it('lets a lower limit refuse at once and a raise only after its 72 h', async () => {
    t.clock.set('2026-04-06T08:00:00Z');
    const user = await signIn(t);
    await setLimits(t, user, { monthly: 1000 });
    expect((await checkout(t, user, { pack_id: 2 })).statusCode).toBe(201);
    await setLimits(t, user, { monthly: 100000 });
    expect((await checkout(t, user, { pack_id: 1 })).statusCode).toBe(403);
    t.clock.set('2026-04-09T08:00:00Z');
    expect((await checkout(t, user, { pack_id: 1 })).statusCode).toBe(201);
  });
});

describe.runIf(usingPostgres())('two checkouts racing one limit on PostgreSQL', () => {
  it('lets exactly one through', async () => {
    t.clock.set('2026-05-05T10:00:00Z');
    for (let round = 0; round < 5; round++) {
      const user = await signIn(t);
      await setLimits(t, user, { daily: 1000 });
      const answers = await Promise.all([
        checkout(t, user, { pack_id: 2 }),
        checkout(t, user, { pack_id: 2 }),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 403]);
      expect(await countPayments(user.id)).toBe(1);
    }
  });
});
