import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { accessTokens, users } from '../../src/db/schema/index.js';
import {
  codeRows,
  createOtpApp,
  generate,
  mobilePhone,
  type OtpTestApp,
  otherCode,
  requestCode,
  verify,
} from './helpers.js';

let t: OtpTestApp;

beforeAll(async () => {
  t = await createOtpApp();
});
afterAll(() => t.close());
// Each test an hour later: the per-IP windows of the previous tests are over (limits.test.ts tests them).
beforeEach(() => t.clock.advanceSeconds(3601));

const INVALID = { user: null, message: 'Code invalide ou expiré.', data: [] };

async function expectInvalid(payload: { phone: string; code: string }, options: { ip?: string } = {}) {
  const response = await verify(t, payload, options);
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual(INVALID);
  expect(Object.keys(response.json())).not.toContain('errors');
}

describe('POST /api/otp/verify', () => {
  it('200: the user (id, phone, country, affiliation_code) and data.token, no errors key', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone);
    const response = await verify(t, { phone, code });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    const [user] = await t.app.db.select().from(users).where(eq(users.phone, phone));
    expect(body).toEqual({
      user: { id: user!.id, phone, country: 'CM', affiliation_code: user!.affiliationCode },
      message: 'Connexion réussie.',
      data: { token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/) },
    });
    expect(Object.keys(body)).toEqual(['user', 'message', 'data']);
  });

  it('the token opens the protected routes', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone);
    const { token } = (await verify(t, { phone, code })).json().data;
    const logout = await t.app.inject({
      method: 'POST',
      url: '/api/user/logout',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(logout.statusCode).toBe(200);
  });

  it('accepts the phone with separators, as generate does', async () => {
    const code = await requestCode(t, '+237699887766');
    const response = await verify(t, { phone: '+237 699 88 77 66', code });
    expect(response.statusCode).toBe(200);
    expect(response.json().user.phone).toBe('+237699887766');
  });

  describe('400, always the same body', () => {
    it('a wrong code', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone);
      await expectInvalid({ phone, code: otherCode(code) });
    });

    it('a phone that never asked for a code, known or not', async () => {
      await expectInvalid({ phone: mobilePhone(), code: '123456' });
      const known = mobilePhone();
      const code = await requestCode(t, known);
      await verify(t, { phone: known, code });
      await expectInvalid({ phone: known, code: '123456' });
    });

    it('a code used once already (single use)', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone);
      expect((await verify(t, { phone, code })).statusCode).toBe(200);
      await expectInvalid({ phone, code });
    });

    it('a code past OTP_TTL_SECONDS, but not a second before', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone);
      t.clock.advanceSeconds(599);
      expect((await verify(t, { phone, code: otherCode(code) })).statusCode).toBe(400);
      const other = mobilePhone();
      const fresh = await requestCode(t, other);
      t.clock.advanceSeconds(600);
      await expectInvalid({ phone: other, code: fresh });
      // The first one, now also past its time.
      await expectInvalid({ phone, code });
    });

    it('the code of another phone', async () => {
      const a = mobilePhone();
      const b = mobilePhone();
      const codeA = await requestCode(t, a);
      await requestCode(t, b);
      await expectInvalid({ phone: b, code: codeA === t.messenger.lastCode(b) ? otherCode(codeA) : codeA });
    });

    it('OTP_MAX_ATTEMPTS wrong tries from one network void the code there, even for the right one', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone);
      for (let i = 0; i < 4; i++) await expectInvalid({ phone, code: otherCode(code) });
      expect((await codeRows(t, phone))[0]).toMatchObject({ attempts: 4, closedAt: null });
      await expectInvalid({ phone, code: otherCode(code) });
      await expectInvalid({ phone, code });
      // Tries on a code void for the network are not checked, and not counted toward the ceiling.
      expect((await codeRows(t, phone))[0]?.attempts).toBe(5);
    });

    it('a stranger on another network making 5 wrong tries does not void the owner’s code', async () => {
      const phone = mobilePhone();
      const owner = { ip: '192.0.2.44' };
      const code = await requestCode(t, phone, owner);
      for (let i = 0; i < 5; i++) {
        expect((await verify(t, { phone, code: otherCode(code) }, { ip: '203.0.113.80' })).statusCode).toBe(
          400,
        );
      }
      // Even the right code is refused to the stranger's network now…
      expect((await verify(t, { phone, code }, { ip: '203.0.113.80' })).statusCode).toBe(400);
      // …but the owner's works.
      expect((await verify(t, { phone, code }, owner)).statusCode).toBe(200);
    });

    it('an IPv6 stranger is one network for its whole /64', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone, { ip: '192.0.2.45' });
      for (let i = 0; i < 5; i++) {
        const ip = `2001:db8:77:1::${i + 1}`;
        expect((await verify(t, { phone, code: otherCode(code) }, { ip })).statusCode).toBe(400);
      }
      expect((await verify(t, { phone, code }, { ip: '2001:db8:77:1::99' })).statusCode).toBe(400);
      expect((await verify(t, { phone, code }, { ip: '2001:db8:77:2::1' })).statusCode).toBe(200);
    });

    it('3 × OTP_MAX_ATTEMPTS wrong tries over all networks void the code for everyone', async () => {
      const phone = mobilePhone();
      const owner = { ip: '192.0.2.46' };
      const code = await requestCode(t, phone, owner);
      for (const ip of ['203.0.113.81', '203.0.113.82', '203.0.113.83']) {
        for (let i = 0; i < 5; i++) await expectInvalid({ phone, code: otherCode(code) }, { ip });
      }
      expect((await codeRows(t, phone))[0]).toMatchObject({ attempts: 15, closedAt: expect.any(String) });
      const response = await verify(t, { phone, code }, owner);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(INVALID);
    });

    it('the right code after fewer wrong tries still works', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone);
      for (let i = 0; i < 4; i++) await expectInvalid({ phone, code: otherCode(code) });
      expect((await verify(t, { phone, code })).statusCode).toBe(200);
    });

    it('a newer delivered code voids the older one', async () => {
      const phone = mobilePhone();
      const older = await requestCode(t, phone);
      t.clock.advanceSeconds(60);
      const newer = await requestCode(t, phone);
      if (older !== newer) await expectInvalid({ phone, code: older });
      expect((await verify(t, { phone, code: newer })).statusCode).toBe(200);
      const rows = await codeRows(t, phone);
      expect(rows.map((row) => row.closedAt !== null)).toEqual([true, true]);
    });

    it('a new code starts with a fresh attempt budget', async () => {
      const phone = mobilePhone();
      const first = await requestCode(t, phone);
      for (let i = 0; i < 5; i++) await expectInvalid({ phone, code: otherCode(first) });
      t.clock.advanceSeconds(60);
      const second = await requestCode(t, phone);
      expect((await verify(t, { phone, code: second })).statusCode).toBe(200);
    });
  });

  it('a blocked account gets the 400 of a wrong code, and no token is written', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone);
    const [user] = await t.app.db
      .update(users)
      .set({ status: 'blocked' })
      .where(eq(users.phone, phone))
      .returning();
    const response = await verify(t, { phone, code });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual(INVALID);
    expect(await t.app.db.select().from(accessTokens).where(eq(accessTokens.userId, user!.id))).toEqual([]);
  });

  it('two simultaneous tries with the right code: exactly one token', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone);
    const answers = await Promise.all([1, 2, 3].map(() => verify(t, { phone, code })));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('simultaneous wrong tries are each counted', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone);
    await Promise.all([1, 2, 3, 4, 5].map(() => verify(t, { phone, code: otherCode(code) })));
    await expectInvalid({ phone, code });
  });

  describe('422', () => {
    const cases: [string, unknown, string[]][] = [
      ['nothing', {}, ['code', 'phone']],
      ['a code that is a number', { phone: '+237690000001', code: 123456 }, ['code']],
      ['a code of 5 digits', { phone: '+237690000001', code: '12345' }, ['code']],
      ['a code with letters', { phone: '+237690000001', code: '12345a' }, ['code']],
      ['a phone that is not international', { phone: '690000001', code: '123456' }, ['phone']],
      ['both malformed', { phone: 'abc', code: '1' }, ['code', 'phone']],
    ];
    it.each(cases)('%s', async (_name, payload, fields) => {
      const response = await verify(t, payload);
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body).toEqual({ user: null, message: expect.any(String), data: [], errors: expect.any(Object) });
      expect(Object.keys(body.errors).sort()).toEqual(fields);
    });

    it('a malformed code costs no attempt', async () => {
      const phone = mobilePhone();
      const code = await requestCode(t, phone);
      for (let i = 0; i < 6; i++) expect((await verify(t, { phone, code: '12' })).statusCode).toBe(422);
      expect((await codeRows(t, phone))[0]?.attempts).toBe(0);
      expect((await verify(t, { phone, code })).statusCode).toBe(200);
    });
  });

  it('generate and verify are documented in the OpenAPI document with their statuses', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(Object.keys(document.paths['/api/otp/generate'].post.responses)).toEqual(
      expect.arrayContaining(['200', '422', '429', '500']),
    );
    expect(Object.keys(document.paths['/api/otp/verify'].post.responses)).toEqual(
      expect.arrayContaining(['200', '400', '422', '429']),
    );
    // A generate answer never carries a user.
    const phone = mobilePhone();
    expect((await generate(t, { phone, country: 'CM', method: 'sms' })).json().user).toBeNull();
  });
});
