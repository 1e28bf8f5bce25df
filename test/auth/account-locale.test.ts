// The account's language (issue 40, DESIGN "Languages"): written from Accept-Language when a code is
// requested and at sign-in, only when the header resolves (none, or garbage, leaves it alone);
// changed by the profile, `locale` valid on its own; shown wherever the full user is. The code text
// itself is in the requesting call's language, the deletion's confirmation code included.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users, walletOperations } from '../../src/db/schema/index.js';
import type { TestApp } from '../helpers.js';
import { createOtpApp, generate, mobilePhone, type OtpTestApp, verify } from './helpers.js';

const FRENCH = /^Votre code de vérification est (\d{6})\. Il expire dans 10 minutes\.$/;
const ENGLISH = /^Your verification code is (\d{6})\. It expires in 10 minutes\.$/;
const EN = { 'accept-language': 'en-GB,en;q=0.9' };
const FR = { 'accept-language': 'fr-CM' };
/** Malformed (q outside 0..1): resolves to nothing, so it is French and writes nothing. */
const GARBAGE = { 'accept-language': 'en;q=5, ###' };

let t: OtpTestApp;
let address = 0;
beforeAll(async () => {
  t = await createOtpApp({ config: { welcomeCredits: 2 } });
});
afterAll(() => t.close());

/** A client network of its own per call, so the per-network caps never add up. */
const ip = () => `198.51.100.${(address++ % 250) + 1}`;

async function localeOf(app: TestApp, phone: string): Promise<string | undefined> {
  const [row] = await app.app.db.select({ locale: users.locale }).from(users).where(eq(users.phone, phone));
  return row?.locale;
}

async function ask(phone: string, headers?: Record<string, string>, method: 'sms' | 'whatsapp' = 'sms') {
  t.clock.advanceSeconds(120);
  const response = await generate(
    t,
    { phone, country: 'CM', method },
    { ip: ip(), ...(headers ? { headers } : {}) },
  );
  expect(response.statusCode, response.body).toBe(200);
  const sent = t.messenger.sent.filter((message) => message.to === phone).at(-1);
  if (!sent) throw new Error('no code sent');
  return sent;
}

async function signInWith(phone: string, headers?: Record<string, string>) {
  const code = (await ask(phone, headers)).code;
  const response = await verify(t, { phone, code }, { ip: ip(), ...(headers ? { headers } : {}) });
  expect(response.statusCode, response.body).toBe(200);
  return { authorization: `Bearer ${response.json().data.token}` };
}

describe('the code text follows the requesting call', () => {
  it('English for an English request (SMS and WhatsApp), French otherwise', async () => {
    const phone = mobilePhone();
    const english = await ask(phone, EN);
    expect(english.text).toMatch(ENGLISH);
    expect(english.locale).toBe('en');
    expect((await ask(phone, EN, 'whatsapp')).text).toMatch(ENGLISH);
    // The account is English now, but a request without the header is answered, and texted, in French.
    const french = await ask(phone);
    expect(french.text).toMatch(FRENCH);
    expect(french.locale).toBe('fr');
    expect((await ask(phone, GARBAGE)).text).toMatch(FRENCH);
  });

  it('the deletion’s confirmation code too', async () => {
    const phone = mobilePhone();
    const headers = await signInWith(phone);
    for (const [language, pattern] of [
      [EN, ENGLISH],
      [FR, FRENCH],
    ] as const) {
      t.clock.advanceSeconds(120);
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/account/delete/code',
        headers: { ...headers, ...language },
        payload: { method: 'sms' },
        remoteAddress: ip(),
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(t.messenger.sent.at(-1)?.text).toMatch(pattern);
    }
  });
});

async function welcomeRowOf(phone: string) {
  const [row] = await t.app.db
    .select({ description: walletOperations.description })
    .from(walletOperations)
    .innerJoin(users, eq(users.id, walletOperations.userId))
    .where(and(eq(users.phone, phone), eq(walletOperations.type, 'welcome_bonus')));
  return row?.description;
}

