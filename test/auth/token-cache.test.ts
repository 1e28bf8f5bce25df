// The token cache (TOKEN_CACHE_SECONDS): a checked token is answered from memory, yet its lifetime
// and idle window are checked on every hit, the throttled last_used_at write still happens, and a
// logout, a block or a role change takes effect in every process sharing the database (announced
// by triggers on `auth_changed`, LISTEN/NOTIFY on PostgreSQL, at commit on PGlite). While the
// announcements cannot be heard the cache answers nothing.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../src/app.js';
import { channels } from '../../src/db/channels.js';
import { openDatabase } from '../../src/db/client.js';
import { notificationsIn, servePgliteOnSocket } from '../../src/db/pglite-socket.js';
import { accessTokens, users } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { TokenCache } from '../../src/modules/auth/token-cache.js';
import { currentUser } from '../../src/plugins/app/auth.js';
import {
  countingDatabase,
  createTestApp,
  createTestDatabase,
  postgresUrlOf,
  signIn,
  type TestApp,
  type TestDatabase,
  usingPostgres,
} from '../helpers.js';

const CACHE = { tokenCacheSeconds: 10 };

function addProbes(app: App): void {
  app.get('/api/user/probe', async (request) => ({ user: { id: currentUser(request).id } }));
  app.get('/api/admin/probe', async (request) => ({ user: { id: currentUser(request).id } }));
}

const probe = (t: TestApp, authorization: string, area: 'user' | 'admin' = 'user') =>
  t.app.inject({ method: 'GET', url: `/api/${area}/probe`, headers: { authorization } });

/** PostgreSQL delivers a NOTIFY shortly after the commit; PGlite before the query resolves. */
const soon = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 3000, interval: 20 });

