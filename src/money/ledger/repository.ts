// Queries on the wallet's ledger (`wallet_operations`): a user's history (the owner always in the
// WHERE, newest first on the index (user_id, created_at, id)), and the whole-database checks of
// `ledger:verify`. Rows are written only by ledger.ts.
import { and, count, desc, eq, gt, gte, isNull, lt, lte, sql } from 'drizzle-orm';
import { batchedQuery, type GatheredStatement } from '../../db/batched.js';
import { type Executor, preparedOnce } from '../../db/client.js';
import { walletOperations } from '../../db/schema/money.js';
import { users } from '../../db/schema/users.js';
import type { Currency, OperationType } from '../../lib/allowed-values.js';

export type OperationRow = typeof walletOperations.$inferSelect;

export interface OperationFilter {
  userId: number;
  type?: OperationType;
  currency?: Currency;
  /** Inclusive lower bound, an ISO timestamp. */
  from?: string;
  /** Exclusive upper bound, an ISO timestamp. */
  before?: string;
}

/**
 * The WHERE of a filter, its values as placeholders (`filterValues`): the SQL depends only on which
 * filters are present (`filterShape`), so each shape is prepared once (`preparedOnce`).
 */
function filterConditions(filter: OperationFilter) {
  return and(
    eq(walletOperations.userId, sql.placeholder('userId')),
    filter.type ? eq(walletOperations.type, sql.placeholder('type')) : undefined,
    filter.currency ? eq(walletOperations.currency, sql.placeholder('currency')) : undefined,
    filter.from ? gte(walletOperations.createdAt, sql.placeholder('from')) : undefined,
    filter.before ? lt(walletOperations.createdAt, sql.placeholder('before')) : undefined,
  );
}

/** Which filters are present, as a statement name's suffix. */
function filterShape(filter: OperationFilter): string {
  return ['type', 'currency', 'from', 'before']
    .filter((key) => filter[key as keyof OperationFilter] !== undefined)
    .map((key) => `_${key}`)
    .join('');
}

/** How many rows the filter matches. */
function countQuery(db: Executor, filter: OperationFilter) {
  return db.select({ total: count() }).from(walletOperations).where(filterConditions(filter));
}

