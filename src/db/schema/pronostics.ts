// Pronostic types and pronostics. A pronostic row in `processing` is also the analysis job: the worker
// claims it with a lease, so nothing else needs to queue it.
import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { settlementOutcomes } from '../../engine/settlement.js';
import { pronosticTypeSlugs } from '../../engine/types.js';
import { createdAt, timestamptz } from './columns.js';
import { footballMatches } from './football.js';
import { users } from './users.js';

export const pronosticStatuses = ['processing', 'success', 'cancelled'] as const;
export type PronosticStatus = (typeof pronosticStatuses)[number];

export const pronosticTypes = pgTable('pronostic_types', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  /** The engine's list is the one source of the slugs (a text enum: no SQL check). */
  slug: text('slug', { enum: pronosticTypeSlugs }).notNull().unique(),
  description: text('description').notNull(),
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
    teamsDetails: jsonb('teams_details').$type<Record<string, unknown>>().notNull(),
    result: jsonb('result').$type<Record<string, unknown>>(),
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
    // The track record's aggregation reads settled rows only.
    index('pronostics_settled_idx')
      .on(table.typeId, table.settledMatchId)
      .where(sql`${table.outcome} IS NOT NULL`),
  ],
);

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
