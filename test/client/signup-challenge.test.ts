// The typed client's sign-up challenge (decision 0104): `requestSignInCode` asks for a code, and
// when the service answers 428 it solves the ALTCHA challenge with WebCrypto and sends the same
// request with the proof; without pressure it is one request, as before; other refusals are ApiErrors.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ApiError,
  createPronosticsClient,
  dataOf,
  requestSignInCode,
} from '../../clients/typescript/index.js';
import { mobilePhone } from '../auth/helpers.js';
import { createTestApp, type TestApp } from '../helpers.js';

describe('the typed client and the sign-up challenge', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    // A +237 budget of 20: strangers may use 10, the challenge starts at 5, a network's share is 1.
    t = await createTestApp({
      config: {
        otpCountryHourlyBudget: 20,
        otpGlobalHourlyBudget: 1000,
        otpReturningSharePercent: 50,
        signupChallengeCost: 10,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/`;
  });
  afterAll(() => t?.close());

  it('solves the challenge when the service asks for one, and gets the code', async () => {
    const api = createPronosticsClient({ baseUrl });
    const challenged: unknown[] = [];
    const onChallenge = (challenge: unknown) => void challenged.push(challenge);

    // No pressure yet: one request, no challenge. These four bring the strangers' share to 50 %.
    for (let i = 0; i < 4; i++) {
      const phone = mobilePhone();
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/otp/generate',
        payload: { phone, country: 'CM', method: 'sms' },
        remoteAddress: `192.0.2.${i + 1}`,
      });
      expect(other.statusCode).toBe(200);
    }
    const first = mobilePhone();
    expect(
      await requestSignInCode(api, { phone: first, country: 'CM', method: 'sms' }, { onChallenge }),
    ).toEqual({ phone: first });
    expect(challenged).toHaveLength(0);

    // Now under pressure: another network gets a challenge.
    const phone = mobilePhone();
    const direct = await t.app.inject({
      method: 'POST',
      url: '/api/otp/generate',
      payload: { phone: mobilePhone(), country: 'CM', method: 'sms' },
      remoteAddress: '192.0.2.99',
    });
    expect(direct.statusCode).toBe(428);
    // The service sees 127.0.0.1 for this client: its share (1) is used, so a new number is a 429
    // at once, without a challenge to solve for nothing.
    const refused = await requestSignInCode(
      api,
      { phone, country: 'CM', method: 'sms' },
      { onChallenge },
    ).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).status).toBe(429);
    expect(challenged).toHaveLength(0);
  });

  it('from a network within its share: 428, solved, the code sent', async () => {
    // A second app: its own budgets, this client's network fresh.
    const u = await createTestApp({
      config: {
        otpCountryHourlyBudget: 20,
        otpGlobalHourlyBudget: 1000,
        otpReturningSharePercent: 50,
        signupChallengeCost: 10,
      },
    });
    try {
      await u.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `http://127.0.0.1:${(u.app.server.address() as AddressInfo).port}/`;
      for (let i = 0; i < 5; i++) {
        const other = await u.app.inject({
          method: 'POST',
          url: '/api/otp/generate',
          payload: { phone: mobilePhone(), country: 'CM', method: 'sms' },
          remoteAddress: `192.0.2.${i + 1}`,
        });
        expect(other.statusCode).toBe(200);
      }
      const api = createPronosticsClient({ baseUrl: url });
      const challenged: unknown[] = [];
      const phone = mobilePhone();
      const answer = await requestSignInCode(
        api,
        { phone, country: 'CM', method: 'sms' },
        { onChallenge: (challenge) => void challenged.push(challenge) },
      );
      expect(answer).toEqual({ phone });
      expect(challenged).toHaveLength(1);
      const token = (
        await dataOf(api.POST('/api/otp/verify', { body: { phone, code: u.outbox!.lastCode(phone) } }))
      ).token;
      expect(token).toEqual(expect.any(String));
    } finally {
      await u.close();
    }
  });
});
