// Queries on user accounts.
import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type UserRole, users } from '../../db/schema/index.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByPhone(db: Executor, phone: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.phone, phone)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** Inserts the account unless the phone has one; returns the new row, or undefined when it existed. */
export async function insertUserIfAbsent(
  db: Executor,
  values: { phone: string; country: string; affiliationCode: string },
): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.phone })
    .returning();
  return row;
}

export async function affiliationCodeTaken(db: Executor, code: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.affiliationCode, code)).limit(1);
  return row !== undefined;
}

export async function setUserRole(db: Executor, id: number, role: UserRole): Promise<void> {
  await db.update(users).set({ role }).where(eq(users.id, id));
}

export async function updateUserProfile(
  db: Executor,
  id: number,
  changes: { name?: string; username?: string },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** The user's row, locked until the caller's transaction ends (two avatar uploads apply one after the other). */
export async function lockUser(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update').limit(1);
  return row;
}

export async function setAvatarPath(db: Executor, id: number, avatarPath: string): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ avatarPath, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}
