import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Config, ConfigError } from '../../../src/config.js';
import {
  createNotchPayDriver,
  NOTCHPAY_BACKOFF_MS,
  NOTCHPAY_MAX_ATTEMPTS,
} from '../../../src/providers/payments/notchpay.js';
import { PaymentProviderError, type PaymentToStart } from '../../../src/providers/payments/types.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  signedNotchPayWebhook,
  startNotchPayFake,
  transactionOf,
} from '../../fakes/notchpay.js';

const PHONE = '+237670000001';

function paymentToStart(overrides: Partial<PaymentToStart> = {}): PaymentToStart {
  return {
    reference: 'pay_01JTESTREFERENCE000000001',
    amount: 2500,
    currency: 'XAF',
    payerPhone: PHONE,
    channel: 'cm.mtn',
    description: 'Pack Standard : 30 crédits',
    createdAt: new Date('2025-01-01T12:00:00Z'),
    ...overrides,
  };
}

function settings(baseUrl: string, overrides: Partial<Config['notchpay']> = {}): Config['notchpay'] {
  return {
    baseUrl,
    publicKey: NOTCHPAY_PUBLIC_KEY,
    privateKey: undefined,
    webhookSecret: NOTCHPAY_HASH_KEY,
    chargeMethod: 'POST',
    timeoutMs: 2000,
    ...overrides,
  };
}

