import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { flagKinds, flagStatuses, flagTargetTypes } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

/**
 * A contradiction an admin must see (owned by the flags module). Raised in the transaction that
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
