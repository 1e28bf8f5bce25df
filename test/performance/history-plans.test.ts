// The wallet history filtered by type or by currency (issue 28): the page and its count read the
// filter's own index, `(user_id, type|currency, created_at, id)`, with the filter in the index
// condition; before those indexes both read every ledger row of the user and filtered them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countedPageStatement,
  countedPageValues,
  countOperations,
  listOperations,
  type OperationFilter,
} from '../../src/money/ledger/repository.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { captureSql, planOf } from './plans.js';

let t: TestApp;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  // 400 users × 60 ledger rows, appended over time (each user's rows spread over the table), six kinds.
  await t.app.db.execute(sql`
    INSERT INTO users (phone, country, affiliation_code)
    SELECT '+2376' || lpad(g::text, 8, '0'), 'CM', 'HIST' || g FROM generate_series(1, 400) AS g`);
  await t.app.db.execute(sql`
    INSERT INTO wallet_operations (user_id, type, currency, amount, balance_after, description, created_at)
    SELECT u.id,
           (ARRAY['pronostic_debit', 'pronostic_debit', 'pronostic_debit', 'pack_purchase',
                  'referral_commission', 'withdrawal'])[1 + g % 6],
           (ARRAY['credits', 'credits', 'credits', 'credits', 'XAF', 'XAF'])[1 + g % 6],
           1, 1, 'historique', now() - make_interval(secs => g * 3600)
    FROM generate_series(1, 60) AS g CROSS JOIN users u`);
  await t.app.db.execute(sql`VACUUM ANALYZE wallet_operations`);
  const result = (await t.app.db.execute(sql`SELECT max(id) AS id FROM users`)) as unknown as {
    rows: { id: number }[];
  };
  userId = result.rows[0]!.id;
}, 300_000);
afterAll(() => t.close());

describe('wallet history filtered by type or currency', () => {
  const cases: [string, OperationFilter, string][] = [];
  beforeAll(() => {
    cases.push(
      ['type', { userId, type: 'referral_commission' }, 'wallet_operations_user_type_created_idx'],
      ['currency', { userId, currency: 'XAF' }, 'wallet_operations_user_currency_created_idx'],
    );
  });

  it('pages and counts along the filter’s index, the filter in its condition', async () => {
    for (const [label, filter, index] of cases) {
      for (const [what, query] of [
        [
          'page',
          () => captureSql(t.app.db, () => listOperations(t.app.db, filter, { limit: 10, offset: 10 })),
        ],
        ['count', () => captureSql(t.app.db, () => countOperations(t.app.db, filter))],
        // The page with its count as an InitPlan: both read the filter's index (its fixed text).
        [
          'counted page',
          async () => ({
            sql: countedPageStatement(filter).text,
            params: countedPageValues(filter, { limit: 5, offset: 0 }),
          }),
        ],
      ] as const) {
        const nodes = await planOf(t.app.db, await query(), 'force_generic_plan');
        const shown = nodes.map((node) => `${node['Node Type']} ${node['Index Name'] ?? ''}`).join(' > ');
        const scan = nodes.find((node) => node['Index Name'] === index);
        expect(scan, `${label} ${what}: ${shown}`).toBeDefined();
        expect(scan!['Index Cond'], `${label} ${what}`).toContain(label);
        expect(
          nodes.filter((node) => node.Filter !== undefined || node['Node Type'].includes('Sort')),
          `${label} ${what}: ${shown}`,
        ).toEqual([]);
      }
    }
    // And the answers are the user's: 10 of each 60 rows are commissions, 20 in XAF.
    expect(await countOperations(t.app.db, { userId, type: 'referral_commission' })).toBe(10);
    expect(await countOperations(t.app.db, { userId, currency: 'XAF' })).toBe(20);
  });
});
