// The per-user live counter that answers the unfiltered list's total: it moves in the same
// transaction as a create and a soft delete and only when they do something, so it always equals a
// count of the user's live rows; filtered lists still count. The backfill migration sets it right.
import { readFileSync } from 'node:fs';
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/db/client.js';
import { pronosticCounters } from '../../src/db/schema/index.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ analyst: fixedAnalyst('dixon-coles-test') });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const match = (i: number) => ({ home: `Equipe ${i}`, away: 'Coton Sport' });

function create(user: SignedIn, i: number, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: { ...user.headers, ...headers },
    payload: { type_id: 1, teams_details: match(i) },
  });
}

const remove = (user: SignedIn, id: number) =>
  t.app.inject({ method: 'DELETE', url: `/api/user/pronostic/${id}`, headers: user.headers });

async function listTotal(user: SignedIn, query = ''): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/pronostics?per_page=5${query}`,
    headers: user.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json().data.meta.total;
}

async function stored(userId: number): Promise<number | undefined> {
  const [row] = await t.app.db
    .select({ live: pronosticCounters.live })
    .from(pronosticCounters)
    .where(eq(pronosticCounters.userId, userId));
  return row?.live;
}

async function counted(userId: number): Promise<number> {
  const result = await t.app.db.execute(
    sql`SELECT count(*)::int AS n FROM pronostics WHERE user_id = ${userId} AND deleted_at IS NULL`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

describe('the live pronostics counter', () => {
  it('a new user has none, and the list says 0', async () => {
    const user = await signIn(t);
    expect(await stored(user.id)).toBeUndefined();
    expect(await listTotal(user)).toBe(0);
  });

  it('counts creates and deletes, once each, and the list total is the counted rows', async () => {
    const user = await signIn(t, { credits: 20 });
    const ids: number[] = [];
    for (let i = 0; i < 7; i++) {
      const response = await create(user, i);
      expect(response.statusCode).toBe(201);
      ids.push(response.json().data.pronostic.id);
    }
    expect(await stored(user.id)).toBe(7);
    expect((await remove(user, ids[0]!)).statusCode).toBe(200);
    // The same row deleted twice at once: one of them deletes it, the counter moves once.
    const twice = await Promise.all([remove(user, ids[1]!), remove(user, ids[1]!)]);
    expect(twice.map((r) => r.statusCode).sort()).toContain(200);
    expect((await remove(user, ids[0]!)).statusCode).toBe(404);
    expect(await stored(user.id)).toBe(5);
    expect(await counted(user.id)).toBe(5);
    expect(await listTotal(user)).toBe(5);
  });

  it('a create refused for credits, or replayed by its Idempotency-Key, counts nothing', async () => {
    const user = await signIn(t, { credits: 1 });
    expect((await create(user, 1, { 'idempotency-key': 'counter-1' })).statusCode).toBe(201);
    expect((await create(user, 1, { 'idempotency-key': 'counter-1' })).statusCode).toBe(201);
    expect((await create(user, 2)).statusCode).toBe(402);
    expect(await stored(user.id)).toBe(1);
    expect(await listTotal(user)).toBe(1);
  });

  it('concurrent creates each count', async () => {
    const user = await signIn(t, { credits: 10 });
    const responses = await Promise.all(Array.from({ length: 10 }, (_, i) => create(user, i)));
    expect(responses.every((r) => r.statusCode === 201)).toBe(true);
    expect(await stored(user.id)).toBe(10);
    expect(await counted(user.id)).toBe(10);
  });

  it('a filtered list counts its own rows (the counter cannot answer it)', async () => {
    const user = await signIn(t, { credits: 10 });
    for (let i = 0; i < 3; i++) await create(user, i);
    await t.app.db.execute(
      sql`UPDATE pronostics SET status = 'success' WHERE user_id = ${user.id} AND teams_details->>'home' = 'Equipe 1'`,
    );
    expect(await listTotal(user)).toBe(3);
    expect(await listTotal(user, '&status=success')).toBe(1);
    expect(await listTotal(user, '&status=processing')).toBe(2);
    expect(await listTotal(user, '&search=equipe%202')).toBe(1);
  });

  it('the backfill migration counts every user live rows, replacing a wrong count', async () => {
    const user = await signIn(t, { credits: 10 });
    for (let i = 0; i < 4; i++) await create(user, i);
    await t.app.db.update(pronosticCounters).set({ live: 99 }).where(eq(pronosticCounters.userId, user.id));
    const other = await signIn(t, { credits: 10 });
    await create(other, 1);
    await t.app.db.delete(pronosticCounters).where(eq(pronosticCounters.userId, other.id));
    const backfill = readFileSync(`${migrationsFolder}/0011_performance_counter_backfill.sql`, 'utf8');
    await t.app.db.execute(sql.raw(backfill));
    expect(await stored(user.id)).toBe(4);
    expect(await stored(other.id)).toBe(1);
  });
});
