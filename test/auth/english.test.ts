// English cases (issue 40) for sign-in and sign-out: message only here; the OTP text itself and the
// account's language are tested by the OTP suites.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, nextPhone, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('English', () => {
  it('POST /api/otp/generate', async () => {
    const phone = nextPhone();
    const sent = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/otp/generate',
      payload: { phone, country: 'CM', method: 'sms' },
      remoteAddress: '203.0.113.201',
    });
    expectEnglish(sent, 200, en.messages.otpSent);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/otp/generate',
      payload: { country: 'CM', method: 'sms' },
    });
    expectEnglish422(invalid, 'phone', en.validationMessages.required('phone'));
  });

  it('POST /api/otp/verify', async () => {
    const phone = nextPhone();
    await t.app.inject({
      method: 'POST',
      url: '/api/otp/generate',
      payload: { phone, country: 'CM', method: 'sms' },
      remoteAddress: '203.0.113.202',
    });
    const verified = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/otp/verify',
      payload: { phone, code: t.outbox!.lastCode(phone) },
      remoteAddress: '203.0.113.202',
    });
    expectEnglish(verified, 200, en.messages.otpVerified);
    const invalid = await inEnglish(t.app, { method: 'POST', url: '/api/otp/verify', payload: { phone } });
    expectEnglish422(invalid, 'code', en.validationMessages.required('code'));
  });

  it('POST /api/user/logout', async () => {
    const user = await signIn(t);
    const out = await inEnglish(t.app, { method: 'POST', url: '/api/user/logout', headers: user.headers });
    expectEnglish(out, 200, en.messages.loggedOut);
    const again = await inEnglish(t.app, { method: 'POST', url: '/api/user/logout', headers: user.headers });
    expectEnglish(again, 401, en.messages.unauthenticated);
    expect(again.json().user).toBeNull();
  });
});
