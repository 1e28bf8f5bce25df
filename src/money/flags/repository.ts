// The flags' queries, on their table (`flags`).
import { and, count, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { flags } from '../../db/schema/money.js';
import type { FlagKind, FlagStatus, FlagTargetType } from '../../lib/allowed-values.js';
import type { PageRequest } from '../../lib/pagination.js';

export type FlagRow = typeof flags.$inferSelect;
export type NewFlag = typeof flags.$inferInsert;

/**
 * Inserts the flag unless this kind is open on this target, or this provider event already raised
 * it (the unique indexes), or, for news that came with no event, a flag of this kind on this target
 * already said the same (`details`); the row when it is new. The caller holds the target's row lock.
 */
export async function insertFlag(db: Executor, values: NewFlag): Promise<FlagRow | undefined> {
  if (values.providerEvent == null) {
    const [said] = await db
      .select({ id: flags.id })
      .from(flags)
      .where(
        and(
          eq(flags.kind, values.kind),
          eq(flags.targetType, values.targetType),
          eq(flags.targetId, values.targetId),
          sql`${flags.details} = ${JSON.stringify(values.details)}::jsonb`,
        ),
      )
      .limit(1);
    if (said) return undefined;
  }
  const [row] = await db.insert(flags).values(values).onConflictDoNothing().returning();
  return row;
}

export interface FlagFilter {
  status?: FlagStatus;
  kind?: FlagKind;
  targetType?: FlagTargetType;
}

function conditions(filter: FlagFilter) {
  return and(
    filter.status ? eq(flags.status, filter.status) : undefined,
    filter.kind ? eq(flags.kind, filter.kind) : undefined,
    filter.targetType ? eq(flags.targetType, filter.targetType) : undefined,
  );
}

/** Open flags first, then newest first. */
export function pageOfFlags(db: Executor, filter: FlagFilter, page: PageRequest): Promise<Paged<FlagRow>> {
  return pageOf(
    db,
    flags,
    {
      where: conditions(filter),
      orderBy: [sql`${flags.status} = 'open' DESC`, desc(flags.createdAt), desc(flags.id)],
    },
    page,
  );
}

export async function countFlags(db: Executor, filter: FlagFilter): Promise<number> {
  const [row] = await db.select({ total: count() }).from(flags).where(conditions(filter));
  return Number(row?.total ?? 0);
}

/** The mismatch a payment failed on (its `amount_mismatch` or `currency_mismatch` flag, open or not), if any. */
export async function paymentMismatchOf(
  db: Executor,
  paymentId: number,
): Promise<'amount_mismatch' | 'currency_mismatch' | undefined> {
  const [row] = await db
    .select({ kind: flags.kind })
    .from(flags)
    .where(
      and(
        eq(flags.targetType, 'payment'),
        eq(flags.targetId, paymentId),
        sql`${flags.kind} IN ('amount_mismatch', 'currency_mismatch')`,
      ),
    )
    .orderBy(flags.id)
    .limit(1);
  return row?.kind as 'amount_mismatch' | 'currency_mismatch' | undefined;
}

export async function lockFlag(db: Executor, id: number): Promise<FlagRow | undefined> {
  const [row] = await db.select().from(flags).where(eq(flags.id, id)).for('update');
  return row;
}

export async function resolveFlagRow(
  db: Executor,
  id: number,
  resolution: { note: string; resolvedBy: number },
): Promise<FlagRow> {
  const [row] = await db
    .update(flags)
    .set({
      status: 'resolved',
      note: resolution.note,
      resolvedBy: resolution.resolvedBy,
      resolvedAt: sql`now()`,
    })
    .where(eq(flags.id, id))
    .returning();
  return row!;
}
