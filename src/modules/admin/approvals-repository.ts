// Queries on the four-eyes approvals: one pending per action and target (a unique partial index),
// locked for a decision, listed for the back office.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { adminApprovals } from '../../db/schema/admin.js';
import type { ApprovalAction, ApprovalStatus } from '../../lib/allowed-values.js';
import type { PageRequest } from '../../lib/pagination.js';

export type ApprovalRow = typeof adminApprovals.$inferSelect;

/** A new pending approval, or undefined when one is already pending for this action and target. */
export async function insertApprovalIfNone(
  db: Executor,
  values: Pick<
    typeof adminApprovals.$inferInsert,
    'action' | 'targetType' | 'targetId' | 'requestedBy' | 'details'
  >,
): Promise<ApprovalRow | undefined> {
  const [row] = await db
    .insert(adminApprovals)
    .values(values)
    .onConflictDoNothing({
      target: [adminApprovals.action, adminApprovals.targetType, adminApprovals.targetId],
      where: sql`${adminApprovals.status} = 'pending'`,
    })
    .returning();
  return row;
}

export async function findApproval(db: Executor, id: number): Promise<ApprovalRow | undefined> {
  const [row] = await db.select().from(adminApprovals).where(eq(adminApprovals.id, id));
  return row;
}

export async function lockApproval(db: Executor, id: number): Promise<ApprovalRow | undefined> {
  const [row] = await db.select().from(adminApprovals).where(eq(adminApprovals.id, id)).for('update');
  return row;
}

/** The pending approval of this action on this target, locked, if any. */
export async function lockPendingApproval(
  db: Executor,
  action: ApprovalAction,
  targetId: number,
): Promise<ApprovalRow | undefined> {
  const [row] = await db
    .select()
    .from(adminApprovals)
    .where(
      and(
        eq(adminApprovals.action, action),
        eq(adminApprovals.targetId, targetId),
        eq(adminApprovals.status, 'pending'),
      ),
    )
    .for('update');
  return row;
}

export async function setApprovalDecision(
  db: Executor,
  id: number,
  decision: { status: Exclude<ApprovalStatus, 'pending'>; decidedBy: number; decidedAt: string },
): Promise<ApprovalRow> {
  const [row] = await db.update(adminApprovals).set(decision).where(eq(adminApprovals.id, id)).returning();
  return row!;
}

export function pageOfApprovals(
  db: Executor,
  filter: { status?: ApprovalStatus },
  page: PageRequest,
): Promise<Paged<ApprovalRow>> {
  return pageOf(
    db,
    adminApprovals,
    {
      where: filter.status === undefined ? undefined : eq(adminApprovals.status, filter.status),
      orderBy: [desc(adminApprovals.createdAt), desc(adminApprovals.id)],
    },
    page,
  );
}
