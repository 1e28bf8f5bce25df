// Queries for pronostic types and pronostics, the API's and the analysis worker's. The owner is in
// every WHERE that lists; the detail query finds the row first so the service can tell "not yours"
// (403) from "none" (404). The worker's claim bumps `attempts`, and every later write is fenced by
// the attempt it claimed: a worker whose lease ran out (and whose row another took) writes nothing.
import { and, asc, count, desc, eq, gte, inArray, isNull, lt, lte, ne, or, sql } from 'drizzle-orm';
import { batchedQuery, type GatheredStatement } from '../../db/batched.js';
import {
  type Database,
  type Executor,
  type NamedStatement,
  namedQuery,
  preparedOnce,
} from '../../db/client.js';
import {
  pronosticCounters,
  pronosticMatrices,
  pronostics,
  pronosticTypes,
} from '../../db/schema/pronostics.js';
import type { OutcomeFilter, PronosticStatus, PronosticTypeSlug } from '../../lib/allowed-values.js';
import { escapeLike } from '../../lib/text.js';

export type PronosticRow = typeof pronostics.$inferSelect;
export type PronosticTypeRow = typeof pronosticTypes.$inferSelect;

export async function listActiveTypes(db: Executor): Promise<PronosticTypeRow[]> {
  return db
    .select()
    .from(pronosticTypes)
    .where(eq(pronosticTypes.active, true))
    .orderBy(asc(pronosticTypes.difficulty), asc(pronosticTypes.id));
}

export async function findActiveType(db: Executor, id: number): Promise<PronosticTypeRow | undefined> {
  const [row] = await db
    .select()
    .from(pronosticTypes)
    .where(and(eq(pronosticTypes.id, id), eq(pronosticTypes.active, true)))
    .limit(1);
  return row;
}

/** The columns a pronostic's answer shows: never `search_text`, `last_error` or the worker's fields. */
const shownColumns = {
  id: pronostics.id,
  typeId: pronostics.typeId,
  status: pronostics.status,
  creditsCost: pronostics.creditsCost,
  teamsDetails: pronostics.teamsDetails,
  result: pronostics.result,
  aiModel: pronostics.aiModel,
  createdAt: pronostics.createdAt,
};

/** A pronostic as the API shows it. */
export type ShownPronostic = Pick<
  PronosticRow,
  'id' | 'typeId' | 'status' | 'creditsCost' | 'teamsDetails' | 'result' | 'aiModel' | 'createdAt'
>;

export async function insertPronostic(
  db: Executor,
  values: Pick<
    typeof pronostics.$inferInsert,
    | 'userId'
    | 'typeId'
    | 'creditsCost'
    | 'teamsDetails'
    | 'aiModel'
    | 'searchText'
    | 'runAfter'
    | 'deadlineAt'
    | 'idempotencyKeyId'
    | 'locale'
    | 'fixtureId'
  >,
): Promise<ShownPronostic> {
  const [row] = await db.insert(pronostics).values(values).returning(shownColumns);
  return row!;
}

/** Counts one more live pronostic for its owner (in the create's transaction). */
export async function countCreated(db: Executor, userId: number): Promise<void> {
  await db
    .insert(pronosticCounters)
    .values({ userId, live: 1 })
    .onConflictDoUpdate({
      target: pronosticCounters.userId,
      set: { live: sql`${pronosticCounters.live} + 1` },
    });
}

/** Counts one live pronostic less (in the soft delete's transaction, only when it deleted a row). */
export async function countDeleted(db: Executor, userId: number): Promise<void> {
  await db
    .update(pronosticCounters)
    .set({ live: sql`${pronosticCounters.live} - 1` })
    .where(eq(pronosticCounters.userId, userId));
}

/** How many live pronostics the user has: one key lookup (a named, prepared statement). */
export async function liveCount(db: Executor, userId: number): Promise<number> {
  const prepare = () =>
    db
      .select({ live: pronosticCounters.live })
      .from(pronosticCounters)
      .where(eq(pronosticCounters.userId, sql.placeholder('userId')))
      .prepare('pronostic_live_count');
  const [row] = await preparedOnce(db, 'pronostic_live_count', prepare).execute({ userId });
  return row?.live ?? 0;
}

