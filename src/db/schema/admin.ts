// What admins did: one audit row per action, written in the same transaction as its effect.
import { index, integer, jsonb, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { createdAt } from './columns.js';
import { users } from './users.js';

export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    adminId: integer('admin_id')
      .notNull()
      .references(() => users.id),
    /** What was done, e.g. `pack.create`, `pack.update`, `withdrawal.approve`. */
    action: text('action').notNull(),
    /** What it was done to, e.g. `pack`, `user`, `withdrawal`. */
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('audit_log_created_idx').on(table.createdAt.desc(), table.id.desc())],
);
