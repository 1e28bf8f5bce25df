// Checkout with the sandbox driver, settled through its own signed webhook (the same route a real
// provider uses) or by the poller; the webhook's authentication; the checkout's rules.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packs, payments } from '../../src/db/schema/index.js';
import { channelOf } from '../../src/lib/phone.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import { balanceOf, checkedOut, checkout, creditsOf, paymentRow, sandboxWebhook } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: 2000, paymentMaxPending: 3 } });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const FAILING_PHONE = '+237670000000';

describe('checkout with the sandbox', () => {
  it('answers 201 with a pending payment carrying the pack snapshot', async () => {
    const user = await signIn(t);
    const response = await checkout(t, user, { pack_id: 2, operator: { name: 'MTN', icon: '/mtn.png' } });
    expect(response.statusCode).toBe(201);
    const { data, user: who } = response.json();
    expect(who).toEqual({ id: user.id });
    expect(data.payment).toMatchObject({
      status: 'pending',
      amount: 1000,
      currency: 'XAF',
      credits: 12,
      pack_id: 2,
      provider: 'sandbox',
      payment_url: null,
    });
    expect(data.payment.reference).toMatch(/^PAY-[0-9A-F]{20}$/);
    const row = await paymentRow(t, data.payment.id);
    expect(row).toMatchObject({ channel: 'cm.mtn', operator: { name: 'MTN', icon: '/mtn.png' } });
  });

  it('settles to success through its signed webhook, once, and credits the snapshot', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 1 });
    // An admin re-prices the pack meanwhile: the payment keeps what the user was shown.
    await t.app.db.update(packs).set({ credits: 999 }).where(eq(packs.id, 1));
    try {
      expect(await t.app.services.paymentsDriver.fetch(await toStart(payment.id))).toMatchObject({
        status: 'pending',
      });
      t.clock.advance(2000);
      const sandbox = t.app.runtime.sandboxWebhooks!;
      expect(await sandbox.deliverDue()).toBeGreaterThanOrEqual(1);
      expect((await paymentRow(t, payment.id)).status).toBe('success');
      expect(await balanceOf(t, user.id)).toBe(before + 5);
      expect(await creditsOf(t, payment.id)).toHaveLength(1);
      const detail = await t.app.inject({
        method: 'GET',
        url: `/api/user/wallet/payments/${payment.id}`,
        headers: user.headers,
      });
      expect(detail.statusCode).toBe(200);
      expect(detail.json().data.payment).toMatchObject({ id: payment.id, status: 'success' });
    } finally {
      await t.app.db.update(packs).set({ credits: 5 }).where(eq(packs.id, 1));
    }
  });

  it('settles to failed through its webhook when the payer number ends in 0000', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { phone: FAILING_PHONE });
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    expect((await paymentRow(t, payment.id)).status).toBe('failed');
    expect(await balanceOf(t, user.id)).toBe(before);
  });

  it('is settled by the poller no later than the delay plus one second, webhook or not', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const good = await checkedOut(t, user, { pack_id: 3 });
    const bad = await checkedOut(t, user, { phone: FAILING_PHONE });
    t.clock.advance(2999);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, good.id)).checks).toBe(0);
    expect((await paymentRow(t, bad.id)).status).toBe('pending');
    t.clock.advance(1);
    expect(await t.app.runtime.paymentPoller.drain()).toBeGreaterThanOrEqual(2);
    expect((await paymentRow(t, good.id)).status).toBe('success');
    expect((await paymentRow(t, bad.id)).status).toBe('failed');
    expect(await balanceOf(t, user.id)).toBe(before + 35);
    // Nothing pending is left to look at; a late webhook changes nothing.
    expect(await t.app.runtime.paymentPoller.drain()).toBe(0);
    const late = await sandboxWebhook(t, { event: 'payment.complete', data: { reference: good.reference } });
    expect(late.statusCode).toBe(200);
    expect(await creditsOf(t, good.id)).toHaveLength(1);
  });

  it('replays an Idempotency-Key: one payment for the same key and body', async () => {
    const user = await signIn(t);
    const headers = { 'idempotency-key': `checkout-${user.id}` };
    const first = await checkout(t, user, { pack_id: 4 }, headers);
    const second = await checkout(t, user, { pack_id: 4 }, headers);
    expect(first.statusCode).toBe(201);
    expect(second.statusCode).toBe(201);
    expect(second.json().data.payment.id).toBe(first.json().data.payment.id);
    const other = await checkout(t, user, { pack_id: 5 }, headers);
    expect(other.statusCode).toBe(422);
    const rows = await t.app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.idempotencyKeyId).not.toBeNull();
  });

  it('refuses more pending payments than PAYMENT_MAX_PENDING with a 429', async () => {
    const user = await signIn(t);
    for (let i = 0; i < 3; i += 1) await checkedOut(t, user);
    const refused = await checkout(t, user);
    expect(refused.statusCode).toBe(429);
    expect(refused.json().data.retry_after).toBeGreaterThan(0);
    // Once they are settled, the user may buy again.
    t.clock.advance(3000);
    await t.app.runtime.paymentPoller.drain();
    expect((await checkout(t, user)).statusCode).toBe(201);
  });

  it('answers 422 on an unknown or inactive pack and on a payer number that is not a Cameroon mobile', async () => {
    const user = await signIn(t);
    const unknown = await checkout(t, user, { pack_id: 999 });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['pack_id']);
    await t.app.db.update(packs).set({ active: false }).where(eq(packs.id, 5));
    try {
      const inactive = await checkout(t, user, { pack_id: 5 });
      expect(inactive.statusCode).toBe(422);
      expect(Object.keys(inactive.json().errors)).toEqual(['pack_id']);
    } finally {
      await t.app.db.update(packs).set({ active: true }).where(eq(packs.id, 5));
    }
    for (const phone of ['+237222123456', '+33612345678', 'abc']) {
      const refused = await checkout(t, user, { phone });
      expect(refused.statusCode, phone).toBe(422);
      expect(Object.keys(refused.json().errors)).toEqual(['phone']);
    }
    expect((await checkout(t, user, { pack_id: 'x' })).statusCode).toBe(422);
    const rows = await t.app.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(rows).toHaveLength(0);
  });

  it('accepts a national number and keeps an operator that does not match it', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user, { phone: '6 55 12 34 56', operator: { name: 'MTN' } });
    expect(await paymentRow(t, payment.id)).toMatchObject({
      payerPhone: '+237655123456',
      channel: 'cm.orange',
      operator: { name: 'MTN' },
    });
  });

  it('shows a payment to its owner only (403 to another user, 404 when there is none)', async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const payment = await checkedOut(t, owner);
    const url = `/api/user/wallet/payments/${payment.id}`;
    expect((await t.app.inject({ method: 'GET', url, headers: other.headers })).statusCode).toBe(403);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/wallet/payments/999999', headers: owner.headers }))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
  });
});

