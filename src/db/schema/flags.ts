import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

/** What a flag is about. */
export const flagTargetTypes = ['payment', 'withdrawal'] as const;
export type FlagTargetType = (typeof flagTargetTypes)[number];

/**
 * The kinds of contradiction: a provider's word against our books or against itself.
 * `late_complete`: paid after we (or the provider) called it failed; `refund_after_success` and
 * `failed_after_success`: a final success contradicted; `amount_mismatch` / `currency_mismatch`:
 * not what we asked; `refunded_while_pending`; `stuck_pending`: still pending a day on;
 * `driver_missing`: its provider's driver is not configured; `contradicts_final`: news against a
 * withdrawal already final (paid, refunded, or resolved by hand).
 */
export const flagKinds = [
  'late_complete',
  'refund_after_success',
  'failed_after_success',
  'amount_mismatch',
  'currency_mismatch',
  'refunded_while_pending',
  'stuck_pending',
  'driver_missing',
  'contradicts_final',
] as const;
export type FlagKind = (typeof flagKinds)[number];

export const flagStatuses = ['open', 'resolved'] as const;
export type FlagStatus = (typeof flagStatuses)[number];

/**
 * A contradiction an admin must see (owned by the flags module). Raised in the transaction that
 * found it, once per kind and target; resolved by an admin with a note, audited.
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
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('flags_kind_target_unique').on(table.kind, table.targetType, table.targetId),
    index('flags_status_created_idx').on(table.status, table.createdAt.desc(), table.id.desc()),
  ],
);
