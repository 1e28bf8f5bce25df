// Queries on the audit log: append one row (in the caller's transaction), and list them newest
// first with the back office's filters.
import { and, desc, eq } from 'drizzle-orm';
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
