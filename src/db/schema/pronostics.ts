// Pronostic types and pronostics. A pronostic row in `processing` is also the analysis job: the worker
// claims it with a lease, so nothing else needs to queue it.
import { sql } from 'drizzle-orm';
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  json,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  locales,
  pronosticStatuses,
  pronosticTypeSlugs,
  settlementOutcomes,
} from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { fixtureOdds, fixtures } from './fixtures.js';
import { footballLeagues, footballMatches } from './football.js';
import { users } from './users.js';

export const pronosticTypes = pgTable('pronostic_types', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** The engine's list is the one source of the slugs (a text enum: no SQL check). */
  slug: text('slug', { enum: pronosticTypeSlugs }).notNull().unique(),
  description: text('description').notNull(),
  /** The English name and description; null where an admin gave none (the French is shown). */
  nameEn: text('name_en'),
  descriptionEn: text('description_en'),
  difficulty: integer('difficulty').notNull(),
  active: boolean('active').notNull().default(true),
  createdAt: createdAt(),
});

export const pronostics = pgTable(
  'pronostics',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    typeId: integer('type_id')
      .notNull()
      .references(() => pronosticTypes.id),
    status: text('status', { enum: pronosticStatuses }).notNull().default('processing'),
    creditsCost: integer('credits_cost').notNull(),
    // json, not jsonb: stored as the text written, so a list page reads it back as is. jsonb's
    // binary form had to be printed again on every read (60 % of the list's statement on PGlite).
    teamsDetails: json('teams_details').$type<Record<string, unknown>>().notNull(),
    result: json('result').$type<Record<string, unknown>>(),
    aiModel: text('ai_model').notNull(),
    /** Lower-case, accent-free text of the teams and the result, for `search` (trigram index). */
    searchText: text('search_text').notNull(),
    attempts: integer('attempts').notNull().default(0),
    /** When the worker may next try it: now at creation, later after a failed try (backoff). */
    runAfter: timestamptz('run_after').notNull(),
    leaseUntil: timestamptz('lease_until'),
    deadlineAt: timestamptz('deadline_at').notNull(),
    lastError: text('last_error'),
    finishedAt: timestamptz('finished_at'),
    deletedAt: timestamptz('deleted_at'),
    /** The Idempotency-Key claim that created the row: one row per claim, enforced by a unique index. */
    idempotencyKeyId: integer('idempotency_key_id'),
    /**
     * The settlement (track record): null until the worker settles a `success` row, then `won`,
     * `lost` or `void`, written in the same statement as `result.settlement` and `settled_at`.
     */
    outcome: text('outcome', { enum: settlementOutcomes }),
    settledAt: timestamptz('settled_at'),
    /** The stored match it was settled on (null when void for want of a result). */
    settledMatchId: integer('settled_match_id').references(() => footballMatches.id),
    /**
     * The few numbers the figures need, written with the settlement so they never read `result`:
     * the match day (the settlement day when void without a match), the match's league, the
     * stated confidence, and for a scored 1X2 forecast (won or lost, types 1x2 and full-analysis)
     * the actual 1X2 result with the forecast's Brier and RPS (null otherwise).
     */
    settledDay: date('settled_day', { mode: 'string' }),
    settledLeagueId: integer('settled_league_id'),
    settledConfidence: doublePrecision('settled_confidence'),
    settledActual: text('settled_actual', { enum: ['home', 'draw', 'away'] }),
    settledBrier: doublePrecision('settled_brier'),
    settledRps: doublePrecision('settled_rps'),
    /** The fixture it was created from (`fixture_id`): settled on that fixture's result. */
    fixtureId: integer('fixture_id').references(() => fixtures.id),
    /** The pre-match odds its analysis was given (the latest collected before it ran), if any. */
    fixtureOddsId: integer('fixture_odds_id').references(() => fixtureOdds.id),
    /**
     * The language its texts are written in (the narration, a cancellation's message): the account's
     * when it was created. A stored result keeps it when the account changes language. A text enum
     * with no SQL check: a check would scan the whole table at migration time.
     */
    locale: text('locale', { enum: locales }).notNull().default('fr'),
    createdAt: createdAt(),
  },
  (table) => [
    // The list's ORDER BY is `created_at DESC, id DESC`, i.e. NULLS FIRST: the index is built in
    // exactly that order, or the planner reads and sorts all of a user's rows for every page.
    index('pronostics_user_list_idx')
      .on(table.userId, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.deletedAt} IS NULL`),
    // The list filtered by status, in the same order, and the dashboard's counts by status.
    index('pronostics_user_status_list_idx')
      .on(table.userId, table.status, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.deletedAt} IS NULL`),
    index('pronostics_due_idx').on(table.runAfter).where(sql`${table.status} = 'processing'`),
    index('pronostics_search_trgm_idx').using('gin', sql`${table.searchText} gin_trgm_ops`),
    uniqueIndex('pronostics_idempotency_key_unique').on(table.idempotencyKeyId),
    // The settlement worker's scan: only unsettled successes, in id order (a keyset cursor).
    index('pronostics_unsettled_idx')
      .on(table.id)
      .where(sql`${table.status} = 'success' AND ${table.outcome} IS NULL`),
    // The list filtered by outcome, in the list's order (`pending` is `outcome IS NULL`).
    index('pronostics_user_outcome_list_idx')
      .on(table.userId, table.outcome, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.deletedAt} IS NULL`),
    // `pending` (IS NULL makes no equality the planner can order by): its own partial index.
    index('pronostics_user_pending_list_idx')
      .on(table.userId, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.deletedAt} IS NULL AND ${table.outcome} IS NULL AND ${table.status} <> 'cancelled'`),
    // A user's own track record reads their settled rows only (the public one reads the rollup):
    // every column it needs is in the key, so a heavy user's figures are an index-only scan.
    index('pronostics_user_settled_idx')
      .on(
        table.userId,
        table.typeId,
        table.settledDay,
        table.settledLeagueId,
        table.outcome,
        table.settledConfidence,
        table.settledActual,
        table.settledBrier,
        table.settledRps,
      )
      .where(sql`${table.outcome} IS NOT NULL`),
    index('pronostics_fixture_idx').on(table.fixtureId).where(sql`${table.fixtureId} IS NOT NULL`),
  ],
);

