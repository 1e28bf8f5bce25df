// The hot queries' plans on a seeded table: every list page is read along an index in the order it
// is returned (no Sort node) and nothing scans a whole table. Checked with the custom plan and with
// the generic plan a named prepared statement ends up using. Fails if an index and its query drift
// apart again (the list once ordered `DESC` = NULLS FIRST over a `DESC NULLS LAST` index).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedStatement } from '../../src/db/batched.js';
import type { Executor } from '../../src/db/client.js';
import { activeTokenStatement } from '../../src/modules/auth/token-repository.js';
import {
  detailStatement,
  filteredListQuery,
  filterValues,
  type ListFilter,
  legMatricesStatement,
  legResultsStatement,
  legSourcesStatement,
  listPageStatement,
  liveCount,
} from '../../src/modules/pronostics/repository.js';
import {
  calibrationBins,
  settledGroups,
  settledMatchIds,
  userCalibrationBins,
  userSettledGroups,
  userSettledMatchIds,
} from '../../src/modules/track-record/repository.js';
import { pageOfUsers } from '../../src/modules/users/repository.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { captureSql, type PlanNode, planOf } from './plans.js';

let t: TestApp;
const USERS = 2000;
const PER_USER = 20;
const HEAVY_EXTRA = 500;
let userId: number;

beforeAll(async () => {
  t = await createTestApp();
  await t.app.db.execute(sql`
    INSERT INTO users (phone, country, affiliation_code)
    SELECT '+2376' || lpad(g::text, 8, '0'), 'CM', 'PLAN' || g FROM generate_series(1, ${USERS}::int) AS g`);
  await t.app.db.execute(sql`
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                            search_text, run_after, deadline_at, created_at, deleted_at)
    SELECT u.id, 1 + g % 6, CASE WHEN g % 7 = 0 THEN 'cancelled' ELSE 'success' END, 1,
           jsonb_build_object('home', 'Equipe ' || g, 'away', 'Rival ' || u.id),
           jsonb_build_object('summary', repeat('analyse ', 40)), 'dixon-coles-1',
           'equipe ' || g || ' rival ' || u.id || ' ' || repeat('analyse ', 40),
           now(), now(), now() - (g || ' minutes')::interval,
           CASE WHEN g % 10 = 0 THEN now() END
    FROM users u CROSS JOIN generate_series(1, ${PER_USER}::int) AS g`);
  // The measured user is a heavy one: a page of theirs must not read and sort all their rows.
  await t.app.db.execute(sql`
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                            search_text, run_after, deadline_at, created_at)
    SELECT (SELECT max(id) FROM users), 1, CASE WHEN g % 7 = 0 THEN 'cancelled' ELSE 'success' END, 1,
           jsonb_build_object('home', 'Equipe ' || g, 'away', 'Rival'), jsonb_build_object('summary', 'x'),
           'dixon-coles-1', 'equipe ' || g || ' rival', now(), now(), now() - (g || ' hours')::interval
    FROM generate_series(1, ${HEAVY_EXTRA}::int) AS g`);
  // Settled outcomes on most successes (the rest pending), as the settlement worker leaves them.
  await t.app.db.execute(sql`
    UPDATE pronostics SET outcome = (ARRAY['won', 'lost', 'void'])[1 + id % 3], settled_at = now()
    WHERE status = 'success' AND id % 4 <> 0`);
  await t.app.db.execute(sql`
    INSERT INTO access_tokens (user_id, token_hash, last_used_at, created_at)
    SELECT id, 'hash-' || id, now(), now() FROM users`);
  await t.app.db.execute(sql`
    INSERT INTO pronostic_counters (user_id, live)
    SELECT user_id, count(*) FROM pronostics WHERE deleted_at IS NULL GROUP BY user_id`);
  await t.app.db.execute(sql`ANALYZE`);
  const [row] = rowsOf(await t.app.db.execute(sql`SELECT id FROM users ORDER BY id DESC LIMIT 1`)) as {
    id: number;
  }[];
  userId = row!.id;
  // 40,000 rows and their indexes: minutes on a machine whose cores other jobs share.
}, 300_000);
afterAll(() => t.close());

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** Drizzle's parameters, placeholders filled from `values`. */
function paramsOf(params: unknown[], values: Record<string, unknown>): unknown[] {
  return params.map((param) =>
    param !== null && typeof param === 'object' && 'name' in param
      ? values[(param as { name: string }).name]
      : param,
  );
}

/**
 * A search matches rows no index keeps in date order, so its page may be a top-N sort: of the
 * user's matching rows only (reached by an index), never of a table scan.
 */