describe('the webhook route', () => {
  it('answers 401 to a missing or forged signature, and changes nothing', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user);
    t.clock.advance(2000);
    const body = { event: 'payment.complete', data: { reference: payment.reference } };
    const missing = await sandboxWebhook(t, body, { signature: null });
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ user: null, data: [] });
    const forged = await sandboxWebhook(t, body, { signature: 'ab'.repeat(32) });
    expect(forged.statusCode).toBe(401);
    const garbage = await sandboxWebhook(t, body, { signature: 'not-hex' });
    expect(garbage.statusCode).toBe(401);
    // Signed for the sandbox, sent to another provider's path.
    expect((await sandboxWebhook(t, body, { provider: 'notchpay' })).statusCode).toBe(401);
    expect((await sandboxWebhook(t, body, { provider: 'paypal' })).statusCode).toBe(404);
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
  });

  it('answers 200 to replays, early news, unknown references and other event types', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user);
    const complete = { event: 'payment.complete', data: { reference: payment.reference } };
    // Out of order: "complete" before the provider says so; the re-fetch says pending, nothing moves.
    expect((await sandboxWebhook(t, complete)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
    t.clock.advance(2000);
    expect((await sandboxWebhook(t, complete)).statusCode).toBe(200);
    expect((await sandboxWebhook(t, complete)).statusCode).toBe(200);
    const failed = { event: 'payment.failed', data: { reference: payment.reference } };
    expect((await sandboxWebhook(t, failed)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
    expect(await balanceOf(t, user.id)).toBe(before + 5);
    const unknown = { event: 'payment.complete', data: { reference: 'PAY-NOPE' } };
    expect((await sandboxWebhook(t, unknown)).statusCode).toBe(200);
    expect(
      (await sandboxWebhook(t, { event: 'transfer.complete', data: { reference: 'TR-1' } })).statusCode,
    ).toBe(200);
  });

  it('keeps the JSON-only rule on every other route', async () => {
    const user = await signIn(t);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/wallet/checkout',
      headers: { ...user.headers, 'content-type': 'text/plain' },
      payload: 'pack_id=1',
    });
    expect(response.statusCode).toBe(415);
  });
});

describe('channels', () => {
  it('names MTN and Orange only when the prefix says so clearly', () => {
    expect(channelOf('+237670000001')).toBe('cm.mtn');
    expect(channelOf('+237651123456')).toBe('cm.mtn');
    expect(channelOf('+237681123456')).toBe('cm.mtn');
    expect(channelOf('+237690000001')).toBe('cm.orange');
    expect(channelOf('+237655123456')).toBe('cm.orange');
    expect(channelOf('+237686123456')).toBe('cm.orange');
    expect(channelOf('+237660000000')).toBe('cm.mobile');
    expect(channelOf('+237620123456')).toBe('cm.mobile');
    expect(channelOf('+237684123456')).toBe('cm.mobile');
  });
});

async function toStart(id: number) {
  const row = await paymentRow(t, id);
  return {
    reference: row.reference,
    amount: row.amount,
    currency: 'XAF' as const,
    payerPhone: row.payerPhone,
    channel: row.channel,
    description: '',
    createdAt: new Date(row.createdAt),
  };
}
