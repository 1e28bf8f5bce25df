// Support tickets: a user opens one (subject, message, an optional attachment kept by the storage
// driver), both sides reply, either side closes it. Statuses: `open` → `answered` on a support reply
// → `open` again on a user reply; `closed` for good (a reply to it is a 409). Each admin action and
// its audit row are one transaction. An attachment is stored before its ticket row (its type decided
// by its content while it streams) and removed if the row is not written, so a failed creation
// leaves neither file nor row.
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Database, Transaction } from '../../db/client.js';
import type { TicketAuthor, TicketStatus } from '../../lib/allowed-values.js';
import { dayRange } from '../../lib/day-range.js';
import {
  type FieldErrors,
  NotFound,
  NotOwner,
  RateLimited,
  TicketClosed,
  ValidationFailed,
} from '../../lib/errors.js';
import { messages, validationMessages } from '../../lib/messages.js';
import { pageMeta, pageRequest } from '../../lib/pagination.js';
import { isoTimestamp } from '../../lib/time.js';
import { discardUpload, isUploadFailure, sniffUpload } from '../../lib/uploads.js';
import type { StorageDriver, StoredFile } from '../../providers/storage/index.js';
import type { AuditRecorder } from '../admin/service.js';
import type { AdminEventLog, UserEventLog } from '../events/service.js';
import {
  countReplies,
  countUnclosedTickets,
  deleteTicketsOf,
  findTicket,
  insertReply,
  insertTicket,
  lockTicket,
  lockTicketCreation,
  pageOfTickets,
  type ReplyRow,
  repliesOf,
  setTicketStatus,
  type TicketFilter,
  type TicketRow,
  ticketsForExport,
} from './repository.js';
import {
  type AdminTicketListQuery,
  type AdminTicketSchema,
  MESSAGE_LENGTH,
  REPLY_LENGTH,
  type ReplySchema,
  SUBJECT_LENGTH,
  type TicketListQuery,
  type TicketSchema,
} from './schemas.js';

/** Tickets a user may hold not yet closed; past it a new one is a 429 (lifted by RATE_LIMIT=off). */
export const MAX_UNCLOSED_TICKETS = 5;
/** Messages in one ticket's thread; past it the user opens a new ticket. */
export const MAX_REPLIES_PER_TICKET = 100;
export const ATTACHMENT_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/webp',
  'application/pdf',
];
/** The cap counts tickets, not time: a client may try again once one is answered or closed. */
const UNCLOSED_RETRY_AFTER_SECONDS = 3600;

/** An attachment stored for a ticket about to be created. */
export interface StoredAttachment {
  key: string;
  contentType: string;
  name: string;
  size: number;
}

/** What the multipart form gave: the text fields (as sent) and the attachment, if any. */
export interface TicketForm {
  subject?: string;
  message?: string;
}

/** Reads the form, handing the attachment's stream to `storeAttachment` as it arrives. */
export type TicketFormReader = (
  storeAttachment: (source: Readable, fileName: string) => Promise<void>,
) => Promise<TicketForm>;

function replyView(row: ReplyRow): Static<typeof ReplySchema> {
  return { id: row.id, message: row.message, author: row.author, created_at: isoTimestamp(row.createdAt) };
}

export type TicketView = Static<typeof TicketSchema>;
export type AdminTicketView = Static<typeof AdminTicketSchema>;

export const attachmentPath = (ticketId: number) => `/api/user/support/ticket/${ticketId}/attachment`;

function ticketView(row: TicketRow, replies: ReplyRow[]): TicketView {
  return {
    id: row.id,
    subject: row.subject,
    message: row.message,
    status: row.status,
    attachment:
      row.attachmentKey && row.attachmentType
        ? {
            name: row.attachmentName ?? 'piece-jointe',
            content_type: row.attachmentType,
            size: row.attachmentSize ?? 0,
            url: attachmentPath(row.id),
          }
        : null,
    replies: replies.map(replyView),
    created_at: isoTimestamp(row.createdAt),
  };
}