function expectIndexed(nodes: PlanNode[], label: string): void {
  const types = seeded(nodes).map(
    (node) => `${node['Node Type']}${node['Relation Name'] ? ` ${node['Relation Name']}` : ''}`,
  );
  expect(
    types.filter((type) => type.startsWith('Seq Scan')),
    `${label}: ${types.join(' > ')}`,
  ).toEqual([]);
}

/** The seeded tables' nodes and every other kind (a six-row lookup table may well be scanned). */
function seeded(nodes: PlanNode[]): PlanNode[] {
  return nodes.filter((node) => node['Relation Name'] !== 'pronostic_types');
}

function expectIndexedAndUnsorted(nodes: PlanNode[], label: string): void {
  const types = seeded(nodes).map(
    (node) => `${node['Node Type']}${node['Relation Name'] ? ` ${node['Relation Name']}` : ''}`,
  );
  expect(
    types.filter((type) => type.startsWith('Seq Scan')),
    `${label}: ${types.join(' > ')}`,
  ).toEqual([]);
  expect(
    types.filter((type) => type.includes('Sort')),
    `${label}: ${types.join(' > ')}`,
  ).toEqual([]);
}

const db = (): Executor => t.app.db;

const builtQueries = (): {
  label: string;
  query: { toSQL(): { sql: string; params: unknown[] } };
  values: Record<string, unknown>;
}[] => {
  const page = { limit: 10, offset: 20 };
  /** A named statement of the driver, as a query whose text and parameters are fixed. */
  const named = (statement: { text: string }, params: unknown[]) => ({
    toSQL: () => ({ sql: statement.text, params }),
  });
  const filtered = (label: string, filter: ListFilter) => ({
    label,
    query: filteredListQuery(db(), filter),
    values: filterValues(filter, page),
  });
  return [
    { label: 'list page', query: named(listPageStatement, [userId, page.limit, page.offset]), values: {} },
    filtered('list by status', { userId, status: 'cancelled' }),
    filtered('list with search', { userId, search: 'equipe 1' }),
    filtered('list by outcome', { userId, outcome: 'won' }),
    filtered('list of pending', { userId, outcome: 'pending' }),
    { label: 'detail', query: named(detailStatement, [1234]), values: {} },
  ];
};

