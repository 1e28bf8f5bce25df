import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config.js';
import { ConfigError } from '../../../src/config.js';
import { createTwilioDriver } from '../../../src/providers/messaging/twilio.js';
import {
  startTwilioFake,
  TWILIO_ACCOUNT_SID,
  TWILIO_AUTH_TOKEN,
  type TwilioFake,
} from '../../fakes/twilio.js';
import { captureLogger, codeMessage, failure, SENTENCE, silentLogger, twilioSettings } from './helpers.js';

describe('twilio driver', () => {
  let fake: TwilioFake;
  beforeEach(async () => {
    fake = await startTwilioFake();
  });
  afterEach(() => fake.close());

  const driver = (overrides: Partial<Config['twilio']> = {}, timeoutMs = 2000) =>
    createTwilioDriver(twilioSettings(fake.baseUrl, overrides), {
      logger: silentLogger,
      timeoutMs,
      retryDelayMs: 0,
    });

  it('sends an SMS from TWILIO_SMS_FROM with the sentence as the body, Basic auth, form-encoded', async () => {
    const { logger, output } = captureLogger();
    const sms = createTwilioDriver(twilioSettings(fake.baseUrl), { logger, retryDelayMs: 0 });

    await sms.send(codeMessage());

    expect(fake.problems).toEqual([]);
    expect(fake.requests).toHaveLength(1);
    const [request] = fake.requests;
    expect(request?.path).toBe(`/2010-04-01/Accounts/${TWILIO_ACCOUNT_SID}/Messages.json`);
    expect(request?.headers.authorization).toBe(
      `Basic ${Buffer.from(`${TWILIO_ACCOUNT_SID}:${TWILIO_AUTH_TOKEN}`).toString('base64')}`,
    );
    expect(request?.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(request?.form).toEqual({
      To: '+237690000001',
      From: '+15005550006',
      Body: SENTENCE,
      ValidityPeriod: '600',
    });
    // Neither the auth token nor the code reach the log.
    expect(output()).toContain('code message accepted');
    expect(output()).not.toContain(TWILIO_AUTH_TOKEN);
    expect(output()).not.toContain('123456');
  });

  it('sends an SMS through TWILIO_MESSAGING_SERVICE_SID, which wins over From', async () => {
    const serviceSid = `MG${'a'.repeat(32)}`;
    await driver({ smsFrom: undefined, messagingServiceSid: serviceSid }).send(codeMessage());
    await driver({ messagingServiceSid: serviceSid }).send(codeMessage());

    expect(fake.problems).toEqual([]);
    for (const request of fake.requests) {
      expect(request.form).toEqual({
        To: '+237690000001',
        MessagingServiceSid: serviceSid,
        Body: SENTENCE,
        ValidityPeriod: '600',
      });
    }
  });

  it.each([
    ['without', '+14155238886'],
    ['with', 'whatsapp:+14155238886'],
  ])('sends WhatsApp through the content template (TWILIO_WHATSAPP_FROM %s the prefix)', async (_, from) => {
    await driver({ whatsappFrom: from }).send(
      codeMessage({ channel: 'whatsapp', code: '654321', ttlSeconds: 300 }),
    );

    expect(fake.problems).toEqual([]);
    expect(fake.requests[0]?.form).toEqual({
      To: 'whatsapp:+237690000001',
      From: 'whatsapp:+14155238886',
      ContentSid: `HX${'b'.repeat(32)}`,
      ContentVariables: '{"1":"654321"}',
      ValidityPeriod: '300',
    });
  });

  it('serves only the channels its settings allow', () => {
    expect(driver().channels).toEqual(['sms', 'whatsapp']);
    expect(driver({ whatsappContentSid: undefined }).channels).toEqual(['sms']);
    expect(driver({ smsFrom: undefined }).channels).toEqual(['whatsapp']);
  });

  it('refuses to start without an account SID or auth token', () => {
    expect(() => driver({ accountSid: undefined })).toThrow(ConfigError);
    expect(() => driver({ authToken: undefined })).toThrow(/TWILIO_AUTH_TOKEN/);
  });

  it.each([
    [21211, 'invalid_recipient', 400, false],
    [21614, 'invalid_recipient', 400, false],
    [21408, 'region_not_permitted', 400, false],
    [21608, 'unverified_recipient', 400, false],
    [21612, 'invalid_sender', 400, false],
    [20429, 'rate_limited', 429, true],
    [63016, 'outside_session', 400, false],
  ] as const)('maps Twilio error %i to %s, without retrying', async (code, reason, status, retryable) => {
    fake.respond({ error: code });
    const error = await failure(driver().send(codeMessage()));

    expect(error).toMatchObject({ provider: 'twilio', providerCode: code, status, reason, retryable });
    expect(error.message).toContain(String(code));
    expect(fake.requests).toHaveLength(1);
  });

  it('maps a bare HTTP 429 (no Twilio body) to a rate limit', async () => {
    fake.respond('http-429');
    const error = await failure(driver().send(codeMessage()));
    expect(error).toMatchObject({
      reason: 'rate_limited',
      status: 429,
      providerCode: undefined,
      retryable: true,
    });
    expect(fake.requests).toHaveLength(1);
  });

  it('reports bad credentials as unauthorized', async () => {
    const error = await failure(driver({ authToken: 'wrong' }).send(codeMessage()));
    expect(error).toMatchObject({ reason: 'unauthorized', providerCode: 20003, status: 401 });
    expect(error.message).not.toContain('wrong');
  });

  it('retries once after a 5xx and succeeds', async () => {
    fake.respond('server-error', 'ok');
    await driver().send(codeMessage());
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.form).toEqual(fake.requests[0]?.form);
  });

  it('gives up after a second 5xx', async () => {
    fake.respond('server-error', 'server-error', 'ok');
    const error = await failure(driver().send(codeMessage()));
    expect(error).toMatchObject({ reason: 'unavailable', status: 500, providerCode: 20500, retryable: true });
    expect(fake.requests).toHaveLength(2);
  });

  it('retries once after a network error', async () => {
    fake.respond('drop', 'ok');
    await driver().send(codeMessage());
    expect(fake.requests).toHaveLength(2);

    fake.respond('drop', 'drop');
    const error = await failure(driver().send(codeMessage()));
    expect(error).toMatchObject({ reason: 'unavailable', status: undefined, retryable: true });
    expect(fake.requests).toHaveLength(4);
  });

  it('times out a provider that does not answer, without a second wait', async () => {
    fake.respond('hang');
    const started = Date.now();
    const error = await failure(driver({}, 100).send(codeMessage()));
    expect(error).toMatchObject({ reason: 'timeout', retryable: true });
    expect(Date.now() - started).toBeLessThan(1000);
    expect(fake.requests).toHaveLength(1);
  });
});
