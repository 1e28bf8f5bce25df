// English cases (issue 40) for a pack's checkout, its payment and the provider's webhook.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { sandboxWebhook } from './helpers.js';

let t: TestApp;
let user: SignedIn;
let paymentId: number;
let reference: string;
beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: 2000 } });
  user = await signIn(t);
});
afterAll(() => t.close());

describe('English', () => {
  it('POST /api/user/wallet/checkout', async () => {
    const started = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/wallet/checkout',
      headers: user.headers,
      payload: { pack_id: 1, phone: user.phone },
    });
    expectEnglish(started, 201, en.messages.paymentCreated);
    paymentId = started.json().data.payment.id;
    reference = started.json().data.payment.reference;
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/wallet/checkout',
      headers: user.headers,
      payload: { pack_id: 1, phone: '+33612345678' },
    });
    expectEnglish422(invalid, 'phone', en.messages.paymentPhoneInvalid);
  });

  it('GET /api/user/wallet/payments/:id', async () => {
    const one = await inEnglish(t.app, {
      method: 'GET',
      url: `/api/user/wallet/payments/${paymentId}`,
      headers: user.headers,
    });
    expectEnglish(one, 200, en.messages.paymentDetail);
    const missing = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/wallet/payments/999999',
      headers: user.headers,
    });
    expectEnglish(missing, 404, en.messages.paymentNotFound);
  });

  it('POST /api/webhooks/payments/:provider', async () => {
    // A provider sends no Accept-Language: French, as before. Asked in English, it answers in English.
    const received = await sandboxWebhook(t, { event: 'payment.complete', data: { reference } });
    expect(received.statusCode).toBe(200);
    expect(received.headers['content-language']).toBe('fr');
    const unsigned = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/webhooks/payments/sandbox',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ event: 'payment.complete', data: { reference } }),
    });
    expectEnglish(unsigned, 401, unsigned.json().message);
    expect(unsigned.json().message).not.toBe(received.json().message);
  });
});