export async function listOperations(
  db: Executor,
  filter: OperationFilter,
  page: { limit: number; offset: number },
): Promise<OperationRow[]> {
  const name = `wallet_operations_page${filterShape(filter)}`;
  const prepare = () =>
    db
      .select()
      .from(walletOperations)
      .where(filterConditions(filter))
      .orderBy(desc(walletOperations.createdAt), desc(walletOperations.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  return preparedOnce(db, name, prepare).execute({ ...filter, ...page });
}

/** The present filters of a history page, in the order their placeholders are numbered, and their types. */
const HISTORY_FILTERS = [
  ['type', 'type =', 'text'],
  ['currency', 'currency =', 'text'],
  ['from', 'created_at >=', 'timestamptz'],
  ['before', 'created_at <', 'timestamptz'],
] as const;

const countedPageStatements = new Map<string, GatheredStatement>();

/**
 * A page of the filter's rows and how many rows match it, in one statement: the count is a
 * subquery PostgreSQL runs once (an InitPlan) beside the page. A fixed text per filter shape, run
 * as a named statement by the driver itself (`namedQuery`, as the pronostics list): on PGlite a
 * Drizzle prepared query is six protocol calls read by PGlite's copying parser, a quarter of a
 * history request's CPU in a profile (issue 57). Timestamps as text, as Drizzle reads them.
 */
export function countedPageStatement(filter: OperationFilter): GatheredStatement {
  const shape = filterShape(filter);
  let statement = countedPageStatements.get(shape);
  if (!statement) {
    const conditions = ['user_id = $1'];
    const types = ['int4'];
    for (const [key, condition, type] of HISTORY_FILTERS) {
      if (filter[key] === undefined) continue;
      conditions.push(`${condition} $${conditions.length + 1}`);
      types.push(type);
    }
    const where = conditions.join(' AND ');
    const n = conditions.length;
    statement = {
      name: `wallet_history_page${shape}`,
      types: [...types, 'int8', 'int8'],
      text: `SELECT id, user_id AS "userId", type, currency, amount, balance_after AS "balanceAfter",
          reference, description, created_at::text AS "createdAt",
          (SELECT count(*)::int FROM wallet_operations WHERE ${where}) AS total
        FROM wallet_operations
        WHERE ${where}
        ORDER BY created_at DESC, id DESC
        LIMIT $${n + 1} OFFSET $${n + 2}`,
    };
    countedPageStatements.set(shape, statement);
  }
  return statement;
}

/** The counted page's values, in its placeholders' order (`countedPageStatement`). */
export function countedPageValues(
  filter: OperationFilter,
  page: { limit: number; offset: number },
): unknown[] {
  const present = HISTORY_FILTERS.flatMap(([key]) => (filter[key] === undefined ? [] : [filter[key]]));
  return [filter.userId, ...present, page.limit, page.offset];
}

/**
 * A page with its count (`countedPageStatement`), gathered with the other pages of its filter's
 * shape asked in the same round of the event loop (`batchedQuery`); a page past the end has no row
 * to carry the count: counted alone.
 */
export async function listOperationsCounted(
  db: Executor,
  filter: OperationFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: OperationRow[]; total: number }> {
  const rows = await batchedQuery<OperationRow & { total: number }>(
    db,
    countedPageStatement(filter),
    countedPageValues(filter, page),
  );
  const first = rows[0];
  return { rows, total: first ? Number(first.total) : await countOperations(db, filter) };
}

export async function countOperations(db: Executor, filter: OperationFilter): Promise<number> {
  const name = `wallet_operations_count${filterShape(filter)}`;
  const prepare = () => countQuery(db, filter).prepare(name);
  const [row] = await preparedOnce(db, name, prepare).execute({ ...filter });
  return Number(row?.total ?? 0);
}

/** A user's balances beside their ledger sums. */
export interface BalanceCheck {
  id: number;
  /** Null for a deleted account. */
  phone: string | null;
  credits: number;
  money: number;
  ledgerCredits: number;
  ledgerMoney: number;
}

/** The highest user id (0 without users): `ledger:verify` walks the ids up to it in batches. */
export async function maxUserId(db: Executor): Promise<number> {
  const [row] = await db.select({ max: sql<number | null>`max(${users.id})` }).from(users);
  return Number(row?.max ?? 0);
}

/** Users with `afterId < id <= upToId` whose balances differ from their ledger sums: one grouped query. */
export async function balanceMismatches(
  db: Executor,
  afterId: number,
  upToId: number,
): Promise<BalanceCheck[]> {
  const ledgerCredits = sql<string>`coalesce(sum(${walletOperations.amount}) filter (where ${walletOperations.currency} = 'credits'), 0)`;
  const ledgerMoney = sql<string>`coalesce(sum(${walletOperations.amount}) filter (where ${walletOperations.currency} = 'XAF'), 0)`;
  const rows = await db
    .select({
      id: users.id,
      phone: users.phone,
      credits: users.creditsBalance,
      money: users.moneyBalance,
      ledgerCredits,
      ledgerMoney,
    })
    .from(users)
    .leftJoin(walletOperations, eq(walletOperations.userId, users.id))
    .where(and(gt(users.id, afterId), lte(users.id, upToId)))
    .groupBy(users.id)
    .having(sql`${users.creditsBalance} <> ${ledgerCredits} or ${users.moneyBalance} <> ${ledgerMoney}`)
    .orderBy(users.id);
  return rows.map((row) => ({
    ...row,
    ledgerCredits: Number(row.ledgerCredits),
    ledgerMoney: Number(row.ledgerMoney),
  }));
}

export async function countUsers(db: Executor): Promise<number> {
  const [row] = await db.select({ total: count() }).from(users);
  return Number(row?.total ?? 0);
}

/**
 * Provider references credited more than once (`pack_purchase` rows sharing a reference) and
 * purchases without a reference (which nothing could prove unique). The unique index forbids the
 * first; this proves it on the data.
 */
export async function purchaseReferenceProblems(
  db: Executor,
): Promise<{ duplicates: { reference: string; rows: number }[]; unreferenced: number }> {
  const duplicates = await db
    .select({ reference: sql<string>`${walletOperations.reference}`, rows: count() })
    .from(walletOperations)
    .where(and(eq(walletOperations.type, 'pack_purchase'), sql`${walletOperations.reference} is not null`))
    .groupBy(walletOperations.reference)
    .having(sql`count(*) > 1`);
  const [unreferenced] = await db
    .select({ total: count() })
    .from(walletOperations)
    .where(and(eq(walletOperations.type, 'pack_purchase'), isNull(walletOperations.reference)));
  return {
    duplicates: duplicates.map((row) => ({ reference: row.reference, rows: Number(row.rows) })),
    unreferenced: Number(unreferenced?.total ?? 0),
  };
}

/** A page of the user's ledger rows, by id, for the data export. */
export async function operationsForExport(
  db: Executor,
  userId: number,
  afterId: number,
  limit: number,
): Promise<OperationRow[]> {
  return db
    .select()
    .from(walletOperations)
    .where(and(eq(walletOperations.userId, userId), gt(walletOperations.id, afterId)))
    .orderBy(walletOperations.id)
    .limit(limit);
}
