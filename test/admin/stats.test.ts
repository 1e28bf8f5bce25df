// The back office's dashboard figures, on a seeded set whose expected numbers the test computes on
// its own: sign-ups, pronostics by status, payments by status and revenue (XAF of successes) for
// today and the last 30 UTC days (today included; days cut with the one clock), a daily series of
// the 30 days, pending withdrawals, and the engine's 30-day accuracy (null before anything settled).
// The clock is years away from the database's own now(), so rows the API creates fall outside.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { giveMoney, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

const NOW = '2020-06-15T09:30:00.000Z';
const TODAY = '2020-06-15';
const DAY_MS = 86_400_000;
let t: TestApp;
let admin: SignedIn;
let user: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(NOW) });
  admin = await signIn(t, { role: 'admin' });
  user = await signIn(t);
});
afterAll(() => t.close());

const stats = (headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url: '/api/admin/stats', headers });

/** An instant `daysAgo` UTC days before today, at `hour`:17 UTC. */
const at = (daysAgo: number, hour: number) =>
  new Date(
    Date.parse(`${TODAY}T00:00:00Z`) - daysAgo * DAY_MS + hour * 3_600_000 + 17 * 60_000,
  ).toISOString();
const dayOf = (daysAgo: number) =>
  new Date(Date.parse(`${TODAY}T00:00:00Z`) - daysAgo * DAY_MS).toISOString().slice(0, 10);

