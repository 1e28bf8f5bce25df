// Queries on support tickets and their replies: the owner or the back office's filters in the
// WHERE, newest first; replies of a page of tickets in one query.
import { and, asc, count, desc, eq, gte, inArray, lt, ne, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { supportTicketReplies, supportTickets } from '../../db/schema/support.js';
import type { TicketStatus } from '../../lib/allowed-values.js';
import type { PageRequest } from '../../lib/pagination.js';

export type TicketRow = typeof supportTickets.$inferSelect;
export type ReplyRow = typeof supportTicketReplies.$inferSelect;

export interface TicketFilter {
  userId?: number;
  status?: TicketStatus;
  /** ISO instant, inclusive. */
  from?: string;
  /** ISO instant, exclusive. */
  before?: string;
}

/** Key of the advisory lock that makes one user's ticket creations run one at a time (the open-ticket cap). */
const TICKET_CREATION_LOCK = 727_012;

export async function lockTicketCreation(db: Executor, userId: number): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${TICKET_CREATION_LOCK}, ${userId})`);
}

export async function countUnclosedTickets(db: Executor, userId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(supportTickets)
    .where(and(eq(supportTickets.userId, userId), ne(supportTickets.status, 'closed')));
  return Number(row?.total ?? 0);
}

export async function insertTicket(
  db: Executor,
  values: Pick<
    typeof supportTickets.$inferInsert,
    | 'userId'
    | 'subject'
    | 'message'
    | 'attachmentKey'
    | 'attachmentType'
    | 'attachmentName'
    | 'attachmentSize'
  >,
): Promise<TicketRow> {
  const [row] = await db.insert(supportTickets).values(values).returning();
  return row!;
}

export async function findTicket(db: Executor, id: number): Promise<TicketRow | undefined> {
  const [row] = await db.select().from(supportTickets).where(eq(supportTickets.id, id)).limit(1);
  return row;
}

/** The ticket, locked until the caller's transaction ends: replies and closings apply one at a time. */
export async function lockTicket(db: Executor, id: number): Promise<TicketRow | undefined> {
  const [row] = await db
    .select()
    .from(supportTickets)
    .where(eq(supportTickets.id, id))
    .for('update')
    .limit(1);
  return row;
}

export async function setTicketStatus(db: Executor, id: number, status: TicketStatus): Promise<TicketRow> {
  const [row] = await db
    .update(supportTickets)
    .set({
      status,
      updatedAt: sql`now()`,
      ...(status === 'closed' ? { closedAt: sql`now()` } : {}),
    })
    .where(eq(supportTickets.id, id))
    .returning();
  return row!;
}

export async function insertReply(
  db: Executor,
  values: Pick<typeof supportTicketReplies.$inferInsert, 'ticketId' | 'author' | 'authorId' | 'message'>,
): Promise<ReplyRow> {
  const [row] = await db.insert(supportTicketReplies).values(values).returning();
  return row!;
}

export async function countReplies(db: Executor, ticketId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(supportTicketReplies)
    .where(eq(supportTicketReplies.ticketId, ticketId));
  return Number(row?.total ?? 0);
}

/** The replies of these tickets, oldest first within each. */
export async function repliesOf(db: Executor, ticketIds: number[]): Promise<ReplyRow[]> {
  if (ticketIds.length === 0) return [];
  return db
    .select()
    .from(supportTicketReplies)
    .where(inArray(supportTicketReplies.ticketId, ticketIds))
    .orderBy(asc(supportTicketReplies.id));
}

function filterConditions(filter: TicketFilter) {
  return and(
    filter.userId !== undefined ? eq(supportTickets.userId, filter.userId) : undefined,
    filter.status !== undefined ? eq(supportTickets.status, filter.status) : undefined,
    filter.from !== undefined ? gte(supportTickets.createdAt, filter.from) : undefined,
    filter.before !== undefined ? lt(supportTickets.createdAt, filter.before) : undefined,
  );
}

/** One page of supportTickets, with the filter's total. */
export function pageOfTickets(
  db: Executor,
  filter: TicketFilter,
  page: PageRequest,
): Promise<Paged<TicketRow>> {
  return pageOf(
    db,
    supportTickets,
    { where: filterConditions(filter), orderBy: [desc(supportTickets.createdAt), desc(supportTickets.id)] },
    page,
  );
}

/** Deletes the user's tickets (their replies go with them); returns their attachments' storage keys. */
export async function deleteTicketsOf(
  db: Executor,
  userId: number,
): Promise<{ tickets: number; keys: string[] }> {
  const rows = await db
    .delete(supportTickets)
    .where(eq(supportTickets.userId, userId))
    .returning({ key: supportTickets.attachmentKey });
  return { tickets: rows.length, keys: rows.flatMap((row) => (row.key ? [row.key] : [])) };
}

/** A page of the user's tickets, by id, for the data export. */
export async function ticketsForExport(
  db: Executor,
  userId: number,
  afterId: number,
  limit: number,
): Promise<TicketRow[]> {
  return db
    .select()
    .from(supportTickets)
    .where(and(eq(supportTickets.userId, userId), sql`${supportTickets.id} > ${afterId}`))
    .orderBy(asc(supportTickets.id))
    .limit(limit);
}
