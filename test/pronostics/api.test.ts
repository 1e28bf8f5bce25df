import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pronosticTypes, walletOperations } from '../../src/db/schema/index.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import {
  createTestApp,
  expectLedgerConsistent,
  grantCredits,
  type SignedIn,
  signIn,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
const engine = fixedAnalyst('dixon-coles-test');

beforeAll(async () => {
  t = await createTestApp({ analyst: engine });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const match = { home: 'Canon Yaoundé', away: 'Coton Sport', league: 'Elite One', date: '2026-03-14' };

async function create(user: SignedIn, body: unknown, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: { ...user.headers, ...headers },
    payload: body as object,
  });
}

describe('GET /api/user/pronostic/types', () => {
  it('lists the active types by difficulty, with errors an empty array', async () => {
    const user = await signIn(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostic/types',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.errors).toEqual([]);
    expect(body.user).toEqual({ id: user.id });
    expect(body.data.types.map((type: { slug: string }) => type.slug)).toEqual([
      '1x2',
      'double-chance',
      'btts',
      'over-under-2-5',
      'exact-score',
      'full-analysis',
    ]);
    expect(body.data.types[0]).toEqual({
      id: 1,
      name: 'Résultat du match (1X2)',
      slug: '1x2',
      description: 'Victoire à domicile, match nul ou victoire à l’extérieur.'.replace('’', "'"),
      difficulty: 1,
      active: true,
    });
  });

  it('hides inactive types', async () => {
    await t.app.db.update(pronosticTypes).set({ active: false }).where(eq(pronosticTypes.id, 2));
    const user = await signIn(t);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostic/types',
      headers: user.headers,
    });
    expect(response.json().data.types.map((type: { id: number }) => type.id)).not.toContain(2);
    await t.app.db.update(pronosticTypes).set({ active: true }).where(eq(pronosticTypes.id, 2));
  });

  it('needs a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/pronostic/types' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  });
});

