// The durable event logs (issue 27, first piece): every writer appends its event in the transaction
// of the change it reports, so each event type is written with its change and never without it; a
// user's events carry a per-user seq with no gap, handed out under a lock so concurrent writers get
// distinct, consecutive seqs; the history routes give a user their own log only, and admins the
// back office's; housekeeping purges past the retention without ever reusing a seq.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { adminEvents, userEvents } from '../../src/db/schema/index.js';
import { giveMoney, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkedOut } from '../payments/helpers.js';
import { multipart } from '../profile/forms.js';

let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: 2000 } });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

interface Event {
  id: number;
  type: string;
  created_at: string;
  data: Record<string, unknown>;
}

async function history(user: SignedIn, query = '') {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/user/events/history${query}`,
    headers: user.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data as { events: Event[]; meta: Record<string, unknown> };
}

async function eventsOf(user: SignedIn): Promise<Event[]> {
  return (await history(user, '?per_page=50')).events;
}

/** The back office's events after the last one seen before the test. */
async function adminEventsAfter(after: number): Promise<Event[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/admin/events/history?after=${after}&per_page=50`,
    headers: admin.headers,
  });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.events;
}

async function lastAdminSeq(): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/admin/events/history?per_page=1',
    headers: admin.headers,
  });
  return response.json().data.meta.last_seq;
}

