// The admin groundwork: the audit log. Every admin action calls `record` inside its own transaction,
// so the audit row and the effect commit (or roll back) together; the back office lists them.
import type { Static } from 'typebox';
import type { Database, Transaction } from '../../db/client.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import { type AuditRow, insertAuditRow, pageOfAuditRows, scrubPhonesFromAudit } from './repository.js';
import type { AuditEntrySchema, AuditQuery } from './schemas.js';

/** What an admin did, to what; `details` holds what a person needs to understand it later (before/after, reason). */
export interface AuditEntry {
  adminId: number;
  /** `<target>.<verb>`, e.g. `pack.create`, `withdrawal.approve`. */
  action: string;
  /** e.g. `pack`, `user`, `withdrawal`. */
  targetType: string;
  targetId: number | string | null;
  details: Record<string, unknown>;
}

function auditView(row: AuditRow): Static<typeof AuditEntrySchema> {
  return {
    id: row.id,
    admin_id: row.adminId,
    action: row.action,
    target_type: row.targetType,
    target_id: row.targetId,
    details: row.details,
    created_at: isoTimestamp(row.createdAt),
  };
}

export interface AdminServiceDeps {
  db: Database;
}

export function createAdminService({ db }: AdminServiceDeps) {
  return {
    /** Appends the audit row of an action, in the action's own transaction (never on its own). */
    async record(tx: Transaction, entry: AuditEntry): Promise<void> {
      await insertAuditRow(tx, {
        adminId: entry.adminId,
        action: entry.action,
        targetType: entry.targetType,
        targetId: entry.targetId === null ? null : String(entry.targetId),
        details: entry.details,
      });
    },

    /**
     * An account's deletion: its phones (the account's, and the numbers it paid with or withdrew to)
     * leave every audit row's details, in the deletion's transaction; how many rows changed.
     */
    forgetPhones(tx: Transaction, phones: readonly string[]): Promise<number> {
      return scrubPhonesFromAudit(tx, phones);
    },

    /** The audit log, newest first, optionally only one action or one kind of target. */
    async listAudit(query: Static<typeof AuditQuery>) {
      const page = pageRequest(query);
      const filter = { action: query.action, targetType: query.target_type };
      const { rows, total } = await pageOfAuditRows(db, filter, page);
      return { entries: rows.map(auditView), meta: pageMeta(page, total) };
    },
  };
}

export type AdminService = ReturnType<typeof createAdminService>;
/** What other modules need to write their audit rows. */
export type AuditRecorder = Pick<AdminService, 'record'>;
