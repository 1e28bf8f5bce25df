// Support tickets through HTTP on the local storage driver: creation (with and without an
// attachment decided by its content, the multipart limits, nothing left behind on a refusal),
// lists and details (owner only), the status flow of replies and closing, attachments served to
// their owner and admins only, and the back office's routes with their audit rows.
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, supportTickets } from '../../src/db/schema/index.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import {
  type FormEntry,
  filesUnder,
  multipart,
  noisyPng,
  photo,
  temporaryDataDir,
} from '../profile/forms.js';

let t: TestApp;
let dataDir: string;
let admin: SignedIn;
const ticketFiles = () => filesUnder(join(dataDir, 'files', 'tickets'));

beforeAll(async () => {
  dataDir = temporaryDataDir();
  t = await createTestApp({ config: { dataDir } });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());

const SUBJECT = 'Paiement non crédité';
const MESSAGE = 'J’ai payé le pack Standard hier soir mais je n’ai pas reçu mes crédits.';
/** A tiny but real PDF (file-type knows it by its `%PDF-` signature). */
const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

async function create(user: SignedIn | undefined, entries: FormEntry[]) {
  const form = await multipart(entries);
  return t.app.inject({
    method: 'POST',
    url: '/api/user/support/ticket/create',
    payload: form.payload,
    headers: { ...form.headers, ...(user?.headers ?? {}) },
  });
}

async function newTicket(user: SignedIn, extra: FormEntry[] = []) {
  const response = await create(user, [['subject', SUBJECT], ['message', MESSAGE], ...extra]);
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.ticket as { id: number; attachment: { url: string } | null; status: string };
}

function get(url: string, user?: SignedIn) {
  return t.app.inject({ method: 'GET', url, ...(user ? { headers: user.headers } : {}) });
}

function post(url: string, user: SignedIn | undefined, payload?: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url,
    ...(user ? { headers: user.headers } : {}),
    ...(payload ? { payload } : {}),
  });
}

