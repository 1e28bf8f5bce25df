// The money when NotchPay is slow or wrong, through the real driver against the local fake NotchPay
// with faults: status reads that hang past the timeout, creates that time out and exist, or that
// land only later (404, then there), 5xx bursts, 429s, duplicate and out-of-order webhooks, and news
// for a withdrawal an admin already closed. What must hold: no provider call inside a transaction
// (an unrelated request and a lock on the same row go through while a read hangs), one transfer per
// withdrawal, every credit exactly once, every contradiction flagged and listed, the ledger whole.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { flags, payments } from '../../src/db/schema/index.js';
import {
  decide,
  giveMoney,
  ledgerRows,
  moneyOf,
  payoutRow,
  withdrawalRow,
  withdrawn,
} from '../affiliation/helpers.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PRIVATE_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  signedNotchPayWebhook,
  startNotchPayFake,
} from '../fakes/notchpay.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { balanceOf, checkedOut, creditsOf, flagsOf, paymentRow } from './helpers.js';

const STUCK_SECONDS = 600;
let fake: NotchPayFake;
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  fake = await startNotchPayFake();
  const base = testConfig();
  t = await createTestApp({
    config: {
      paymentsDriver: 'notchpay',
      payoutStuckSeconds: STUCK_SECONDS,
      notchpay: {
        ...base.notchpay,
        baseUrl: fake.baseUrl,
        publicKey: NOTCHPAY_PUBLIC_KEY,
        privateKey: NOTCHPAY_PRIVATE_KEY,
        webhookSecret: NOTCHPAY_HASH_KEY,
        timeoutMs: 300,
      },
    },
  });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(async () => {
  fake.hangReads(false);
  await expectLedgerConsistent(t);
  admin = await signIn(t, { role: 'admin' });
});

const webhook = (event: string, reference: string) => {
  const signed = signedNotchPayWebhook({ event, data: { reference } });
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments/notchpay',
    payload: signed.rawBody,
    headers: signed.headers,
  });
};

const transferCreates = (reference: string) =>
  fake.requests.filter(
    (request) =>
      request.method === 'POST' &&
      request.path === '/transfers' &&
      (request.body as { reference?: string } | undefined)?.reference === reference,
  );

const flagsApi = (query = '') =>
  t.app.inject({ method: 'GET', url: `/api/admin/flags${query}`, headers: admin.headers });

/** Runs `work` and says whether it has finished, without waiting for it. */
function tracked<T>(work: Promise<T>) {
  const state = { done: false, promise: work };
  void work.finally(() => {
    state.done = true;
  });
  return state;
}

async function waitFor(check: () => boolean): Promise<void> {
  while (!check()) await new Promise((resolve) => setTimeout(resolve, 10));
}

describe('a provider whose status reads hang', () => {
  it('holds no transaction or row lock: unrelated requests and a lock on the same payment go through', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 2 });
    fake.hangReads(true);
    t.clock.advance(5000);
    const hung = fake.hungReads;
    const look = tracked(t.app.runtime.paymentPoller.drain());
    await waitFor(() => fake.hungReads > hung);

    // The poller is inside its provider call. Unrelated requests are answered…
    const profile = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
    expect(profile.statusCode).toBe(200);
    const own = await t.app.inject({
      method: 'GET',
      url: `/api/user/wallet/payments/${payment.id}`,
      headers: user.headers,
    });
    expect(own.json().data.payment).toMatchObject({ id: payment.id, status: 'pending' });
    // …and the payment's own row is not locked (NOWAIT fails at once if it were).
    await t.app.db.transaction(async (tx) => {
      await tx.execute(sql`SELECT id FROM ${payments} WHERE id = ${payment.id} FOR UPDATE NOWAIT`);
    });
    expect(look.done).toBe(false);

    // The call gives up (no answer within the timeout, three times): nothing moved, looked at later.
    await look.promise;
    const row = await paymentRow(t, payment.id);
    expect(row.status).toBe('pending');
    expect(new Date(row.nextCheckAt!).getTime()).toBeGreaterThan(t.clock.now().getTime());
    fake.hangReads(false);
    fake.setPayment(payment.reference, { status: 'complete' });
    t.clock.advance(60_000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await balanceOf(t, user.id)).toBe(before + 12);
  });

  it('a webhook arriving while the poller’s read hangs settles the payment once', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user, { pack_id: 1 });
    fake.hangReads(true);
    t.clock.advance(5000);
    const hung = fake.hungReads;
    const look = tracked(t.app.runtime.paymentPoller.drain());
    await waitFor(() => fake.hungReads > hung);
    fake.hangReads(false);
    fake.setPayment(payment.reference, { status: 'complete' });
    expect((await webhook('payment.complete', payment.reference)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    await look.promise;
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
  });
});

