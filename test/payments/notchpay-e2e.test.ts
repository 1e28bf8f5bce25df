// The real NotchPay driver through the whole app, against the local fake NotchPay: checkout creates
// and charges the payment at NotchPay under our reference, a signed `payment.complete` webhook makes
// the service re-fetch and credit once, a tampered one is refused, and the poller settles a failure.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  signedNotchPayWebhook,
  startNotchPayFake,
} from '../fakes/notchpay.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import { balanceOf, checkedOut, creditsOf, paymentRow } from './helpers.js';

let fake: NotchPayFake;
let t: TestApp;

beforeAll(async () => {
  fake = await startNotchPayFake();
  const base = testConfig();
  t = await createTestApp({
    config: {
      paymentsDriver: 'notchpay',
      notchpay: {
        ...base.notchpay,
        baseUrl: fake.baseUrl,
        publicKey: NOTCHPAY_PUBLIC_KEY,
        webhookSecret: NOTCHPAY_HASH_KEY,
      },
    },
  });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});
afterEach(() => expectLedgerConsistent(t));

const webhook = (payload: { rawBody: Buffer; headers: Record<string, string> }) =>
  t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments/notchpay',
    payload: payload.rawBody,
    headers: payload.headers,
  });

describe('NotchPay through the app', () => {
  it('checkout starts the payment at NotchPay; a signed complete webhook credits once', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user, { pack_id: 2 });
    expect(payment).toMatchObject({ status: 'pending', amount: 1000, credits: 12, provider: 'notchpay' });
    expect(fake.problems).toEqual([]);
    const atNotchPay = fake.payments.get(payment.reference);
    expect(atNotchPay).toMatchObject({ amount: 1000, currency: 'XAF' });
    expect(atNotchPay?.charges).toHaveLength(1);

    // The body alone is never believed: NotchPay still says pending, so nothing moves.
    const early = signedNotchPayWebhook({
      event: 'payment.complete',
      data: { reference: payment.reference },
    });
    expect((await webhook(early)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('pending');

    fake.setPayment(payment.reference, { status: 'complete' });
    const complete = signedNotchPayWebhook({
      event: 'payment.complete',
      data: { reference: payment.reference },
      envelope: 'event',
    });
    expect((await webhook(complete)).statusCode).toBe(200);
    expect((await webhook(complete)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
    expect(await balanceOf(t, user.id)).toBe(12);
  });

  it('an Idempotency-Key replay gives the first answer, payment URL included, and charges once', async () => {
    const user = await signIn(t);
    const send = () =>
      t.app.inject({
        method: 'POST',
        url: '/api/user/wallet/checkout',
        headers: { ...user.headers, 'idempotency-key': 'checkout-replay-1' },
        payload: { pack_id: 1, phone: '+237670000321' },
      });
    const first = await send();
    expect(first.statusCode, first.body).toBe(201);
    const payment = first.json().data.payment;
    expect(payment.payment_url).toMatch(/^https?:\/\//);
    const replay = await send();
    expect(replay.statusCode).toBe(201);
    expect(replay.json()).toEqual(first.json());
    expect(fake.payments.get(payment.reference)?.charges).toHaveLength(1);
  });

  it('refuses a tampered webhook with 401 and changes nothing', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user);
    fake.setPayment(payment.reference, { status: 'complete' });
    const signed = signedNotchPayWebhook({
      event: 'payment.complete',
      data: { reference: payment.reference },
    });
    const tampered = {
      ...signed,
      rawBody: Buffer.from(signed.rawBody.toString().replace('complete', 'failed')),
    };
    expect((await webhook(tampered)).statusCode).toBe(401);
    const unsigned = { rawBody: signed.rawBody, headers: { 'content-type': 'application/json' } };
    expect((await webhook(unsigned)).statusCode).toBe(401);
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
  });

  it('the poller settles a payment NotchPay failed, without a webhook', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user);
    fake.setPayment(payment.reference, { status: 'failed' });
    t.clock.advanceSeconds(10);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('failed');
    expect(await creditsOf(t, payment.id)).toHaveLength(0);
  });

  it('an amount NotchPay reports differently fails the payment and credits nothing', async () => {
    const user = await signIn(t);
    const payment = await checkedOut(t, user);
    fake.setPayment(payment.reference, { status: 'complete', amount: 1 });
    const signed = signedNotchPayWebhook({
      event: 'payment.complete',
      data: { reference: payment.reference },
    });
    expect((await webhook(signed)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('failed');
    expect(await creditsOf(t, payment.id)).toHaveLength(0);
  });
});
