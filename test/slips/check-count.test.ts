// The console's count of slip checks (decision 0165): a check writes nothing of its own; a process
// adds its checks up and writes them in one statement, at the latest CHECK_COUNT_WRITE_MS later,
// before the console reads them and at close. A write that fails loses nothing: the count is
// kept for the next. Counted, not timed.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { CHECK_COUNT_WRITE_MS } from '../../src/modules/slips/service.js';
import {
  countingDatabase,
  createTestApp,
  type SignedIn,
  signIn,
  type TestApp,
  type TestDatabase,
} from '../helpers.js';
import { matrixAnalyst } from './analyst.js';

let t: TestApp;
let database: TestDatabase;
let queries: () => number;
let user: SignedIn;
let legs: { pronostic_id: number; market: string; pick: string; odds: number }[];

beforeAll(async () => {
  const counting = await countingDatabase();
  database = counting.database;
  queries = counting.queries;
  t = await createTestApp({ database, analyst: matrixAnalyst, config: { tokenCacheSeconds: 60 } });
  user = await signIn(t, { credits: 50 });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: 1, teams_details: { home: 'Coton Sport', away: 'Canon Yaoundé' } },
  });
  expect(created.statusCode, created.body).toBe(201);
  expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
  legs = [{ pronostic_id: created.json().data.pronostic.id, market: '1x2', pick: 'home', odds: 2 }];
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

const check = async () => {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/slips/check',
    headers: user.headers,
    payload: { legs },
  });
  expect(response.statusCode, response.body).toBe(200);
};

/** Today's count as stored (the database's UTC day). */
async function stored(): Promise<number> {
  const { rows } = (await database.handle.db.execute(
    sql`SELECT checked FROM slip_checks_daily WHERE day = (now() AT TIME ZONE 'UTC')::date`,
  )) as unknown as { rows: { checked: number }[] };
  return Number(rows[0]?.checked ?? 0);
}

describe('the count of slip checks', () => {
  it('costs a check only its legs: one statement', async () => {
    await check();
    const before = queries();
    await check();
    expect(queries() - before).toBe(1);
  });

  it('reads a result once, and a score matrix only for a match with two legs: one more statement then', async () => {
    const full = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: 6, teams_details: { home: 'Union Douala', away: 'PWD Bamenda' } },
    });
    expect(full.statusCode, full.body).toBe(201);
    expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
    const id = full.json().data.pronostic.id as number;
    const checkLegs = async (payload: typeof legs) => {
      const before = queries();
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/slips/check',
        headers: user.headers,
        payload: { legs: payload },
      });
      expect(response.statusCode, response.body).toBe(200);
      return queries() - before;
    };
    const leg = (market: string, pick: string) => ({ pronostic_id: id, market, pick, odds: 2 });
    // A new analysis's result is read once (what a leg may pick of it is then kept), then only the legs.
    expect(await checkLegs([...legs, leg('1x2', 'home')])).toBe(2);
    expect(await checkLegs([...legs, leg('1x2', 'home')])).toBe(1);
    expect(await checkLegs([...legs, leg('1x2', 'home'), leg('btts', 'yes')])).toBe(2);
  });

  it('is written in one statement within CHECK_COUNT_WRITE_MS, and before the console reads it', async () => {
    await t.app.services.slips.byDay({ from: '2000-01-01', before: '2100-01-01' });
    const start = await stored();
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      for (let i = 0; i < 5; i++) await check();
      expect(await stored()).toBe(start);
      const before = queries();
      await vi.advanceTimersByTimeAsync(CHECK_COUNT_WRITE_MS);
      await vi.waitFor(async () => expect(await stored()).toBe(start + 5));
      // The one write, and the reads of this test.
      expect(queries() - before).toBeLessThanOrEqual(1 + 2);
    } finally {
      vi.useRealTimers();
    }
    await check();
    await check();
    const [today] = (await t.app.services.slips.byDay({ from: '2000-01-01', before: '2100-01-01' })).slice(
      -1,
    );
    expect(today?.checked).toBe(start + 7);
  });

  it('keeps a count whose write failed, and writes it with the next', async () => {
    await t.app.services.slips.byDay({ from: '2000-01-01', before: '2100-01-01' });
    const start = await stored();
    await check();
    await check();
    // Every write of the count refused for a while (a constraint no count meets, existing rows spared).
    await database.handle.db.execute(
      sql`ALTER TABLE slip_checks_daily ADD CONSTRAINT refuse_counts CHECK (checked < 0) NOT VALID`,
    );
    try {
      await expect(t.app.services.slips.close()).resolves.toBeUndefined();
      expect(await stored()).toBe(start);
    } finally {
      await database.handle.db.execute(sql`ALTER TABLE slip_checks_daily DROP CONSTRAINT refuse_counts`);
    }
    await check();
    await t.app.services.slips.close();
    expect(await stored()).toBe(start + 3);
  });
});