export interface ListFilter {
  userId: number;
  status?: PronosticStatus;
  /** The settlement: `pending` is not settled yet (and not cancelled). */
  outcome?: OutcomeFilter;
  /** Already folded (lower-case, no accents). */
  search?: string;
  typeId?: number;
}

/**
 * The WHERE of a filter, its values as placeholders (`filterValues`): the SQL depends only on which
 * filters are present (`filterShape`), so each shape is prepared once (`preparedOnce`).
 */
function listConditions(filter: ListFilter) {
  return and(
    eq(pronostics.userId, sql.placeholder('userId')),
    isNull(pronostics.deletedAt),
    filter.status ? eq(pronostics.status, sql.placeholder('status')) : undefined,
    filter.outcome === 'pending'
      ? // A literal, not a parameter: the generic plan then still reads the outcome index in order.
        sql`${pronostics.outcome} IS NULL AND ${pronostics.status} <> 'cancelled'`
      : filter.outcome
        ? eq(pronostics.outcome, sql.placeholder('outcome'))
        : undefined,
    filter.search ? sql`${pronostics.searchText} LIKE ${sql.placeholder('pattern')}` : undefined,
    filter.typeId !== undefined ? eq(pronostics.typeId, sql.placeholder('typeId')) : undefined,
  );
}

/** Which filters are present, as a statement name's suffix. */
function filterShape(filter: ListFilter): string {
  const outcome = filter.outcome === 'pending' ? '_pending' : filter.outcome ? '_outcome' : '';
  const type = filter.typeId !== undefined ? '_type' : '';
  return `${filter.status ? '_status' : ''}${outcome}${filter.search ? '_search' : ''}${type}`;
}

/** The placeholders' values of a filter (and of a page). */
export function filterValues(filter: ListFilter, page?: { limit: number; offset: number }) {
  return {
    userId: filter.userId,
    status: filter.status,
    outcome: filter.outcome,
    pattern: filter.search === undefined ? undefined : `%${escapeLike(filter.search)}%`,
    typeId: filter.typeId,
    ...(page ? { limit: page.limit, offset: page.offset } : {}),
  };
}

/**
 * A listed pronostic with its JSON columns as PostgreSQL's own text (never parsed here: the list
 * answer splices them, see the service's `listedJson`) and its time already in the API's format.
 */
export interface ListedText {
  id: number;
  typeId: number;
  status: PronosticStatus;
  creditsCost: number;
  teamsDetails: string;
  result: string | null;
  aiModel: string;
  createdAt: string;
  /**
   * How many rows the page is taken from, read once beside it (an InitPlan): the user's live
   * counter on the unfiltered page, the filter's own count on a filtered one.
   */
  total: number | null;
}

/** `created_at` as `isoTimestamp` writes the stored timestamp: UTC, to the microsecond. */
const API_TIME = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

/**
 * The unfiltered page, the hot one: the user's live pronostics, newest first, along
 * `pronostics_user_list_idx` (same order, so no sort), each row carrying the user's live counter
 * (an InitPlan read once): the page and its total in one round trip, which matters most on PGlite,
 * where every statement queues for its one connection. A named statement on the driver.
 */
export const listPageStatement: NamedStatement = {
  name: 'pronostics_list_page',
  text: `SELECT p.id, p.type_id AS "typeId", p.status, p.credits_cost AS "creditsCost",
      p.teams_details::text AS "teamsDetails", p.result::text AS result, p.ai_model AS "aiModel",
      to_char(p.created_at AT TIME ZONE 'UTC', ${API_TIME}) AS "createdAt",
      (SELECT c.live FROM pronostic_counters c WHERE c.user_id = $1) AS total
    FROM pronostics p
    WHERE p.user_id = $1 AND p.deleted_at IS NULL
    ORDER BY p.created_at DESC, p.id DESC
    LIMIT $2 OFFSET $3`,
};

/**
 * A filtered page of the user's live pronostics as text, newest first, joined to the filter's count
 * (`counted LEFT JOIN page`): the count and the page in one round trip, and the count's row is
 * there even when the page is empty (a page past the end), so no second statement is ever needed.
 * The query, for its plan too; `listPronosticsText` drops the empty page's row of nulls.
 */
