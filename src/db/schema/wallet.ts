// The append-only ledger: every change of a balance is one row here, in the same transaction.
import { index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

export const operationTypes = [
  'pack_purchase',
  'pronostic_debit',
  'pronostic_refund',
  'welcome_bonus',
  'referral_commission',
  'withdrawal',
  'withdrawal_refund',
  'admin_adjustment',
] as const;
export type OperationType = (typeof operationTypes)[number];
export const currencies = ['credits', 'XAF'] as const;
export type Currency = (typeof currencies)[number];

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
  (table) => [index('wallet_operations_user_created_idx').on(table.userId, table.createdAt, table.id)],
);
