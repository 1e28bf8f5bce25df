// The reads issue 57 measured build no SQL once warm: a slip check (its legs' sources, the checks'
// counter) and a fixtures page (its league, the page and its count, or the first page with its
// total) are statements prepared once per process (or named), so a repeated request spends nothing
// on Drizzle's building, which was a fifth of their CPU in a profile. Each prepared statement still takes each call's
// values: a second league's page lists that league's fixtures. Counted, not timed.
import { PgDialect } from 'drizzle-orm/pg-core';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { matrixAnalyst } from '../slips/analyst.js';

const clock = new ManualClock('2027-03-10T12:00:00Z');
let t: TestApp;
let user: SignedIn;
const built = vi.spyOn(PgDialect.prototype, 'sqlToQuery');

beforeAll(async () => {
  t = await createTestApp({ clock, analyst: matrixAnalyst, config: { tokenCacheSeconds: 10 } });
  user = await signIn(t, { credits: 500 });
});
afterAll(() => t.close());
afterEach(() => built.mockClear());

async function analysed(n: number): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: 1, teams_details: { home: `Home ${n}`, away: `Away ${n}` } },
  });
  expect(created.statusCode, created.body).toBe(201);
  expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
  return created.json().data.pronostic.id as number;
}

describe('warm reads build no SQL', () => {
  it('a slip check: its legs and the day’s counter are prepared once', async () => {
    const ids = [await analysed(1), await analysed(2), await analysed(3)];
    const legs = ids.map((id, i) => ({ pronostic_id: id, market: '1x2', pick: 'home', odds: 1.5 + i / 10 }));
    const check = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/slips/check',
        headers: user.headers,
        payload: { legs },
      });
    const first = await check();
    expect(first.statusCode, first.body).toBe(200);
    built.mockClear();
    const again = await check();
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.slip).toEqual(first.json().data.slip);
    expect(built).not.toHaveBeenCalled();
  });

  it('a competition’s fixtures page: its league, page and count are prepared once, each call its own values', async () => {
    for (let i = 0; i < 3; i++) {
      const kickoffAt = `2027-04-0${1 + i}T15:00:00Z`;
      await seedFixture(t, { league: 'E0', home: `Arsenal ${i}`, away: `Chelsea ${i}`, kickoffAt });
      await seedFixture(t, { league: 'SP1', home: `Betis ${i}`, away: `Getafe ${i}`, kickoffAt });
    }
    await seedFixture(t, {
      league: 'SP1',
      home: 'Betis 9',
      away: 'Getafe 9',
      kickoffAt: '2027-04-09T15:00:00Z',
    });
    const page = async (league: string) => {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/fixtures?league=${league}&per_page=2`,
        headers: user.headers,
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().data as {
        fixtures: { home: string; league: { code: string } }[];
        meta: { total: number };
      };
    };
    // The first pages prepare the statements (and read each league's name once).
    await page('E0');
    await page('SP1');
    built.mockClear();
    const english = await page('E0');
    const spanish = await page('SP1');
    expect(built).not.toHaveBeenCalled();
    expect(english.meta.total).toBe(3);
    expect(english.fixtures.map((fixture) => [fixture.league.code, fixture.home])).toEqual([
      ['E0', 'Arsenal 0'],
      ['E0', 'Arsenal 1'],
    ]);
    expect(spanish.meta.total).toBe(4);
    // The unfiltered first page carries its total in the same prepared statement.
    const all = await t.app.inject({ method: 'GET', url: '/api/fixtures?per_page=3', headers: user.headers });
    built.mockClear();
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/fixtures?per_page=3',
      headers: user.headers,
    });
    expect(built).not.toHaveBeenCalled();
    expect(again.json().data).toEqual(all.json().data);
    expect(all.json().data.meta.total).toBe(7);
    expect(spanish.fixtures.map((fixture) => [fixture.league.code, fixture.home])).toEqual([
      ['SP1', 'Betis 0'],
      ['SP1', 'Betis 1'],
    ]);
  });
});