export function filteredListQuery(db: Executor, filter: ListFilter) {
  const counted = db
    .select({ total: sql<number>`count(*)::int`.as('total') })
    .from(pronostics)
    .where(listConditions(filter))
    .as('counted');
  const page = db
    .select({
      id: pronostics.id,
      typeId: pronostics.typeId,
      status: pronostics.status,
      creditsCost: pronostics.creditsCost,
      teamsDetails: sql<string>`${pronostics.teamsDetails}::text`.as('teams_details_text'),
      result: sql<string | null>`${pronostics.result}::text`.as('result_text'),
      aiModel: pronostics.aiModel,
      createdAt: sql<string>`to_char(${pronostics.createdAt} AT TIME ZONE 'UTC', ${sql.raw(API_TIME)})`.as(
        'created_at_text',
      ),
    })
    .from(pronostics)
    .where(listConditions(filter))
    .orderBy(desc(pronostics.createdAt), desc(pronostics.id))
    .limit(sql.placeholder('limit'))
    .offset(sql.placeholder('offset'))
    .as('page');
  return db
    .select({
      id: page.id,
      typeId: page.typeId,
      status: page.status,
      creditsCost: page.creditsCost,
      teamsDetails: page.teamsDetails,
      result: page.result,
      aiModel: page.aiModel,
      createdAt: page.createdAt,
      total: counted.total,
    })
    .from(counted)
    .leftJoin(page, sql`true`);
}

/**
 * A page of the user's live pronostics as text, newest first, and how many rows it is taken from
 * (null only when the unfiltered page is past the end: the caller reads the live counter then).
 */
export async function listPronosticsText(
  db: Database,
  filter: ListFilter,
  page: { limit: number; offset: number },
): Promise<{ rows: ListedText[]; total: number | null }> {
  const filtered =
    filter.status !== undefined ||
    filter.search !== undefined ||
    filter.outcome !== undefined ||
    filter.typeId !== undefined;
  if (!filtered) {
    const rows = await namedQuery<ListedText>(db, listPageStatement, [
      filter.userId,
      page.limit,
      page.offset,
    ]);
    return { rows, total: rows[0]?.total ?? null };
  }
  const name = `pronostics_list${filterShape(filter)}`;
  const joined = await preparedOnce(db, name, () => filteredListQuery(db, filter).prepare(name)).execute(
    filterValues(filter, page),
  );
  // A row with an id is a whole row of the page (the join's nulls are only the empty page's).
  const rows = joined.filter((row) => row.id !== null) as ListedText[];
  // The join keeps the page's order in practice; SQL does not promise it, so it is put back here
  // (`createdAt` is fixed-width UTC text, so it sorts as text).
  rows.sort((a, b) => (a.createdAt === b.createdAt ? b.id - a.id : a.createdAt < b.createdAt ? 1 : -1));
  return { rows, total: joined[0]?.total ?? 0 };
}

/** A page of the user's live pronostics as objects, newest first (the summary's latest, the back office). */
export async function listPronostics(
  db: Executor,
  filter: ListFilter,
  page: { limit: number; offset: number },
): Promise<ShownPronostic[]> {
  const name = `pronostics_objects${filterShape(filter)}`;
  const prepare = () =>
    db
      .select(shownColumns)
      .from(pronostics)
      .where(listConditions(filter))
      .orderBy(desc(pronostics.createdAt), desc(pronostics.id))
      .limit(sql.placeholder('limit'))
      .offset(sql.placeholder('offset'))
      .prepare(name);
  return preparedOnce(db, name, prepare).execute(filterValues(filter, page));
}

/** A user's live pronostics counted by status, in one grouped query. */
export async function countPronosticsByStatus(
  db: Executor,
  userId: number,
): Promise<{ status: PronosticStatus; total: number }[]> {
  const rows = await db
    .select({ status: pronostics.status, total: count() })
    .from(pronostics)
    .where(and(eq(pronostics.userId, userId), isNull(pronostics.deletedAt)))
    .groupBy(pronostics.status);
  return rows.map((row) => ({ status: row.status, total: Number(row.total) }));
}

/**
 * The detail: a live (not deleted) pronostic, its owner and its type, whoever owns it. A named
 * statement on the driver (the second hottest read): `teams_details` and `result` as PostgreSQL's
 * own text (the detail route splices them into its answer, as the list does its rows) and the time
 * already in the API's format. Gathered with the other details asked in the same round of the
 * event loop (`batchedQuery`).
 */
