// The affiliation's table: withdrawals of the referral money (XAF). The request debits the balance at
// once; an admin's decision is kept apart from the status (one decision, ever), and an approved
// withdrawal is paid out by the payments provider (a transfer under our reference `wd-<id>`) before
// it becomes `success`. The godfather link itself is `users.godfather_id`.
import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { paymentChannels, withdrawalDecisions, withdrawalStatuses } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

export const withdrawals = pgTable(
  'withdrawals',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** Whole XAF, debited when the request was made. */
    amount: integer('amount').notNull(),
    status: text('status', { enum: withdrawalStatuses }).notNull().default('pending'),
    /** What the user is told (French): waiting, paying out, paid, or why it was cancelled. */
    message: text('message'),
    /** The receiving mobile-money number, E.164; '' once past the 10-year retention (housekeeping). */
    phone: text('phone').notNull(),
    /** NotchPay's channel for the number (derived as for payments; the client's operator is display only). */
    channel: text('channel', { enum: paymentChannels }).notNull(),
    /** What the client showed: `{name, icon}`. */
    operator: jsonb('operator').$type<{ name: string; icon: string }>().notNull(),
    /** The admin's decision, apart from the status: set once, never changed. */
    decision: text('decision', { enum: withdrawalDecisions }),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamptz('decided_at'),
    decisionMessage: text('decision_message'),
    /** Set when its payout needs a person (stuck, unknown, refused, or not what we asked); by the payouts module. */
    escalatedAt: timestamptz('escalated_at'),
    escalationReason: text('escalation_reason'),
    finishedAt: timestamptz('finished_at'),
    idempotencyKeyId: integer('idempotency_key_id'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    index('withdrawals_user_created_idx').on(table.userId, table.createdAt.desc(), table.id.desc()),
    index('withdrawals_created_idx').on(table.createdAt.desc(), table.id.desc()),
    index('withdrawals_phone_idx').on(table.phone),
    // The phones still kept, oldest first: the housekeeping's erasure past the retention.
    index('withdrawals_phone_kept_idx').on(table.createdAt).where(sql`${table.phone} <> ''`),
    uniqueIndex('withdrawals_idempotency_key_unique').on(table.idempotencyKeyId),
    check('withdrawals_amount_positive', sql`${table.amount} > 0`),
    check(
      'withdrawals_decision_complete',
      sql`(${table.decision} IS NULL) = (${table.decidedAt} IS NULL) AND (${table.decision} IS NULL) = (${table.decidedBy} IS NULL)`,
    ),
    check(
      'withdrawals_final_needs_decision',
      sql`${table.status} = 'pending' OR ${table.decision} IS NOT NULL`,
    ),
  ],
);
