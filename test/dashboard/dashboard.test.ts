import { eq, inArray } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pronostics, users } from '../../src/db/schema/index.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import {
  countingDatabase,
  createTestApp,
  expectLedgerConsistent,
  type SignedIn,
  signIn,
  type TestApp,
  type TestDatabase,
} from '../helpers.js';
import { seedOperations } from '../wallet/helpers.js';

let t: TestApp;
let database: TestDatabase;
let queries: () => number;
beforeAll(async () => {
  ({ database, queries } = await countingDatabase());
  t = await createTestApp({ database, analyst: fixedAnalyst(), config: { welcomeCredits: 1 } });
});
afterAll(async () => {
  await t.close();
  await database.drop();
});
afterEach(() => expectLedgerConsistent(t));

function dashboard(user?: SignedIn) {
  return t.app.inject({
    method: 'GET',
    url: '/api/user/dashboard',
    ...(user ? { headers: user.headers } : {}),
  });
}

async function createPronostics(user: SignedIn, count: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < count; i++) {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: { home: `Home ${i}`, away: `Away ${i}` } },
    });
    expect(response.statusCode).toBe(201);
    ids.push(response.json().data.pronostic.id);
  }
  return ids;
}

describe('GET /api/user/dashboard', () => {
  it('answers 401 without a token', async () => {
    const response = await dashboard();
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  });

  it('a new user: the full user with the default avatar, zero counts, the welcome operation', async () => {
    const user = await signIn(t);
    const response = await dashboard(user);
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(body.user).toEqual({
      id: user.id,
      phone: user.phone,
      country: 'CM',
      name: null,
      username: null,
      avatar: '/avatars/default.png',
      affiliation_code: row!.affiliationCode,
      credits_balance: 1,
      money_balance: 0,
      locale: 'fr',
      birth_date: null,
      self_excluded_until: null,
    });
    expect(body.message).toBe('Votre tableau de bord.');
    expect(body.errors).toEqual([]);
    expect(body.data.pronostics).toEqual({ total: 0, processing: 0, success: 0, cancelled: 0 });
    expect(body.data.latest_pronostics).toEqual([]);
    expect(body.data.latest_operations).toHaveLength(1);
    expect(body.data.latest_operations[0]).toMatchObject({
      type: 'welcome_bonus',
      amount: 1,
      balance_after: 1,
    });
  });

  it('counts pronostics by status without deleted ones; the 5 newest of each list; the own avatar when set', async () => {
    const user = await signIn(t, { credits: 20 });
    const other = await signIn(t, { credits: 5 });
    await createPronostics(other, 2);
    const ids = await createPronostics(user, 8);
    await t.app.db
      .update(pronostics)
      .set({ status: 'success' })
      .where(inArray(pronostics.id, ids.slice(0, 3)));
    await t.app.db.update(pronostics).set({ status: 'cancelled' }).where(eq(pronostics.id, ids[3]!));
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${ids[7]}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(200);
    await t.app.db
      .update(users)
      .set({ avatarPath: '/avatars/u1.webp', name: 'Awa' })
      .where(eq(users.id, user.id));

    const body = (await dashboard(user)).json();
    expect(body.user).toMatchObject({ avatar: '/avatars/u1.webp', name: 'Awa', credits_balance: 21 - 8 });
    expect(body.data.pronostics).toEqual({ total: 7, processing: 3, success: 3, cancelled: 1 });
    expect(body.data.latest_pronostics.map((p: { id: number }) => p.id)).toEqual(ids.slice(2, 7).reverse());
    const listed = (
      await t.app.inject({ method: 'GET', url: '/api/user/pronostics?per_page=5', headers: user.headers })
    ).json();
    expect(body.data.latest_pronostics).toEqual(listed.data.pronostics);
    const latest = (
      await t.app.inject({
        method: 'GET',
        url: '/api/user/wallet/transactions/latest',
        headers: user.headers,
      })
    ).json();
    expect(body.data.latest_operations).toHaveLength(5);
    expect(body.data.latest_operations).toEqual(latest.data.transactions);
  });

  it('runs the same fixed number of queries whatever the history: 4 for the dashboard itself', async () => {
    const fresh = await signIn(t);
    const busy = await signIn(t, { credits: 30 });
    await createPronostics(busy, 12);
    await seedOperations(
      t,
      busy.id,
      Array.from({ length: 60 }, (_, i) => ({
        type: 'admin_adjustment' as const,
        currency: 'credits' as const,
        amount: 1,
        at: `2026-03-${String(1 + (i % 28)).padStart(2, '0')}T10:00:00Z`,
      })),
    );
    const measure = async (work: () => Promise<unknown>) => {
      const before = queries();
      await work();
      return queries() - before;
    };
    const freshCount = await measure(() => dashboard(fresh));
    const busyCount = await measure(() => dashboard(busy));
    expect(busyCount).toBe(freshCount);
    // The same request minus the dashboard: authentication, then one query for the latest operations.
    const latestCount = await measure(() =>
      t.app.inject({ method: 'GET', url: '/api/user/wallet/transactions/latest', headers: busy.headers }),
    );
    expect(busyCount - latestCount).toBe(3);
    expect(await measure(() => t.app.services.dashboard.of({ id: busy.id }))).toBe(4);
  });
});

describe('the default avatar', () => {
  it('is served without a token, as an image', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/avatars/default.png' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\//);
    expect(response.rawPayload.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
    expect(response.headers['x-request-id']).toBeTruthy();
  });
});