async function detail(user: SignedIn, url: string) {
  const response = await t.app.inject({ method: 'GET', url, headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data;
}

async function createPronostic(user: SignedIn): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: 1, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.pronostic.id;
}

async function claimed(id: number) {
  const now = t.clock.now();
  const job = await t.app.services.analysisJobs.claimNext(now, new Date(now.getTime() + 60_000));
  expect(job?.id).toBe(id);
  return job!;
}

describe('a user’s event log, written with each change', () => {
  it('pronostic.succeeded carries what the detail GET returns', async () => {
    const user = await signIn(t, { credits: 5 });
    const id = await createPronostic(user);
    expect(await eventsOf(user)).toEqual([]);
    const job = await claimed(id);
    expect(
      await t.app.services.analysisJobs.succeed(
        job,
        { result: { tip: '1' }, aiModel: 'test' },
        t.clock.now(),
      ),
    ).toBe(true);
    const events = await eventsOf(user);
    expect(events).toEqual([
      { id: 1, type: 'pronostic.succeeded', created_at: expect.any(String), data: expect.any(Object) },
    ]);
    expect(events[0]!.data).toEqual((await detail(user, `/api/user/pronostic/${id}`)).pronostic);
    expect(events[0]!.data).toMatchObject({ id, status: 'success', result: { tip: '1' } });
  });

  it('pronostic.cancelled carries the refund', async () => {
    const user = await signIn(t, { credits: 5 });
    const id = await createPronostic(user);
    const job = await claimed(id);
    const cancelled = await t.app.services.analysisJobs.cancelAndRefund(
      job,
      { reason: 'analysis_failed', message: 'Échec' },
      'boom',
      t.clock.now(),
    );
    expect(cancelled).toBe(true);
    const [event] = await eventsOf(user);
    expect(event).toMatchObject({
      id: 1,
      type: 'pronostic.cancelled',
      data: {
        id,
        status: 'cancelled',
        refund: { currency: 'credits', amount: job.creditsCost, credits_balance: 5 },
      },
    });
    const { refund: _refund, ...shown } = event!.data;
    expect(shown).toEqual((await detail(user, `/api/user/pronostic/${id}`)).pronostic);
  });

  it('no event when the claim was lost (nothing changed)', async () => {
    const user = await signIn(t, { credits: 5 });
    const id = await createPronostic(user);
    const job = await claimed(id);
    // Another worker took the row over: this one's attempt no longer matches.
    await t.app.db.execute(sql`UPDATE pronostics SET attempts = attempts + 1 WHERE id = ${id}`);
    expect(await t.app.services.analysisJobs.succeed(job, { result: {}, aiModel: 'x' }, t.clock.now())).toBe(
      false,
    );
    expect(await eventsOf(user)).toEqual([]);
    await t.app.db.execute(
      sql`UPDATE pronostics SET status = 'cancelled', lease_until = NULL WHERE id = ${id}`,
    );
    await t.app.services.ledger.post(t.app.db, {
      userId: user.id,
      type: 'pronostic_refund',
      currency: 'credits',
      amount: job.creditsCost,
      description: 'test',
      reference: `pronostic:${id}:refund`,
    });
  });

  it('payment.succeeded and payment.failed carry the payment as its detail GET shows it', async () => {
    const user = await signIn(t);
    const good = await checkedOut(t, user, { pack_id: 1 });
    const bad = await checkedOut(t, user, { phone: '+237670000000' });
    expect(await eventsOf(user)).toEqual([]);
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    const events = await eventsOf(user);
    expect(events.map((event) => [event.id, event.type, event.data.id])).toEqual(
      expect.arrayContaining([
        [expect.any(Number), 'payment.succeeded', good.id],
        [expect.any(Number), 'payment.failed', bad.id],
      ]),
    );
    expect(events.map((event) => event.id)).toEqual([1, 2]);
    for (const event of events) {
      expect(event.data).toEqual(
        (await detail(user, `/api/user/wallet/payments/${event.data.id as number}`)).payment,
      );
    }
  });

  it('withdrawal.requested goes to admins; withdrawal.succeeded to the user once the payout is paid', async () => {
    const before = await lastAdminSeq();
    const user = await signIn(t);
    await giveMoney(t, user.id, 6000);
    const id = await withdrawn(t, user, { amount: 6000 });
    expect(await adminEventsAfter(before)).toMatchObject([
      {
        id: before + 1,
        type: 'withdrawal.requested',
        data: { id, amount: 6000, status: 'pending', user_id: user.id },
      },
    ]);
    const approve = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/approve`,
      headers: admin.headers,
      payload: {},
    });
    expect(approve.statusCode).toBe(200);
    expect(await eventsOf(user)).toEqual([]);
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    const events = await eventsOf(user);
    expect(events).toMatchObject([{ id: 1, type: 'withdrawal.succeeded', data: { id, status: 'success' } }]);
    const listed = await detail(user, '/api/user/affiliation/withdrawals');
    expect(events[0]!.data).toEqual(listed.withdrawals.find((w: { id: number }) => w.id === id));
  });

  it('withdrawal.cancelled carries the reason (a rejection, a failed payout)', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 10_000);
    const rejected = await withdrawn(t, user, { amount: 5000 });
    const reject = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${rejected}/reject`,
      headers: admin.headers,
      payload: { message: 'Numéro inconnu' },
    });
    expect(reject.statusCode).toBe(200);
    const failed = await withdrawn(t, user, { amount: 5000, phone: '+237690000000' });
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${failed}/approve`,
      headers: admin.headers,
      payload: {},
    });
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    await t.app.runtime.paymentPoller.drain();
    expect(await eventsOf(user)).toMatchObject([
      {
        id: 1,
        type: 'withdrawal.cancelled',
        data: { id: rejected, status: 'cancelled', reason: 'Numéro inconnu' },
      },
      {
        id: 2,
        type: 'withdrawal.cancelled',
        data: { id: failed, status: 'cancelled', reason: expect.stringMatching(/échoué/) },
      },
    ]);
  });

  it('credits.adjusted carries the ledger operation; none when the adjustment is refused', async () => {
    const user = await signIn(t);
    const adjust = (amount: number) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${user.id}/credits`,
        headers: admin.headers,
        payload: { amount, reason: 'Geste commercial' },
      });
    const response = await adjust(7);
    expect(response.statusCode, response.body).toBe(200);
    expect((await adjust(-100)).statusCode).toBe(422);
    const events = await eventsOf(user);
    expect(events).toEqual([
      {
        id: 1,
        type: 'credits.adjusted',
        created_at: expect.any(String),
        data: response.json().data.operation,
      },
    ]);
    expect(events[0]!.data).toMatchObject({ type: 'admin_adjustment', amount: 7, balance_after: 7 });
  });

  it('ticket.created and a user’s reply go to admins; the support’s reply to the user as ticket.replied', async () => {
    const before = await lastAdminSeq();
    const user = await signIn(t);
    const form = await multipart([
      ['subject', 'Crédits manquants'],
      ['message', 'Je n’ai pas reçu mes crédits après mon paiement.'],
    ]);
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/support/ticket/create',
      payload: form.payload,
      headers: { ...form.headers, ...user.headers },
    });
    expect(created.statusCode, created.body).toBe(201);
    const ticketId = created.json().data.ticket.id as number;
    const reply = (who: SignedIn, url: string, message: string) =>
      t.app.inject({ method: 'POST', url, headers: who.headers, payload: { message } });
    expect((await reply(admin, `/api/admin/tickets/${ticketId}/reply`, 'Nous regardons.')).statusCode).toBe(
      200,
    );
    expect((await reply(user, `/api/user/support/ticket/${ticketId}/reply`, 'Merci !')).statusCode).toBe(200);

    const mine = await eventsOf(user);
    expect(mine).toMatchObject([
      {
        id: 1,
        type: 'ticket.replied',
        data: { id: ticketId, status: 'answered', replies: [{ author: 'support' }] },
      },
    ]);
    expect(await adminEventsAfter(before)).toMatchObject([
      { id: before + 1, type: 'ticket.created', data: { id: ticketId, status: 'open', user_id: user.id } },
      {
        id: before + 2,
        type: 'ticket.replied',
        data: { id: ticketId, status: 'open', user_id: user.id, replies: [{}, { author: 'user' }] },
      },
    ]);
    // The user's log holds the support's reply as the owner's detail showed it then.
    const { replies } = (await detail(user, `/api/user/support/ticket/${ticketId}`)).ticket;
    expect(mine[0]!.data.replies).toEqual(replies.slice(0, 1));
  });

  it('flag.raised goes to admins with the flag', async () => {
    const before = await lastAdminSeq();
    const { raiseFlag } = await import('../../src/money/flags/raise.js');
    await t.app.db.transaction((tx) =>
      raiseFlag(
        tx,
        { kind: 'stuck_pending', targetType: 'payment', targetId: 424242, details: { why: 'test' } },
        undefined,
        t.app.services.events,
      ),
    );
    expect(await adminEventsAfter(before)).toMatchObject([
      {
        id: before + 1,
        type: 'flag.raised',
        data: { kind: 'stuck_pending', target_type: 'payment', target_id: 424242, status: 'open' },
      },
    ]);
  });
});

