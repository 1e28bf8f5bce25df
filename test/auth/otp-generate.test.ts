import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users, walletOperations } from '../../src/db/schema/index.js';
import { codeHash } from '../../src/modules/auth/otp-service.js';
import { signIn } from '../helpers.js';
import {
  codeRows,
  createOtpApp,
  generate,
  mobilePhone,
  type OtpTestApp,
  providerFailure,
  requestCode,
  verify,
} from './helpers.js';

let t: OtpTestApp;

beforeAll(async () => {
  t = await createOtpApp({ config: { welcomeCredits: 3 } });
});
afterAll(() => t.close());
// Each test an hour later: the per-IP windows of the previous tests are over (limits.test.ts tests them).
beforeEach(() => t.clock.advanceSeconds(3601));

describe('POST /api/otp/generate', () => {
  it('200: user null, message, data.phone, and no errors key', async () => {
    const phone = mobilePhone();
    const response = await generate(t, { phone, country: 'CM', method: 'sms' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: { phone } });
    expect(Object.keys(response.json())).toEqual(['user', 'message', 'data']);
  });

  it('a blocked account gets the same answer, but no SMS is paid for and no code stored', async () => {
    const phone = mobilePhone();
    await requestCode(t, phone);
    await t.app.db.update(users).set({ status: 'blocked' }).where(eq(users.phone, phone));
    t.clock.advanceSeconds(3601);
    const sent = t.messenger.sent.length;
    const response = await generate(t, { phone, country: 'CM', method: 'sms' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: { phone } });
    expect(t.messenger.sent.length).toBe(sent);
    expect(await codeRows(t, phone)).toHaveLength(1);
  });

  it('sends 6 digits in the neutral French sentence, valid OTP_TTL_SECONDS', async () => {
    const phone = mobilePhone();
    await generate(t, { phone, country: 'CM', method: 'whatsapp' });
    const message = t.messenger.sent.at(-1);
    expect(message).toMatchObject({ to: phone, channel: 'whatsapp', ttlSeconds: 600 });
    expect(message?.code).toMatch(/^\d{6}$/);
    expect(message?.text).toBe(`Votre code de vérification est ${message?.code}. Il expire dans 10 minutes.`);
  });

  it('stores only the HMAC of the code, with the phone, channel, ip and validity', async () => {
    const phone = mobilePhone();
    const code = await requestCode(t, phone, { ip: '203.0.113.9' });
    const [row] = await codeRows(t, phone);
    expect(row).toMatchObject({
      phone,
      channel: 'sms',
      ip: '203.0.113.9',
      attempts: 0,
      closedAt: null,
      codeHash: codeHash(t.config, phone, code),
    });
    expect(JSON.stringify(row)).not.toContain(code);
    expect(new Date(row!.expiresAt).getTime() - new Date(row!.sentAt).getTime()).toBe(600_000);
  });

  it('normalizes the phone (separators) and the country (case)', async () => {
    const response = await generate(t, { phone: '+237 6 99 12-34-56', country: 'cm', method: 'sms' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data).toEqual({ phone: '+237699123456' });
    const [user] = await t.app.db.select().from(users).where(eq(users.phone, '+237699123456'));
    expect(user?.country).toBe('CM');
  });

  it('creates the account on the first request, with its affiliation code and welcome credits', async () => {
    const phone = mobilePhone();
    await generate(t, { phone, country: 'CM', method: 'sms' });
    const [user] = await t.app.db.select().from(users).where(eq(users.phone, phone));
    expect(user).toMatchObject({ role: 'user', status: 'active', creditsBalance: 3 });
    expect(user?.affiliationCode).toMatch(/^[A-Z0-9]{8}$/);
    const ledger = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.userId, user!.id));
    expect(ledger).toMatchObject([
      { type: 'welcome_bonus', currency: 'credits', amount: 3, balanceAfter: 3 },
    ]);
  });

  it('answers a known phone exactly as a new one (no enumeration)', async () => {
    const known = await signIn(t, { phone: mobilePhone() });
    // Signing in sent the known phone a code: wait out its resend cooldown.
    t.clock.advanceSeconds(t.config.otpResendCooldownSeconds);
    const fresh = mobilePhone();
    const a = await generate(t, { phone: known.phone, country: 'CM', method: 'sms' });
    const b = await generate(t, { phone: fresh, country: 'CM', method: 'sms' });
    expect(a.statusCode).toBe(b.statusCode);
    const strip = (body: string, phone: string) => body.replace(phone, 'PHONE');
    expect(strip(a.body, known.phone)).toBe(strip(b.body, fresh));
    expect(a.headers['content-type']).toBe(b.headers['content-type']);
    // The known account is neither duplicated nor changed.
    const rows = await t.app.db.select().from(users).where(eq(users.phone, known.phone));
    expect(rows).toHaveLength(1);
    expect(rows[0]?.id).toBe(known.id);
  });

  describe('422', () => {
    const cases: [string, unknown, string[]][] = [
      ['nothing', {}, ['country', 'method', 'phone']],
      [
        'a method other than sms or whatsapp',
        { phone: '+237690000001', country: 'CM', method: 'email' },
        ['method'],
      ],
      [
        'a country that is not two letters',
        { phone: '+237690000001', country: 'CMR', method: 'sms' },
        ['country'],
      ],
      ['a country code no one uses', { phone: '+237690000001', country: 'ZZ', method: 'sms' }, ['country']],
      ['a phone of another country', { phone: '+33612345678', country: 'CM', method: 'sms' }, ['phone']],
      ['a +1 US number for CA', { phone: '+14155552671', country: 'CA', method: 'sms' }, ['phone']],
      ['a national number without +', { phone: '690000001', country: 'CM', method: 'sms' }, ['phone']],
      ['an unallocated range', { phone: '+237600000001', country: 'CM', method: 'sms' }, ['phone']],
      ['a phone too long', { phone: '+2376900000011', country: 'CM', method: 'sms' }, ['phone']],
      ['letters', { phone: '+23769000000a', country: 'CM', method: 'sms' }, ['phone']],
      ['a number for phone', { phone: 237690000001, country: 'CM', method: 'sms' }, ['phone']],
      ['an empty phone', { phone: '', country: 'CM', method: 'sms' }, ['phone']],
      ['a GB premium-rate number', { phone: '+449098765432', country: 'GB', method: 'sms' }, ['phone']],
      ['a FR premium-rate number', { phone: '+33899123456', country: 'FR', method: 'sms' }, ['phone']],
      ['a CM fixed line', { phone: '+237222212345', country: 'CM', method: 'sms' }, ['phone']],
      ['a FR fixed line', { phone: '+33123456789', country: 'FR', method: 'whatsapp' }, ['phone']],
    ];
    it.each(cases)('%s', async (_name, payload, fields) => {
      const before = t.messenger.sent.length;
      const response = await generate(t, payload);
      expect(response.statusCode).toBe(422);
      const body = response.json();
      expect(body).toEqual({ user: null, message: expect.any(String), data: [], errors: expect.any(Object) });
      expect(Object.keys(body.errors).sort()).toEqual(fields);
      for (const list of Object.values(body.errors as Record<string, string[]>)) {
        expect(list.length).toBeGreaterThan(0);
      }
      expect(body.message).toBe(Object.values(body.errors as Record<string, string[]>)[0]?.[0]);
      expect(t.messenger.sent.length).toBe(before);
    });

    it('says why in French', async () => {
      const response = await generate(t, { phone: '+33612345678', country: 'CM', method: 'sms' });
      expect(response.json().errors.phone).toEqual(['Le numéro de téléphone n’est pas valide pour ce pays.']);
    });

    it('only mobile numbers get a code, and the answer says so', async () => {
      const response = await generate(t, { phone: '+449098765432', country: 'GB', method: 'sms' });
      expect(response.json().errors.phone).toEqual(['Le numéro de téléphone doit être un numéro mobile.']);
      expect(await t.app.db.select().from(users).where(eq(users.phone, '+449098765432'))).toEqual([]);
      // libphonenumber cannot tell a US mobile from a fixed line: FIXED_LINE_OR_MOBILE is accepted.
      expect((await generate(t, { phone: '+14155552671', country: 'US', method: 'sms' })).statusCode).toBe(
        200,
      );
    });

    it('creates no account', async () => {
      await generate(t, { phone: '+33612345678', country: 'CM', method: 'sms' });
      expect(await t.app.db.select().from(users).where(eq(users.phone, '+33612345678'))).toEqual([]);
    });

    it('malformed JSON is a 422 on body', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/otp/generate',
        headers: { 'content-type': 'application/json' },
        payload: '{"phone":',
      });
      expect(response.statusCode).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['body']);
    });
  });

  describe('500 when the code cannot be sent', () => {
    it('user null, message, data [], no errors key', async () => {
      t.messenger.failNext(providerFailure());
      const response = await generate(t, { phone: mobilePhone(), country: 'CM', method: 'sms' });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({
        user: null,
        message: 'Le code n’a pas pu être envoyé. Réessayez dans quelques instants.',
        data: [],
      });
    });

    it('keeps the account, stores no code and starts no cooldown', async () => {
      const phone = mobilePhone();
      t.messenger.failNext(providerFailure());
      expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(500);
      expect(await t.app.db.select().from(users).where(eq(users.phone, phone))).toHaveLength(1);
      expect(await codeRows(t, phone)).toEqual([]);
      // Straight away: a cooldown would answer 429.
      expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(200);
      expect(await codeRows(t, phone)).toHaveLength(1);
    });

    it('leaves the older code valid', async () => {
      const phone = mobilePhone();
      const older = await requestCode(t, phone);
      t.clock.advanceSeconds(61);
      t.messenger.failNext(providerFailure());
      expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(500);
      const [row] = await codeRows(t, phone);
      expect(row?.closedAt).toBeNull();
      const response = await verify(t, { phone, code: older });
      expect(response.statusCode).toBe(200);
    });

    it('logs the provider failure (warn) without the code', async () => {
      const lines: string[] = [];
      const logged = await createOtpApp({
        logger: { level: 'warn', stream: { write: (line: string) => void lines.push(line) } },
      });
      try {
        logged.messenger.failNext(providerFailure());
        const phone = mobilePhone();
        await generate(logged, { phone, country: 'CM', method: 'sms' });
        const warn = lines
          .map((line) => JSON.parse(line))
          .find((l) => l.msg === 'sign-in code could not be sent');
        expect(warn).toMatchObject({
          level: 40,
          provider: 'twilio',
          reason: 'invalid_recipient',
          providerCode: 21614,
        });
        expect(lines.join('\n')).not.toMatch(/"text":|code de vérification/);
      } finally {
        await logged.close();
      }
    });
  });
});
