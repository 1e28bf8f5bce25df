import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { ageOperations, seedOperations } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { welcomeCredits: 2 } });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

function get(user: SignedIn | undefined, url: string) {
  return t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });
}

/** A user whose history is: welcome bonus (2020-01-01), then the rows below, in March 2026. */
async function userWithHistory(): Promise<{ user: SignedIn; ids: number[] }> {
  const user = await signIn(t);
  await ageOperations(t, user.id);
  const ids = await seedOperations(t, user.id, [
    { type: 'admin_adjustment', currency: 'credits', amount: 10, at: '2026-03-09T23:59:59.999999Z' },
    {
      type: 'pack_purchase',
      currency: 'credits',
      amount: 12,
      at: '2026-03-10T00:00:00Z',
      reference: `pay-${user.id}-1`,
    },
    { type: 'pronostic_debit', currency: 'credits', amount: -3, at: '2026-03-10T12:00:00Z' },
    { type: 'referral_commission', currency: 'XAF', amount: 150, at: '2026-03-11T08:00:00Z' },
    { type: 'pronostic_debit', currency: 'credits', amount: -2, at: '2026-03-12T23:59:59.999999Z' },
    { type: 'referral_commission', currency: 'XAF', amount: 100, at: '2026-03-13T00:00:00Z' },
  ]);
  return { user, ids };
}

describe('GET /api/user/wallet/transactions/latest', () => {
  it('answers 401 without a token', async () => {
    const response = await get(undefined, '/api/user/wallet/transactions/latest');
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  });

  it('gives the caller’s 5 newest operations, newest first, in the operation shape', async () => {
    const { user, ids } = await userWithHistory();
    await userWithHistory(); // another user's rows never show
    const response = await get(user, '/api/user/wallet/transactions/latest');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: user.id });
    const transactions = body.data.transactions as Record<string, unknown>[];
    expect(transactions.map((operation) => operation.id)).toEqual(ids.slice(1).reverse());
    expect(transactions[4]).toEqual({
      id: ids[1],
      type: 'pack_purchase',
      currency: 'credits',
      amount: 12,
      balance_after: 24,
      description: 'Opération de test pack_purchase',
      reference: `pay-${user.id}-1`,
      created_at: '2026-03-10T00:00:00.000000Z',
    });
    expect(transactions[0]).toMatchObject({
      type: 'referral_commission',
      currency: 'XAF',
      balance_after: 250,
    });
  });

  it('shows the stored French description of the welcome credits', async () => {
    const user = await signIn(t);
    const transactions = (await get(user, '/api/user/wallet/transactions/latest')).json().data.transactions;
    expect(transactions).toHaveLength(1);
    expect(transactions[0]).toMatchObject({
      type: 'welcome_bonus',
      amount: 2,
      balance_after: 2,
      description: 'Crédits de bienvenue',
      reference: null,
    });
    expect(transactions[0].created_at).toMatch(TIMESTAMP);
  });
});