describe('POST /api/user/support/ticket/create', () => {
  it('opens a ticket without an attachment: 201 data.ticket', async () => {
    const user = await signIn(t);
    const response = await create(user, [
      ['subject', `  ${SUBJECT} `],
      ['message', MESSAGE],
    ]);
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      user: { id: user.id },
      message: 'Votre demande a été transmise au support.',
      data: {
        ticket: {
          id: expect.any(Number),
          subject: SUBJECT,
          message: MESSAGE,
          status: 'open',
          attachment: null,
          replies: [],
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
        },
      },
      errors: [],
    });
  });

  it('keeps an image or PDF attachment, typed by its content, fetchable by its owner', async () => {
    const user = await signIn(t);
    const png = await photo(120, 80);
    const ticket = await newTicket(user, [
      ['attachment', png, 'capture écran.png', 'application/octet-stream'],
    ]);
    expect(ticket.attachment).toEqual({
      name: 'capture écran.png',
      content_type: 'image/png',
      size: png.length,
      url: `/api/user/support/ticket/${ticket.id}/attachment`,
    });
    const file = await get(ticket.attachment!.url, user);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-disposition']).toMatch(
      /^attachment; filename="capture .cran\.png"; filename\*=UTF-8''capture%20%C3%A9cran\.png$/,
    );
    expect(Buffer.compare(file.rawPayload, png)).toBe(0);

    const pdfTicket = await newTicket(user, [['attachment', PDF, 'recu.txt', 'text/plain']]);
    expect(pdfTicket.attachment).toMatchObject({ content_type: 'application/pdf', name: 'recu.txt' });
    expect((await get(pdfTicket.attachment!.url, user)).headers['content-type']).toBe('application/pdf');
  });

  it('refuses a text file as attachment (422 on attachment) and keeps no file and no row', async () => {
    const user = await signIn(t);
    const before = await ticketFiles();
    const response = await create(user, [
      ['subject', SUBJECT],
      ['message', MESSAGE],
      ['attachment', Buffer.from('juste du texte '.repeat(100)), 'facture.pdf', 'application/pdf'],
    ]);
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      attachment: ['Le champ attachment doit être une image JPEG, PNG ou WebP, ou un document PDF.'],
    });
    expect(await ticketFiles()).toEqual(before);
    expect(await t.app.db.select().from(supportTickets).where(eq(supportTickets.userId, user.id))).toEqual(
      [],
    );
  });

  it('checks subject and message (422 naming each field); a stored attachment is then removed', async () => {
    const user = await signIn(t);
    const before = await ticketFiles();
    const cases: [FormEntry[], Record<string, unknown>][] = [
      [[['message', MESSAGE]], { subject: ['Le champ subject est obligatoire.'] }],
      [
        [
          ['subject', 'ab'],
          ['message', 'trop court'.slice(0, 9)],
        ],
        {
          subject: ['Le champ subject doit contenir au moins 3 caractères.'],
          message: ['Le champ message doit contenir au moins 10 caractères.'],
        },
      ],
      [
        [
          ['subject', 's'.repeat(151)],
          ['message', 'm'.repeat(5001)],
        ],
        {
          subject: ['Le champ subject ne doit pas dépasser 150 caractères.'],
          message: ['Le champ message ne doit pas dépasser 5000 caractères.'],
        },
      ],
      // Cut by the library's fieldSize (20 KiB): always past 5000 characters.
      [
        [
          ['subject', SUBJECT],
          ['message', 'é'.repeat(15_000)],
        ],
        { message: ['Le champ message ne doit pas dépasser 5000 caractères.'] },
      ],
      [
        [
          ['subject', `bad\u0000subject`],
          ['message', MESSAGE],
        ],
        { subject: [expect.stringContaining('caractère non pris en charge')] },
      ],
    ];
    for (const [fields, errors] of cases) {
      // The attachment first: it is stored before the fields are known to be wrong.
      const response = await create(user, [['attachment', await photo(40, 40), 'a.png'], ...fields]);
      expect(response.statusCode, JSON.stringify(errors)).toBe(422);
      expect(response.json().errors).toEqual(errors);
    }
    expect(await ticketFiles()).toEqual(before);
    expect(await t.app.db.select().from(supportTickets).where(eq(supportTickets.userId, user.id))).toEqual(
      [],
    );
  });

  it('answers 413 past 5 MB and past 10 parts (DESIGN: Multipart), leaving nothing', async () => {
    const user = await signIn(t);
    const before = await ticketFiles();
    const big = await noisyPng(1400, 1400);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    const tooBig = await create(user, [
      ['subject', SUBJECT],
      ['message', MESSAGE],
      ['attachment', big, 'big.png'],
    ]);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json()).toMatchObject({
      message: 'Le fichier envoyé est trop volumineux.',
      data: [],
      errors: [],
    });

    const image = await photo(40, 40);
    const tooMany = await create(user, [
      ['subject', SUBJECT],
      ['message', MESSAGE],
      ['attachment', image, 'a.png'],
      ...Array.from({ length: 8 }, (_, i) => [`extra${i}`, 'x'] as [string, string]),
    ]);
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().message).toBe('Le formulaire contient trop de fichiers ou de champs.');
    expect(await ticketFiles()).toEqual(before);
    expect(await t.app.db.select().from(supportTickets).where(eq(supportTickets.userId, user.id))).toEqual(
      [],
    );
  });

  it('answers 415 to a JSON body and 401 without a token', async () => {
    const user = await signIn(t);
    const json = await post('/api/user/support/ticket/create', user, { subject: SUBJECT, message: MESSAGE });
    expect(json.statusCode).toBe(415);
    expect((await create(undefined, [['subject', SUBJECT]])).statusCode).toBe(401);
  });

  it('caps the tickets a user holds open at 5 (429); closing one lets a new one in', async () => {
    const user = await signIn(t);
    const ids: number[] = [];
    for (let i = 0; i < 5; i++) ids.push((await newTicket(user)).id);
    const refused = await create(user, [
      ['subject', SUBJECT],
      ['message', MESSAGE],
    ]);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().data.retry_after).toBeGreaterThan(0);
    expect(refused.headers['retry-after']).toBeDefined();
    expect((await post(`/api/user/support/ticket/${ids[0]}/close`, user)).statusCode).toBe(200);
    await newTicket(user);
  });
});

