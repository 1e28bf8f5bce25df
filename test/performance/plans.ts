// Reading PostgreSQL's plan of a repository's own query, for the query-plan tests: the text and
// parameters drizzle sends (captured from its logger), prepared, and explained as the statement
// would run (a custom or the generic plan).
import { sql } from 'drizzle-orm';
import type { Database } from '../../src/db/client.js';

export interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Filter?: string;
  Plans?: PlanNode[];
}

export function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

function literal(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

/** The text and parameters of the one query `run` sends on `db` (drizzle's logger sees every query). */
export async function captureSql(
  db: Database,
  run: () => Promise<unknown>,
): Promise<{ sql: string; params: unknown[] }> {
  const session = (db as unknown as { session: { logger: { logQuery(q: string, p: unknown[]): void } } })
    .session;
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

/** The plan PostgreSQL uses for `query`, custom or generic (as a prepared statement's). */
export async function planOf(
  db: Database,
  query: { sql: string; params: unknown[] },
  mode: 'force_custom_plan' | 'force_generic_plan',
  options: { withoutSeqScan?: boolean } = {},
): Promise<PlanNode[]> {
  return db.transaction(async (tx) => {
    await tx.execute(sql.raw(`SET LOCAL plan_cache_mode = ${mode}`));
    if (options.withoutSeqScan) await tx.execute(sql.raw('SET LOCAL enable_seqscan = off'));
    await tx.execute(sql.raw(`PREPARE plan_probe AS ${query.sql}`));
    const args = query.params.length > 0 ? `(${query.params.map(literal).join(', ')})` : '';
    const result = await tx.execute(sql.raw(`EXPLAIN (FORMAT JSON) EXECUTE plan_probe${args}`));
    await tx.execute(sql.raw('DEALLOCATE plan_probe'));
    const cell = Object.values(rowsOf(result)[0]!)[0];
    const plan = (typeof cell === 'string' ? JSON.parse(cell) : cell) as { Plan: PlanNode }[];
    return nodesOf(plan[0]!.Plan);
  });
}
