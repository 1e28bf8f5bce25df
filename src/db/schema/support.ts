// Support tickets: a user's question (with an optional attachment kept by the storage driver) and
// the thread of replies between the user and the support team.
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text } from 'drizzle-orm/pg-core';
import { ticketAuthors, ticketStatuses } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

export const supportTickets = pgTable(
  'support_tickets',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    status: text('status', { enum: ticketStatuses }).notNull().default('open'),
    /** The attachment's storage key (`tickets/…`), null without one. */
    attachmentKey: text('attachment_key'),
    /** The type its content showed (never the client's word). */
    attachmentType: text('attachment_type'),
    /** The client's file name, for the download's Content-Disposition. */
    attachmentName: text('attachment_name'),
    attachmentSize: integer('attachment_size'),
    closedAt: timestamptz('closed_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    index('support_tickets_user_created_idx').on(table.userId, table.createdAt.desc(), table.id.desc()),
    index('support_tickets_status_created_idx').on(table.status, table.createdAt.desc(), table.id.desc()),
    index('support_tickets_created_idx').on(table.createdAt.desc(), table.id.desc()),
    check(
      'support_tickets_attachment_complete',
      sql`(${table.attachmentKey} IS NULL) = (${table.attachmentType} IS NULL)`,
    ),
  ],
);

export const supportTicketReplies = pgTable(
  'support_ticket_replies',
  {
    id: serial('id').primaryKey(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => supportTickets.id, { onDelete: 'cascade' }),
    author: text('author', { enum: ticketAuthors }).notNull(),
    /** Who wrote it: the ticket's owner, or the admin who answered. */
    authorId: integer('author_id')
      .notNull()
      .references(() => users.id),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (table) => [index('support_ticket_replies_ticket_idx').on(table.ticketId, table.id)],
);