describe('POST /api/user/pronostic/create', () => {
  it('debits the difficulty and answers 201 with the spec body', async () => {
    const user = await signIn(t, { credits: 10 });
    const response = await create(user, {
      type_id: 3,
      teams_details: { ...match, venue: 'Omnisport', round: 7 },
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body).toEqual({
      user: { id: user.id, credits_balance: 8 },
      message: expect.any(String),
      data: {
        pronostic: {
          id: expect.any(Number),
          type_id: 3,
          status: 'processing',
          credits_cost: 2,
          teams_details: { ...match, venue: 'Omnisport', round: 7 },
          result: null,
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
        },
      },
      errors: [],
    });
    expect(body.data.pronostic).not.toHaveProperty('ai_model');
    const operations = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.userId, user.id));
    expect(
      operations.map((operation) => [operation.type, operation.amount, operation.balanceAfter]),
    ).toContainEqual(['pronostic_debit', -2, 8]);
  });

  it('accepts type_id as a numeric string', async () => {
    const user = await signIn(t, { credits: 1 });
    const response = await create(user, { type_id: '1', teams_details: match });
    expect(response.statusCode).toBe(201);
    expect(response.json().data.pronostic.type_id).toBe(1);
  });

  it('answers 402 with the balance and what was required, and changes nothing', async () => {
    const user = await signIn(t, { credits: 2 });
    const response = await create(user, { type_id: 6, teams_details: match });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      user: { id: user.id, credits_balance: 2 },
      message: expect.any(String),
      data: { credits_balance: 2, required: 5 },
      errors: [],
    });
    const list = await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: user.headers });
    expect(list.json().data.meta.total).toBe(0);
  });

  it.each([
    [{ type_id: 99, teams_details: match }, 'type_id'],
    [{ type_id: 0, teams_details: match }, 'type_id'],
    [{ type_id: true, teams_details: match }, 'type_id'],
    [{ teams_details: match }, 'type_id'],
    [{ type_id: 1 }, 'teams_details'],
    [{ type_id: 1, teams_details: 'Canon - Coton' }, 'teams_details'],
    [{ type_id: 1, teams_details: { away: 'B' } }, 'teams_details.home'],
    [{ type_id: 1, teams_details: { home: 'A', away: 'x'.repeat(101) } }, 'teams_details.away'],
    [{ type_id: 1, teams_details: { home: 'Coton Sport', away: 'COTON SPORT' } }, 'teams_details.away'],
    [{ type_id: 1, teams_details: { home: '   ', away: 'B' } }, 'teams_details.home'],
    [{ type_id: 1, teams_details: { home: 'A', away: 'B', date: 'demain' } }, 'teams_details.date'],
    [{ type_id: 1, teams_details: { home: 'A', away: 'B', notes: 'x'.repeat(2100) } }, 'teams_details'],
  ])('422 for body #%# names the field', async (body, field) => {
    const user = await signIn(t, { credits: 10 });
    const response = await create(user, body);
    expect(response.statusCode).toBe(422);
    const answer = response.json();
    expect(answer.user).toBeNull();
    expect(answer.errors).toHaveProperty([field]);
    expect(answer.message).toBe(answer.errors[field][0]);
  });

  it('422 for an inactive type', async () => {
    await t.app.db.update(pronosticTypes).set({ active: false }).where(eq(pronosticTypes.id, 4));
    const user = await signIn(t, { credits: 10 });
    const response = await create(user, { type_id: 4, teams_details: match });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['type_id']);
    await t.app.db.update(pronosticTypes).set({ active: true }).where(eq(pronosticTypes.id, 4));
  });

  describe('Idempotency-Key', () => {
    it('replays the first 201 without a second debit', async () => {
      const user = await signIn(t, { credits: 5 });
      const first = await create(
        user,
        { type_id: 1, teams_details: match },
        { 'idempotency-key': 'order-1' },
      );
      const second = await create(
        user,
        {
          teams_details: { date: match.date, league: match.league, away: match.away, home: match.home },
          type_id: 1,
        },
        { 'idempotency-key': 'order-1' },
      );
      expect(first.statusCode).toBe(201);
      expect(second.statusCode).toBe(201);
      expect(second.json()).toEqual(first.json());
      const list = await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: user.headers });
      expect(list.json().data.meta.total).toBe(1);
    });

    it('replays a 402 too, even once credits arrive', async () => {
      const user = await signIn(t, { credits: 0 });
      const first = await create(user, { type_id: 1, teams_details: match }, { 'idempotency-key': 'k-402' });
      expect(first.statusCode).toBe(402);
      await grantCredits(t, user.id, 3);
      const again = await create(user, { type_id: 1, teams_details: match }, { 'idempotency-key': 'k-402' });
      expect(again.statusCode).toBe(402);
      expect(again.json()).toEqual(first.json());
    });

    it('is a 422 on Idempotency-Key with another body', async () => {
      const user = await signIn(t, { credits: 5 });
      await create(user, { type_id: 1, teams_details: match }, { 'idempotency-key': 'k-body' });
      const response = await create(
        user,
        { type_id: 2, teams_details: match },
        { 'idempotency-key': 'k-body' },
      );
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['Idempotency-Key']);
    });

    it('is scoped per user', async () => {
      const alice = await signIn(t, { credits: 5 });
      const bob = await signIn(t, { credits: 5 });
      const a = await create(alice, { type_id: 1, teams_details: match }, { 'idempotency-key': 'shared' });
      const b = await create(bob, { type_id: 1, teams_details: match }, { 'idempotency-key': 'shared' });
      expect(b.statusCode).toBe(201);
      expect(b.json().data.pronostic.id).not.toBe(a.json().data.pronostic.id);
    });

    it('a 422 on the request shape is not stored', async () => {
      const user = await signIn(t, { credits: 5 });
      const bad = await create(user, { type_id: 99, teams_details: match }, { 'idempotency-key': 'k-422' });
      expect(bad.statusCode).toBe(422);
      const good = await create(user, { type_id: 1, teams_details: match }, { 'idempotency-key': 'k-422' });
      expect(good.statusCode).toBe(201);
    });

    it('answers 409 while the first request is still running', async () => {
      const user = await signIn(t, { credits: 5 });
      const body = { type_id: 1, teams_details: match };
      await t.app.services.idempotency.begin({
        userId: user.id,
        scope: 'pronostic.create',
        key: 'k-409',
        body,
      });
      const response = await create(user, body, { 'idempotency-key': 'k-409' });
      expect(response.statusCode).toBe(409);
      expect(response.json()).toMatchObject({ user: { id: user.id }, data: [], errors: [] });
      // A request that died in flight does not block the key for 24 hours.
      t.clock.advanceSeconds(121);
      expect((await create(user, body, { 'idempotency-key': 'k-409' })).statusCode).toBe(201);
    });

    it('rejects a key longer than 255 characters', async () => {
      const user = await signIn(t, { credits: 5 });
      const response = await create(
        user,
        { type_id: 1, teams_details: match },
        { 'idempotency-key': 'k'.repeat(256) },
      );
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['Idempotency-Key']);
    });
  });
});

