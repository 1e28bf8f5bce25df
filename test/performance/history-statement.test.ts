// The wallet history page runs as the driver's own named statement, one fixed text per filter shape
// (issue 57): on PGlite a warm page is one Bind of that name (no Parse, no PGlite `query`, whose six
// protocol calls and copying parser were a quarter of the history's CPU in a profile); on
// PostgreSQL the statement is named too. Its rows and count are those of each call's filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp, usingPostgres } from '../helpers.js';
import { recordStatements, type StatementRecorder } from './statements.js';

let t: TestApp;
let user: SignedIn;
let recorder: StatementRecorder;

beforeAll(async () => {
  t = await createTestApp({ config: { tokenCacheSeconds: 10 } });
  user = await signIn(t, { credits: 100 });
  recorder = recordStatements(t.database);
});
afterAll(async () => {
  recorder.stop();
  await t.close();
});

async function history(query: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/wallet/operations?${query}`,
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as {
    operations: { type: string; currency: string; amount: number; created_at: string }[];
    meta: { total: number };
  };
}

describe('a wallet history page', () => {
  it('is one named statement per filter shape, each call with its own values', async () => {
    for (const [query, name, total] of [
      ['page=1', 'wallet_history_page', 1],
      ['page=1&type=admin_adjustment', 'wallet_history_page_type', 1],
      ['page=1&currency=XAF', 'wallet_history_page_currency', 0],
    ] as const) {
      await history(query);
      recorder.take();
      const page = await history(query);
      const runs = recorder.take();
      expect(runs, query).toHaveLength(total === 0 ? 2 : 1);
      if (usingPostgres()) expect(runs[0], query).toMatch(/^SELECT id, user_id AS "userId"/);
      else expect(runs[0], query).toBe(name);
      expect(page.meta.total, query).toBe(total);
      expect(page.operations, query).toHaveLength(total);
    }
    const [grant] = (await history('page=1&type=admin_adjustment')).operations;
    expect(grant).toMatchObject({ type: 'admin_adjustment', currency: 'credits', amount: 100 });
    expect(grant!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
  });
});
