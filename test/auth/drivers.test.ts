// The messaging drivers end to end through POST /api/otp/generate: the messenger is the one buildApp
// makes from the configuration, talking to the local fake providers (or writing the outbox).
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { startTwilioFake, TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN, type TwilioFake } from '../fakes/twilio.js';
import {
  startWhatsappCloudFake,
  WHATSAPP_LANGUAGE_EN,
  WHATSAPP_TEMPLATE,
  WHATSAPP_TEMPLATE_EN,
  WHATSAPP_TOKEN,
  type WhatsappCloudFake,
} from '../fakes/whatsapp-cloud.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { twilioSettings, whatsappCloudSettings } from '../providers/messaging/helpers.js';
import { codeRows, generate, mobilePhone, tempDir, verify } from './helpers.js';

const SENTENCE = /^Votre code de vérification est (\d{6})\. Il expire dans 10 minutes\.$/;

function codeOf(text: string | undefined): string {
  const match = SENTENCE.exec(text ?? '');
  if (!match?.[1]) throw new Error(`not a code message: ${text}`);
  return match[1];
}

describe('log driver', () => {
  let t: TestApp;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    dir = await tempDir();
    t = await createTestApp({
      configuredMessenger: true,
      config: { dataDir: dir.path, messagingDriver: 'log', whatsappDriver: 'log' },
    });
  });
  afterAll(async () => {
    await t.close();
    await dir.remove();
  });

  it('appends one JSON line per code to DATA_DIR/outbox.jsonl, and that code signs in', async () => {
    const phone = mobilePhone();
    expect((await generate(t, { phone, country: 'CM', method: 'whatsapp' })).statusCode).toBe(200);
    const lines = (await readFile(join(dir.path, 'outbox.jsonl'), 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0] ?? '');
    expect(line).toEqual({
      to: phone,
      channel: 'whatsapp',
      text: expect.stringMatching(SENTENCE),
      sent_at: t.clock.now().toISOString(),
    });
    expect((await verify(t, { phone, code: codeOf(line.text) })).statusCode).toBe(200);
  });
});

describe('twilio driver (SMS and WhatsApp)', () => {
  let fake: TwilioFake;
  let t: TestApp;
  beforeAll(async () => {
    fake = await startTwilioFake();
    t = await createTestApp({
      configuredMessenger: true,
      config: { messagingDriver: 'twilio', whatsappDriver: 'twilio', twilio: twilioSettings(fake.baseUrl) },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    t.clock.advanceSeconds(3601);
  });
  afterEach(() => expect(fake.problems).toEqual([]));

  it('SMS: Basic auth, form fields, the sentence as Body; the code signs in', async () => {
    const phone = mobilePhone();
    expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(200);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe(`/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`);
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TWILIO_ACCOUNT_SID}:${TWILIO_AUTH_TOKEN}`).toString('base64')}`,
    );
    expect(request?.form).toMatchObject({ To: phone, From: '+15005550006', ValidityPeriod: '600' });
    const code = codeOf(request?.form.Body);
    expect((await verify(t, { phone, code })).statusCode).toBe(200);
  });

  it('WhatsApp: the content template with the code as its variable', async () => {
    const phone = mobilePhone();
    expect((await generate(t, { phone, country: 'CM', method: 'whatsapp' })).statusCode).toBe(200);
    const form = fake.requests[0]?.form ?? {};
    expect(form).toMatchObject({ To: `whatsapp:${phone}`, From: 'whatsapp:+14155238886' });
    expect(form.Body).toBeUndefined();
    const code = JSON.parse(form.ContentVariables ?? '{}')['1'];
    expect(code).toMatch(/^\d{6}$/);
    expect((await verify(t, { phone, code })).statusCode).toBe(200);
  });

  it.each([
    ['invalid number (21211)', { error: 21211 }],
    ['region not permitted (21408)', { error: 21408 }],
    ['rate limited (20429)', { error: 20429 }],
  ] as const)('a refusal, %s, is the 500 with nothing stored', async (_name, behaviour) => {
    const phone = mobilePhone();
    fake.respond(behaviour);
    const response = await generate(t, { phone, country: 'CM', method: 'sms' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: [] });
    expect(await codeRows(t, phone)).toEqual([]);
    expect(await t.app.db.select().from(users).where(eq(users.phone, phone))).toHaveLength(1);
  });

  it('an outage on both tries is the 500; the older code still works and no cooldown started', async () => {
    const phone = mobilePhone();
    await generate(t, { phone, country: 'CM', method: 'sms' });
    const older = codeOf(fake.requests[0]?.form.Body);
    t.clock.advanceSeconds(60);
    fake.respond('server-error', 'server-error');
    expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(500);
    // Retried once, then given up.
    expect(fake.requests).toHaveLength(3);
    expect(await codeRows(t, phone)).toHaveLength(1);
    expect((await verify(t, { phone, code: older })).statusCode).toBe(200);
    // The failure started no cooldown: the next request goes out at once.
    expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(200);
  });

  it('an outage on the first try only is retried and delivered', async () => {
    const phone = mobilePhone();
    fake.respond('server-error');
    expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(200);
    expect(fake.requests).toHaveLength(2);
    expect(await codeRows(t, phone)).toHaveLength(1);
  });
});

