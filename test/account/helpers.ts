// Account deletion test pieces: a user with something in every personal table and in storage, the
// two deletion calls, and a second app on the same database (another API process).
import { expect } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { giveMoney } from '../affiliation/helpers.js';
import {
  createTestApp,
  postgresUrlOf,
  type SignedIn,
  signIn,
  type TestApp,
  usingPostgres,
} from '../helpers.js';
import { multipart, photo } from '../profile/forms.js';

export { giveMoney };

export const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
);

let addressCounter = 0;
/** A client network of its own per call (TEST-NET-2), so per-network limits never add up across tests. */
export function nextAddress(): string {
  addressCounter += 1;
  return `198.51.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

/** Asks for a deletion code as a mobile client does: no body at all (the SMS, like a sign-in). */
export function askCode(t: TestApp, user: SignedIn, remoteAddress = nextAddress()) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/account/delete/code',
    headers: user.headers,
    remoteAddress,
  });
}

export function deleteAccount(
  t: TestApp,
  user: SignedIn,
  body: Record<string, unknown>,
  remoteAddress = nextAddress(),
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/account/delete',
    headers: user.headers,
    payload: body,
    remoteAddress,
  });
}

/** Asks for the deletion code and returns it (read from the test outbox). */
export async function deletionCode(t: TestApp, user: SignedIn): Promise<string> {
  const sent = await askCode(t, user);
  expect(sent.statusCode, sent.body).toBe(200);
  return t.outbox!.lastCode(user.phone);
}

/** A user with a name, a username, an avatar, a ticket with an attachment, a pronostic and a godchild. */
export async function seededUser(
  t: TestApp,
): Promise<{ user: SignedIn; godchild: SignedIn; ticketId: number }> {
  const user = await signIn(t, { credits: 10 });
  const profile = await t.app.inject({
    method: 'POST',
    url: '/api/user/profile/update',
    headers: user.headers,
    payload: { name: 'Jeanne Mballa', username: `jeanne_${user.id}` },
  });
  expect(profile.statusCode, profile.body).toBe(200);
  const avatar = await multipart([['avatar', await photo(), 'moi.png', 'image/png']]);
  const uploaded = await t.app.inject({
    method: 'POST',
    url: '/api/user/profile/avatar',
    headers: { ...avatar.headers, ...user.headers },
    payload: avatar.payload,
  });
  expect(uploaded.statusCode, uploaded.body).toBe(200);
  const form = await multipart([
    ['subject', 'Mon paiement'],
    ['message', 'Bonjour, voici ma facture personnelle.'],
    ['attachment', PDF, 'facture.pdf', 'application/pdf'],
  ]);
  const ticket = await t.app.inject({
    method: 'POST',
    url: '/api/user/support/ticket/create',
    headers: { ...form.headers, ...user.headers },
    payload: form.payload,
  });
  expect(ticket.statusCode, ticket.body).toBe(201);
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: { ...user.headers, 'idempotency-key': `seed-${user.id}` },
    payload: {
      type_id: 1,
      teams_details: {
        home: 'Arsenal',
        away: 'Chelsea',
        date: '2026-03-01',
        note: 'pari avec mon cousin Paul',
      },
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  const me = await t.app.services.users.findById(user.id);
  const godchild = await signIn(t);
  const applied = await t.app.inject({
    method: 'POST',
    url: '/api/user/profile/apply-affiliation',
    headers: godchild.headers,
    payload: { affiliation_code: me!.affiliationCode },
  });
  expect(applied.statusCode, applied.body).toBe(200);
  return { user, godchild, ticketId: ticket.json().data.ticket.id as number };
}

/**
 * A second app on the same database, as another API process: its own pool on PostgreSQL; on PGlite
 * (one process by nature) the same handle, with its own token cache and listeners.
 */
export async function secondApp(
  t: TestApp,
  config: Parameters<typeof createTestApp>[0] = {},
): Promise<TestApp> {
  if (usingPostgres()) {
    const handle = await openDatabase({ url: await postgresUrlOf(t), poolSize: 5 });
    const other = await createTestApp({
      ...config,
      clock: t.clock,
      database: { handle, drop: () => handle.close() },
    });
    return {
      ...other,
      async close() {
        await other.close();
        await handle.close();
      },
    };
  }
  return createTestApp({ ...config, clock: t.clock, database: { handle: t.database, drop: async () => {} } });
}