describe('GET /api/user/pronostics', () => {
  let user: SignedIn;
  const ids: number[] = [];
  beforeAll(async () => {
    // Earlier tests left rows in processing; analyse them so runOnce() below takes this user's first.
    await t.app.runtime.analysisWorker.drain();
    user = await signIn(t, { credits: 50 });
    const teams = [
      ['Séville', 'Real Madrid'],
      ['Arsenal', 'Chelsea'],
      ['Canon Yaoundé', 'Union Douala'],
      ['Barcelona', 'Valencia'],
      ['Liverpool', 'Everton'],
    ];
    for (const [index, [home, away]] of teams.entries()) {
      // One of another type, for the type_id filter.
      const response = await create(user, { type_id: index === 3 ? 2 : 1, teams_details: { home, away } });
      ids.push(response.json().data.pronostic.id);
      t.clock.advanceSeconds(1);
    }
    // One analysed: its result text is searchable too.
    await t.app.runtime.analysisWorker.runOnce();
  });

  const list = (query = '') =>
    t.app.inject({ method: 'GET', url: `/api/user/pronostics${query}`, headers: user.headers });

  it('pages newest first with the spec meta and user {id, phone}', async () => {
    const response = await list('?per_page=2&page=2');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: user.id, phone: user.phone });
    expect(body.data.meta).toEqual({ current_page: 2, last_page: 3, per_page: 2, total: 5, has_more: true });
    expect(body.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[2], ids[1]]);
    expect(Object.keys(body.data.pronostics[0]).sort()).toEqual(
      ['ai_model', 'created_at', 'credits_cost', 'id', 'result', 'status', 'teams_details', 'type_id'].sort(),
    );
    expect(body.data.pronostics[0].ai_model).toBe('dixon-coles-test');
  });

  it('defaults to 10 per page, page 1', async () => {
    const body = (await list()).json();
    expect(body.data.meta).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 5,
      has_more: false,
    });
  });

  it('answers an empty page past the end with a true meta', async () => {
    const body = (await list('?page=9')).json();
    expect(body.data.pronostics).toEqual([]);
    expect(body.data.meta).toEqual({
      current_page: 9,
      last_page: 1,
      per_page: 10,
      total: 5,
      has_more: false,
    });
  });

  it('filters by status', async () => {
    const success = (await list('?status=success')).json();
    expect(success.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
    expect(success.data.pronostics[0].result).toMatchObject({ market: '1x2' });
    const processing = (await list('?status=processing')).json();
    expect(processing.data.meta.total).toBe(4);
  });

  it('searches teams case- and accent-insensitively, and the result text', async () => {
    const byTeam = (await list('?search=SEVILLE')).json();
    expect(byTeam.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
    const byAccent = (await list(`?search=${encodeURIComponent('yaoundé')}`)).json();
    expect(byAccent.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[2]]);
    const byResult = (await list(`?search=${encodeURIComponent('analyse de test')}`)).json();
    expect(byResult.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[0]]);
    const wildcard = (await list('?search=%25')).json();
    expect(wildcard.data.meta.total).toBe(0);
    const none = (await list('?search=bayern')).json();
    expect(none.data.meta).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 0,
      has_more: false,
    });
  });

  it('filters by type_id, alone and beside another filter', async () => {
    const second = (await list('?type_id=2')).json();
    expect(second.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[3]]);
    expect(second.data.meta.total).toBe(1);
    const first = (await list('?type_id=1&status=processing')).json();
    expect(first.data.pronostics.map((p: { id: number }) => p.id)).toEqual([ids[4], ids[2], ids[1]]);
    expect((await list('?type_id=99')).json().data.meta.total).toBe(0);
  });

  it.each([
    ['?type_id=abc', 'type_id'],
    ['?type_id=1.5', 'type_id'],
    ['?type_id=0', 'type_id'],
    ['?per_page=51', 'per_page'],
    ['?per_page=0', 'per_page'],
    ['?page=0', 'page'],
    ['?page=abc', 'page'],
    ['?status=done', 'status'],
  ])('422 for %s', async (query, field) => {
    const response = await list(query);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual([field]);
  });

  it('shows only the caller’s pronostics', async () => {
    const other = await signIn(t);
    const body = (
      await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: other.headers })
    ).json();
    expect(body.data.meta.total).toBe(0);
  });
});

