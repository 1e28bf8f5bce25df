// Queries on push_devices: register (one row per token, moved to its new owner), the per-user cap,
// forget, and the push sender's claim, progress and release of a user's devices.
import { and, asc, desc, eq, gt, isNull, lt, lte, min, ne, notInArray, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { pushDevices } from '../../db/schema/devices.js';
import type { PushPlatform } from '../../lib/allowed-values.js';

export type DeviceRow = typeof pushDevices.$inferSelect;

/** Key of the advisory lock that makes one user's registrations run one at a time (the per-user cap). */
const DEVICE_REGISTRATION_LOCK = 727_027;

export async function lockRegistrations(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${DEVICE_REGISTRATION_LOCK}, ${userId})`);
}

/** Removes the token from any other account (a phone that changed hands); how many rows. */
export async function deleteTokenOfOthers(db: Executor, token: string, userId: number): Promise<number> {
  const rows = await db
    .delete(pushDevices)
    .where(and(eq(pushDevices.token, token), ne(pushDevices.userId, userId)))
    .returning({ id: pushDevices.id });
  return rows.length;
}

/**
 * Inserts the device, or refreshes the user's own row for this token (its id and cursor kept).
 * Undefined when the token is, at this instant, another user's (a registration racing this one).
 */
export async function upsertDevice(
  db: Executor,
  values: { userId: number; token: string; platform: PushPlatform; registeredAt: string; pushedSeq: number },
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .insert(pushDevices)
    .values(values)
    .onConflictDoUpdate({
      target: pushDevices.token,
      set: { platform: values.platform, registeredAt: values.registeredAt },
      setWhere: eq(pushDevices.userId, values.userId),
    })
    .returning();
  return row;
}

/** Forgets the user's devices past the `keep` most recently registered; how many. */
export async function deleteBeyondNewest(db: Executor, userId: number, keep: number): Promise<number> {
  const newest = db
    .select({ id: pushDevices.id })
    .from(pushDevices)
    .where(eq(pushDevices.userId, userId))
    .orderBy(desc(pushDevices.registeredAt), desc(pushDevices.id))
    .limit(keep);
  const rows = await db
    .delete(pushDevices)
    .where(and(eq(pushDevices.userId, userId), notInArray(pushDevices.id, newest)))
    .returning({ id: pushDevices.id });
  return rows.length;
}

/** A user's devices, most recently registered first (the owner in the WHERE). */
export function devicesOf(db: Executor, userId: number): Promise<DeviceRow[]> {
  return db
    .select()
    .from(pushDevices)
    .where(eq(pushDevices.userId, userId))
    .orderBy(desc(pushDevices.registeredAt), desc(pushDevices.id));
}

/** Deletes one of the user's devices; false when the user has none with this id. */
export async function deleteDevice(db: Executor, userId: number, id: number): Promise<boolean> {
  const rows = await db
    .delete(pushDevices)
    .where(and(eq(pushDevices.id, id), eq(pushDevices.userId, userId)))
    .returning({ id: pushDevices.id });
  return rows.length > 0;
}

export async function deleteDevicesOf(db: Executor, userId: number): Promise<number> {
  const rows = await db
    .delete(pushDevices)
    .where(eq(pushDevices.userId, userId))
    .returning({ id: pushDevices.id });
  return rows.length;
}

/** A device the provider says is gone (the push sender prunes it). */
export async function deleteDeviceById(db: Executor, id: number): Promise<void> {
  await db.delete(pushDevices).where(eq(pushDevices.id, id));
}

/** Not leased by a live sender, and not waiting for a retry. */
const free = (now: string) =>
  and(
    or(isNull(pushDevices.leaseUntil), lt(pushDevices.leaseUntil, now)),
    or(isNull(pushDevices.retryAt), lte(pushDevices.retryAt, now)),
  );

/**
 * Leases the user's devices that are free and behind `head` (the log's last seq) until
 * `leaseUntil`; another sender's live lease, or a retry not yet due, leaves a device out.
 */
export function claimDevices(
  db: Executor,
  userId: number,
  head: number,
  now: string,
  leaseUntil: string,
): Promise<DeviceRow[]> {
  return db
    .update(pushDevices)
    .set({ leaseUntil })
    .where(and(eq(pushDevices.userId, userId), lt(pushDevices.pushedSeq, head), free(now)))
    .returning();
}

/**
 * Moves a device's cursor forward (never back: a sender whose lease ran out cannot undo another's
 * progress) and keeps or gives back its lease.
 */
export async function advanceDevice(
  db: Executor,
  id: number,
  pushedSeq: number,
  leaseUntil: string | null,
): Promise<void> {
  await db
    .update(pushDevices)
    .set({
      pushedSeq: sql`greatest(${pushDevices.pushedSeq}, ${pushedSeq})`,
      attempts: sql`case when ${pushDevices.pushedSeq} < ${pushedSeq} then 0 else ${pushDevices.attempts} end`,
      retryAt: null,
      leaseUntil,
    })
    .where(eq(pushDevices.id, id));
}

/** A retryable failure: no push to this device before `retryAt`; its lease is given back. */
export async function postponeDevice(
  db: Executor,
  id: number,
  pushedSeq: number,
  attempts: number,
  retryAt: string,
): Promise<void> {
  await db
    .update(pushDevices)
    .set({
      pushedSeq: sql`greatest(${pushDevices.pushedSeq}, ${pushedSeq})`,
      attempts,
      retryAt,
      leaseUntil: null,
    })
    .where(eq(pushDevices.id, id));
}

/**
 * The users holding a free device, after `afterUserId` in id order, with their furthest-behind
 * free device's cursor: the push sender's scan compares it to each log's last seq.
 */
export function usersWithFreeDevices(db: Executor, afterUserId: number, limit: number, now: string) {
  return db
    .select({ userId: pushDevices.userId, behind: min(pushDevices.pushedSeq) })
    .from(pushDevices)
    .where(and(gt(pushDevices.userId, afterUserId), free(now)))
    .groupBy(pushDevices.userId)
    .orderBy(asc(pushDevices.userId))
    .limit(limit);
}

/** The earliest retry still ahead (the push sender sets its timer for it). */
export async function nextRetryAt(db: Executor, now: string): Promise<string | undefined> {
  const [row] = await db
    .select({ at: min(pushDevices.retryAt) })
    .from(pushDevices)
    .where(gt(pushDevices.retryAt, now));
  return row?.at ?? undefined;
}