async function providerError(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

describe('notchpay driver', () => {
  let fake: NotchPayFake;
  let waits: number[];
  beforeEach(async () => {
    fake = await startNotchPayFake();
    waits = [];
  });
  afterEach(() => fake.close());

  const driver = (overrides: Partial<Config['notchpay']> = {}) =>
    createNotchPayDriver(settings(fake.baseUrl, overrides), {
      sleep: async (ms) => void waits.push(ms),
    });
  const calls = () => fake.requests.map((r) => `${r.method} ${r.path}`);
  const PAYMENT_PATH = `/payments/${paymentToStart().reference}`;

  it('creates the payment under our reference, then charges the phone directly, with the bare public key', async () => {
    const started = await driver().start(paymentToStart());

    expect(fake.problems).toEqual([]);
    expect(calls()).toEqual(['POST /payments', `POST ${PAYMENT_PATH}`]);
    for (const request of fake.requests) expect(request.headers.authorization).toBe(NOTCHPAY_PUBLIC_KEY);
    expect(fake.requests[0]?.body).toEqual({
      amount: 2500,
      currency: 'XAF',
      customer: { phone: PHONE },
      reference: paymentToStart().reference,
      description: 'Pack Standard : 30 crédits',
    });
    expect(fake.requests[1]?.body).toEqual({ channel: 'cm.mtn', data: { phone: '237670000001' } });
    const stored = fake.payments.get(paymentToStart().reference);
    expect(stored?.charges).toEqual([{ channel: 'cm.mtn', phone: '237670000001' }]);
    expect(started).toEqual({
      reference: paymentToStart().reference,
      providerReference: stored?.id,
      status: 'pending',
      amount: 2500,
      currency: 'XAF',
      paymentUrl: `https://pay.notchpay.co/${stored?.id}`,
    });
  });

  it('charges with PUT when NOTCHPAY_CHARGE_METHOD says so', async () => {
    await fake.close();
    fake = await startNotchPayFake({ chargeMethod: 'PUT' });

    await driver({ chargeMethod: 'PUT' }).start(
      paymentToStart({ channel: 'cm.orange', payerPhone: '+237690000002' }),
    );

    expect(fake.problems).toEqual([]);
    expect(calls()).toEqual(['POST /payments', `PUT ${PAYMENT_PATH}`]);
    expect(fake.requests[1]?.body).toEqual({ channel: 'cm.orange', data: { phone: '237690000002' } });
  });

  it('answers a 409 on create (NotchPay already knows the reference) by reading it, never creating again', async () => {
    const known = fake.seedPayment({ reference: paymentToStart().reference, amount: 2500 });

    const started = await driver().start(paymentToStart());

    expect(calls()).toEqual(['POST /payments', `GET ${PAYMENT_PATH}`, `POST ${PAYMENT_PATH}`]);
    expect(fake.payments.size).toBe(1);
    expect(started).toMatchObject({ providerReference: known.id, status: 'pending', amount: 2500 });
  });

  it('does not ask the payer again when the known payment is already past pending', async () => {
    fake.seedPayment({ reference: paymentToStart().reference, amount: 2500, status: 'complete' });

    const started = await driver().start(paymentToStart());

    expect(calls()).toEqual(['POST /payments', `GET ${PAYMENT_PATH}`]);
    expect(started.status).toBe('complete');
  });

  it('resolves a create that timed out by reading the reference (the payment exists once)', async () => {
    fake.respond('hang');

    const started = await driver({ timeoutMs: 300 }).start(paymentToStart());

    expect(calls()).toEqual(['POST /payments', `GET ${PAYMENT_PATH}`, `POST ${PAYMENT_PATH}`]);
    expect(fake.payments.size).toBe(1);
    expect(started.status).toBe('pending');
  });

  it('reports a create that timed out and never took effect as retryable (nothing to read yet)', async () => {
    fake.respond('stall');

    const error = await providerError(driver({ timeoutMs: 300 }).start(paymentToStart()));

    expect(error).toMatchObject({ status: 404, retryable: true });
    expect(calls()).toEqual(['POST /payments', `GET ${PAYMENT_PATH}`]);
    expect(fake.payments.size).toBe(0);
  });

  it('resolves a charge that timed out by reading the payment, without charging twice', async () => {
    fake.respond('ok', 'hang');

    const started = await driver({ timeoutMs: 300 }).start(paymentToStart());

    expect(calls()).toEqual(['POST /payments', `POST ${PAYMENT_PATH}`, `GET ${PAYMENT_PATH}`]);
    expect(fake.payments.get(paymentToStart().reference)?.charges).toHaveLength(1);
    expect(started.status).toBe('pending');
  });

  it('waits for Retry-After on a 429, then succeeds', async () => {
    fake.respond({ rateLimit: 2 });

    const started = await driver().start(paymentToStart());

    expect(waits).toEqual([2000]);
    expect(calls()).toEqual(['POST /payments', 'POST /payments', `POST ${PAYMENT_PATH}`]);
    expect(started.status).toBe('pending');
  });

  it('backs off on a 429 without Retry-After, and gives up (retryable) on a Retry-After past the bound', async () => {
    fake.respond({ rateLimit: null });
    await driver()
      .fetch(paymentToStart())
      .catch(() => undefined);
    expect(waits).toEqual([NOTCHPAY_BACKOFF_MS[0]]);

    fake.respond({ rateLimit: 3600 });
    const error = await providerError(driver().fetch(paymentToStart()));
    expect(error).toMatchObject({ status: 429, retryable: true });
    expect(waits).toEqual([NOTCHPAY_BACKOFF_MS[0]]);
  });

  it('retries a 5xx with backoff, then succeeds', async () => {
    fake.respond({ status: 503 }, { status: 500 });

    const started = await driver().start(paymentToStart());

    expect(waits).toEqual([...NOTCHPAY_BACKOFF_MS]);
    expect(calls()).toEqual(['POST /payments', 'POST /payments', 'POST /payments', `POST ${PAYMENT_PATH}`]);
    expect(started.status).toBe('pending');
  });

  it('retries a dropped connection, then succeeds', async () => {
    fake.respond('drop');

    await driver().start(paymentToStart());

    expect(waits).toEqual([NOTCHPAY_BACKOFF_MS[0]]);
    expect(fake.payments.size).toBe(1);
  });

  it('reports a 5xx that lasts as a retryable error after a bounded number of attempts', async () => {
    fake.respond(...Array.from({ length: 10 }, () => ({ status: 502 })));

    const error = await providerError(driver().start(paymentToStart()));

    expect(error).toMatchObject({ provider: 'notchpay', status: 502, retryable: true });
    expect(fake.requests).toHaveLength(NOTCHPAY_MAX_ATTEMPTS);
    expect(fake.payments.size).toBe(0);
  });

  it.each([401, 403])('reports a %i as not retryable, at once', async (status) => {
    fake.respond({ status });

    const error = await providerError(driver().start(paymentToStart()));

    expect(error).toMatchObject({ status, retryable: false });
    expect(fake.requests).toHaveLength(1);
    expect(waits).toEqual([]);
  });

  it('reports a wrong public key as a 401, not retryable', async () => {
    const error = await providerError(driver({ publicKey: 'Bearer pk_wrong' }).fetch(paymentToStart()));

    expect(error).toMatchObject({ status: 401, retryable: false });
    expect(error.message).toContain('Invalid API key');
  });

  it('reports a 422 with its fields, not retryable, without the payer number in the message', async () => {
    // The fake refuses a landline-looking number for the direct charge and names it in its error.
    const error = await providerError(driver().start(paymentToStart({ payerPhone: '+237222000001' })));

    expect(error).toMatchObject({ status: 422, retryable: false });
    expect(error.message).toContain('data.phone');
    expect(error.message).not.toMatch(/222000001/);
  });

  it('reads a payment by reference: transaction.status, the amount as NotchPay gives it, the hosted page', async () => {
    const known = fake.seedPayment({
      reference: paymentToStart().reference,
      amount: 2400,
      status: 'complete',
    });

    const read = await driver().fetch(paymentToStart());

    expect(calls()).toEqual([`GET ${PAYMENT_PATH}`]);
    expect(read).toEqual({
      reference: paymentToStart().reference,
      providerReference: known.id,
      status: 'complete',
      amount: 2400,
      currency: 'XAF',
      paymentUrl: `https://pay.notchpay.co/${known.id}`,
    });
  });

  it('follows the payment through its statuses as NotchPay reports them', async () => {
    const d = driver();
    await d.start(paymentToStart());
    for (const status of ['processing', 'complete', 'refunded']) {
      fake.setPayment(paymentToStart().reference, { status });
      expect((await d.fetch(paymentToStart())).status).toBe(status);
    }
    fake.setPayment(paymentToStart().reference, { currency: 'EUR', amount: 3 });
    expect(await d.fetch(paymentToStart())).toMatchObject({ amount: 3, currency: 'EUR' });
  });

  it('retries a read that timed out', async () => {
    fake.seedPayment({ reference: paymentToStart().reference, amount: 2500 });
    fake.respond('hang');

    const read = await driver({ timeoutMs: 300 }).fetch(paymentToStart());

    expect(read.status).toBe('pending');
    expect(calls()).toEqual([`GET ${PAYMENT_PATH}`, `GET ${PAYMENT_PATH}`]);
  });

  it('reports an unknown reference as a 404, not retryable', async () => {
    const error = await providerError(driver().fetch(paymentToStart()));
    expect(error).toMatchObject({ status: 404, retryable: false });
  });

  it('refuses to start without the public key or the hash key', () => {
    expect(() => createNotchPayDriver(settings(fake.baseUrl, { publicKey: undefined }))).toThrow(ConfigError);
    expect(() => createNotchPayDriver(settings(fake.baseUrl, { webhookSecret: undefined }))).toThrow(
      /NOTCHPAY_WEBHOOK_SECRET/,
    );
  });
});

describe('notchpay webhooks', () => {
  const driver = createNotchPayDriver(settings('http://127.0.0.1:9'));
  const reference = 'pay_01JTESTREFERENCE000000001';
  const data = transactionOf({
    id: 'trx.test_abc',
    reference,
    amount: 2500,
    currency: 'XAF',
    status: 'complete',
    customer: { phone: PHONE },
    description: 'Pack',
    charges: [],
  });

  it.each(['type', 'event'] as const)(
    'reads a validly signed webhook in the {id, %s, data} envelope',
    (envelope) => {
      const webhook = signedNotchPayWebhook({ event: 'payment.complete', data, envelope, id: 'evt.1' });

      expect(driver.verifyWebhook(webhook.rawBody, webhook.headers)).toEqual({
        id: 'evt.1',
        type: 'payment.complete',
        reference,
      });
    },
  );

  it('reads the same webhook delivered twice the same way (the wallet makes it count once)', () => {
    const webhook = signedNotchPayWebhook({ event: 'payment.failed', data, id: 'evt.2' });
    const first = driver.verifyWebhook(webhook.rawBody, webhook.headers);
    const second = driver.verifyWebhook(Buffer.from(webhook.rawBody), { ...webhook.headers });
    expect(first).toEqual({ id: 'evt.2', type: 'payment.failed', reference });
    expect(second).toEqual(first);
  });

  it('finds our reference as merchant_reference or trxref beside NotchPay’s own reference', () => {
    for (const key of ['merchant_reference', 'trxref']) {
      const webhook = signedNotchPayWebhook({
        event: 'payment.complete',
        data: { ...data, reference: 'trx.test_notchpay_own', [key]: reference },
      });
      expect(driver.verifyWebhook(webhook.rawBody, webhook.headers)?.reference).toBe(reference);
    }
  });

  it('refuses a missing, malformed or doubled signature', () => {
    const { rawBody, headers } = signedNotchPayWebhook({ event: 'payment.complete', data });
    const signature = headers['x-notch-signature'] as string;
    expect(driver.verifyWebhook(rawBody, { 'content-type': 'application/json' })).toBeNull();
    expect(driver.verifyWebhook(rawBody, { 'x-notch-signature': '' })).toBeNull();
    expect(driver.verifyWebhook(rawBody, { 'x-notch-signature': 'not-hex' })).toBeNull();
    expect(driver.verifyWebhook(rawBody, { 'x-notch-signature': signature.slice(2) })).toBeNull();
    expect(driver.verifyWebhook(rawBody, { 'x-notch-signature': `sha256=${signature}` })).toBeNull();
    expect(driver.verifyWebhook(rawBody, { 'x-notch-signature': [signature, signature] })).toBeNull();
  });

  it('refuses a tampered body, a signature made with another key, and one over the re-serialised JSON', () => {
    const { rawBody, headers } = signedNotchPayWebhook({ event: 'payment.complete', data });
    const tampered = Buffer.from(rawBody.toString().replace('2500', '250000'));
    expect(driver.verifyWebhook(tampered, headers)).toBeNull();

    const otherKey = signedNotchPayWebhook({ event: 'payment.complete', data, hashKey: 'another-key' });
    expect(driver.verifyWebhook(otherKey.rawBody, otherKey.headers)).toBeNull();

    // The raw bytes are signed: the same JSON spaced differently is another body.
    const spaced = Buffer.from(JSON.stringify(JSON.parse(rawBody.toString()), null, 2));
    expect(driver.verifyWebhook(spaced, headers)).toBeNull();
    const resigned = createHmac('sha256', NOTCHPAY_HASH_KEY).update(spaced).digest('hex');
    expect(driver.verifyWebhook(spaced, { 'x-notch-signature': resigned.toUpperCase() })?.reference).toBe(
      reference,
    );
  });

  it('reads an authentic body it cannot make sense of as an unknown event', () => {
    const rawBody = Buffer.from('not json');
    const signature = createHmac('sha256', NOTCHPAY_HASH_KEY).update(rawBody).digest('hex');
    expect(driver.verifyWebhook(rawBody, { 'x-notch-signature': signature })).toEqual({
      id: null,
      type: 'unknown',
      reference: null,
    });
  });
});