describe('users.locale', () => {
  it('a new account asked for in English is English (its welcome row too); without the header it is French', async () => {
    const english = mobilePhone();
    await ask(english, EN);
    expect(await localeOf(t, english)).toBe('en');
    expect(await welcomeRowOf(english)).toBe('Welcome credits');
    const plain = mobilePhone();
    await ask(plain);
    expect(await localeOf(t, plain)).toBe('fr');
    expect(await welcomeRowOf(plain)).toBe('Crédits de bienvenue');
    const garbled = mobilePhone();
    await ask(garbled, GARBAGE);
    expect(await localeOf(t, garbled)).toBe('fr');
  });

  it('a code request that asks changes it; one without the header, or with garbage, leaves it alone', async () => {
    const phone = mobilePhone();
    await ask(phone);
    expect(await localeOf(t, phone)).toBe('fr');
    await ask(phone, EN);
    expect(await localeOf(t, phone)).toBe('en');
    await ask(phone);
    await ask(phone, GARBAGE);
    await ask(phone, { 'accept-language': 'de, *' });
    expect(await localeOf(t, phone)).toBe('en');
    await ask(phone, FR);
    expect(await localeOf(t, phone)).toBe('fr');
  });

  it('the sign-in (verify) writes the language it asked for, and only then', async () => {
    const phone = mobilePhone();
    // The code asked in French, the sign-in in English: the sign-in's language is the last word.
    const code = (await ask(phone, FR)).code;
    const signedIn = await verify(t, { phone, code }, { ip: ip(), headers: EN });
    expect(signedIn.statusCode).toBe(200);
    expect(signedIn.json().message).toBe('Signed in.');
    expect(await localeOf(t, phone)).toBe('en');

    // A sign-in without the header keeps it.
    const again = (await ask(phone)).code;
    await t.app.db.update(users).set({ locale: 'en' }).where(eq(users.phone, phone));
    expect((await verify(t, { phone, code: again }, { ip: ip() })).statusCode).toBe(200);
    expect(await localeOf(t, phone)).toBe('en');
  });

  it('the profile and the dashboard show it', async () => {
    const phone = mobilePhone();
    const headers = await signInWith(phone, EN);
    for (const url of ['/api/user/profile', '/api/user/dashboard']) {
      const response = await t.app.inject({ method: 'GET', url, headers });
      expect(response.json().user.locale, url).toBe('en');
    }
  });
});

describe('POST /api/user/profile/update with locale', () => {
  const update = (headers: Record<string, string>, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/profile/update',
      headers,
      payload: payload as Record<string, unknown>,
    });

  it('locale alone is a valid change, in either direction', async () => {
    const phone = mobilePhone();
    const headers = await signInWith(phone);
    const english = await update(headers, { locale: 'en' });
    expect(english.statusCode, english.body).toBe(200);
    expect(english.json()).toMatchObject({
      user: { locale: 'en', name: null },
      message: 'Profil mis à jour.',
    });
    expect(await localeOf(t, phone)).toBe('en');
    const profile = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers });
    expect(profile.json().user.locale).toBe('en');

    const back = await update({ ...headers, ...EN }, { locale: 'fr', name: 'Jean' });
    expect(back.json()).toMatchObject({ user: { locale: 'fr', name: 'Jean' }, message: 'Profile updated.' });
    expect(await localeOf(t, phone)).toBe('fr');
  });

  it('any other value is a 422 on locale, in French and in English; nothing is written', async () => {
    const phone = mobilePhone();
    const headers = await signInWith(phone);
    for (const locale of ['de', 'EN', 'en-GB', '', 1, null]) {
      const french = await update(headers, { locale });
      expect(french.statusCode, String(locale)).toBe(422);
      expect(french.json().errors).toEqual({
        locale: ['Le champ locale doit valoir l’une des valeurs suivantes : fr, en.'],
      });
      const english = await update({ ...headers, ...EN }, { locale });
      expect(english.statusCode).toBe(422);
      expect(english.json().errors).toEqual({ locale: ['The locale field must be one of: fr, en.'] });
    }
    expect(await localeOf(t, phone)).toBe('fr');
  });

  it('nothing to change names locale among the fields, in both languages', async () => {
    const headers = await signInWith(mobilePhone());
    expect((await update(headers, {})).json().errors).toEqual({
      body: ['Indiquez au moins un champ à modifier : name, username ou locale.'],
    });
    expect((await update({ ...headers, ...EN }, {})).json().errors).toEqual({
      body: ['Give at least one field to change: name, username or locale.'],
    });
  });
});