describe('GET and DELETE /api/user/pronostic/{id}', () => {
  it('shows the owner the detail with the nested type', async () => {
    const user = await signIn(t, { credits: 5 });
    const id = (await create(user, { type_id: 5, teams_details: match })).json().data.pronostic.id;
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${id}`,
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: user.id },
      message: expect.any(String),
      data: {
        pronostic: {
          id,
          type_id: 5,
          type: { id: 5, name: 'Score exact', slug: 'exact-score', difficulty: 3 },
          status: 'processing',
          credits_cost: 3,
          teams_details: match,
          result: null,
          ai_model: 'dixon-coles-test',
          created_at: expect.any(String),
        },
      },
      errors: [],
    });
  });

  it('is 403 for another user’s pronostic, for reading and deleting', async () => {
    const owner = await signIn(t, { credits: 5 });
    const stranger = await signIn(t);
    const id = (await create(owner, { type_id: 1, teams_details: match })).json().data.pronostic.id;
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/user/pronostic/${id}`,
        headers: stranger.headers,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({
        user: { id: stranger.id },
        message: 'Accès refusé : ce pronostic ne vous appartient pas.',
        data: [],
        errors: [],
      });
    }
    const still = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${id}`,
      headers: owner.headers,
    });
    expect(still.statusCode).toBe(200);
  });

  it.each(['999999', 'abc', '0', '-1', '1.5'])('is 404 for id %s', async (id) => {
    const user = await signIn(t);
    for (const method of ['GET', 'DELETE'] as const) {
      const response = await t.app.inject({
        method,
        url: `/api/user/pronostic/${id}`,
        headers: user.headers,
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        user: { id: user.id },
        message: expect.any(String),
        data: [],
        errors: [],
      });
    }
  });

  it('soft-deletes: then 404, gone from list and search, not refunded', async () => {
    const user = await signIn(t, { credits: 5 });
    const id = (await create(user, { type_id: 1, teams_details: match })).json().data.pronostic.id;
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({
      user: { id: user.id },
      message: expect.any(String),
      data: [],
      errors: [],
    });
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/user/pronostic/${id}`,
      headers: user.headers,
    });
    expect(detail.statusCode).toBe(404);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${id}`,
      headers: user.headers,
    });
    expect(again.statusCode).toBe(404);
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostics?search=canon',
      headers: user.headers,
    });
    expect(list.json().data.meta.total).toBe(0);
    const types = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: match },
    });
    expect(types.json().user.credits_balance).toBe(3);
  });
});

describe('every pronostic endpoint needs a valid token', () => {
  it.each([
    ['GET', '/api/user/pronostic/types'],
    ['POST', '/api/user/pronostic/create'],
    ['GET', '/api/user/pronostics'],
    ['GET', '/api/user/pronostic/1'],
    ['DELETE', '/api/user/pronostic/1'],
  ] as const)('%s %s answers 401 without one, or with an unknown one', async (method, url) => {
    for (const headers of [{}, { authorization: `Bearer ${'x'.repeat(43)}` }]) {
      const response = await t.app.inject({
        method,
        url,
        headers,
        ...(method === 'POST' ? { payload: { type_id: 1, teams_details: match } } : {}),
      });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
    }
  });
});