export const detailStatement: GatheredStatement = {
  name: 'pronostic_detail',
  types: ['int4'],
  text: `SELECT p.id, p.type_id AS "typeId", p.status, p.credits_cost AS "creditsCost",
      p.teams_details::text AS "teamsDetails", p.result::text AS result, p.ai_model AS "aiModel",
      to_char(p.created_at AT TIME ZONE 'UTC', ${API_TIME}) AS "createdAt",
      p.user_id AS "userId", t.name AS "typeName", t.name_en AS "typeNameEn", t.slug AS "typeSlug", t.difficulty AS "typeDifficulty"
    FROM pronostics p JOIN pronostic_types t ON t.id = p.type_id
    WHERE p.id = $1 AND p.deleted_at IS NULL
    LIMIT 1`,
};

/** The detail with its json columns as stored text (`detailStatement`). */
export async function findLivePronosticText(db: Executor, id: number) {
  const [row] = await batchedQuery<
    Omit<ListedText, 'total'> & {
      userId: number;
      typeName: string;
      typeNameEn: string | null;
      typeSlug: PronosticTypeSlug;
      typeDifficulty: number;
    }
  >(db, detailStatement, [id]);
  if (!row) return undefined;
  const { userId, typeName, typeNameEn, typeSlug, typeDifficulty, ...pronostic } = row;
  return {
    pronostic,
    userId,
    type: {
      id: pronostic.typeId,
      name: typeName,
      nameEn: typeNameEn,
      slug: typeSlug,
      difficulty: typeDifficulty,
    },
  };
}

/** The detail with its json columns as objects (the pronostic events' data). */
export async function findLivePronostic(db: Executor, id: number) {
  const found = await findLivePronosticText(db, id);
  if (!found) return undefined;
  const { teamsDetails, result, ...rest } = found.pronostic;
  const pronostic: ShownPronostic = {
    ...rest,
    teamsDetails: JSON.parse(teamsDetails) as ShownPronostic['teamsDetails'],
    result: result === null ? null : (JSON.parse(result) as ShownPronostic['result']),
  };
  return { ...found, pronostic };
}

export async function softDeletePronostic(
  db: Executor,
  id: number,
  userId: number,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(pronostics)
    .set({ deletedAt: now.toISOString() })
    .where(and(eq(pronostics.id, id), eq(pronostics.userId, userId), isNull(pronostics.deletedAt)))
    .returning({ id: pronostics.id });
  return rows.length > 0;
}

/** A row the analysis worker holds: what it needs to analyse, refund, and fence its writes. */
export type ClaimedJob = Pick<
  PronosticRow,
  'id' | 'userId' | 'teamsDetails' | 'creditsCost' | 'attempts' | 'deadlineAt' | 'fixtureId' | 'locale'
> & { typeSlug: PronosticTypeSlug };

/** Takes the next due row (or one past its deadline) that no live lease holds, and leases it. */
export async function claimNextJob(
  db: Executor,
  now: Date,
  leaseUntil: Date,
): Promise<ClaimedJob | undefined> {
  const nowText = now.toISOString();
  // SKIP LOCKED: concurrent claimers each take another row instead of waiting on this one.
  const next = db
    .select({ id: pronostics.id })
    .from(pronostics)
    .where(
      and(
        eq(pronostics.status, 'processing'),
        or(lte(pronostics.runAfter, nowText), lte(pronostics.deadlineAt, nowText)),
        or(isNull(pronostics.leaseUntil), lte(pronostics.leaseUntil, nowText)),
      ),
    )
    .orderBy(asc(pronostics.runAfter), asc(pronostics.id))
    .limit(1)
    .for('update', { skipLocked: true });
  const [row] = await db
    .update(pronostics)
    .set({ leaseUntil: leaseUntil.toISOString(), attempts: sql`${pronostics.attempts} + 1` })
    .where(eq(pronostics.id, sql`(${next})`))
    .returning({
      id: pronostics.id,
      userId: pronostics.userId,
      teamsDetails: pronostics.teamsDetails,
      creditsCost: pronostics.creditsCost,
      attempts: pronostics.attempts,
      deadlineAt: pronostics.deadlineAt,
      fixtureId: pronostics.fixtureId,
      locale: pronostics.locale,
      typeSlug: sql<PronosticTypeSlug>`(SELECT ${pronosticTypes.slug} FROM ${pronosticTypes} WHERE ${pronosticTypes.id} = ${pronostics.typeId})`,
    });
  return row;
}