describe('hot query plans on a seeded table', () => {
  for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
    it(`lists, counts and the detail use indexes in their order, no sort (${mode})`, async () => {
      for (const { label, query, values } of builtQueries()) {
        const built = query.toSQL();
        const nodes = await planOf(
          t.app.db,
          { sql: built.sql, params: paramsOf(built.params, values) },
          mode,
        );
        if (label.includes('search')) expectIndexed(nodes, label);
        else expectIndexedAndUnsorted(nodes, label);
      }
    });
  }

  it('the list page is one index scan of pronostics_user_list_idx, its total one key lookup read once', async () => {
    const nodes = await planOf(
      t.app.db,
      { sql: listPageStatement.text, params: [userId, 10, 0] },
      'force_generic_plan',
    );
    // A Limit over the list index's scan, and the live counter as an InitPlan (evaluated once, not per row).
    const scans = nodes.map(
      (node) => `${node['Node Type']} ${(node as { 'Index Name'?: string })['Index Name']}`,
    );
    expect(nodes[0]!['Node Type']).toBe('Limit');
    expect(scans.slice(1).sort()).toEqual(
      ['Index Scan pronostic_counters_pkey', 'Index Scan pronostics_user_list_idx'].sort(),
    );
    expect(
      nodes.some(
        (node) => (node as { 'Parent Relationship'?: string })['Parent Relationship'] === 'InitPlan',
      ),
    ).toBe(true);
  });

  it('the token lookup and the live counter are key lookups', async () => {
    // The repository's own queries, explained with the very text and parameters drizzle sends.
    const tokenSql = { sql: activeTokenStatement.text, params: ['hash-1'] };
    expectIndexedAndUnsorted(await planOf(t.app.db, tokenSql, 'force_generic_plan'), 'token lookup');
    const counterSql = await captureSql(t.app.db, () => liveCount(db(), userId));
    expectIndexedAndUnsorted(await planOf(t.app.db, counterSql, 'force_generic_plan'), 'live count');
    expect(await liveCount(db(), userId)).toBe(PER_USER - PER_USER / 10 + HEAVY_EXTRA);
  });

  it('a slip check reads its legs’ pronostics by key, and a match’s matrix by key when it has two legs (issue 57)', async () => {
    // Full analyses keep a score matrix (a third of the rows here): an empty table is rightly scanned.
    await t.app.db.execute(sql`
      INSERT INTO pronostic_matrices (pronostic_id, matrix)
      SELECT id, repeat('m', 200) FROM pronostics WHERE id % 3 = 0 ON CONFLICT DO NOTHING`);
    await t.app.db.execute(sql`ANALYZE pronostic_matrices`);
    const legs = { sql: legSourcesStatement.text, params: [userId, '{1,2,3,4,5,6,7,8,9,10}'] };
    const matrices = { sql: legMatricesStatement.text, params: ['{3,6,9}'] };
    const results = { sql: legResultsStatement.text, params: ['{1,2,3}'] };
    for (const mode of ['force_custom_plan', 'force_generic_plan'] as const) {
      expectIndexedAndUnsorted(await planOf(t.app.db, legs, mode), `slip legs (${mode})`);
      expectIndexedAndUnsorted(await planOf(t.app.db, results, mode), `slip results (${mode})`);
      expectIndexedAndUnsorted(await planOf(t.app.db, matrices, mode), `slip matrices (${mode})`);
    }
  });

  it('gathered, the detail and a slip’s legs keep their key lookups, one per call (decision 0167)', async () => {
    const gathered = [
      { label: 'gathered details', sql: batchedStatement(detailStatement).text, params: ['{1234,1235,99}'] },
      {
        label: 'gathered slip legs',
        sql: batchedStatement(legSourcesStatement).text,
        params: [`{${userId},${userId}}`, '{"{1,2,3}","{4,5,6}"}'],
      },
      {
        label: 'gathered results',
        sql: batchedStatement(legResultsStatement).text,
        params: ['{"{1,2}","{3}"}'],
      },
      {
        label: 'gathered matrices',
        sql: batchedStatement(legMatricesStatement).text,
        params: ['{"{3,6}","{9}"}'],
      },
    ];
    for (const mode of ['force_custom_plan', 'force_generic_plan'] as const)
      for (const { label, ...query } of gathered)
        expectIndexedAndUnsorted(await planOf(t.app.db, query, mode), `${label} (${mode})`);
  });

  it('the back office’s user list reads users_created_idx in order; its search can use the trigram indexes', async () => {
    const page = await captureSql(t.app.db, () => pageOfUsers(db(), {}, { page: 3, perPage: 10 }));
    expectIndexedAndUnsorted(await planOf(t.app.db, page, 'force_custom_plan'), 'user list page');
    // On 2000 rows a scan is cheaper and rightly chosen; what matters is that every branch of the
    // search (phone digits, lower(username), lower(name)) matches an index, so a large table need not scan.
    for (const search of ['00001234', 'plan.user']) {
      const searched = await captureSql(t.app.db, () =>
        pageOfUsers(db(), { search }, { page: 1, perPage: 10 }),
      );
      expectIndexed(
        await planOf(t.app.db, searched, 'force_custom_plan', { withoutSeqScan: true }),
        `user search ${search}`,
      );
    }
  });
});

describe('track-record figure queries', () => {
  it('a user’s figures read their settled rows along pronostics_user_settled_idx, never the table', async () => {
    for (const [label, run] of [
      ['user groups', () => userSettledGroups(db(), '2026-06-01', userId)],
      ['user calibration', () => userCalibrationBins(db(), userId)],
      // Not covered by the index (settled_match_id is not in its key): an index scan, not index-only.
      ['user settled matches', () => userSettledMatchIds(db(), userId)],
    ] as const) {
      const nodes = await planOf(t.app.db, await captureSql(t.app.db, run), 'force_generic_plan');
      expectIndexed(nodes, label);
      const indexes = nodes.map((node) => (node as { 'Index Name'?: string })['Index Name']);
      expect(indexes, label).toContain('pronostics_user_settled_idx');
    }
  });

  it('the public figures read the rollups only, never pronostics', async () => {
    for (const [label, run] of [
      ['public groups', () => settledGroups(db(), '2026-06-01')],
      ['public calibration', () => calibrationBins(db())],
      ['public settled matches', () => settledMatchIds(db())],
    ] as const) {
      const nodes = await planOf(t.app.db, await captureSql(t.app.db, run), 'force_generic_plan');
      const relations = nodes.map((node) => node['Relation Name']).filter(Boolean);
      expect(relations, label).not.toContain('pronostics');
      expect(
        relations.some((name) => name?.startsWith('track_record_')),
        label,
      ).toBe(true);
    }
  });
});
