// Queries on the event logs: hand out the next seq of a log under its counter row's lock, append an
// event, read a log after a seq, and purge what is past the retention.
import { and, asc, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import { channels } from '../../db/channels.js';
import type { Executor } from '../../db/client.js';
import { adminEvents, eventCounters, userEvents } from '../../db/schema/events.js';
import type { AdminEventType, UserEventType } from '../../lib/allowed-values.js';

export type UserEventRow = typeof userEvents.$inferSelect;
export type AdminEventRow = typeof adminEvents.$inferSelect;

/** The back office's log has counter row 0 (no account has id 0: ids are serial from 1). */
export const ADMIN_LOG = 0;

/**
 * The next seq of a log. The upsert locks the counter row until the caller's transaction ends, so a
 * second writer to the same log waits here and gets the next number only once the first committed
 * (or gets the same number, if the first rolled back): seqs commit in order, with no gap.
 */
export async function nextSeq(db: Executor, log: number): Promise<number> {
  const [row] = await db
    .insert(eventCounters)
    .values({ userId: log, lastSeq: 1 })
    .onConflictDoUpdate({ target: eventCounters.userId, set: { lastSeq: sql`${eventCounters.lastSeq} + 1` } })
    .returning({ seq: eventCounters.lastSeq });
  return row!.seq;
}

export async function insertUserEvent(
  db: Executor,
  values: {
    userId: number;
    seq: number;
    type: UserEventType;
    data: Record<string, unknown>;
    createdAt: string;
  },
): Promise<UserEventRow> {
  const [row] = await db.insert(userEvents).values(values).returning();
  return row!;
}

export async function insertAdminEvent(
  db: Executor,
  values: { seq: number; type: AdminEventType; data: Record<string, unknown>; createdAt: string },
): Promise<AdminEventRow> {
  const [row] = await db.insert(adminEvents).values(values).returning();
  return row!;
}

/** A user's events after `after`, ascending, at most `limit` (the owner in the WHERE). */
export function userEventsAfter(db: Executor, userId: number, after: number, limit: number) {
  return db
    .select()
    .from(userEvents)
    .where(and(eq(userEvents.userId, userId), gt(userEvents.seq, after)))
    .orderBy(asc(userEvents.seq))
    .limit(limit);
}

export function adminEventsAfter(db: Executor, after: number, limit: number) {
  return db
    .select()
    .from(adminEvents)
    .where(gt(adminEvents.seq, after))
    .orderBy(asc(adminEvents.seq))
    .limit(limit);
}

/** The last seq a log handed out (0 when none), so a history page can say whether more follow. */
export async function lastSeqOf(db: Executor, log: number): Promise<number> {
  const [row] = await db
    .select({ lastSeq: eventCounters.lastSeq })
    .from(eventCounters)
    .where(eq(eventCounters.userId, log));
  return row?.lastSeq ?? 0;
}

/** The last seq of each of these logs (a log that never had an event is absent). */
export async function lastSeqsOf(db: Executor, logs: number[]): Promise<Map<number, number>> {
  if (logs.length === 0) return new Map();
  const rows = await db
    .select({ log: eventCounters.userId, lastSeq: eventCounters.lastSeq })
    .from(eventCounters)
    .where(inArray(eventCounters.userId, logs));
  return new Map(rows.map((row) => [row.log, row.lastSeq]));
}

/** Deletes both logs' events created before `before`; the counters stay, so no seq is reused. */
export async function purgeEventsBefore(db: Executor, before: Date): Promise<number> {
  const iso = before.toISOString();
  const users = await db
    .delete(userEvents)
    .where(lt(userEvents.createdAt, iso))
    .returning({ seq: userEvents.seq });
  const admins = await db
    .delete(adminEvents)
    .where(lt(adminEvents.createdAt, iso))
    .returning({ seq: adminEvents.seq });
  return users.length + admins.length;
}

/**
 * Wakes the streams of a log in every process: pg_notify inside the writing transaction is
 * delivered only when it commits (never on a rollback), to every process listening.
 */
/** PostgreSQL refuses a notification payload of 8,000 bytes or more; past this, only the ids go. */
const NOTIFY_PAYLOAD_MAX_BYTES = 7_900;

/**
 * Announces an appended event when the writer's transaction commits: `<log>:<seq>:<event JSON>`, or
 * `<log>:<seq>` alone when the event is too big to ride along (its readers then read the log).
 */
/** An `event_appended` payload read back: the log, the seq, and the event's JSON when it rode along. */
export function appendedNotice(payload: string): { log: number; seq: number; event: string | undefined } {
  const first = payload.indexOf(':');
  const second = payload.indexOf(':', first + 1);
  return {
    log: Number(payload.slice(0, first)),
    seq: Number(second < 0 ? payload.slice(first + 1) : payload.slice(first + 1, second)),
    event: second < 0 ? undefined : payload.slice(second + 1),
  };
}

export async function notifyAppended(db: Executor, log: number, event: { id: number }): Promise<void> {
  const ids = `${log}:${event.id}`;
  const full = `${ids}:${JSON.stringify(event)}`;
  const payload = Buffer.byteLength(full) < NOTIFY_PAYLOAD_MAX_BYTES ? full : ids;
  await db.execute(sql`SELECT pg_notify(${channels.eventAppended}, ${payload})`);
}

/**
 * The account is deleted: its own log and counter, and the back office's ticket events naming it
 * (their tickets are deleted with it), are deleted. Withdrawal and flag events stay: they report
 * financial records, which are kept.
 */
export async function deleteEventsOf(db: Executor, userId: number): Promise<void> {
  await db.delete(userEvents).where(eq(userEvents.userId, userId));
  await db.delete(eventCounters).where(eq(eventCounters.userId, userId));
  await db
    .delete(adminEvents)
    .where(
      and(
        sql`${adminEvents.type} IN ('ticket.created', 'ticket.replied')`,
        sql`${adminEvents.data} ->> 'user_id' = ${String(userId)}`,
      ),
    );
}

/**
 * Takes these phones out of the back office's events (a `withdrawal.requested` names its receiving
 * number), at an account's deletion: each one, E.164 or its digits alone, becomes ''.
 */
export async function scrubPhonesFromAdminEvents(db: Executor, phones: readonly string[]): Promise<void> {
  for (const phone of phones) {
    for (const form of phone.startsWith('+') ? [phone, phone.slice(1)] : [phone]) {
      if (form.length < 8) continue;
      await db
        .update(adminEvents)
        .set({ data: sql`replace(${adminEvents.data}::text, ${form}, '')::jsonb` })
        .where(sql`strpos(${adminEvents.data}::text, ${form}) > 0`);
    }
  }
}
