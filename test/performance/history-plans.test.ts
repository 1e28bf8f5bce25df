// The wallet history filtered by type or by currency (issue 28): the page and its count read the
// filter's own index, `(user_id, type|currency, created_at, id)`, with the filter in the index
// condition; before those indexes both read every ledger row of the user and filtered them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  countOperations,
  listOperations,
  type OperationFilter,
} from '../../src/modules/wallet/repository.js';
import { createTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
let userId: number;

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

const nodesOf = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(nodesOf)];
const literal = (value: unknown) =>
  typeof value === 'number' ? String(value) : `'${String(value).replaceAll("'", "''")}'`;

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

/** The text and parameters of the one query `run` sends (drizzle's logger sees every query). */
async function captureSql(run: () => Promise<unknown>): Promise<{ sql: string; params: unknown[] }> {
  const session = (
    t.app.db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void } } }
  ).session;
  const previous = session.logger;
  let captured: { sql: string; params: unknown[] } | undefined;
  session.logger = { logQuery: (query, params) => (captured ??= { sql: query, params }) };
  try {
    await run();
  } finally {
    session.logger = previous;
  }
  if (!captured) throw new Error('no query was sent');
  return captured;
}

async function planOf(query: { sql: string; params: unknown[] }): Promise<PlanNode[]> {
  return t.app.db.transaction(async (tx) => {
    // The plan a prepared statement settles on, whatever the parameters.
    await tx.execute(sql.raw('SET LOCAL plan_cache_mode = force_generic_plan'));
    await tx.execute(sql.raw(`PREPARE history_probe AS ${query.sql}`));
    const args = query.params.length > 0 ? `(${query.params.map(literal).join(', ')})` : '';
    const result = (await tx.execute(
      sql.raw(`EXPLAIN (FORMAT JSON) EXECUTE history_probe${args}`),
    )) as unknown as {
      rows: Record<string, unknown>[];
    };
    await tx.execute(sql.raw('DEALLOCATE history_probe'));
    const cell = Object.values(result.rows[0]!)[0];
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
    return nodesOf(plan[0]!.Plan);
  });
}

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
      for (const [what, run] of [
        ['page', () => listOperations(t.app.db, filter, { limit: 10, offset: 10 })],
        ['count', () => countOperations(t.app.db, filter)],
      ] as const) {
        const nodes = await planOf(await captureSql(run));
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
