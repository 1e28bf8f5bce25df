// Queries on the credit packs: the active ones by price for users, all of them newest first for the
// back office, and the row locks an admin edit takes so its audit row describes what it changed.
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { packs } from '../../db/schema/money.js';
import type { PageRequest } from '../../lib/pagination.js';

export type PackRow = typeof packs.$inferSelect;
export type PackChanges = Partial<Pick<PackRow, 'name' | 'credits' | 'price' | 'active'>>;

export async function listActivePacks(db: Executor): Promise<PackRow[]> {
  return db.select().from(packs).where(eq(packs.active, true)).orderBy(asc(packs.price), asc(packs.id));
}

export async function findActivePack(db: Executor, id: number): Promise<PackRow | undefined> {
  const [row] = await db
    .select()
    .from(packs)
    .where(and(eq(packs.id, id), eq(packs.active, true)))
    .limit(1);
  return row;
}

/** One page of packs, with the filter's total. */
export function pageOfPacks(db: Executor, page: PageRequest): Promise<Paged<PackRow>> {
  return pageOf(db, packs, { where: undefined, orderBy: [desc(packs.createdAt), desc(packs.id)] }, page);
}

/** The pack, locked until the caller's transaction ends: two admins' edits apply one after the other. */
export async function lockPack(db: Executor, id: number): Promise<PackRow | undefined> {
  const [row] = await db.select().from(packs).where(eq(packs.id, id)).for('update').limit(1);
  return row;
}

export async function insertPack(
  db: Executor,
  values: Pick<typeof packs.$inferInsert, 'name' | 'credits' | 'price'>,
): Promise<PackRow> {
  const [row] = await db.insert(packs).values(values).returning();
  return row!;
}

export async function updatePack(db: Executor, id: number, changes: PackChanges): Promise<PackRow> {
  const [row] = await db
    .update(packs)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(packs.id, id))
    .returning();
  return row!;
}
