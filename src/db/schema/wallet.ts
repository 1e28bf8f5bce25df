// The wallet's tables: the append-only ledger (every change of a balance is one row here, in the
// same transaction), the credit packs on sale, and the mobile-money payments that buy them.
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import {
  currencies,
  operationTypes,
  paymentChannels,
  paymentProviders,
  paymentStatuses,
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
