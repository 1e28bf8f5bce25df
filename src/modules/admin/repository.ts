// Queries on the audit log: append one row (in the caller's transaction), and list them newest
// first with the back office's filters.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { auditLog } from '../../db/schema/admin.js';
import type { PageRequest } from '../../lib/pagination.js';

export type AuditRow = typeof auditLog.$inferSelect;

export interface AuditFilter {
  action?: string;
  targetType?: string;
}

export async function insertAuditRow(
  db: Executor,
  values: Pick<typeof auditLog.$inferInsert, 'adminId' | 'action' | 'targetType' | 'targetId' | 'details'>,
): Promise<AuditRow> {
  const [row] = await db.insert(auditLog).values(values).returning();
  return row!;
}

function filterConditions(filter: AuditFilter) {
  return and(
    filter.action !== undefined ? eq(auditLog.action, filter.action) : undefined,
    filter.targetType !== undefined ? eq(auditLog.targetType, filter.targetType) : undefined,
  );
}

/** One page of auditLog, with the filter's total. */
export function pageOfAuditRows(
  db: Executor,
  filter: AuditFilter,
  page: PageRequest,
): Promise<Paged<AuditRow>> {
  return pageOf(
    db,
    auditLog,
    { where: filterConditions(filter), orderBy: [desc(auditLog.createdAt), desc(auditLog.id)] },
    page,
  );
}

/**
 * Takes these phones out of every audit row's details (an account's deletion): each one, in its
 * E.164 form or its digits alone, becomes ''. The rows stay (what was done, by whom), without the
 * number. Phones are E.164, so the text replaced is never JSON syntax.
 */
export async function scrubPhonesFromAudit(db: Executor, phones: readonly string[]): Promise<number> {
  let changed = 0;
  for (const phone of phones) {
    for (const form of phone.startsWith('+') ? [phone, phone.slice(1)] : [phone]) {
      if (form.length < 8) continue;
      const rows = await db
        .update(auditLog)
        .set({ details: sql`replace(${auditLog.details}::text, ${form}, '')::jsonb` })
        .where(sql`strpos(${auditLog.details}::text, ${form}) > 0`)
        .returning({ id: auditLog.id });
      changed += rows.length;
    }
  }
  return changed;
}