const claimed = (job: Pick<ClaimedJob, 'id' | 'attempts'>) =>
  and(eq(pronostics.id, job.id), eq(pronostics.status, 'processing'), eq(pronostics.attempts, job.attempts));

/**
 * Writes the result; false when the claim was lost (the result is then discarded). A `settlement`
 * key is never the analyst's to give: the settlement adds its own to the stored text, once.
 */
export async function markSucceeded(
  db: Executor,
  job: ClaimedJob,
  outcome: { result: Record<string, unknown>; aiModel: string; searchText: string; oddsId?: number | null },
  now: Date,
): Promise<boolean> {
  const { settlement: _notTheAnalysts, ...result } = outcome.result;
  const rows = await db
    .update(pronostics)
    .set({
      status: 'success',
      fixtureOddsId: outcome.oddsId ?? null,
      result,
      aiModel: outcome.aiModel,
      searchText: outcome.searchText,
      finishedAt: now.toISOString(),
      leaseUntil: null,
      lastError: null,
    })
    .where(claimed(job))
    .returning({ id: pronostics.id });
  return rows.length > 0;
}

/** The score matrix of a success, written with it (DESIGN "Slips"); a retried write keeps the first. */
export async function storeMatrix(db: Executor, pronosticId: number, matrix: string): Promise<void> {
  await db.insert(pronosticMatrices).values({ pronosticId, matrix }).onConflictDoNothing();
}

export async function scheduleRetry(
  db: Executor,
  job: ClaimedJob,
  runAfter: Date,
  error: string,
): Promise<void> {
  await db
    .update(pronostics)
    .set({ runAfter: runAfter.toISOString(), leaseUntil: null, lastError: error.slice(0, 1000) })
    .where(claimed(job));
}

/** Sets `cancelled` with its reason; returns whether this call did it (the caller then refunds). */
export async function markCancelled(
  db: Executor,
  job: ClaimedJob,
  result: { reason: string; message: string },
  error: string,
  now: Date,
): Promise<boolean> {
  const rows = await db
    .update(pronostics)
    .set({
      status: 'cancelled',
      result,
      finishedAt: now.toISOString(),
      leaseUntil: null,
      lastError: error.slice(0, 1000),
    })
    .where(claimed(job))
    .returning({ id: pronostics.id });
  return rows.length > 0;
}

/** Gives the row back untried (shutdown): the attempt it claimed does not count. */
export async function releaseJob(db: Executor, job: ClaimedJob): Promise<void> {
  await db
    .update(pronostics)
    .set({ leaseUntil: null, attempts: sql`${pronostics.attempts} - 1` })
    .where(claimed(job));
}

// The back office's reads and edits.

/** Every type, active or not, in the users' order. */
export async function listAllTypes(db: Executor): Promise<PronosticTypeRow[]> {
  return db.select().from(pronosticTypes).orderBy(asc(pronosticTypes.difficulty), asc(pronosticTypes.id));
}

export async function lockType(db: Executor, id: number): Promise<PronosticTypeRow | undefined> {
  const [row] = await db
    .select()
    .from(pronosticTypes)
    .where(eq(pronosticTypes.id, id))
    .for('update')
    .limit(1);
  return row;
}

export type TypeChanges = Partial<
  Pick<PronosticTypeRow, 'name' | 'description' | 'nameEn' | 'descriptionEn' | 'difficulty' | 'active'>
>;

export async function updateType(db: Executor, id: number, changes: TypeChanges): Promise<PronosticTypeRow> {
  const [row] = await db.update(pronosticTypes).set(changes).where(eq(pronosticTypes.id, id)).returning();
  return row!;
}

/** Inserts the type unless its slug has one; undefined when it had. */
export async function insertTypeIfAbsent(
  db: Executor,
  values: Pick<
    typeof pronosticTypes.$inferInsert,
    'name' | 'slug' | 'description' | 'nameEn' | 'descriptionEn' | 'difficulty' | 'active'
  >,
): Promise<PronosticTypeRow | undefined> {
  const [row] = await db
    .insert(pronosticTypes)
    .values(values)
    .onConflictDoNothing({ target: pronosticTypes.slug })
    .returning();
  return row;
}

