// What admins did: one audit row per action, written in the same transaction as its effect.
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { approvalActions, approvalStatuses, approvalTargetTypes } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
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

/**
 * Four eyes (DESIGN, "Admin routes and the back office"): an action one admin asked for that waits
 * for a second, different admin to confirm or reject it. One pending approval per action and target.
 */
export const adminApprovals = pgTable(
  'admin_approvals',
  {
    id: serial('id').primaryKey(),
    action: text('action', { enum: approvalActions }).notNull(),
    targetType: text('target_type', { enum: approvalTargetTypes }).notNull(),
    targetId: integer('target_id').notNull(),
    requestedBy: integer('requested_by')
      .notNull()
      .references(() => users.id),
    status: text('status', { enum: approvalStatuses }).notNull().default('pending'),
    decidedBy: integer('decided_by').references(() => users.id),
    decidedAt: timestamptz('decided_at'),
    /** What the requester said with it (a withdrawal's approval note), carried to the effect. */
    details: jsonb('details').$type<Record<string, unknown>>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('admin_approvals_pending_unique')
      .on(table.action, table.targetType, table.targetId)
      .where(sql`${table.status} = 'pending'`),
    index('admin_approvals_status_created_idx').on(table.status, table.createdAt.desc(), table.id.desc()),
  ],
);
