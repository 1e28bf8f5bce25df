// A token's last use (decision 0166): the writes that fall due are gathered and made in one
// statement per process, at most TOUCH_WRITE_MS later and at close, with the earliest use of the
// batch (the stored time never runs ahead of a real use), and never moving a later stored time back.
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../../src/app.js';
import { accessTokens } from '../../src/db/schema/index.js';
import { touchTokens } from '../../src/modules/auth/token-repository.js';
import { TOUCH_WRITE_MS } from '../../src/modules/auth/tokens.js';
import { currentUser } from '../../src/plugins/app/auth.js';
import { countingDatabase, createTestApp, signIn, type TestApp, type TestDatabase } from '../helpers.js';

function addProbe(app: App): void {
  app.get('/api/user/probe', async (request) => ({ user: { id: currentUser(request).id } }));
}

const probe = (t: TestApp, authorization: string) =>
  t.app.inject({ method: 'GET', url: '/api/user/probe', headers: { authorization } });

async function lastUsedMs(t: TestApp, userIds: number[]): Promise<number[]> {
  const rows = await t.app.db
    .select({ userId: accessTokens.userId, at: accessTokens.lastUsedAt })
    .from(accessTokens)
    .where(inArray(accessTokens.userId, userIds));
  return userIds.map((id) => new Date(String(rows.find((row) => row.userId === id)!.at)).getTime());
}

describe('last uses, gathered', () => {
  let t: TestApp;
  let database: TestDatabase;
  let queries: () => number;
  beforeAll(async () => {
    ({ database, queries } = await countingDatabase());
    t = await createTestApp({ database, beforeReady: addProbe });
  });
  afterAll(async () => {
    await t.close();
    await database.drop();
  });

  it('three tokens due are written in one statement within TOUCH_WRITE_MS, with the earliest use', async () => {
    const signed = [await signIn(t), await signIn(t), await signIn(t)];
    const ids = signed.map((user) => user.id);
    t.clock.advanceSeconds(20);
    const firstUse = t.clock.now().getTime();
    const before = queries();
    for (const user of signed) {
      expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
      t.clock.advanceSeconds(1);
    }
    // Three lookups (the cache is off here), no write yet.
    expect(queries()).toBe(before + 3);
    expect(await lastUsedMs(t, ids)).not.toContain(firstUse);
    const read = queries();
    await vi.waitFor(async () => expect(queries()).toBeGreaterThan(read), { timeout: TOUCH_WRITE_MS * 3 });
    // One write; reading the rows back counts one more.
    expect(await lastUsedMs(t, ids)).toEqual([firstUse, firstUse, firstUse]);
    expect(queries()).toBe(read + 2);
  });

  it('a token near its idle limit (the last two touch intervals) is written at once, not gathered', async () => {
    const user = await signIn(t);
    t.clock.advanceSeconds(575);
    const before = queries();
    expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
    // The lookup and its own write, before the answer: another process reading it now finds it used.
    expect(queries()).toBe(before + 2);
    expect(await lastUsedMs(t, [user.id])).toEqual([t.clock.now().getTime()]);
  });

  it('a time older than the stored one never moves it back; a revoked token is not touched', async () => {
    const [a, b] = [await signIn(t), await signIn(t)];
    const [stored] = await lastUsedMs(t, [a.id]);
    const tokenId = async (userId: number) =>
      (
        await t.app.db
          .select({ id: accessTokens.id })
          .from(accessTokens)
          .where(eq(accessTokens.userId, userId))
      )[0]!.id;
    await touchTokens(t.app.db, [await tokenId(a.id)], new Date(stored! - 60_000));
    expect(await lastUsedMs(t, [a.id])).toEqual([stored]);
    const bToken = await tokenId(b.id);
    await t.app.db
      .update(accessTokens)
      .set({ revokedAt: t.clock.now().toISOString() })
      .where(eq(accessTokens.id, bToken));
    const [bStored] = await lastUsedMs(t, [b.id]);
    await touchTokens(t.app.db, [bToken], new Date(bStored! + 60_000));
    expect(await lastUsedMs(t, [b.id])).toEqual([bStored]);
  });
});

describe('at close', () => {
  it('the gathered last uses are written before the database closes', async () => {
    const { database } = await countingDatabase();
    try {
      const t = await createTestApp({ database, beforeReady: addProbe });
      const user = await signIn(t);
      t.clock.advanceSeconds(30);
      const used = t.clock.now().getTime();
      expect((await probe(t, user.headers.authorization)).statusCode).toBe(200);
      await t.close();
      const [row] = await database.handle.db
        .select({ at: accessTokens.lastUsedAt })
        .from(accessTokens)
        .where(eq(accessTokens.userId, user.id));
      expect(new Date(String(row!.at)).getTime()).toBe(used);
    } finally {
      await database.drop();
    }
  });
});
