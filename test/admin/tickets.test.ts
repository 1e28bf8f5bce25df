// The back office's ticket list and detail name who wrote: the owner's phone, name and username
// beside user_id (additive), in the list, the detail and the answers of reply and close.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { multipart, temporaryDataDir } from '../profile/forms.js';

let t: TestApp;
let admin: SignedIn;
let named: SignedIn;
let anonymous: SignedIn;

async function newTicket(user: SignedIn): Promise<number> {
  const form = await multipart([
    ['subject', 'Crédits manquants'],
    ['message', 'Mon achat d’hier n’apparaît pas dans mon solde.'],
  ]);
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/support/ticket/create',
    payload: form.payload,
    headers: { ...form.headers, ...user.headers },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.ticket.id;
}

beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: temporaryDataDir() } });
  admin = await signIn(t, { role: 'admin' });
  named = await signIn(t);
  anonymous = await signIn(t);
  const profile = await t.app.inject({
    method: 'POST',
    url: '/api/user/profile/update',
    headers: named.headers,
    payload: { name: 'Paul Biya Ndzié', username: 'paul.ndzie' },
  });
  expect(profile.statusCode).toBe(200);
});
afterAll(() => t.close());

describe('admin tickets show who wrote', () => {
  it('in the list, the detail, and the answers of reply and close', async () => {
    const first = await newTicket(named);
    const second = await newTicket(anonymous);
    const list = await t.app.inject({ method: 'GET', url: '/api/admin/tickets', headers: admin.headers });
    expect(list.statusCode).toBe(200);
    const tickets = list.json().data.tickets as { id: number; user: unknown }[];
    expect(tickets.find((ticket) => ticket.id === first)?.user).toEqual({
      id: named.id,
      phone: named.phone,
      name: 'Paul Biya Ndzié',
      username: 'paul.ndzie',
    });
    expect(tickets.find((ticket) => ticket.id === second)?.user).toEqual({
      id: anonymous.id,
      phone: anonymous.phone,
      name: null,
      username: null,
    });

    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/admin/tickets/${first}`,
      headers: admin.headers,
    });
    expect(detail.json().data.ticket).toMatchObject({
      id: first,
      user_id: named.id,
      user: { id: named.id, phone: named.phone, username: 'paul.ndzie' },
    });

    const replied = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${first}/reply`,
      headers: admin.headers,
      payload: { message: 'Nous regardons votre paiement.' },
    });
    expect(replied.json().data.ticket.user).toMatchObject({ phone: named.phone });
    const closed = await t.app.inject({
      method: 'POST',
      url: `/api/admin/tickets/${first}/close`,
      headers: admin.headers,
    });
    expect(closed.json().data.ticket).toMatchObject({ status: 'closed', user: { name: 'Paul Biya Ndzié' } });

    // The user's own views are unchanged: no `user` block there.
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/user/support/ticket/${first}`,
      headers: named.headers,
    });
    expect(own.json().data.ticket).not.toHaveProperty('user');
  });

  it('a user token gets 403 and no data', async () => {
    const refused = await t.app.inject({ method: 'GET', url: '/api/admin/tickets', headers: named.headers });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual([]);
  });
});
