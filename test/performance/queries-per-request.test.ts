// How many statements the hot list costs (issue 13): on PGlite every statement queues for the one
// connection, so the unfiltered page carries the user's live counter in the same statement; a
// competition's fixtures page does not look its league up again (issue 57). With
// the token cache warm, a list page is one query; a page past the end reads the counter alone; a
// filtered page (past the end too), and a wallet history page, carry their count in the same statement. Counted, not
// timed (speed belongs to `npm run bench:http`).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { fixedAnalyst } from '../fakes/analysts.js';
import { seedFixture } from '../fixtures/seed.js';
import {
  countingDatabase,
  createTestApp,
  expectLedgerConsistent,
  type SignedIn,
  signIn,
  type TestApp,
  type TestDatabase,
} from '../helpers.js';

let t: TestApp;
let queries: () => number;
let database: TestDatabase;
let user: SignedIn;

beforeAll(async () => {
  const counting = await countingDatabase();
  database = counting.database;
  queries = counting.queries;
  t = await createTestApp({
    database,
    config: { tokenCacheSeconds: 10 },
    analyst: fixedAnalyst('dixon-coles-test'),
  });
  user = await signIn(t, { credits: 100 });
  for (let i = 0; i < 12; i++) {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 1, teams_details: { home: `Equipe ${i}`, away: 'Coton Sport' } },
    });
    expect(created.statusCode).toBe(201);
  }
});
afterAll(async () => {
  await t.close();
  await database.drop();
});
afterEach(() => expectLedgerConsistent(t));

async function list(query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/pronostics?${query}`,
    headers: user.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json().data as { pronostics: { id: number }[]; meta: { total: number } };
}

async function history(query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/wallet/operations?${query}`,
    headers: user.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json().data as { operations: { id: number }[]; meta: { total: number } };
}

/** The statements one call makes (the token is already cached by an earlier request). */
async function statementsOf<T>(call: () => Promise<T>): Promise<{ result: T; statements: number }> {
  await list('page=1');
  const before = queries();
  const result = await call();
  return { result, statements: queries() - before };
}

describe('statements per list request', () => {
  it("a competition's fixtures page is its page and its count once the league is known: two statements", async () => {
    for (let i = 0; i < 3; i++) {
      await seedFixture(t, {
        league: 'SP1',
        home: `Betis ${i}`,
        away: `Getafe ${i}`,
        kickoffAt: `2027-04-0${i + 1}T15:00:00Z`,
      });
    }
    const page = async () => {
      const response = await t.app.inject({
        method: 'GET',
        url: '/api/fixtures?league=SP1&per_page=2',
        headers: user.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as { fixtures: { home: string }[]; meta: { total: number } };
    };
    // The first looks the league up; a league row is never changed, so the next do not.
    await page();
    const { result, statements } = await statementsOf(page);
    expect(statements).toBe(2);
    expect(result.meta.total).toBe(3);
    expect(result.fixtures.map((fixture) => fixture.home)).toEqual(['Betis 0', 'Betis 1']);
  });

  it('the unfiltered page and its total are one statement', async () => {
    const { result, statements } = await statementsOf(() => list('page=1&per_page=10'));
    expect(statements).toBe(1);
    expect(result.pronostics).toHaveLength(10);
    expect(result.meta.total).toBe(12);
  });

  it('a page past the end reads the counter alone, and its total is still right', async () => {
    const { result, statements } = await statementsOf(() => list('page=5&per_page=10'));
    expect(statements).toBe(2);
    expect(result.pronostics).toHaveLength(0);
    expect(result.meta.total).toBe(12);
  });

  it('a filtered page carries its own count: one statement', async () => {
    const { result, statements } = await statementsOf(() => list('page=1&per_page=2&search=equipe%201'));
    expect(statements).toBe(1);
    // "Equipe 1", "Equipe 10", "Equipe 11".
    expect(result.meta.total).toBe(3);
    expect(result.pronostics).toHaveLength(2);
  });

  it('a filtered page keeps the newest first across its rows', async () => {
    const { result } = await statementsOf(() => list('page=1&per_page=3&search=equipe%201'));
    const ids = result.pronostics.map((row) => row.id);
    expect(ids).toHaveLength(3);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
  });

  it('a filtered page past the end, or matching nothing, still costs one statement with its total', async () => {
    for (const [query, total] of [
      ['page=3&per_page=2&search=equipe%201', 3],
      ['page=1&search=personne', 0],
      ['page=2&status=cancelled', 0],
    ] as const) {
      const { result, statements } = await statementsOf(() => list(query));
      expect(statements, query).toBe(1);
      expect(result.pronostics, query).toHaveLength(0);
      expect(result.meta.total, query).toBe(total);
    }
  });

  it('a wallet history page, filtered or not, carries its count: one statement', async () => {
    for (const [query, total] of [
      ['page=1&per_page=5', 13],
      ['page=2&per_page=5&type=pronostic_debit', 12],
      ['page=1&currency=credits', 13],
    ] as const) {
      const { result, statements } = await statementsOf(() => history(query));
      expect(statements, query).toBe(1);
      expect(result.meta.total, query).toBe(total);
    }
    const { result, statements } = await statementsOf(() => history('page=9&type=pronostic_debit'));
    expect(statements).toBe(2);
    expect(result.operations).toHaveLength(0);
    expect(result.meta.total).toBe(12);
  });

  it('the total follows a delete', async () => {
    const { pronostics } = await list('page=1&per_page=1');
    const removed = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${pronostics[0]!.id}`,
      headers: user.headers,
    });
    expect(removed.statusCode).toBe(200);
    expect((await list('page=1')).meta.total).toBe(11);
    expect((await list('page=3&per_page=10')).meta.total).toBe(11);
  });
});
