// Withdrawal payouts through the real NotchPay driver against the local fake NotchPay: a recipient,
// then one transfer of exactly the amount under `wd-<id>` (X-Grant), the withdrawal pending until
// the transfer's final word (signed `transfer.*` webhook or the poller, both re-fetching); failures
// refunded with the reason; a transfer stuck in `sent` escalated, never refunded; a create that
// timed out, failed or met a 409 resolved by reading the reference, never by a second transfer: a
// transfer the provider never recorded is read until the deadline, then escalated to an admin.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PRIVATE_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  signedNotchPayWebhook,
  startNotchPayFake,
} from '../fakes/notchpay.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { decide, giveMoney, ledgerRows, moneyOf, payoutRow, withdrawalRow, withdrawn } from './helpers.js';

const STUCK_SECONDS = 600;
let fake: NotchPayFake;
let t: TestApp;
let admin: SignedIn;
const logLines: string[] = [];

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
    logger: { level: 'warn', stream: { write: (line: string) => void logLines.push(line) } },
  });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(async () => {
  await expectLedgerConsistent(t);
  // Tests move the clock by hours: a fresh admin token for the next one.
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

async function approvedWithdrawal(amount = 5000) {
  const user = await signIn(t);
  await giveMoney(t, user.id, amount);
  const id = await withdrawn(t, user, { amount });
  const response = await decide(t, admin, id, 'approve');
  expect(response.statusCode, response.body).toBe(200);
  return { user, id, reference: `wd-${id}`, response };
}

const transferCreates = (reference: string) =>
  fake.requests.filter(
    (request) =>
      request.method === 'POST' &&
      request.path === '/transfers' &&
      (request.body as { reference?: string } | undefined)?.reference === reference,
  );

describe('NotchPay payouts', () => {
  it('sends one transfer of exactly the amount; pending until a signed complete webhook, re-fetched', async () => {
    const { user, id, reference, response } = await approvedWithdrawal(7500);
    expect(fake.problems).toEqual([]);
    const transfer = fake.transfers.get(reference);
    expect(transfer).toMatchObject({ amount: 7500, currency: 'XAF', channel: 'cm.mtn', status: 'pending' });
    expect(fake.recipients.get(transfer!.recipient)).toMatchObject({
      account_number: user.phone,
      country: 'CM',
    });
    const create = transferCreates(reference);
    expect(create).toHaveLength(1);
    expect(create[0]!.headers['x-grant']).toBe(NOTCHPAY_PRIVATE_KEY);
    expect(response.json().data.withdrawal).toMatchObject({
      status: 'pending',
      payout: {
        provider: 'notchpay',
        reference,
        provider_reference: transfer!.id,
        provider_status: 'pending',
      },
    });

    // The webhook is only a hint: NotchPay still says sent, so nothing moves.
    fake.setTransfer(reference, { status: 'sent' });
    expect((await webhook('transfer.complete', reference)).statusCode).toBe(200);
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'pending' });
    expect(await payoutRow(t, id)).toMatchObject({ status: 'pending', providerStatus: 'sent' });

    fake.setTransfer(reference, { status: 'complete' });
    expect((await webhook('transfer.complete', reference)).statusCode).toBe(200);
    expect((await webhook('transfer.complete', reference)).statusCode).toBe(200);
    const row = await withdrawalRow(t, id);
    expect(row).toMatchObject({ status: 'success' });
    expect(await payoutRow(t, id)).toMatchObject({ status: 'paid', providerStatus: 'complete' });
    expect(row.message).toMatch(/effectué/);
    expect(await moneyOf(t, user.id)).toBe(0);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toEqual([]);
    expect(transferCreates(reference)).toHaveLength(1);
  });

  it('refuses a tampered transfer webhook with 401', async () => {
    const { id, reference } = await approvedWithdrawal();
    fake.setTransfer(reference, { status: 'failed' });
    const signed = signedNotchPayWebhook({ event: 'transfer.complete', data: { reference } });
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/payments/notchpay',
      payload: Buffer.from(signed.rawBody.toString().replace('complete', 'failed')),
      headers: signed.headers,
    });
    expect(tampered.statusCode).toBe(401);
    expect((await withdrawalRow(t, id)).status).toBe('pending');
    fake.setTransfer(reference, { status: 'complete' });
    await webhook('transfer.complete', reference);
  });

  it('the poller completes a payout without a webhook', async () => {
    const { id, reference } = await approvedWithdrawal();
    fake.setTransfer(reference, { status: 'complete' });
    t.clock.advanceSeconds(10);
    await t.app.runtime.paymentPoller.drain();
    expect((await withdrawalRow(t, id)).status).toBe('success');
  });

  it('failed, rejected and expired transfers cancel, refund once, and say why', async () => {
    for (const [status, text] of [
      ['failed', /échoué/],
      ['rejected', /refusé par l’opérateur/],
      ['expired', /expiré/],
    ] as const) {
      const { user, id, reference } = await approvedWithdrawal(6000);
      fake.setTransfer(reference, { status });
      expect(
        (await webhook(`transfer.${status === 'failed' ? 'failed' : status}`, reference)).statusCode,
      ).toBe(200);
      t.clock.advanceSeconds(10);
      await t.app.runtime.paymentPoller.drain();
      const row = await withdrawalRow(t, id);
      expect(row, status).toMatchObject({ status: 'cancelled', decision: 'approved' });
      expect(await payoutRow(t, id), status).toMatchObject({ status: 'failed', providerStatus: status });
      expect(row.message).toMatch(text);
      expect(await moneyOf(t, user.id)).toBe(6000);
      expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toHaveLength(1);
      // A second decision is still refused.
      expect((await decide(t, admin, id, 'reject', { message: 'Trop tard' })).statusCode).toBe(409);
    }
  });

  it('a transfer stuck in sent is escalated past the deadline, never refunded; a late complete still settles', async () => {
    const { user, id, reference } = await approvedWithdrawal();
    fake.setTransfer(reference, { status: 'sent' });
    t.clock.advanceSeconds(10);
    await t.app.runtime.paymentPoller.drain();
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'pending', escalatedAt: null });
    logLines.length = 0;
    for (let step = 0; step < 5; step++) {
      t.clock.advanceSeconds(STUCK_SECONDS / 2);
      await t.app.runtime.paymentPoller.drain();
    }
    const row = await withdrawalRow(t, id);
    expect(row).toMatchObject({ status: 'pending', escalationReason: 'stuck_sent' });
    expect(row.escalatedAt).not.toBeNull();
    expect(await moneyOf(t, user.id)).toBe(0);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toEqual([]);
    const escalatedLogs = logLines
      .map((line) => JSON.parse(line))
      .filter((entry) => /escalated/.test(entry.msg));
    expect(escalatedLogs).toEqual([expect.objectContaining({ withdrawal_id: id, reason: 'stuck_sent' })]);

    admin = await signIn(t, { role: 'admin' });
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/admin/withdrawals?escalated=true',
      headers: admin.headers,
    });
    const item = list.json().data.withdrawals.find((w: { id: number }) => w.id === id);
    expect(item).toMatchObject({
      escalated: true,
      escalation: { reason: 'stuck_sent' },
      payout: { provider_status: 'sent' },
    });
    const others = await t.app.inject({
      method: 'GET',
      url: '/api/admin/withdrawals?escalated=false&per_page=50',
      headers: admin.headers,
    });
    expect(others.json().data.withdrawals.map((w: { id: number }) => w.id)).not.toContain(id);

    fake.setTransfer(reference, { status: 'complete' });
    t.clock.advanceSeconds(3600);
    await t.app.runtime.paymentPoller.drain();
    expect((await withdrawalRow(t, id)).status).toBe('success');
    expect(await moneyOf(t, user.id)).toBe(0);
  });

  it('a create that times out after taking effect is resolved by reading the reference: one transfer', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const id = await withdrawn(t, user);
    // The recipient is created; the transfer takes effect but its answer never comes.
    fake.respond('ok', 'hang');
    const response = await decide(t, admin, id, 'approve');
    expect(response.statusCode).toBe(200);
    const reference = `wd-${id}`;
    expect(transferCreates(reference)).toHaveLength(1);
    expect(response.json().data.withdrawal.payout).toMatchObject({
      provider_reference: fake.transfers.get(reference)!.id,
      provider_status: 'pending',
    });
    fake.setTransfer(reference, { status: 'complete' });
    t.clock.advanceSeconds(10);
    await t.app.runtime.paymentPoller.drain();
    expect((await withdrawalRow(t, id)).status).toBe('success');
    expect(transferCreates(reference)).toHaveLength(1);
  });

  it('a create answered 5xx that NotchPay never recorded is never sent again: read until the deadline, then escalated', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const id = await withdrawn(t, user);
    const reference = `wd-${id}`;
    fake.respond('ok', { status: 503 });
    const response = await decide(t, admin, id, 'approve');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.withdrawal).toMatchObject({
      status: 'pending',
      decision: { status: 'approved' },
      payout: { status: 'pending', create_attempted_at: expect.any(String) },
    });
    expect(fake.transfers.has(reference)).toBe(false);
    // The poller reads `wd-<id>` (404) again and again; it never creates it.
    for (let step = 0; step < 6; step++) {
      t.clock.advanceSeconds(STUCK_SECONDS / 4);
      await t.app.runtime.paymentPoller.drain();
    }
    expect(transferCreates(reference)).toHaveLength(1);
    expect(fake.transfers.has(reference)).toBe(false);
    expect(await withdrawalRow(t, id)).toMatchObject({
      status: 'pending',
      escalationReason: 'stuck_not_found',
    });
    expect(await payoutRow(t, id)).toMatchObject({ status: 'pending', providerStatus: 'not_found' });
    expect(await moneyOf(t, user.id)).toBe(0);
    // A 404 is no final failure: the admin closes it as failed only with override and a reason.
    admin = await signIn(t, { role: 'admin' });
    const resolve = (payload: object) =>
      t.app.inject({
        method: 'POST',
        url: `/api/admin/withdrawals/${id}/resolve`,
        headers: admin.headers,
        payload,
      });
    expect((await resolve({ outcome: 'failed', message: 'Jamais reçu' })).statusCode).toBe(422);
    expect((await resolve({ outcome: 'failed', message: 'Jamais reçu', override: true })).statusCode).toBe(
      200,
    );
    expect(await moneyOf(t, user.id)).toBe(5000);
    expect(transferCreates(reference)).toHaveLength(1);
  });

  it('a create NotchPay answers 409 (it knows the reference) reads that transfer instead', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const id = await withdrawn(t, user);
    const reference = `wd-${id}`;
    const seeded = fake.seedTransfer({ reference, amount: 5000, status: 'sent' });
    const response = await decide(t, admin, id, 'approve');
    expect(response.statusCode).toBe(200);
    expect(response.json().data.withdrawal.payout).toMatchObject({
      provider_reference: seeded.id,
      provider_status: 'sent',
    });
    expect(fake.transfers.size).toBeGreaterThan(0);
    expect([...fake.transfers.values()].filter((transfer) => transfer.reference === reference)).toHaveLength(
      1,
    );
    fake.setTransfer(reference, { status: 'complete' });
    await webhook('transfer.complete', reference);
    expect((await withdrawalRow(t, id)).status).toBe('success');
  });
});