/**
 * The score matrix a successful analysis read its markets off (engine `encodeMatrix`), written in
 * the transaction that stores the result; never shown. A table of its own so the pronostics' rows
 * (their lists) stay as narrow as they were. Analyses from before it have none.
 */
export const pronosticMatrices = pgTable('pronostic_matrices', {
  pronosticId: integer('pronostic_id')
    .primaryKey()
    .references(() => pronostics.id),
  matrix: text('matrix').notNull(),
});

/**
 * Each user's live (not deleted) pronostics, kept by the pronostic service in the same transaction
 * as a create or a soft delete: the unfiltered list's total is one key lookup instead of a count
 * of all of the user's rows.
 */
export const pronosticCounters = pgTable('pronostic_counters', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  live: integer('live').notNull().default(0),
});

/**
 * The public track record's rollup, kept by the settlement in the same statement that settles the
 * rows: per match day × pronostic type × league (null: void without a match), the counts and sums
 * the figures are made of. The public figures read these O(days × types × leagues) rows, never the
 * pronostics.
 */
export const trackRecordDays = pgTable(
  'track_record_days',
  {
    day: date('day', { mode: 'string' }).notNull(),
    typeId: integer('type_id')
      .notNull()
      .references(() => pronosticTypes.id),
    leagueId: integer('league_id').references(() => footballLeagues.id),
    won: integer('won').notNull().default(0),
    lost: integer('lost').notNull().default(0),
    void: integer('void').notNull().default(0),
    /** Sum of the stated confidence over won and lost rows. */
    confidenceSum: doublePrecision('confidence_sum').notNull().default(0),
    /** Scored 1X2 forecasts by actual result (the baseline is weighed on these). */
    scoredHome: integer('scored_home').notNull().default(0),
    scoredDraw: integer('scored_draw').notNull().default(0),
    scoredAway: integer('scored_away').notNull().default(0),
    brierSum: doublePrecision('brier_sum').notNull().default(0),
    rpsSum: doublePrecision('rps_sum').notNull().default(0),
  },
  (table) => [unique('track_record_days_key').on(table.day, table.typeId, table.leagueId).nullsNotDistinct()],
);

/** The calibration rollup: won and lost rows with a stated confidence, per type and decile. */
export const trackRecordCalibration = pgTable(
  'track_record_calibration',
  {
    typeId: integer('type_id')
      .notNull()
      .references(() => pronosticTypes.id),
    /** 0 = [0, 0.1) … 9 = [0.9, 1]. */
    bin: smallint('bin').notNull(),
    count: integer('count').notNull().default(0),
    won: integer('won').notNull().default(0),
    confidenceSum: doublePrecision('confidence_sum').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.typeId, table.bin] })],
);

/**
 * The matches the track record's analyses were settled on (won, lost, or void on a played match),
 * one row each with how many settled analyses name it: the public page's market calibration reads
 * the bookmakers' odds of exactly these matches (football service), never the pronostics.
 * Written by the settlement statement only, as the other rollups.
 */
export const trackRecordMatches = pgTable('track_record_matches', {
  matchId: integer('match_id')
    .primaryKey()
    .references(() => footballMatches.id),
  settled: integer('settled').notNull().default(0),
});