/** A user's pronostics, deleted ones included (with when), newest first: the back office's view. */
export async function listAllPronosticsOf(
  db: Executor,
  userId: number,
  page: { limit: number; offset: number },
): Promise<(ShownPronostic & { deletedAt: string | null })[]> {
  return db
    .select({ ...shownColumns, deletedAt: pronostics.deletedAt })
    .from(pronostics)
    .where(eq(pronostics.userId, userId))
    .orderBy(desc(pronostics.createdAt), desc(pronostics.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countAllPronosticsOf(db: Executor, userId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(pronostics).where(eq(pronostics.userId, userId));
  return Number(row?.total ?? 0);
}

/**
 * How many pronostics each fixture was picked for (not cancelled; deleted ones included, since they
 * were paid for), by fixture id; along the fixture index.
 */
export async function countByFixtures(
  db: Executor,
  fixtureIds: readonly number[],
): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  if (fixtureIds.length === 0) return found;
  const rows = await db
    .select({ fixtureId: pronostics.fixtureId, total: count() })
    .from(pronostics)
    .where(and(inArray(pronostics.fixtureId, [...new Set(fixtureIds)]), ne(pronostics.status, 'cancelled')))
    .groupBy(pronostics.fixtureId);
  for (const row of rows) if (row.fixtureId !== null) found.set(row.fixtureId, Number(row.total));
  return found;
}

/** Pronostics created per UTC day and status over a range (deleted ones included): one query. */
export async function pronosticsByDayAndStatus(
  db: Executor,
  range: { from: string; before: string },
): Promise<{ day: string; status: PronosticStatus; total: number }[]> {
  const day = sql<string>`to_char(${pronostics.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, status: pronostics.status, total: count() })
    .from(pronostics)
    .where(and(gte(pronostics.createdAt, range.from), lt(pronostics.createdAt, range.before)))
    .groupBy(day, pronostics.status);
  return rows.map((row) => ({ day: row.day, status: row.status, total: Number(row.total) }));
}

/**
 * The owner's account is deleted: every pronostic soft-deleted, `teams_details` cut to the string
 * keys the track record's settlement reads (home, away, date, league), the search text emptied (a
 * deleted row is never searched), and the live counter at zero. Returns how many rows it kept so.
 */
export async function forgetOwner(db: Executor, userId: number, now: Date): Promise<number> {
  const kept = (key: string) =>
    sql`CASE WHEN json_typeof(${pronostics.teamsDetails} -> ${key}) = 'string' THEN ${pronostics.teamsDetails} -> ${key} END`;
  const rows = await db
    .update(pronostics)
    .set({
      deletedAt: sql`coalesce(${pronostics.deletedAt}, ${now.toISOString()}::timestamptz)`,
      teamsDetails: sql`json_strip_nulls(json_build_object('home', ${kept('home')}, 'away', ${kept('away')}, 'date', ${kept('date')}, 'league', ${kept('league')}))`,
      searchText: '',
    })
    .where(eq(pronostics.userId, userId))
    .returning({ id: pronostics.id });
  await db.update(pronosticCounters).set({ live: 0 }).where(eq(pronosticCounters.userId, userId));
  return rows.length;
}

/** A page of the user's pronostics (deleted ones too), by id, for the data export. */
export async function pronosticsForExport(db: Executor, userId: number, afterId: number, limit: number) {
  return db
    .select({
      id: pronostics.id,
      type: pronosticTypes.slug,
      status: pronostics.status,
      creditsCost: pronostics.creditsCost,
      teamsDetails: pronostics.teamsDetails,
      result: pronostics.result,
      aiModel: pronostics.aiModel,
      outcome: pronostics.outcome,
      settledAt: pronostics.settledAt,
      createdAt: pronostics.createdAt,
      deletedAt: pronostics.deletedAt,
    })
    .from(pronostics)
    .innerJoin(pronosticTypes, eq(pronosticTypes.id, pronostics.typeId))
    .where(and(eq(pronostics.userId, userId), sql`${pronostics.id} > ${afterId}`))
    .orderBy(asc(pronostics.id))
    .limit(limit);
}

/** The analysis queue: rows still `processing` (due or waiting for a retry) and the oldest one's creation (epoch seconds). */
/**
 * When the oldest row waiting for a worker's lane became due (its `run_after`), as of `now`; null
 * when none waits. Rows under a live lease are being analysed, not waiting. The due index is read in
 * `run_after` order, so this stops at the first unleased row.
 */
export async function oldestWaitingSince(db: Executor, now: Date): Promise<Date | null> {
  const nowText = now.toISOString();
  const [row] = await db
    .select({ runAfter: sql<number>`extract(epoch from ${pronostics.runAfter})::float8` })
    .from(pronostics)
    .where(
      and(
        eq(pronostics.status, 'processing'),
        lte(pronostics.runAfter, nowText),
        or(isNull(pronostics.leaseUntil), lte(pronostics.leaseUntil, nowText)),
      ),
    )
    .orderBy(asc(pronostics.runAfter))
    .limit(1);
  return row ? new Date(row.runAfter * 1000) : null;
}

export async function analysisBacklog(db: Executor): Promise<{ count: number; oldestAt: number | null }> {
  const [row] = await db
    .select({
      count: count(),
      oldestAt: sql<number | null>`extract(epoch from min(${pronostics.createdAt}))::float8`,
    })
    .from(pronostics)
    .where(eq(pronostics.status, 'processing'));
  return { count: Number(row?.count ?? 0), oldestAt: row?.oldestAt ?? null };
}

/**
 * `legSources` in one named statement, the ids as one array: a slip check ran it through Drizzle,
 * whose building of the join and the IN list was a fifth of the check's CPU (issue 57). Whether a
 * score matrix is stored, not the matrix: it is read only for a match with two legs or more
 * (`legMatrices`). Not the result either: what a leg reads of it is kept per process once read
 * (`legResults`, decision 0168); the finish time tells a kept one is still this analysis's.
 * Gathered with the other checks of the same round of the event loop (`batchedQuery`), as the
 * matrices and results are.
 */
export const legSourcesStatement: GatheredStatement = {
  name: 'pronostic_leg_sources',
  types: ['int4', 'int4[]'],
  text: `SELECT p.id, p.fixture_id AS "fixtureId", (extract(epoch FROM p.finished_at) * 1000)::float8 AS "finishedMs",
           m.pronostic_id IS NOT NULL AS "hasMatrix"
    FROM pronostics p LEFT JOIN pronostic_matrices m ON m.pronostic_id = p.id
    WHERE p.user_id = $1 AND p.status = 'success' AND p.deleted_at IS NULL AND p.id = ANY($2::int[])`,
};

/** What a slip's leg needs of a pronostic: the caller's live successes among `ids`, whether each has a matrix. */
export async function legSources(db: Executor, userId: number, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return batchedQuery<{
    id: number;
    fixtureId: number | null;
    finishedMs: number | null;
    hasMatrix: boolean;
  }>(db, legSourcesStatement, [userId, [...ids]]);
}

export const legResultsStatement: GatheredStatement = {
  name: 'pronostic_leg_results',
  types: ['int4[]'],
  text: `SELECT id, result, (extract(epoch FROM finished_at) * 1000)::float8 AS "finishedMs"
    FROM pronostics WHERE id = ANY($1::int[]) AND status = 'success'`,
};

/** The stored results of the successes among `ids`, with their finish time (`legSources`' key). */
export async function legResults(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return batchedQuery<{
    id: number;
    result: (typeof pronostics.$inferSelect)['result'];
    finishedMs: number | null;
  }>(db, legResultsStatement, [[...ids]]);
}

export const legMatricesStatement: GatheredStatement = {
  name: 'pronostic_leg_matrices',
  types: ['int4[]'],
  text: 'SELECT pronostic_id AS id, matrix FROM pronostic_matrices WHERE pronostic_id = ANY($1::int[])',
};

/** The stored score matrices of `ids` (a slip's matches with two legs or more), by pronostic. */
export async function legMatrices(db: Executor, ids: readonly number[]): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = await batchedQuery<{ id: number; matrix: string }>(db, legMatricesStatement, [[...ids]]);
  return new Map(rows.map((row) => [row.id, row.matrix]));
}

/** What a slip's settlement needs of the pronostics its legs name, whoever's and deleted or not. */
export async function settlementStates(db: Executor, ids: readonly number[]) {
  if (ids.length === 0) return [];
  return db
    .select({
      id: pronostics.id,
      outcome: pronostics.outcome,
      settledMatchId: pronostics.settledMatchId,
      fixtureId: pronostics.fixtureId,
      teamsDetails: pronostics.teamsDetails,
      createdOn: sql<string>`to_char(${pronostics.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`,
    })
    .from(pronostics)
    .where(inArray(pronostics.id, [...ids]));
}
