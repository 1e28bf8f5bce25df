// The money capability's tables (src/money/), in one file for their one owner: the append-only
// ledger (every change of a balance is one row of `wallet_operations`, in the same transaction), the
// credit packs on sale and the mobile-money payments that buy them (checkout), the withdrawals of
// referral money and the payouts that pay them (cash-out), and the flags an admin must see. The
// balances themselves are columns of `users`; the godfather link is `users.godfather_id`.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  currencies,
  flagKinds,
  flagStatuses,
  flagTargetTypes,
  operationTypes,
  paymentChannels,
  paymentProviders,
  paymentStatuses,
  payoutStatuses,
  spendingPeriods,
  withdrawalDecisions,
  withdrawalStatuses,
} from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

export const walletOperations = pgTable(
  'wallet_operations',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    type: text('type', { enum: operationTypes }).notNull(),
    currency: text('currency', { enum: currencies }).notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reference: text('reference'),
    description: text('description').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('wallet_operations_user_created_idx').on(table.userId, table.createdAt, table.id),
    // The history filtered by type or by currency, in the page's order: a page reads its ten rows
    // and the count only the matching index entries, instead of every row of the user (issue 28).
    index('wallet_operations_user_type_created_idx').on(table.userId, table.type, table.createdAt, table.id),
    index('wallet_operations_user_currency_created_idx').on(
      table.userId,
      table.currency,
      table.createdAt,
      table.id,
    ),
    // One event, one reference: a payment's credit (or any other referenced event) is posted once,
    // whatever the code above does.
    uniqueIndex('wallet_operations_reference_unique')
      .on(table.reference)
      .where(sql`${table.reference} IS NOT NULL`),
  ],
);

/** Credit packs on sale (seeded; admins edit them). A payment keeps its own snapshot of price and credits. */
export const packs = pgTable(
  'packs',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    credits: integer('credits').notNull(),
    /** Whole XAF. */
    price: integer('price').notNull(),
    currency: text('currency', { enum: ['XAF'] })
      .notNull()
      .default('XAF'),
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    check('packs_credits_positive', sql`${table.credits} > 0`),
    check('packs_price_positive', sql`${table.price} > 0`),
  ],
);

/**
 * A pack purchase by mobile money. Committed (with our unique reference and the pack's snapshot)
 * before the provider is called; `pending` until the provider's final word, then `success` (credited
 * once: the ledger row's reference is unique) or `failed`, never back.
 */
export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    packId: integer('pack_id')
      .notNull()
      .references(() => packs.id),
    /** Ours, unique, sent to the provider. */
    reference: text('reference').notNull().unique(),
    provider: text('provider', { enum: paymentProviders }).notNull(),
    /** The provider's own id for the payment, once it gave one. */
    providerReference: text('provider_reference'),
    status: text('status', { enum: paymentStatuses }).notNull().default('pending'),
    /** The pack's price and credits when the payment started. */
    amount: integer('amount').notNull(),
    currency: text('currency', { enum: ['XAF'] })
      .notNull()
      .default('XAF'),
    credits: integer('credits').notNull(),
    /** The paying number, E.164; '' once past the 10-year retention (housekeeping). */
    payerPhone: text('payer_phone').notNull(),
    channel: text('channel', { enum: paymentChannels }).notNull(),
    /** What the client showed the payer (`{name, icon}`), kept for display only. */
    operator: jsonb('operator').$type<Record<string, unknown>>(),
    paymentUrl: text('payment_url'),
    /** The provider's last word on it (`pending`, `complete`, `failed`…), as it said it. */
    providerStatus: text('provider_status'),
    /** When the poller looks at it next (backoff), while pending. */
    nextCheckAt: timestamptz('next_check_at'),
    checks: integer('checks').notNull().default(0),
    /** After this the provider calls it expired; the last re-fetch then settles it. */
    expiresAt: timestamptz('expires_at').notNull(),
    finishedAt: timestamptz('finished_at'),
    idempotencyKeyId: integer('idempotency_key_id'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    index('payments_user_created_idx').on(table.userId, table.createdAt.desc(), table.id.desc()),
    index('payments_pending_check_idx').on(table.nextCheckAt).where(sql`${table.status} = 'pending'`),
    index('payments_user_pending_idx').on(table.userId).where(sql`${table.status} = 'pending'`),
    uniqueIndex('payments_idempotency_key_unique').on(table.idempotencyKeyId),
    // The phones still kept, oldest first: the housekeeping's erasure past the retention.
    index('payments_phone_kept_idx').on(table.createdAt).where(sql`${table.payerPhone} <> ''`),
    check('payments_amount_positive', sql`${table.amount} > 0`),
  ],
);

/**
 * Withdrawals of the referral money (XAF). The request debits the balance at once; an admin's
 * decision is kept apart from the status (one decision, ever), and an approved withdrawal is paid out
 * by the payments provider (a transfer under our reference `wd-<id>`) before it becomes `success`.
 */
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
    /** Set when its payout needs a person (stuck, unknown, refused, or not what we asked); by the cash-out flow. */
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

/**
 * The transfer that pays an approved withdrawal out (the cash-out flow's provider step). Written in the
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

/**
 * A contradiction an admin must see (money's flags). Raised in the transaction that
 * found it; one open flag per kind and target at a time, and one per provider event (a replayed
 * webhook raises nothing); resolved by an admin with a note, audited.
 */
export const flags = pgTable(
  'flags',
  {
    id: serial('id').primaryKey(),
    kind: text('kind', { enum: flagKinds }).notNull(),
    targetType: text('target_type', { enum: flagTargetTypes }).notNull(),
    targetId: integer('target_id').notNull(),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: flagStatuses }).notNull().default('open'),
    note: text('note'),
    resolvedBy: integer('resolved_by').references(() => users.id),
    resolvedAt: timestamptz('resolved_at'),
    /**
     * The provider's event (its webhook's id) that brought the news, when one did; a read without
     * one (the poller, a start) is deduplicated by what it says (`details`).
     */
    providerEvent: text('provider_event'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('flags_open_kind_target_unique')
      .on(table.kind, table.targetType, table.targetId)
      .where(sql`${table.status} = 'open'`),
    uniqueIndex('flags_provider_event_unique')
      .on(table.kind, table.targetType, table.targetId, table.providerEvent)
      .where(sql`${table.providerEvent} IS NOT NULL`),
    index('flags_kind_target_idx').on(table.kind, table.targetType, table.targetId),
    index('flags_status_created_idx').on(table.status, table.createdAt.desc(), table.id.desc()),
  ],
);

/**
 * Responsible play: what a user's payments (pending or succeeded) add up to in each spending window
 * (the Africa/Douala calendar day, ISO week and month, by the window's first day). Raised in the
 * checkout's transaction, lowered when a payment fails: a limit is checked against one row per
 * window, never a scan of the user's payments.
 */
export const spendingTotals = pgTable(
  'spending_totals',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    period: text('period', { enum: spendingPeriods }).notNull(),
    windowStart: date('window_start', { mode: 'string' }).notNull(),
    amount: integer('amount').notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.userId, table.period, table.windowStart] })],
);
