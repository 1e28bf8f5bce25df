// Queries on the audit log: append one row (in the caller's transaction), and list them newest
// first with the back office's filters.
import { and, count, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { auditLog } from '../../db/schema/admin.js';

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

export async function listAuditRows(
  db: Executor,
  filter: AuditFilter,
  page: { limit: number; offset: number },
): Promise<AuditRow[]> {
  return db
    .select()
    .from(auditLog)
    .where(filterConditions(filter))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(page.limit)
    .offset(page.offset);
}

export async function countAuditRows(db: Executor, filter: AuditFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(auditLog).where(filterConditions(filter));
  return Number(row?.total ?? 0);
}