describe('GET /api/user/support/tickets and /ticket/{id}', () => {
  it('lists the caller’s own tickets, newest first, paginated, with replies and a status filter', async () => {
    const user = await signIn(t);
    const stranger = await signIn(t);
    await newTicket(stranger);
    const first = await newTicket(user);
    const second = await newTicket(user);
    const third = await newTicket(user);
    await post(`/api/admin/tickets/${first.id}/reply`, admin, { message: 'Nous regardons cela.' });
    await post(`/api/user/support/ticket/${third.id}/close`, user);

    const page = await get('/api/user/support/tickets?per_page=2', user);
    expect(page.statusCode).toBe(200);
    const body = page.json();
    expect(body.message).toBe('Vos demandes d’assistance.');
    expect(body.data.tickets.map((ticket: { id: number }) => ticket.id)).toEqual([third.id, second.id]);
    expect(body.data.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3, has_more: true });
    const last = (await get('/api/user/support/tickets?per_page=2&page=2', user)).json().data;
    expect(last.tickets).toEqual([
      expect.objectContaining({
        id: first.id,
        status: 'answered',
        replies: [
          {
            id: expect.any(Number),
            message: 'Nous regardons cela.',
            author: 'support',
            created_at: expect.any(String),
          },
        ],
      }),
    ]);
    const closed = (await get('/api/user/support/tickets?status=closed', user)).json().data;
    expect(closed.tickets.map((ticket: { id: number }) => ticket.id)).toEqual([third.id]);
    expect((await get('/api/user/support/tickets?status=lost', user)).statusCode).toBe(422);
    expect((await get('/api/user/support/tickets?per_page=51', user)).statusCode).toBe(422);
    expect((await get('/api/user/support/tickets')).statusCode).toBe(401);
  });

  it('shows a ticket to its owner: 403 another user’s, 404 unknown or malformed id', async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const ticket = await newTicket(owner);
    const mine = await get(`/api/user/support/ticket/${ticket.id}`, owner);
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toMatchObject({
      user: { id: owner.id },
      data: { ticket: { id: ticket.id, replies: [] } },
    });
    const theirs = await get(`/api/user/support/ticket/${ticket.id}`, other);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({
      user: { id: other.id },
      message: 'Accès refusé : cette demande d’assistance ne vous appartient pas.',
      data: [],
      errors: [],
    });
    expect((await get('/api/user/support/ticket/999999', owner)).statusCode).toBe(404);
    expect((await get('/api/user/support/ticket/abc', owner)).statusCode).toBe(404);
    // Nor can another user reply to it or close it.
    expect(
      (await post(`/api/user/support/ticket/${ticket.id}/reply`, other, { message: 'Bonjour' })).statusCode,
    ).toBe(403);
    expect((await post(`/api/user/support/ticket/${ticket.id}/close`, other)).statusCode).toBe(403);
  });
});

describe('replies and closing', () => {
  it('open → answered (support) → open (user) → closed (user); a closed ticket takes no reply (409)', async () => {
    const user = await signIn(t);
    const ticket = await newTicket(user);
    const answered = await post(`/api/admin/tickets/${ticket.id}/reply`, admin, {
      message: 'Pouvez-vous préciser ?',
    });
    expect(answered.statusCode).toBe(200);
    expect(answered.json().data.ticket).toMatchObject({ status: 'answered', user_id: user.id });

    const userReply = await post(`/api/user/support/ticket/${ticket.id}/reply`, user, {
      message: '  Le pack Standard.  ',
    });
    expect(userReply.statusCode).toBe(200);
    expect(userReply.json()).toMatchObject({ message: 'Réponse envoyée.', user: { id: user.id } });
    const thread = userReply.json().data.ticket;
    expect(thread.status).toBe('open');
    expect(thread.replies.map((r: { author: string; message: string }) => [r.author, r.message])).toEqual([
      ['support', 'Pouvez-vous préciser ?'],
      ['user', 'Le pack Standard.'],
    ]);

    expect(
      (await post(`/api/user/support/ticket/${ticket.id}/reply`, user, { message: 'x' })).statusCode,
    ).toBe(422);
    expect((await post(`/api/user/support/ticket/${ticket.id}/reply`, user, {})).statusCode).toBe(422);

    const closed = await post(`/api/user/support/ticket/${ticket.id}/close`, user);
    expect(closed.statusCode).toBe(200);
    expect(closed.json()).toMatchObject({
      message: 'Demande clôturée.',
      data: { ticket: { status: 'closed' } },
    });
    const late = await post(`/api/user/support/ticket/${ticket.id}/reply`, user, { message: 'Encore moi' });
    expect(late.statusCode).toBe(409);
    expect(late.json().message).toBe('Cette demande est clôturée : elle n’accepte plus de réponse.');
    expect(
      (await post(`/api/admin/tickets/${ticket.id}/reply`, admin, { message: 'Trop tard' })).statusCode,
    ).toBe(409);
    // Closing again changes nothing.
    expect((await post(`/api/user/support/ticket/${ticket.id}/close`, user)).json().data.ticket.status).toBe(
      'closed',
    );
    expect(
      (await post('/api/user/support/ticket/999999/reply', user, { message: 'Bonjour' })).statusCode,
    ).toBe(404);
  });
});

describe('GET /api/user/support/ticket/{id}/attachment', () => {
  it('serves the file to its owner and to admins, 403 to another user, 404 without one, 401 without a token', async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const ticket = await newTicket(owner, [['attachment', PDF, 'reçu de paiement.pdf']]);
    const url = ticket.attachment!.url;
    expect((await get(url, owner)).statusCode).toBe(200);
    const byAdmin = await get(url, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(byAdmin.headers['content-type']).toBe('application/pdf');
    expect(Buffer.compare(byAdmin.rawPayload, PDF)).toBe(0);
    const byOther = await get(url, other);
    expect(byOther.statusCode).toBe(403);
    expect(byOther.rawPayload.includes(Buffer.from('%PDF'))).toBe(false);
    expect((await get(url)).statusCode).toBe(401);
    const bare = await newTicket(owner);
    expect((await get(`/api/user/support/ticket/${bare.id}/attachment`, owner)).statusCode).toBe(404);
    expect((await get('/api/user/support/ticket/999999/attachment', owner)).statusCode).toBe(404);
  });
});