describe('GET /api/user/wallet/operations', () => {
  it('answers 401 without a token', async () => {
    expect((await get(undefined, '/api/user/wallet/operations')).statusCode).toBe(401);
  });

  it('lists every operation of the caller, newest first (created_at then id), paginated', async () => {
    const { user, ids } = await userWithHistory();
    await userWithHistory();
    const first = (await get(user, '/api/user/wallet/operations?per_page=4')).json();
    expect(first.user).toEqual({ id: user.id });
    expect(first.data.operations.map((o: { id: number }) => o.id)).toEqual(ids.slice(2).reverse());
    expect(first.data.meta).toEqual({ current_page: 1, last_page: 2, per_page: 4, total: 7, has_more: true });
    const second = (await get(user, '/api/user/wallet/operations?per_page=4&page=2')).json();
    expect(second.data.operations.map((o: { type: string }) => o.type)).toEqual([
      'pack_purchase',
      'admin_adjustment',
      'welcome_bonus',
    ]);
    expect(second.data.meta).toMatchObject({ current_page: 2, has_more: false });
    const past = (await get(user, '/api/user/wallet/operations?page=9')).json();
    expect(past.data).toEqual({
      operations: [],
      meta: { current_page: 9, last_page: 1, per_page: 10, total: 7, has_more: false },
    });
  });

  it('orders rows of the same instant by id, descending', async () => {
    const user = await signIn(t);
    await ageOperations(t, user.id);
    const ids = await seedOperations(
      t,
      user.id,
      [1, 2, 3].map(() => ({
        type: 'admin_adjustment' as const,
        currency: 'credits' as const,
        amount: 1,
        at: '2026-04-01T10:00:00Z',
      })),
    );
    const operations = (await get(user, '/api/user/wallet/operations?per_page=3')).json().data.operations;
    expect(operations.map((o: { id: number }) => o.id)).toEqual([...ids].reverse());
  });

  it('filters by type and by currency', async () => {
    const { user, ids } = await userWithHistory();
    const debits = (await get(user, '/api/user/wallet/operations?type=pronostic_debit')).json().data;
    expect(debits.operations.map((o: { id: number }) => o.id)).toEqual([ids[4], ids[2]]);
    expect(debits.meta.total).toBe(2);
    const xaf = (await get(user, '/api/user/wallet/operations?currency=XAF')).json().data;
    expect(xaf.operations.map((o: { id: number }) => o.id)).toEqual([ids[5], ids[3]]);
    const both = (
      await get(user, '/api/user/wallet/operations?currency=credits&type=referral_commission')
    ).json();
    expect(both.data).toEqual({
      operations: [],
      meta: { current_page: 1, last_page: 1, per_page: 10, total: 0, has_more: false },
    });
  });

  it('filters by inclusive UTC dates: from at its midnight, to up to the end of its day', async () => {
    const { user, ids } = await userWithHistory();
    const range = (await get(user, '/api/user/wallet/operations?from=2026-03-10&to=2026-03-12')).json().data;
    expect(range.operations.map((o: { id: number }) => o.id)).toEqual([ids[4], ids[3], ids[2], ids[1]]);
    const oneDay = (await get(user, '/api/user/wallet/operations?from=2026-03-10&to=2026-03-10')).json().data;
    expect(oneDay.operations.map((o: { id: number }) => o.id)).toEqual([ids[2], ids[1]]);
    const since = (await get(user, '/api/user/wallet/operations?from=2026-03-12')).json().data;
    expect(since.operations.map((o: { id: number }) => o.id)).toEqual([ids[5], ids[4]]);
    const until = (await get(user, '/api/user/wallet/operations?to=2026-03-09')).json().data;
    expect(until.operations.map((o: { type: string }) => o.type)).toEqual([
      'admin_adjustment',
      'welcome_bonus',
    ]);
    const all = (
      await get(
        user,
        '/api/user/wallet/operations?from=2026-03-10&to=2026-03-13&currency=XAF&type=referral_commission',
      )
    ).json().data;
    expect(all.meta.total).toBe(2);
  });

  it('answers 422 naming the field on a bad filter', async () => {
    const user = await signIn(t);
    const cases: [string, string][] = [
      ['type=bonus', 'type'],
      ['currency=EUR', 'currency'],
      ['from=2026-02-30', 'from'],
      ['from=10-03-2026', 'from'],
      ['to=2026-13-01', 'to'],
      ['to=yesterday', 'to'],
      ['from=2026-03-12&to=2026-03-11', 'from'],
      ['per_page=51', 'per_page'],
      ['page=0', 'page'],
    ];
    for (const [query, field] of cases) {
      const response = await get(user, `/api/user/wallet/operations?${query}`);
      expect(response.statusCode, query).toBe(422);
      const body = response.json();
      expect(Object.keys(body.errors), query).toEqual([field]);
      expect(body.message, query).toBe(body.errors[field][0]);
    }
    const reversed = (await get(user, '/api/user/wallet/operations?from=2026-03-12&to=2026-03-11')).json();
    expect(reversed.message).toBe('La date de début (from) doit précéder ou égaler la date de fin (to).');
  });

  it('never shows another user’s operations', async () => {
    const { user: owner } = await userWithHistory();
    const stranger = await signIn(t);
    const seen = (await get(stranger, '/api/user/wallet/operations?per_page=50')).json().data;
    expect(seen.meta.total).toBe(1);
    expect(seen.operations[0].type).toBe('welcome_bonus');
    expect(
      seen.operations.some((o: { reference: string | null }) => o.reference === `pay-${owner.id}-1`),
    ).toBe(false);
  });
});
