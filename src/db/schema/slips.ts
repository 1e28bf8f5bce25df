// Slips (issue 53): a bettor's ticket of 1..20 legs on their own analyses, as checked when saved,
// and the count of checks per day. The score matrices the legs are summed from are the pronostics'.
import { sql } from 'drizzle-orm';
import {
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
} from 'drizzle-orm/pg-core';
import { settlementOutcomes, slipMarkets, slipStatuses } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { pronostics } from './pronostics.js';
import { users } from './users.js';

export const slips = pgTable(
  'slips',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: slipStatuses }).notNull().default('open'),
    /** Whole XAF. */
    stake: integer('stake').notNull(),
    /** The check's unrounded figures, as they were when the slip was saved. */
    probability: doublePrecision('probability').notNull(),
    odds: doublePrecision('odds').notNull(),
    /**
     * Whole XAF, kept as doubles: twenty legs at odds up to 1000 give returns far past an integer's
     * range, and an answer must never fail on what a user typed.
     */
    expectedReturn: doublePrecision('expected_return').notNull(),
    /** What came back once settled (whole XAF): stake × the odds of its non-void legs, or 0. */
    returned: doublePrecision('returned'),
    settledAt: timestamptz('settled_at'),
    deletedAt: timestamptz('deleted_at'),
    createdAt: createdAt(),
  },
  (table) => [
    index('slips_user_list_idx')
      .on(table.userId, table.createdAt.desc().nullsFirst(), table.id.desc().nullsFirst())
      .where(sql`${table.deletedAt} IS NULL`),
    // The settlement's scan: open slips only.
    index('slips_open_idx').on(table.id).where(sql`${table.status} = 'open'`),
  ],
);

export const slipLegs = pgTable(
  'slip_legs',
  {
    slipId: integer('slip_id')
      .notNull()
      .references(() => slips.id),
    /** 0-based, as the request listed them. */
    position: smallint('position').notNull(),
    pronosticId: integer('pronostic_id')
      .notNull()
      .references(() => pronostics.id),
    market: text('market', { enum: slipMarkets }).notNull(),
    pick: text('pick').notNull(),
    odds: doublePrecision('odds').notNull(),
    probability: doublePrecision('probability').notNull(),
    /** Null until the slip settles. */
    outcome: text('outcome', { enum: settlementOutcomes }),
  },
  (table) => [primaryKey({ columns: [table.slipId, table.position] })],
);

/**
 * Slips checked per UTC day: a check is free and stores nothing else, so the console's count of
 * checks is this one counter (no user, no legs).
 */
export const slipChecksDaily = pgTable('slip_checks_daily', {
  day: date('day', { mode: 'string' }).primaryKey(),
  checked: integer('checked').notNull().default(0),
});

export type SlipRow = typeof slips.$inferSelect;
export type SlipLegRow = typeof slipLegs.$inferSelect;
