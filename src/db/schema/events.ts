// The live events' durable logs (issue 27): each user's own, and the back office's, every row
// written in the transaction of the change it reports. `seq` is handed out by a counter row locked
// in that same transaction, so one log's rows commit in seq order and a client resuming after N
// never misses one (docs/decisions/0059-event-logs-counters-and-data.md).
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, primaryKey, text } from 'drizzle-orm/pg-core';
import { adminEventTypes, userEventTypes } from '../../lib/allowed-values.js';
import { createdAt } from './columns.js';
import { users } from './users.js';

const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

/**
 * The last seq handed out, per log: a user's (`user_id`), or the back office's (`user_id` 0, no
 * account). Kept apart from the events so a purge of old events never lets a seq be reused.
 */
export const eventCounters = pgTable('event_counters', {
  userId: integer('user_id').primaryKey(),
  lastSeq: integer('last_seq').notNull(),
});

export const userEvents = pgTable(
  'user_events',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    seq: integer('seq').notNull(),
    type: text('type', { enum: userEventTypes }).notNull(),
    /** The object the matching detail GET returns (for `credits.adjusted`, the ledger operation). */
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.seq] }),
    check('user_events_type_check', sql`${table.type} in (${quoted(userEventTypes)})`),
    index('user_events_created_idx').on(table.createdAt),
  ],
);

export const adminEvents = pgTable(
  'admin_events',
  {
    seq: integer('seq').primaryKey(),
    type: text('type', { enum: adminEventTypes }).notNull(),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    check('admin_events_type_check', sql`${table.type} in (${quoted(adminEventTypes)})`),
    index('admin_events_created_idx').on(table.createdAt),
  ],
);