describe('GET /api/admin/stats', () => {
  it('401 without a token, 403 with a user token (no data)', async () => {
    expect((await stats({})).statusCode).toBe(401);
    const refused = await stats(user.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual([]);
  });

  it('an empty window: zeros everywhere, 30 days of series, no accuracy', async () => {
    const data = (await stats()).json().data;
    expect(data.today).toEqual({
      day: TODAY,
      signups: 0,
      pronostics: { total: 0, processing: 0, success: 0, cancelled: 0 },
      payments: { total: 0, pending: 0, success: 0, failed: 0, revenue: 0 },
      slips: { checked: 0, saved: 0 },
    });
    expect(data.last_30_days).toMatchObject({ from: dayOf(29), to: TODAY, signups: 0 });
    expect(data.series).toHaveLength(30);
    expect(data.series[0]).toEqual({
      day: dayOf(29),
      signups: 0,
      pronostics: 0,
      revenue: 0,
      slips_checked: 0,
      slips_saved: 0,
    });
    expect(data.series[29].day).toBe(TODAY);
    expect(data.engine_accuracy).toBeNull();
  });

  it('computes the figures of a seeded set', async () => {
    // Days ago 0 (today), 1, 29 (the window's first day) and 30, 45 (outside), at several hours.
    const signupDays = [0, 0, 0, 1, 5, 29, 29, 30, 45, -1];
    for (const [i, daysAgo] of signupDays.entries()) {
      await t.app.db.execute(sql`
        INSERT INTO users (phone, country, affiliation_code, created_at)
        VALUES (${`+2376999${String(i).padStart(5, '0')}`}, 'CM', ${`STATS${i}`}, ${at(daysAgo, (i * 5) % 24)})`);
    }
    const statuses = ['processing', 'success', 'cancelled'] as const;
    const pronosticSeeds: { daysAgo: number; status: (typeof statuses)[number]; deleted: boolean }[] = [];
    for (let i = 0; i < 40; i++) {
      pronosticSeeds.push({ daysAgo: (i * 7) % 36, status: statuses[i % 3]!, deleted: i % 5 === 0 });
    }
    for (const seed of pronosticSeeds) {
      await t.app.db.execute(sql`
        INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, ai_model, search_text,
                                run_after, deadline_at, created_at, deleted_at)
        VALUES (${user.id}, 1, ${seed.status}, 1, '{"home":"A","away":"B"}'::jsonb, 'test', 'a b',
                now(), now(), ${at(seed.daysAgo, 23)}, ${seed.deleted ? at(0, 1) : null})`);
    }
    const paymentStatuses = ['pending', 'success', 'failed', 'success'] as const;
    const paymentSeeds: { daysAgo: number; status: (typeof paymentStatuses)[number]; amount: number }[] = [];
    for (let i = 0; i < 24; i++) {
      paymentSeeds.push({ daysAgo: (i * 5) % 33, status: paymentStatuses[i % 4]!, amount: 500 + 250 * i });
    }
    for (const [i, seed] of paymentSeeds.entries()) {
      await t.app.db.execute(sql`
        INSERT INTO payments (user_id, pack_id, reference, provider, status, amount, credits, payer_phone,
                              channel, expires_at, created_at)
        VALUES (${user.id}, (SELECT min(id) FROM packs), ${`stats-${i}`}, 'sandbox', ${seed.status}, ${seed.amount},
                10, ${user.phone}, 'cm.mtn', now(), ${at(seed.daysAgo, 0)})`);
    }
    // Two pending withdrawals (whenever they were made) and one rejected.
    const withdrawer = await signIn(t);
    await giveMoney(t, withdrawer.id, 20_000);
    await withdrawn(t, withdrawer, { amount: 5000 });
    await withdrawn(t, withdrawer, { amount: 6000 });
    const rejected = await withdrawn(t, withdrawer, { amount: 7000 });
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${rejected}/reject`,
      headers: admin.headers,
      payload: { message: 'Refusé pour le test' },
    });
    // Settled successes: 3 won and 1 lost in the window, 2 void, and 5 won long ago (not counted).
    // Written as the settlement writes them: the row's outcome and day, and the day rollup the
    // public figures read (the settlement's own tests show it writes both).
    await t.app.db.execute(sql`
      UPDATE pronostics SET outcome = v.outcome, settled_at = v.at::timestamptz,
                            settled_day = (v.at::timestamptz AT TIME ZONE 'UTC')::date
      FROM (VALUES (1, 'won', ${at(2, 10)}), (2, 'won', ${at(3, 10)}), (3, 'won', ${at(0, 5)}),
                   (4, 'lost', ${at(10, 10)}), (5, 'void', ${at(4, 10)}), (6, 'void', ${at(4, 10)}),
                   (7, 'won', ${at(200, 10)}), (8, 'won', ${at(200, 10)}), (9, 'won', ${at(200, 10)}),
                   (10, 'won', ${at(200, 10)}), (11, 'won', ${at(200, 10)})) AS v(n, outcome, at)
      WHERE pronostics.id = (SELECT id FROM pronostics WHERE status = 'success' ORDER BY id OFFSET v.n - 1 LIMIT 1)`);
    await t.app.db.execute(sql`
      INSERT INTO track_record_days (day, type_id, league_id, won, lost, void)
      SELECT settled_day, type_id, NULL, count(*) FILTER (WHERE outcome = 'won'),
             count(*) FILTER (WHERE outcome = 'lost'), count(*) FILTER (WHERE outcome = 'void')
        FROM pronostics WHERE outcome IS NOT NULL GROUP BY settled_day, type_id`);

    // The expected figures, computed from the seeds.
    const inWindow = (daysAgo: number) => daysAgo >= 0 && daysAgo <= 29;
    const series = Array.from({ length: 30 }, (_, i) => ({
      day: dayOf(29 - i),
      signups: 0,
      pronostics: 0,
      revenue: 0,
      slips_checked: 0,
      slips_saved: 0,
    }));
    const slot = (daysAgo: number) => series[29 - daysAgo]!;
    const period = () => ({
      signups: 0,
      pronostics: { total: 0, processing: 0, success: 0, cancelled: 0 },
      payments: { total: 0, pending: 0, success: 0, failed: 0, revenue: 0 },
      slips: { checked: 0, saved: 0 },
    });
    const today = period();
    const month = period();
    for (const daysAgo of signupDays.filter(inWindow)) {
      slot(daysAgo).signups += 1;
      for (const p of daysAgo === 0 ? [today, month] : [month]) p.signups += 1;
    }
    for (const seed of pronosticSeeds.filter((s) => inWindow(s.daysAgo))) {
      slot(seed.daysAgo).pronostics += 1;
      for (const p of seed.daysAgo === 0 ? [today, month] : [month]) {
        p.pronostics.total += 1;
        p.pronostics[seed.status] += 1;
      }
    }
    for (const seed of paymentSeeds.filter((s) => inWindow(s.daysAgo))) {
      const revenue = seed.status === 'success' ? seed.amount : 0;
      slot(seed.daysAgo).revenue += revenue;
      for (const p of seed.daysAgo === 0 ? [today, month] : [month]) {
        p.payments.total += 1;
        p.payments[seed.status] += 1;
        p.payments.revenue += revenue;
      }
    }
    // The seeds do reach both edges of the window and beyond.
    expect(month.signups).toBeGreaterThan(today.signups);
    expect(month.payments.revenue).toBeGreaterThan(0);

    // The track record's figures are cached for a minute (RECORD_CACHE_MS); the empty window read them.
    t.clock.advance(61_000);
    const response = await stats();
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.today).toEqual({ day: TODAY, ...today });
    expect(data.last_30_days).toEqual({ from: dayOf(29), to: TODAY, ...month });
    expect(data.series).toEqual(series);
    expect(data.withdrawals_pending).toEqual({ count: 2, amount: 11_000 });
    expect(data.engine_accuracy).toEqual({
      window: 'last_30_days',
      settled: 6,
      won: 3,
      lost: 1,
      void: 2,
      hit_rate: 0.75,
    });
  });
});