describe('one process', () => {
  let t: TestApp;
  let queries: () => number;
  let database: TestDatabase;
  beforeAll(async () => {
    const counting = await countingDatabase();
    database = counting.database;
    queries = counting.queries;
    t = await createTestApp({ database, config: CACHE, beforeReady: addProbes });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('a second request with the same token reads nothing from the database', async () => {
    const user = await signIn(t);
    expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
    const before = queries();
    expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
    expect(queries()).toBe(before);
    expect(t.app.services.tokens.cache.active).toBe(true);
  });

  it('an unknown token is looked up every time (nothing negative is kept)', async () => {
    const wrong = `Bearer ${'B'.repeat(43)}`;
    const before = queries();
    expect((await probe(t, wrong)).statusCode).toBe(401);
    expect((await probe(t, wrong)).statusCode).toBe(401);
    expect(queries()).toBe(before + 2);
  });

  it('last_used_at is still written once per touch interval, gathered: a hit reads nothing for it', async () => {
    const user = await signIn(t);
    const lastUsed = async () =>
      (
        await t.app.db
          .select({ at: accessTokens.lastUsedAt })
          .from(accessTokens)
          .where(eq(accessTokens.userId, user.id))
      )[0]!.at;
    await probe(t, user.headers.authorization);
    const first = await lastUsed();
    t.clock.advanceSeconds(5);
    await probe(t, user.headers.authorization);
    expect(await lastUsed()).toBe(first);
    t.clock.advanceSeconds(6);
    // The entry's ten seconds are over: read again, no write due yet (11 s since the last use).
    let before = queries();
    await probe(t, user.headers.authorization);
    expect(queries()).toBe(before + 1);
    t.clock.advanceSeconds(5);
    before = queries();
    await probe(t, user.headers.authorization);
    // A hit with its write due: answered from memory, the write gathered and made in one statement.
    expect(queries()).toBe(before);
    await t.app.services.tokens.writeTouches();
    expect(queries()).toBe(before + 1);
    expect(new Date(String(await lastUsed())).getTime()).toBe(t.clock.now().getTime());
  });

  it('logout takes effect at once in this process', async () => {
    const user = await signIn(t);
    await probe(t, user.headers.authorization);
    const out = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    expect(out.statusCode).toBe(200);
    expect((await probe(t, user.headers.authorization)).statusCode).toBe(401);
  });

  it('a block written straight into the database (an operator’s SQL) ends the cached token', async () => {
    const user = await signIn(t);
    await probe(t, user.headers.authorization);
    await t.app.db.update(users).set({ status: 'blocked' }).where(eq(users.id, user.id));
    await soon(async () => expect((await probe(t, user.headers.authorization)).statusCode).toBe(401));
  });

  it('a demotion ends the cached admin answer', async () => {
    const admin = await signIn(t, { role: 'admin' });
    expect((await probe(t, admin.headers.authorization, 'admin')).statusCode).toBe(200);
    await t.app.services.users.changeRole(admin.id, 'user');
    await soon(async () =>
      expect((await probe(t, admin.headers.authorization, 'admin')).statusCode).toBe(403),
    );
  });

  it('a token deleted from the table is forgotten', async () => {
    const user = await signIn(t);
    await probe(t, user.headers.authorization);
    await t.app.db.delete(accessTokens).where(eq(accessTokens.userId, user.id));
    await soon(async () => expect((await probe(t, user.headers.authorization)).statusCode).toBe(401));
  });
});

describe('lifetime and idle window on a cached token', () => {
  it('the absolute lifetime ends a token answered from memory', async () => {
    const clock = new ManualClock();
    const t = await createTestApp({
      clock,
      config: { ...CACHE, tokenMaxAgeSeconds: 60 },
      beforeReady: addProbes,
    });
    try {
      const user = await signIn(t);
      clock.advanceSeconds(55);
      expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
      clock.advanceSeconds(5);
      // Read 5 s ago and used 5 s ago: a hit, refused for its age.
      expect((await probe(t, user.headers.authorization)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });

  it('an idle token expires on time although its entry is still fresh', async () => {
    const clock = new ManualClock();
    const t = await createTestApp({
      clock,
      config: { ...CACHE, tokenIdleTtlSeconds: 10 },
      beforeReady: addProbes,
    });
    try {
      const user = await signIn(t);
      expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
      // The window is 10 s, minus one touch interval (1 s): 9.5 s idle is too long.
      clock.advance(9500);
      expect((await probe(t, user.headers.authorization)).statusCode).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('the cache itself', () => {
  it('does not store a lookup that raced an invalidation', () => {
    const cache = new TokenCache<{ id: number }>(10_000);
    cache.listening();
    const entry = {
      user: { id: 1 },
      status: 'active' as const,
      tokenId: 7,
      issuedAtMs: 0,
      lastUsedAtMs: 0,
      readAtMs: 0,
    };
    const generation = cache.generation;
    cache.apply('token:7');
    cache.set('h', entry, generation);
    expect(cache.get('h', 1)).toBeUndefined();
    cache.set('h', entry, cache.generation);
    expect(cache.get('h', 1)).toBe(entry);
    cache.apply('user:1');
    expect(cache.get('h', 1)).toBeUndefined();
  });

  it('answers nothing until it listens, nor after it stops hearing', () => {
    const cache = new TokenCache<{ id: number }>(10_000);
    const entry = {
      user: { id: 1 },
      status: 'active' as const,
      tokenId: 7,
      issuedAtMs: 0,
      lastUsedAtMs: 0,
      readAtMs: 0,
    };
    cache.set('h', entry, cache.generation);
    expect(cache.get('h', 1)).toBeUndefined();
    cache.listening();
    cache.set('h', entry, cache.generation);
    expect(cache.get('h', 1)).toBe(entry);
    cache.deaf();
    expect(cache.size).toBe(0);
    cache.set('h', entry, cache.generation);
    expect(cache.get('h', 1)).toBeUndefined();
  });

  it('keeps at most maxEntries, dropping the oldest', () => {
    const cache = new TokenCache<{ id: number }>(10_000, 2);
    cache.listening();
    const entry = (id: number) => ({
      user: { id },
      status: 'active' as const,
      tokenId: id,
      issuedAtMs: 0,
      lastUsedAtMs: 0,
      readAtMs: 0,
    });
    for (const id of [1, 2, 3]) cache.set(`h${id}`, entry(id), cache.generation);
    expect(cache.size).toBe(2);
    expect(cache.get('h1', 1)).toBeUndefined();
    expect(cache.get('h3', 1)).toBeDefined();
  });

  it('reads NotificationResponse messages out of a backend answer', () => {
    const message = (channel: string, payload: string) => {
      const body = Buffer.from(`${channel}\0${payload}\0`);
      const head = Buffer.alloc(9);
      head[0] = 0x41;
      head.writeInt32BE(8 + body.length, 1);
      head.writeInt32BE(42, 5);
      return Buffer.concat([head, body]);
    };
    const ready = Buffer.from([0x5a, 0, 0, 0, 5, 0x49]);
    const answer = Buffer.concat([message('auth_changed', 'user:3'), message('other', 'x'), ready]);
    expect(notificationsIn(answer)).toEqual([
      { channel: 'auth_changed', payload: 'user:3' },
      { channel: 'other', payload: 'x' },
    ]);
  });
});

describe.skipIf(usingPostgres())('PGlite shared over its socket', () => {
  it('a command’s change through the socket reaches the service’s listeners', async () => {
    const database = await createTestDatabase();
    const dir = mkdtempSync(join(tmpdir(), 'pgsock-'));
    const heard: string[] = [];
    const server = await servePgliteOnSocket(database.handle.embedded!, join(dir, '.s.PGSQL.5432'), {
      onNotification: (channel, payload) => void database.handle.notify(channel, payload),
    });
    await database.handle.listen(channels.authChanged, (payload) => heard.push(payload));
    const client = new pg.Client({ host: dir, user: 'postgres', database: 'postgres' });
    try {
      await database.handle.db.execute(
        sql`INSERT INTO users (phone, country, affiliation_code) VALUES ('+237670009999', 'CM', 'SOCK1')`,
      );
      await client.connect();
      await client.query(`UPDATE users SET role = 'admin' WHERE phone = '+237670009999'`);
      await soon(async () => expect(heard.filter((p) => p.startsWith('user:'))).toHaveLength(1));
    } finally {
      await client.end();
      await server.close();
      await database.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe.skipIf(!usingPostgres())('two processes on one PostgreSQL database', () => {
  let a: TestApp;
  let b: TestApp;
  let secondHandle: Awaited<ReturnType<typeof openDatabase>>;
  beforeAll(async () => {
    a = await createTestApp({ config: CACHE, beforeReady: addProbes });
    secondHandle = await openDatabase({ url: await postgresUrlOf(a), poolSize: 5 });
    b = await createTestApp({
      config: CACHE,
      clock: a.clock,
      beforeReady: addProbes,
      database: { handle: secondHandle, drop: () => secondHandle.close() },
    });
  });
  afterAll(async () => {
    await b.close();
    await secondHandle.close();
    await a.close();
  });
  it('a logout on one ends the token the other had cached', async () => {
    const user = await signIn(a);
    expect((await probe(b, user.headers.authorization)).statusCode).toBe(200);
    expect((await probe(a, user.headers.authorization)).statusCode).toBe(200);
    await a.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    expect((await probe(a, user.headers.authorization)).statusCode).toBe(401);
    await soon(async () => expect((await probe(b, user.headers.authorization)).statusCode).toBe(401));
  });

  it('a block ends the user’s tokens in both', async () => {
    const user = await signIn(a);
    await probe(a, user.headers.authorization);
    await probe(b, user.headers.authorization);
    await a.app.db.update(users).set({ status: 'blocked' }).where(eq(users.id, user.id));
    await soon(async () => {
      expect((await probe(a, user.headers.authorization)).statusCode).toBe(401);
      expect((await probe(b, user.headers.authorization)).statusCode).toBe(401);
    });
  });

  it('a lost LISTEN connection empties the cache until a new one listens', async () => {
    const user = await signIn(a);
    await probe(b, user.headers.authorization);
    const cache = b.app.services.tokens.cache;
    expect(cache.size).toBeGreaterThan(0);
    // An administrator's terminate of every LISTENing backend of this database.
    await a.app.db.execute(
      sql`SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
    );
    await soon(async () => expect(cache.active).toBe(false));
    expect(cache.size).toBe(0);
    // While deaf, a change is seen by reading the database.
    await a.app.db.update(users).set({ status: 'blocked' }).where(eq(users.id, user.id));
    expect((await probe(b, user.headers.authorization)).statusCode).toBe(401);
    await vi.waitFor(() => expect(cache.active).toBe(true), { timeout: 5000, interval: 50 });
  });
});
