import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { paymentChannels, paymentProviders, payoutStatuses } from '../../lib/allowed-values.js';
import { withdrawals } from './affiliation.js';
import { createdAt, timestamptz } from './columns.js';

/**
 * The transfer that pays an approved withdrawal out (owned by the payouts module). Written in the
 * approval's transaction with `create_attempted_at`: the provider is then asked to create it once,
 * after that commit; every later doubt is resolved by reading it under `reference`, never by
 * creating it again.
 */
export const payouts = pgTable(
  'payouts',
  {
    id: serial('id').primaryKey(),
    withdrawalId: integer('withdrawal_id')
      .notNull()
      .unique()
      .references(() => withdrawals.id),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    /** Ours, sent to the provider: `wd-<withdrawal id>`. */
    reference: text('reference').notNull().unique(),
    /** The provider's own id of the transfer, once it gave one. */
    providerReference: text('provider_reference'),
    /** The provider's last word on the transfer, as it said it (`not_found` when it knew nothing of it). */
    providerStatus: text('provider_status'),
    status: text('status', { enum: payoutStatuses }).notNull().default('pending'),
    /** Whole XAF, as approved. */
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: ['XAF'] })
      .notNull()
      .default('XAF'),
    /** The receiving number, E.164; '' once past the 10-year retention (housekeeping). */
    phone: text('phone').notNull(),
    channel: text('channel', { enum: paymentChannels }).notNull(),
    /** The one create request: recorded before it is sent, so nothing ever sends a second. */
    createAttemptedAt: timestamptz('create_attempted_at').notNull(),
    /** When the create got an answer (null: it timed out, failed, or the process stopped first). */
    createAnsweredAt: timestamptz('create_answered_at'),
    /** When the next look is due, while pending (a claim moves it forward first: a lease). */
    nextCheckAt: timestamptz('next_check_at'),
    checks: integer('checks').notNull().default(0),
    /** Past this, a payout still not final is escalated to an admin (never refunded automatically). */
    deadlineAt: timestamptz('deadline_at').notNull(),
    finishedAt: timestamptz('finished_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    // Pending payouts, and those an admin closed by hand that are still read for contradicting news.
    index('payouts_check_idx').on(table.nextCheckAt).where(sql`${table.nextCheckAt} IS NOT NULL`),
    // The phones still kept, oldest first: the housekeeping's erasure past the retention.
    index('payouts_phone_kept_idx').on(table.createdAt).where(sql`${table.phone} <> ''`),
    check('payouts_amount_positive', sql`${table.amount} > 0`),
  ],
);
