// Live events (issue 27), first piece: the durable logs. A writer appends its event with `append`
// (a user's log) or `appendAdmin` (the back office's) inside the transaction of the change it
// reports, so an event exists if and only if its change committed; each log's `seq` comes from its
// counter row, locked until that transaction ends, so a log's events commit in seq order and a
// client reading after seq N never misses one. Clients catch up with the history routes.
import type { Static } from 'typebox';
import type { Database, Transaction } from '../../db/client.js';
import type { AdminEventType, UserEventType } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { PER_PAGE_MAX } from '../../lib/pagination.js';
import { DAY_MS, isoTimestamp } from '../../lib/time.js';
import {
  ADMIN_LOG,
  type AdminEventRow,
  adminEventsAfter,
  deleteEventsOf,
  insertAdminEvent,
  insertUserEvent,
  lastSeqOf,
  lastSeqsOf,
  nextSeq,
  notifyAppended,
  purgeEventsBefore,
  scrubPhonesFromAdminEvents,
  type UserEventRow,
  userEventsAfter,
} from './repository.js';
import type { AdminEventSchema, HistoryQuery as HistoryQuerySchema, UserEventSchema } from './schemas.js';

/** An event as clients read it (DESIGN.md "Events"): its seq is its `id`. */
export type EventView = Static<typeof UserEventSchema> | Static<typeof AdminEventSchema>;

export function eventView(row: UserEventRow | AdminEventRow): EventView {
  return { id: row.seq, type: row.type, created_at: isoTimestamp(row.createdAt), data: row.data };
}

type HistoryQuery = Static<typeof HistoryQuerySchema>;

/** How many events a history page holds by default (the most is PER_PAGE_MAX, the schema's). */
export const HISTORY_PER_PAGE = 20;

export interface EventServiceDeps {
  db: Database;
  clock: Clock;
  /** Days an event is kept before housekeeping purges it (EVENTS_RETENTION_DAYS). */
  retentionDays: number;
}

export function createEventService({ db, clock, retentionDays }: EventServiceDeps) {
  async function page(log: number, query: HistoryQuery) {
    const after = query.after ?? 0;
    const perPage = Math.min(query.per_page ?? HISTORY_PER_PAGE, PER_PAGE_MAX);
    const [rows, lastSeq] = await Promise.all([
      log === ADMIN_LOG ? adminEventsAfter(db, after, perPage) : userEventsAfter(db, log, after, perPage),
      lastSeqOf(db, log),
    ]);
    const events = rows.map(eventView);
    const through = events.at(-1)?.id ?? after;
    return {
      events,
      meta: { after, per_page: perPage, last_seq: lastSeq, has_more: through < lastSeq },
    };
  }

  return {
    /** Appends to `userId`'s log in the caller's transaction (never on its own): it commits with the change. */
    async append(tx: Transaction, userId: number, type: UserEventType, data: object): Promise<EventView> {
      const seq = await nextSeq(tx, userId);
      const createdAt = clock.now().toISOString();
      const event = eventView(
        await insertUserEvent(tx, { userId, seq, type, data: data as Record<string, unknown>, createdAt }),
      );
      await notifyAppended(tx, userId, event);
      return event;
    },

    /** Appends to the back office's log, in the caller's transaction. */
    async appendAdmin(tx: Transaction, type: AdminEventType, data: object): Promise<EventView> {
      const seq = await nextSeq(tx, ADMIN_LOG);
      const createdAt = clock.now().toISOString();
      const event = eventView(
        await insertAdminEvent(tx, { seq, type, data: data as Record<string, unknown>, createdAt }),
      );
      await notifyAppended(tx, ADMIN_LOG, event);
      return event;
    },

    /** A user's events after `after`, ascending by seq. */
    history(user: { id: number }, query: HistoryQuery) {
      return page(user.id, query);
    },

    /** The back office's events after `after`, ascending by seq. */
    adminHistory(query: HistoryQuery) {
      return page(ADMIN_LOG, query);
    },

    /**
     * The last seq of each user's log (0 for a log without events): where a new push device starts
     * following it, and how the push sender finds devices behind their owner's log.
     */
    async lastSeqs(userIds: number[]): Promise<Map<number, number>> {
      const found = await lastSeqsOf(db, userIds);
      return new Map(userIds.map((id) => [id, found.get(id) ?? 0]));
    },

    /** Deletes the events older than the retention; the counters stay, so no seq is ever reused. */
    /** In an account deletion's transaction: the user's log, and the ticket events naming them, deleted. */
    forgetUser(tx: Transaction, userId: number): Promise<void> {
      return deleteEventsOf(tx, userId);
    },

    /** An account's deletion: its phones leave the back office's events (which stay). */
    forgetPhones(tx: Transaction, phones: readonly string[]): Promise<void> {
      return scrubPhonesFromAdminEvents(tx, phones);
    },

    purgeExpired(): Promise<number> {
      return purgeEventsBefore(db, new Date(clock.now().getTime() - retentionDays * DAY_MS));
    },
  };
}

export type EventService = ReturnType<typeof createEventService>;
/** How listeners of the `event_appended` channel read its payload (the streams, the push sender). */
export { appendedNotice } from './repository.js';
/** What a writer needs: append to a user's log in its own transaction. */
export type UserEventLog = Pick<EventService, 'append'>;
/** What a back-office writer needs. */
export type AdminEventLog = Pick<EventService, 'appendAdmin'>;
