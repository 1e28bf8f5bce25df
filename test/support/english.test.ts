// English cases (issue 40) for support tickets, the user's side and the back office's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { type FormEntry, multipart } from '../profile/forms.js';

let t: TestApp;
let user: SignedIn;
let admin: SignedIn;
let ticketId: number;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());

async function create(entries: FormEntry[]) {
  const form = await multipart(entries);
  return inEnglish(t.app, {
    method: 'POST',
    url: '/api/user/support/ticket/create',
    headers: { ...form.headers, ...user.headers },
    payload: form.payload,
  });
}

describe('English', () => {
  it('POST /api/user/support/ticket/create', async () => {
    const created = await create([
      ['subject', 'My credits are missing'],
      ['message', 'I paid for a pack this morning and no credits arrived.'],
    ]);
    expectEnglish(created, 201, en.messages.ticketCreated);
    ticketId = created.json().data.ticket.id;
    const invalid = await create([['subject', 'Only a subject']]);
    expectEnglish422(invalid, 'message', en.validationMessages.required('message'));
  });

  it('GET /api/user/support/tickets', async () => {
    const list = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/support/tickets',
      headers: user.headers,
    });
    expectEnglish(list, 200, en.messages.ticketList);
  });

  it('GET /api/user/support/ticket/:id', async () => {
    const one = await inEnglish(t.app, {
      method: 'GET',
      url: `/api/user/support/ticket/${ticketId}`,
      headers: user.headers,
    });
    expectEnglish(one, 200, en.messages.ticketDetail);
    const missing = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/support/ticket/999999',
      headers: user.headers,
    });
    expectEnglish(missing, 404, en.messages.ticketNotFound);
  });

  it('GET /api/user/support/ticket/:id/attachment', async () => {
    const none = await inEnglish(t.app, {
      method: 'GET',
      url: `/api/user/support/ticket/${ticketId}/attachment`,
      headers: user.headers,
    });
    expectEnglish(none, 404, en.messages.ticketNoAttachment);
  });

  it('POST /api/user/support/ticket/:id/reply', async () => {
    const replied = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/user/support/ticket/${ticketId}/reply`,
      headers: user.headers,
      payload: { message: 'Any news about my credits?' },
    });
    expectEnglish(replied, 200, en.messages.ticketReplied);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/user/support/ticket/${ticketId}/reply`,
      headers: user.headers,
      payload: {},
    });
    expectEnglish422(invalid, 'message', en.validationMessages.required('message'));
  });

  it('GET /api/admin/tickets', async () => {
    const list = await inEnglish(t.app, { method: 'GET', url: '/api/admin/tickets', headers: admin.headers });
    expectEnglish(list, 200, en.messages.adminTicketList);
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/tickets?status=lost',
      headers: admin.headers,
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.status[0]).toMatch(/^The status field must be one of: /);
  });

  it('GET /api/admin/tickets/:id', async () => {
    const one = await inEnglish(t.app, {
      method: 'GET',
      url: `/api/admin/tickets/${ticketId}`,
      headers: admin.headers,
    });
    expectEnglish(one, 200, en.messages.ticketDetail);
  });

  it('POST /api/admin/tickets/:id/reply', async () => {
    const replied = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/tickets/${ticketId}/reply`,
      headers: admin.headers,
      payload: { message: 'We are looking into it.' },
    });
    expectEnglish(replied, 200, en.messages.ticketReplied);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/tickets/${ticketId}/reply`,
      headers: admin.headers,
      payload: { message: '' },
    });
    expectEnglish422(invalid, 'message', invalid.json().errors.message[0]);
    expect(invalid.json().errors.message[0]).toMatch(/^The message field /);
  });

  it('POST /api/user/support/ticket/:id/close', async () => {
    const closed = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/user/support/ticket/${ticketId}/close`,
      headers: user.headers,
    });
    expectEnglish(closed, 200, en.messages.ticketClosed);
  });

  it('POST /api/admin/tickets/:id/close', async () => {
    const second = await create([
      ['subject', 'A second question'],
      ['message', 'How do referrals work exactly?'],
    ]);
    const closed = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/tickets/${second.json().data.ticket.id}/close`,
      headers: admin.headers,
    });
    expectEnglish(closed, 200, en.messages.ticketClosed);
    const closedAlready = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/tickets/${ticketId}/reply`,
      headers: admin.headers,
      payload: { message: 'Too late.' },
    });
    expectEnglish(closedAlready, 409, en.messages.ticketIsClosed);
  });
});