describe('whatsapp-cloud driver', () => {
  let fake: WhatsappCloudFake;
  let t: TestApp;
  let dir: Awaited<ReturnType<typeof tempDir>>;
  beforeAll(async () => {
    fake = await startWhatsappCloudFake();
    dir = await tempDir();
    t = await createTestApp({
      configuredMessenger: true,
      config: {
        dataDir: dir.path,
        messagingDriver: 'log',
        whatsappDriver: 'whatsapp-cloud',
        whatsappCloud: whatsappCloudSettings(fake.baseUrl),
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await fake.close();
    await dir.remove();
  });
  beforeEach(() => {
    fake.requests.length = 0;
    t.clock.advanceSeconds(3601);
  });
  afterEach(() => expect(fake.problems).toEqual([]));

  it('sends the authentication template (Bearer, code in body and button); the code signs in', async () => {
    const phone = mobilePhone();
    expect((await generate(t, { phone, country: 'CM', method: 'whatsapp' })).statusCode).toBe(200);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.headers.authorization).toBe(`Bearer ${WHATSAPP_TOKEN}`);
    const body = request?.body as {
      to: string;
      template: { components: { parameters: { text: string }[] }[] };
    };
    expect(body.to).toBe(phone.slice(1));
    const [bodyCode, buttonCode] = body.template.components.map((c) => c.parameters[0]?.text);
    expect(bodyCode).toMatch(/^\d{6}$/);
    expect(buttonCode).toBe(bodyCode);
    expect((await verify(t, { phone, code: bodyCode as string })).statusCode).toBe(200);
  });

  it('SMS still goes through MESSAGING_DRIVER (log), not Meta', async () => {
    const phone = mobilePhone();
    expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(200);
    expect(fake.requests).toHaveLength(0);
    expect(await readFile(join(dir.path, 'outbox.jsonl'), 'utf8')).toContain(phone);
  });

  it.each([
    ['undeliverable (131026)', { error: 131026 }],
    ['expired token (190)', { error: 190 }],
    ['template missing (132001)', { error: 132001 }],
  ] as const)('a refusal, %s, is the 500 with nothing stored', async (_name, behaviour) => {
    const phone = mobilePhone();
    fake.respond(behaviour);
    const response = await generate(t, { phone, country: 'CM', method: 'whatsapp' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: [] });
    expect(await codeRows(t, phone)).toEqual([]);
    // No cooldown: the person can ask again at once.
    expect((await generate(t, { phone, country: 'CM', method: 'whatsapp' })).statusCode).toBe(200);
  });
});

describe('the WhatsApp code template per language', () => {
  const ENGLISH = { 'accept-language': 'en' };
  const ENGLISH_SID = `HX${'e'.repeat(32)}`;
  let meta: WhatsappCloudFake;
  let twilio: TwilioFake;
  let configured: TestApp;
  let unset: TestApp;
  let viaTwilio: TestApp;
  beforeAll(async () => {
    meta = await startWhatsappCloudFake();
    twilio = await startTwilioFake();
    const cloud = (overrides: Parameters<typeof whatsappCloudSettings>[1] = {}) =>
      createTestApp({
        configuredMessenger: true,
        config: {
          messagingDriver: 'log',
          whatsappDriver: 'whatsapp-cloud',
          whatsappCloud: whatsappCloudSettings(meta.baseUrl, overrides),
        },
      });
    // The French template's own English translation: only its language code is set.
    configured = await cloud({ templateLanguageEn: WHATSAPP_LANGUAGE_EN });
    unset = await cloud();
    viaTwilio = await createTestApp({
      configuredMessenger: true,
      config: {
        messagingDriver: 'twilio',
        whatsappDriver: 'twilio',
        twilio: twilioSettings(twilio.baseUrl, { whatsappContentSidEn: ENGLISH_SID }),
      },
    });
  });
  afterAll(async () => {
    await Promise.all([configured.close(), unset.close(), viaTwilio.close()]);
    await Promise.all([meta.close(), twilio.close()]);
  });
  beforeEach(() => {
    meta.requests.length = 0;
    twilio.requests.length = 0;
  });
  afterEach(() => {
    expect(meta.problems).toEqual([]);
    expect(twilio.problems).toEqual([]);
  });

  const templateOf = (index: number) =>
    (meta.requests[index]?.body as { template?: { name: string; language: { code: string } } } | undefined)
      ?.template;

  it('Meta: the English translation for an English request, the French one otherwise', async () => {
    const phone = mobilePhone();
    const asked = await generate(
      configured,
      { phone, country: 'CM', method: 'whatsapp' },
      { headers: ENGLISH },
    );
    expect(asked.statusCode).toBe(200);
    configured.clock.advanceSeconds(120);
    await generate(configured, { phone, country: 'CM', method: 'whatsapp' });
    expect(templateOf(0)).toMatchObject({
      name: WHATSAPP_TEMPLATE,
      language: { code: WHATSAPP_LANGUAGE_EN },
    });
    expect(templateOf(1)).toMatchObject({ name: WHATSAPP_TEMPLATE, language: { code: 'fr' } });
  });

  it('Meta: an English template of another name', async () => {
    const other = await createTestApp({
      configuredMessenger: true,
      config: {
        messagingDriver: 'log',
        whatsappDriver: 'whatsapp-cloud',
        whatsappCloud: whatsappCloudSettings(meta.baseUrl, { templateNameEn: WHATSAPP_TEMPLATE_EN }),
      },
    });
    try {
      await generate(
        other,
        { phone: mobilePhone(), country: 'CM', method: 'whatsapp' },
        { headers: ENGLISH },
      );
      expect(templateOf(0)).toMatchObject({ name: WHATSAPP_TEMPLATE_EN, language: { code: 'en' } });
    } finally {
      await other.close();
    }
  });

  it('Meta: no English template configured, an English request gets the French one', async () => {
    const phone = mobilePhone();
    await generate(unset, { phone, country: 'CM', method: 'whatsapp' }, { headers: ENGLISH });
    expect(templateOf(0)).toMatchObject({ name: WHATSAPP_TEMPLATE, language: { code: 'fr' } });
  });

  it('Twilio: TWILIO_WHATSAPP_CONTENT_SID_EN for an English request, the French content otherwise', async () => {
    const phone = mobilePhone();
    await generate(viaTwilio, { phone, country: 'CM', method: 'whatsapp' }, { headers: ENGLISH });
    viaTwilio.clock.advanceSeconds(120);
    await generate(viaTwilio, { phone, country: 'CM', method: 'whatsapp' });
    expect(twilio.requests.map((request) => request.form.ContentSid)).toEqual([
      ENGLISH_SID,
      twilioSettings(twilio.baseUrl).whatsappContentSid,
    ]);
    // The SMS body is the English sentence for an English request.
    viaTwilio.clock.advanceSeconds(120);
    await generate(viaTwilio, { phone, country: 'CM', method: 'sms' }, { headers: ENGLISH });
    expect(twilio.requests.at(-1)?.form.Body).toMatch(
      /^Your verification code is \d{6}\. It expires in 10 minutes\.$/,
    );
  });
});