/** Who a ticket is from, as the back office shows it. */
export interface TicketAccount {
  /** Null once the account is deleted. */
  phone: string | null;
  name: string | null;
  username: string | null;
}

function adminTicketView(
  row: TicketRow,
  replies: ReplyRow[],
  account: TicketAccount | undefined,
): AdminTicketView {
  return {
    ...ticketView(row, replies),
    user_id: row.userId,
    user: {
      id: row.userId,
      phone: account?.phone ?? null,
      name: account?.name ?? null,
      username: account?.username ?? null,
    },
    updated_at: isoTimestamp(row.updatedAt),
  };
}

/** The text as stored: trimmed, then within its lengths; else the field's 422 message. */
function checkedText(
  errors: FieldErrors,
  field: string,
  value: string | undefined,
  length: { min: number; max: number },
): string {
  const text = value?.trim() ?? '';
  if (value === undefined) errors[field] = [validationMessages.required(field)];
  else if (text.length < length.min) errors[field] = [validationMessages.minLength(field, length.min)];
  else if (text.length > length.max) errors[field] = [validationMessages.maxLength(field, length.max)];
  return text;
}

/** The client's file name, kept for the download: no path, no control character, 255 characters at most. */
function cleanFileName(name: string, ext: string): string {
  const base = (name.split(/[\\/]/).pop() ?? '')
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed.
    .replace(/[\u0000-\u001f\u007f"]/g, '')
    // Half a surrogate pair cannot be stored as text.
    .replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '')
    .trim()
    .slice(-255);
  return base.length > 0 ? base : `piece-jointe.${ext}`;
}

export interface SupportServiceDeps {
  db: Database;
  storage: StorageDriver;
  logger: FastifyBaseLogger;
  audit: AuditRecorder;
  /** The event logs: a support reply goes to the ticket's owner, a new ticket or a user's reply to the back office. */
  events: UserEventLog & AdminEventLog;
  /** Who the tickets are from (the users module), for the back office's views. */
  accounts: {
    accountsByIds(ids: readonly number[]): Promise<Map<number, TicketAccount>>;
    /** The account held active while its ticket is written (a deletion committed first: 401). */
    holdActive(tx: Transaction, userId: number): Promise<void>;
  };
  /** Tickets a user may hold not closed; null lifts the cap (RATE_LIMIT=off). */
  maxUnclosed: number | null;
}

/** Each ticket's replies, by ticket, for a page of tickets. */
async function repliesByTicket(db: Database, rows: TicketRow[]): Promise<Map<number, ReplyRow[]>> {
  const byTicket = new Map<number, ReplyRow[]>(rows.map((row) => [row.id, []]));
  for (const reply of await repliesOf(
    db,
    rows.map((row) => row.id),
  )) {
    byTicket.get(reply.ticketId)?.push(reply);
  }
  return byTicket;
}

async function detail<V>(
  db: Database,
  row: TicketRow,
  view: (row: TicketRow, replies: ReplyRow[]) => V,
): Promise<V> {
  return view(row, await repliesOf(db, [row.id]));
}

/** A ticket as its owner's detail GET shows it, read in the writing transaction (the events' data). */
async function shownIn(tx: Transaction, row: TicketRow) {
  return ticketView(row, await repliesOf(tx, [row.id]));
}

/** Adds a reply by `author` and moves the status; 409 on a closed ticket. */
async function addReply(
  { db, events }: Pick<SupportServiceDeps, 'db' | 'events'>,
  id: number,
  author: { id: number; as: TicketAuthor },
  text: string,
  check: (row: TicketRow) => void,
  after?: (tx: Transaction, before: TicketRow, reply: ReplyRow) => Promise<void>,
): Promise<TicketRow> {
  const errors: FieldErrors = {};
  const message = checkedText(errors, 'message', text, REPLY_LENGTH);
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  return db.transaction(async (tx) => {
    const current = await lockTicket(tx, id);
    if (!current) throw new NotFound(messages.ticketNotFound);
    check(current);
    if (current.status === 'closed') throw new TicketClosed();
    if ((await countReplies(tx, id)) >= MAX_REPLIES_PER_TICKET) {
      throw ValidationFailed.field('message', messages.ticketTooManyReplies);
    }
    const added = await insertReply(tx, { ticketId: id, author: author.as, authorId: author.id, message });
    const status: TicketStatus = author.as === 'support' ? 'answered' : 'open';
    const updated = await setTicketStatus(tx, id, status);
    await after?.(tx, current, added);
    // The support's answer is the owner's news; the owner's reply is the back office's.
    if (author.as === 'support')
      await events.append(tx, updated.userId, 'ticket.replied', await shownIn(tx, updated));
    else
      await events.appendAdmin(tx, 'ticket.replied', {
        ...(await shownIn(tx, updated)),
        user_id: updated.userId,
      });
    return updated;
  });
}

/** Closes the ticket; already closed, nothing changes (and `after` is not called). */
async function closeTicket(
  db: Database,
  id: number,
  check: (row: TicketRow) => void,
  after?: (tx: Transaction, before: TicketRow) => Promise<void>,
): Promise<TicketRow> {
  return db.transaction(async (tx) => {
    const current = await lockTicket(tx, id);
    if (!current) throw new NotFound(messages.ticketNotFound);
    check(current);
    if (current.status === 'closed') return current;
    const updated = await setTicketStatus(tx, id, 'closed');
    await after?.(tx, current);
    return updated;
  });
}

/**
 * Streams a ticket's attachment into storage under a fresh key, its type decided by its first
 * bytes (one of ATTACHMENT_TYPES, else a 422 on `attachment`). A failure of the upload itself (past
 * its limit, a form cut short) is the answer, whatever the type or the write said.
 */
async function storeAttachment(
  storage: StorageDriver,
  userId: number,
  source: Readable,
  fileName: string,
): Promise<StoredAttachment> {
  const { stream, mime, ext } = await sniffUpload(source).catch((error: unknown) => {
    if (isUploadFailure(source.errored)) throw source.errored;
    if (isUploadFailure(error)) throw error;
    throw ValidationFailed.field('attachment', messages.ticketAttachmentType);
  });
  if (mime === undefined || !ATTACHMENT_TYPES.includes(mime)) {
    await discardUpload(stream);
    // Read to its end, the form may turn out cut short: that is the answer then, not the type.
    if (isUploadFailure(source.errored)) throw source.errored;
    throw ValidationFailed.field('attachment', messages.ticketAttachmentType);
  }
  const key = `tickets/${userId}-${randomBytes(16).toString('hex')}.${ext}`;
  const { size } = await storage.put(key, stream, { contentType: mime }).catch((error: unknown) => {
    // Past the upload limit (413) or a form cut short (422 on body): the upload's own failure
    // is the answer, whatever the write said.
    throw isUploadFailure(source.errored) ? source.errored : error;
  });
  return { key, contentType: mime, name: cleanFileName(fileName, ext ?? 'bin'), size };
}

/** The support service: the user's side of the tickets, then the back office's. */
export function createSupportService(deps: SupportServiceDeps) {
  return { ...userTickets(deps), ...supportDesk(deps) };
}

export type SupportService = ReturnType<typeof createSupportService>;

/** What a user does with their own tickets: open, read, reply, close, fetch an attachment, export. */
function userTickets({ db, storage, logger, events, accounts, maxUnclosed }: SupportServiceDeps) {
  /** The ticket if it is the user's: 404 unknown, 403 another user's. */
  async function findOwned(user: { id: number }, id: number): Promise<TicketRow> {
    const row = await findTicket(db, id);
    if (!row) throw new NotFound(messages.ticketNotFound);
    if (row.userId !== user.id) throw new NotOwner(messages.ticketForbidden);
    return row;
  }

  async function tooManyUnclosed(userId: number, executor: Parameters<typeof countUnclosedTickets>[0] = db) {
    return maxUnclosed !== null && (await countUnclosedTickets(executor, userId)) >= maxUnclosed;
  }

  async function removeQuietly(key: string, why: string): Promise<void> {
    await storage.delete(key).catch((error: unknown) => {
      logger.error({ err: error, key }, why);
    });
  }

  const ownedBy = (user: { id: number }) => (row: TicketRow) => {
    if (row.userId !== user.id) throw new NotOwner(messages.ticketForbidden);
  };

  return {
    /**
     * In an account deletion's transaction: the user's tickets and their replies deleted; returns
     * the attachments' storage keys, for the caller to remove once the deletion has committed.
     */
    forgetOwner(tx: Transaction, userId: number): Promise<{ tickets: number; keys: string[] }> {
      return deleteTicketsOf(tx, userId);
    },

    /** A page of the user's tickets with their replies, after `afterId`, for their data export. */
    async exportPage(userId: number, afterId: number, limit: number) {
      const rows = await ticketsForExport(db, userId, afterId, limit);
      const replies = await repliesOf(
        db,
        rows.map((row) => row.id),
      );
      return rows.map((row) => ({
        ...ticketView(
          row,
          replies.filter((reply) => reply.ticketId === row.id),
        ),
        closed_at: row.closedAt === null ? null : isoTimestamp(row.closedAt),
      }));
    },

    /** The cap checked before an upload is read, so a capped user's file is not stored for nothing. */
    async assertCanOpen(user: { id: number }): Promise<void> {
      if (await tooManyUnclosed(user.id)) {
        throw new RateLimited(UNCLOSED_RETRY_AFTER_SECONDS, messages.ticketTooManyOpen);
      }
    },

    /**
     * Opens a ticket from a form `read` streams: the attachment goes to storage as it arrives (its
     * type decided by its first bytes), then the fields are checked and the row written. Any failure
     * (a bad field, a limit, the cap, the database) removes the stored attachment.
     */
    async create(user: { id: number }, read: TicketFormReader): Promise<TicketView> {
      let attachment: StoredAttachment | undefined;
      try {
        const form = await read(async (source, fileName) => {
          attachment = await storeAttachment(storage, user.id, source, fileName);
        });
        const errors: FieldErrors = {};
        const subject = checkedText(errors, 'subject', form.subject, SUBJECT_LENGTH);
        const message = checkedText(errors, 'message', form.message, MESSAGE_LENGTH);
        if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
        const stored = attachment;
        const row = await db.transaction(async (tx) => {
          // One creation at a time per user, so two at once cannot both pass the cap.
          await lockTicketCreation(tx, user.id);
          await accounts.holdActive(tx, user.id);
          if (await tooManyUnclosed(user.id, tx)) {
            throw new RateLimited(UNCLOSED_RETRY_AFTER_SECONDS, messages.ticketTooManyOpen);
          }
          const inserted = await insertTicket(tx, {
            userId: user.id,
            subject,
            message,
            attachmentKey: stored?.key ?? null,
            attachmentType: stored?.contentType ?? null,
            attachmentName: stored?.name ?? null,
            attachmentSize: stored?.size ?? null,
          });
          await events.appendAdmin(tx, 'ticket.created', { ...ticketView(inserted, []), user_id: user.id });
          return inserted;
        });
        return ticketView(row, []);
      } catch (error) {
        if (attachment)
          await removeQuietly(attachment.key, 'could not remove the attachment of a ticket not created');
        throw error;
      }
    },

    async listOwn(user: { id: number }, query: Static<typeof TicketListQuery>) {
      const page = pageRequest(query);
      const filter: TicketFilter = { userId: user.id, ...(query.status ? { status: query.status } : {}) };
      const { rows, total } = await pageOfTickets(db, filter, page);
      const replies = await repliesByTicket(db, rows);
      return {
        tickets: rows.map((row) => ticketView(row, replies.get(row.id) ?? [])),
        meta: pageMeta(page, total),
      };
    },

    async getOwn(user: { id: number }, id: number): Promise<TicketView> {
      return detail(db, await findOwned(user, id), ticketView);
    },

    /** The owner's reply: the ticket is `open` again (the support has something new to read). */
    async replyOwn(user: { id: number }, id: number, text: string): Promise<TicketView> {
      const row = await addReply({ db, events }, id, { id: user.id, as: 'user' }, text, ownedBy(user));
      return detail(db, row, ticketView);
    },

    async closeOwn(user: { id: number }, id: number): Promise<TicketView> {
      return detail(db, await closeTicket(db, id, ownedBy(user)), ticketView);
    },

    /** The attachment, for the ticket's owner or an admin: 404 unknown ticket or none, 403 anyone else. */
    async attachmentOf(
      user: { id: number; role: string },
      id: number,
    ): Promise<{ file: StoredFile; contentType: string; name: string }> {
      const row = await findTicket(db, id);
      if (!row) throw new NotFound(messages.ticketNotFound);
      if (row.userId !== user.id && user.role !== 'admin') throw new NotOwner(messages.ticketForbidden);
      if (!row.attachmentKey || !row.attachmentType) throw new NotFound(messages.ticketNoAttachment);
      const file = await storage.get(row.attachmentKey);
      if (!file) throw new NotFound(messages.ticketNoAttachment);
      return { file, contentType: row.attachmentType, name: row.attachmentName ?? 'piece-jointe' };
    },
  };
}

/** The back office's side: every ticket with who it is from, the support's replies and closings, audited. */
function supportDesk({ db, audit, events, accounts }: SupportServiceDeps) {
  /** One ticket as the back office sees it: its thread and who it is from. */
  async function adminDetail(row: TicketRow): Promise<AdminTicketView> {
    const [replies, owners] = await Promise.all([
      repliesOf(db, [row.id]),
      accounts.accountsByIds([row.userId]),
    ]);
    return adminTicketView(row, replies, owners.get(row.userId));
  }

  return {
    /** Every ticket for the back office, newest first: by status, by creation day. */
    async listAll(query: Static<typeof AdminTicketListQuery>) {
      const page = pageRequest(query);
      const filter: TicketFilter = { ...dayRange(query), ...(query.status ? { status: query.status } : {}) };
      const { rows, total } = await pageOfTickets(db, filter, page);
      const [replies, owners] = await Promise.all([
        repliesByTicket(db, rows),
        accounts.accountsByIds(rows.map((row) => row.userId)),
      ]);
      return {
        tickets: rows.map((row) => adminTicketView(row, replies.get(row.id) ?? [], owners.get(row.userId))),
        meta: pageMeta(page, total),
      };
    },

    async getAny(id: number): Promise<AdminTicketView> {
      const row = await findTicket(db, id);
      if (!row) throw new NotFound(messages.ticketNotFound);
      return adminDetail(row);
    },

    /** The support's answer: the ticket becomes `answered`; audited in the same transaction. */
    async replyAsSupport(admin: { id: number }, id: number, text: string): Promise<AdminTicketView> {
      const row = await addReply(
        { db, events },
        id,
        { id: admin.id, as: 'support' },
        text,
        () => {},
        async (tx, before, added) => {
          await audit.record(tx, {
            adminId: admin.id,
            action: 'ticket.reply',
            targetType: 'ticket',
            targetId: id,
            details: { reply_id: added.id, status_before: before.status, status_after: 'answered' },
          });
        },
      );
      return adminDetail(row);
    },

    /** Closes the ticket for the support; already closed, nothing changes and nothing is audited. */
    async closeAsSupport(admin: { id: number }, id: number): Promise<AdminTicketView> {
      const row = await closeTicket(
        db,
        id,
        () => {},
        async (tx, before) => {
          await audit.record(tx, {
            adminId: admin.id,
            action: 'ticket.close',
            targetType: 'ticket',
            targetId: id,
            details: { status_before: before.status },
          });
        },
      );
      return adminDetail(row);
    },
  };
}