describe('the log’s guarantees', () => {
  it('writes nothing, and uses no seq, when the change rolls back', async () => {
    const user = await signIn(t);
    const { events } = t.app.services;
    await expect(
      t.app.db.transaction(async (tx) => {
        await events.append(tx, user.id, 'credits.adjusted', { amount: 1 });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await eventsOf(user)).toEqual([]);
    await t.app.db.transaction((tx) => events.append(tx, user.id, 'credits.adjusted', { amount: 2 }));
    expect((await eventsOf(user)).map((event) => [event.id, event.data])).toEqual([[1, { amount: 2 }]]);
  });

  it('concurrent writers to one log get consecutive seqs, each once', async () => {
    const user = await signIn(t);
    const { events } = t.app.services;
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.app.db.transaction((tx) => events.append(tx, user.id, 'credits.adjusted', { n: i })),
      ),
    );
    const seqs = (await eventsOf(user)).map((event) => event.id);
    expect(seqs).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('another user never sees it; pages go after a seq, ascending, and say whether more follow', async () => {
    const owner = await signIn(t);
    const stranger = await signIn(t);
    for (let i = 0; i < 3; i++) {
      await t.app.db.transaction((tx) =>
        t.app.services.events.append(tx, owner.id, 'credits.adjusted', { n: i }),
      );
    }
    expect(await history(stranger)).toEqual({
      events: [],
      meta: { after: 0, per_page: 20, last_seq: 0, has_more: false },
    });
    const first = await history(owner, '?per_page=2');
    expect(first.events.map((event) => event.id)).toEqual([1, 2]);
    expect(first.meta).toEqual({ after: 0, per_page: 2, last_seq: 3, has_more: true });
    const rest = await history(owner, '?after=2&per_page=2');
    expect(rest.events.map((event) => event.id)).toEqual([3]);
    expect(rest.meta.has_more).toBe(false);
    // The back office's log is for admins only.
    const forbidden = await t.app.inject({
      method: 'GET',
      url: '/api/admin/events/history',
      headers: owner.headers,
    });
    expect(forbidden.statusCode).toBe(403);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/user/events/history' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('answers 422 naming the field for a bad after or per_page', async () => {
    const user = await signIn(t);
    for (const query of ['?after=-1', '?after=abc', '?per_page=0', '?per_page=51']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/user/events/history${query}`,
        headers: user.headers,
      });
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json().errors ?? response.json().data ?? {}).join(), query).toMatch(
        /after|per_page/,
      );
    }
  });

  it('housekeeping purges events past EVENTS_RETENTION_DAYS; a seq is never reused', async () => {
    const user = await signIn(t);
    const { events } = t.app.services;
    await t.app.db.transaction((tx) => events.append(tx, user.id, 'credits.adjusted', { n: 1 }));
    await t.app.db.transaction((tx) => events.appendAdmin(tx, 'flag.raised', { n: 1 }));
    t.clock.advance((t.config.eventsRetentionDays * 86_400 + 60) * 1000);
    const purged = await t.app.services.housekeeping.purgeExpired();
    expect(purged.events).toBeGreaterThanOrEqual(2);
    expect(await t.app.db.select().from(userEvents)).toEqual([]);
    expect(await t.app.db.select().from(adminEvents)).toEqual([]);
    await t.app.db.transaction((tx) => events.append(tx, user.id, 'credits.adjusted', { n: 2 }));
    // The week moved past the token's lifetime: the user signs in again.
    const again = await signIn(t, { phone: user.phone });
    expect((await eventsOf(again)).map((event) => event.id)).toEqual([2]);
  });
});
