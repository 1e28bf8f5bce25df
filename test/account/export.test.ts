// The data export (issue 30) on both databases: a complete document for a seeded user (checked
// against what was seeded), nothing of another user's in it, streamed as a JSON attachment, and the
// hourly limit held by the database, so another app on the same database refuses too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withdrawn } from '../affiliation/helpers.js';
import { createTestApp, type SignedIn, type TestApp } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { temporaryDataDir } from '../profile/forms.js';
import { giveMoney, secondApp, seededUser } from './helpers.js';

let t: TestApp;
let other: TestApp;

beforeAll(async () => {
  const dataDir = temporaryDataDir();
  t = await createTestApp({ config: { dataDir } });
  other = await secondApp(t, { config: { dataDir } });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});

const exportOf = (app: TestApp, user: SignedIn) =>
  app.app.inject({ method: 'GET', url: '/api/user/account/export', headers: user.headers });

describe('GET /api/user/account/export', () => {
  it('streams everything held about the user, and nothing of anyone else', async () => {
    const { user, godchild, ticketId } = await seededUser(t);
    await giveMoney(t, user.id, 7000);
    const withdrawalId = await withdrawn(t, user, { amount: 5000 });
    const paid = await checkout(t, user);
    expect(paid.statusCode, paid.body).toBe(201);
    // Someone else, with data of their own.
    const { user: stranger } = await seededUser(t);
    await checkout(t, stranger);
    for (const [who, token] of [
      [user, `fcm-token-of-the-user-${user.id}-ending-MYPH1`],
      [stranger, `fcm-token-of-the-stranger-${stranger.id}`],
    ] as const) {
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/user/devices',
        headers: who.headers,
        payload: { token, platform: 'android' },
      });
      expect(registered.statusCode, registered.body).toBe(201);
    }

    const answer = await exportOf(t, user);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['content-type']).toMatch(/^application\/json/);
    expect(answer.headers['content-disposition']).toMatch(
      /^attachment; filename="mes-donnees-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const document = answer.json();
    expect(Object.keys(document)).toEqual([
      'exported_at',
      'user',
      'pronostics',
      'operations',
      'payments',
      'withdrawals',
      'tickets',
      'devices',
      'slips',
      'referrals',
    ]);
    expect(document.user).toMatchObject({
      id: user.id,
      phone: user.phone,
      name: 'Jeanne Mballa',
      username: `jeanne_${user.id}`,
      status: 'active',
      money_balance: 2000,
    });
    expect(document.pronostics).toHaveLength(1);
    expect(document.pronostics[0]).toMatchObject({
      type: '1x2',
      teams_details: { home: 'Arsenal', away: 'Chelsea', note: 'pari avec mon cousin Paul' },
    });
    const types = document.operations.map((o: { type: string }) => o.type);
    expect(types).toEqual(
      expect.arrayContaining(['admin_adjustment', 'pronostic_debit', 'referral_commission', 'withdrawal']),
    );
    expect(document.payments).toHaveLength(1);
    expect(document.payments[0]).toMatchObject({ payer_phone: user.phone, status: 'pending' });
    expect(document.withdrawals).toEqual([expect.objectContaining({ id: withdrawalId, amount: 5000 })]);
    expect(document.tickets).toEqual([
      expect.objectContaining({
        id: ticketId,
        subject: 'Mon paiement',
        attachment: expect.objectContaining({ name: 'facture.pdf' }),
      }),
    ]);
    // The device as the user's list shows it: the push token's end only.
    expect(document.devices).toEqual([
      expect.objectContaining({ platform: 'android', token_ending: '-MYPH1' }),
    ]);
    expect(answer.body).not.toContain(`fcm-token-of-the-user-${user.id}`);
    expect(document.referrals).toMatchObject({ godfather_id: null, godchildren_ids: [godchild.id] });

    // Nothing of the stranger's: not their phone, their name, their ids.
    expect(answer.body).not.toContain(stranger.phone);
    expect(answer.body).not.toContain(`jeanne_${stranger.id}`);
    expect(answer.body).not.toContain(godchild.phone);
    const strangerExport = (await exportOf(t, stranger)).json();
    const ids = (list: { id: number }[]) => list.map((row) => row.id);
    for (const section of ['pronostics', 'operations', 'payments', 'tickets', 'devices'] as const) {
      for (const id of ids(strangerExport[section])) expect(ids(document[section])).not.toContain(id);
    }
  });

  it('at most once an hour, across processes: 429 with Retry-After and data.retry_after', async () => {
    const { user } = await seededUser(t);
    // The clock moves in steps the token survives (its idle window is 10 minutes); each use's
    // last-use write, gathered for a second (decision 0166), is made at once, as that second would.
    const wait = async (seconds: number) => {
      for (let left = seconds; left > 0; left -= 300) {
        t.clock.advance(Math.min(300, left) * 1000);
        await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
        await t.app.services.tokens.writeTouches();
      }
    };
    expect((await exportOf(t, user)).statusCode).toBe(200);
    await wait(600);
    for (const app of [t, other]) {
      const refused = await exportOf(app, user);
      expect(refused.statusCode).toBe(429);
      expect(refused.json().data.retry_after).toBe(3000);
      expect(refused.headers['retry-after']).toBe('3000');
      expect(refused.json().message).toMatch(/moins d’une heure/);
    }
    await wait(3000);
    expect((await exportOf(other, user)).statusCode).toBe(200);
    expect((await exportOf(t, user)).statusCode).toBe(429);
  });

  it('needs a token', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/user/account/export' })).statusCode).toBe(401);
  });
});