describe('the back office: /api/admin/tickets', () => {
  it('is 401 without a token and 403 with a user’s, on every route', async () => {
    const user = await signIn(t);
    const ticket = await newTicket(user);
    const routes: [string, string][] = [
      ['GET', '/api/admin/tickets'],
      ['GET', `/api/admin/tickets/${ticket.id}`],
      ['POST', `/api/admin/tickets/${ticket.id}/reply`],
      ['POST', `/api/admin/tickets/${ticket.id}/close`],
    ];
    for (const [method, url] of routes) {
      const payload = method === 'POST' ? { message: 'Réponse du support' } : undefined;
      const anonymous = await t.app.inject({ method: method as 'GET', url, ...(payload ? { payload } : {}) });
      expect(anonymous.statusCode, url).toBe(401);
      const asUser = await t.app.inject({
        method: method as 'GET',
        url,
        headers: user.headers,
        ...(payload ? { payload } : {}),
      });
      expect(asUser.statusCode, url).toBe(403);
      expect(asUser.json().data).toEqual([]);
    }
    expect((await get(`/api/user/support/ticket/${ticket.id}`, user)).json().data.ticket.status).toBe('open');
  });

  it('lists every user’s tickets newest first, filtered by status and creation day', async () => {
    const user = await signIn(t);
    const ticket = await newTicket(user);
    const all = await get('/api/admin/tickets?per_page=50', admin);
    expect(all.statusCode).toBe(200);
    expect(all.json().message).toBe('Demandes d’assistance.');
    const tickets = all.json().data.tickets as { id: number; user_id: number }[];
    expect(tickets[0]).toMatchObject({ id: ticket.id, user_id: user.id, status: 'open' });
    expect(tickets.map((row) => row.id)).toEqual([...tickets.map((row) => row.id)].sort((a, b) => b - a));

    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const todays = (await get(`/api/admin/tickets?from=${today}&to=${today}&per_page=50`, admin)).json().data;
    expect(todays.tickets.map((row: { id: number }) => row.id)).toContain(ticket.id);
    const before = (await get(`/api/admin/tickets?to=${yesterday}`, admin)).json().data;
    expect(before.meta.total).toBe(0);
    const open = (await get('/api/admin/tickets?status=open&per_page=50', admin)).json().data;
    expect(open.tickets.every((row: { status: string }) => row.status === 'open')).toBe(true);
    const answered = (await get('/api/admin/tickets?status=answered&per_page=50', admin)).json().data;
    expect(answered.tickets.map((row: { id: number }) => row.id)).not.toContain(ticket.id);

    const badDay = await get('/api/admin/tickets?from=2026-02-30', admin);
    expect(badDay.statusCode).toBe(422);
    expect(Object.keys(badDay.json().errors)).toEqual(['from']);
    expect((await get(`/api/admin/tickets?from=${today}&to=${yesterday}`, admin)).statusCode).toBe(422);
  });

  it('reads a ticket, replies (answered) and closes it, each action with its audit row', async () => {
    const user = await signIn(t);
    const ticket = await newTicket(user);
    const detail = await get(`/api/admin/tickets/${ticket.id}`, admin);
    expect(detail.statusCode).toBe(200);
    expect(detail.json().data.ticket).toMatchObject({ id: ticket.id, user_id: user.id, subject: SUBJECT });
    expect((await get('/api/admin/tickets/999999', admin)).statusCode).toBe(404);

    const replied = await post(`/api/admin/tickets/${ticket.id}/reply`, admin, {
      message: 'Crédits ajoutés.',
    });
    expect(replied.statusCode).toBe(200);
    const replyId = replied.json().data.ticket.replies[0].id;
    const closed = await post(`/api/admin/tickets/${ticket.id}/close`, admin);
    expect(closed.json().data.ticket.status).toBe('closed');
    // Closing again is no action: no second audit row.
    expect((await post(`/api/admin/tickets/${ticket.id}/close`, admin)).statusCode).toBe(200);

    const rows = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.targetType, 'ticket'), eq(auditLog.targetId, String(ticket.id))))
      .orderBy(auditLog.id);
    expect(rows.map((row) => [row.adminId, row.action, row.details])).toEqual([
      [admin.id, 'ticket.reply', { reply_id: replyId, status_before: 'open', status_after: 'answered' }],
      [admin.id, 'ticket.close', { status_before: 'answered' }],
    ]);
    const mine = await get(`/api/user/support/ticket/${ticket.id}`, user);
    expect(mine.json().data.ticket).toMatchObject({
      status: 'closed',
      replies: [{ author: 'support', message: 'Crédits ajoutés.' }],
    });
  });
});