describe('payments: bursts, rate limits and webhooks out of order', () => {
  it('a 5xx burst and a 429 cost a look each, never a credit', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 1 });
    fake.setPayment(payment.reference, { status: 'complete' });
    fake.respond({ status: 503 }, { status: 502 }, { status: 500 });
    t.clock.advance(5000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
    fake.respond({ rateLimit: 30 });
    t.clock.advance(60_000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
    t.clock.advance(300_000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await balanceOf(t, user.id)).toBe(before + 5);
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
  });

  it('webhooks out of order and duplicated follow the provider’s word, not the event', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user, { pack_id: 3 });
    // A `complete` before the provider says so changes nothing; a `failed` while it says complete credits.
    await webhook('payment.complete', payment.reference);
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
    fake.setPayment(payment.reference, { status: 'complete' });
    const answers = await Promise.all([
      webhook('payment.failed', payment.reference),
      ...Array.from({ length: 8 }, () => webhook('payment.complete', payment.reference)),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual(Array(9).fill(200));
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
  });

  it('a complete after the provider’s own failure is flagged; resolving it credits once, audited', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 2 });
    fake.setPayment(payment.reference, { status: 'failed' });
    await webhook('payment.failed', payment.reference);
    expect((await paymentRow(t, payment.id)).status).toBe('failed');
    fake.setPayment(payment.reference, { status: 'complete' });
    await webhook('payment.complete', payment.reference);
    await webhook('payment.complete', payment.reference);
    expect((await paymentRow(t, payment.id)).status).toBe('failed');
    expect((await flagsOf(t, payment.id)).map((flag) => flag.kind)).toEqual(['late_complete']);
    expect(await balanceOf(t, user.id)).toBe(before);

    const listed = await flagsApi('?status=open&kind=late_complete');
    expect(listed.statusCode).toBe(200);
    const flag = listed
      .json()
      .data.flags.find((item: { target_id: number }) => item.target_id === payment.id);
    expect(flag).toMatchObject({ kind: 'late_complete', target_type: 'payment', status: 'open' });
    const resolve = (body: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/flags/${flag.id}/resolve`,
        headers: admin.headers,
        payload: body,
      });
    const resolved = await resolve({ message: 'Payé chez NotchPay : crédité', credit: true });
    expect(resolved.statusCode).toBe(200);
    expect(resolved.json().data.flag).toMatchObject({ status: 'resolved', resolved_by: admin.id });
    expect(await balanceOf(t, user.id)).toBe(before + 12);
    expect(await ledgerRows(t, `payment:${payment.id}:late`)).toHaveLength(1);
    expect((await resolve({ message: 'Encore', credit: true })).statusCode).toBe(409);
    expect(await balanceOf(t, user.id)).toBe(before + 12);
    const audit = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit?action=flag.resolve',
      headers: admin.headers,
    });
    expect(audit.json().data.entries[0]).toMatchObject({
      action: 'flag.resolve',
      target_id: String(flag.id),
      details: { kind: 'late_complete', credited: 12 },
    });
  });
});

describe('payouts: a transfer is created once, whatever the provider does', () => {
  async function approved(amount = 5000, before?: () => void) {
    const user = await signIn(t);
    await giveMoney(t, user.id, amount);
    const id = await withdrawn(t, user, { amount });
    before?.();
    const response = await decide(t, admin, id, 'approve');
    expect(response.statusCode, response.body).toBe(200);
    return { user, id, reference: `wd-${id}` };
  }

  it('a create with no effect and no answer, that lands later (404, then there), is read, never resent', async () => {
    const { user, id, reference } = await approved(5000, () => fake.respond('ok', 'stall'));
    expect(await payoutRow(t, id)).toMatchObject({ status: 'pending', providerStatus: 'not_found' });
    t.clock.advanceSeconds(10);
    await t.app.runtime.paymentPoller.drain();
    t.clock.advanceSeconds(30);
    await t.app.runtime.paymentPoller.drain();
    expect(transferCreates(reference)).toHaveLength(1);
    expect(fake.transfers.has(reference)).toBe(false);
    // The create NotchPay had queued goes through after all.
    fake.seedTransfer({ reference, amount: 5000, status: 'complete' });
    t.clock.advanceSeconds(120);
    await t.app.runtime.paymentPoller.drain();
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
    expect(transferCreates(reference)).toHaveLength(1);
    expect(await moneyOf(t, user.id)).toBe(0);
  });

  it('approval, poller and webhooks racing on one payout send one create', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 8000);
    const id = await withdrawn(t, user, { amount: 8000 });
    const reference = `wd-${id}`;
    t.clock.advanceSeconds(3600);
    admin = await signIn(t, { role: 'admin' });
    await Promise.all([
      decide(t, admin, id, 'approve'),
      decide(t, admin, id, 'approve'),
      t.app.runtime.paymentPoller.drain(),
      webhook('transfer.complete', reference),
      t.app.runtime.paymentPoller.drain(),
    ]);
    fake.setTransfer(reference, { status: 'complete' });
    await Promise.all([webhook('transfer.complete', reference), t.app.runtime.paymentPoller.drain()]);
    t.clock.advanceSeconds(10);
    await t.app.runtime.paymentPoller.drain();
    expect(transferCreates(reference)).toHaveLength(1);
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
  });

  it('a transfer paid with another currency is escalated and flagged, neither paid nor refunded', async () => {
    const { user, id, reference } = await approved(6000);
    const transfer = fake.transfers.get(reference)!;
    transfer.currency = 'EUR';
    fake.setTransfer(reference, { status: 'complete' });
    await webhook('transfer.complete', reference);
    expect(await withdrawalRow(t, id)).toMatchObject({
      status: 'pending',
      escalationReason: 'currency_mismatch',
    });
    expect((await flagsOf(t, id, 'withdrawal')).map((flag) => flag.kind)).toEqual(['currency_mismatch']);
    expect(await moneyOf(t, user.id)).toBe(0);
  });

  it('news against a payout an admin closed by hand is flagged, never applied', async () => {
    const { user, id, reference } = await approved(5000);
    fake.setTransfer(reference, { status: 'sent' });
    t.clock.advanceSeconds(STUCK_SECONDS + 10);
    await t.app.runtime.paymentPoller.drain();
    expect(await withdrawalRow(t, id)).toMatchObject({ escalationReason: 'stuck_sent' });
    admin = await signIn(t, { role: 'admin' });
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/resolve`,
      headers: admin.headers,
      payload: { outcome: 'paid', message: 'Confirmé par l’opérateur' },
    });
    expect(resolved.statusCode).toBe(200);
    fake.setTransfer(reference, { status: 'failed' });
    await webhook('transfer.failed', reference);
    await webhook('transfer.failed', reference);
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toEqual([]);
    expect(await moneyOf(t, user.id)).toBe(0);
    expect((await flagsOf(t, id, 'withdrawal')).map((flag) => flag.kind)).toEqual(['contradicts_final']);
    const listed = await flagsApi('?target_type=withdrawal');
    expect(listed.json().data.flags.map((flag: { target_id: number }) => flag.target_id)).toContain(id);
  });
  it('a payout closed by hand is still read hourly: the provider’s later contrary word is flagged without a webhook', async () => {
    const { user, id, reference } = await approved(5000);
    fake.setTransfer(reference, { status: 'sent' });
    t.clock.advanceSeconds(STUCK_SECONDS + 10);
    await t.app.runtime.paymentPoller.drain();
    expect(await withdrawalRow(t, id)).toMatchObject({ escalationReason: 'stuck_sent' });
    admin = await signIn(t, { role: 'admin' });
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/resolve`,
      headers: admin.headers,
      payload: { outcome: 'paid', message: 'Confirmé par l’opérateur' },
    });
    expect(resolved.statusCode).toBe(200);
    expect((await payoutRow(t, id))?.nextCheckAt).not.toBeNull();
    // Still `sent` an hour on: read, nothing to say, read again later.
    t.clock.advanceSeconds(3601);
    await t.app.runtime.paymentPoller.drain();
    expect(await flagsOf(t, id, 'withdrawal')).toEqual([]);
    // The provider then fails it: no webhook comes, the hourly read finds it.
    fake.setTransfer(reference, { status: 'failed' });
    t.clock.advanceSeconds(3601);
    await t.app.runtime.paymentPoller.drain();
    expect((await flagsOf(t, id, 'withdrawal')).map((flag) => flag.kind)).toEqual(['contradicts_final']);
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toEqual([]);
    expect(await moneyOf(t, user.id)).toBe(0);
    // A final word ends the reading.
    expect(await payoutRow(t, id)).toMatchObject({
      status: 'paid',
      providerStatus: 'failed',
      nextCheckAt: null,
    });
  });

  it('a payout whose driver is not configured is left alone, flagged driver_missing and escalated', async () => {
    const { user, id, reference } = await approved(5500);
    await t.app.db.execute(sql`UPDATE payouts SET provider = 'ghost' WHERE withdrawal_id = ${id}`);
    const asked = () => fake.requests.filter((request) => request.path.includes(reference)).length;
    const reads = asked();
    await webhook('transfer.complete', reference);
    t.clock.advanceSeconds(3600);
    await t.app.runtime.paymentPoller.drain();
    expect(asked()).toBe(reads);
    expect((await flagsOf(t, id, 'withdrawal')).map((flag) => flag.kind)).toEqual(['driver_missing']);
    expect(await withdrawalRow(t, id)).toMatchObject({
      status: 'pending',
      escalationReason: 'driver_missing',
    });
    expect(await payoutRow(t, id)).toMatchObject({ status: 'pending', nextCheckAt: null });
    expect(await moneyOf(t, user.id)).toBe(0);
  });
});

describe('GET /api/admin/flags and resolve: guards', () => {
  it('open first, then newest; filters; 401, 403, 404, 422 naming the field', async () => {
    const listed = await flagsApi('?per_page=50');
    expect(listed.statusCode).toBe(200);
    const statuses = listed.json().data.flags.map((flag: { status: string }) => flag.status);
    expect(statuses).toEqual([...statuses].sort((a, b) => (a === b ? 0 : a === 'open' ? -1 : 1)));
    expect(listed.json().data.meta).toMatchObject({ current_page: 1, per_page: 50 });
    expect((await t.app.inject({ method: 'GET', url: '/api/admin/flags' })).statusCode).toBe(401);
    const user = await signIn(t);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/flags', headers: user.headers })).statusCode,
    ).toBe(403);
    for (const [query, field] of [
      ['?status=closed', 'status'],
      ['?kind=nope', 'kind'],
      ['?target_type=user', 'target_type'],
      ['?per_page=51', 'per_page'],
    ] as const) {
      const response = await flagsApi(query);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json().errors), query).toContain(field);
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/admin/flags/999999/resolve',
      headers: admin.headers,
      payload: { message: 'Rien' },
    });
    expect(missing.statusCode).toBe(404);
    const open = (await flagsApi('?status=open&kind=contradicts_final')).json().data.flags[0];
    expect(open).toBeDefined();
    const noCredit = await t.app.inject({
      method: 'POST',
      url: `/api/admin/flags/${open.id}/resolve`,
      headers: admin.headers,
      payload: { message: 'Vu ici', credit: true },
    });
    expect(noCredit.statusCode).toBe(422);
    expect(Object.keys(noCredit.json().errors)).toEqual(['credit']);
    const stats = await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: admin.headers });
    const openCount = (await flagsApi('?status=open')).json().data.meta.total;
    expect(stats.json().data.flags_open).toBe(openCount);
    expect(openCount).toBeGreaterThan(0);
  });
});

describe('after every fault above', () => {
  it('ledger:verify is clean, no withdrawal got a second create, every flag raised is listed', async () => {
    const report = await t.app.services.wallet.verifyLedger();
    expect(report).toMatchObject({ mismatches: [], duplicateReferences: [], unreferencedPurchases: 0 });
    const creates = fake.requests
      .filter((request) => request.method === 'POST' && request.path === '/transfers')
      .map((request) => (request.body as { reference?: string } | undefined)?.reference);
    expect(creates.length).toBeGreaterThan(0);
    expect(new Set(creates).size).toBe(creates.length);
    const raised = await t.app.db.select({ id: flags.id }).from(flags);
    expect(raised.length).toBeGreaterThan(0);
    const listed = await flagsApi('?per_page=50');
    expect(listed.json().data.meta.total).toBe(raised.length);
    expect(
      listed
        .json()
        .data.flags.map((flag: { id: number }) => flag.id)
        .sort(),
    ).toEqual(raised.map((row) => row.id).sort());
  });
});
