// Phone numbers stay out of what is logged about a failed send: the redaction itself, the drivers'
// errors when a provider echoes the recipient, and the sign-in log line built from them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MessagingError } from '../../../src/providers/messaging/index.js';
import { redactPhoneNumbers } from '../../../src/providers/messaging/redact.js';
import { createTwilioDriver } from '../../../src/providers/messaging/twilio.js';
import { createWhatsappCloudDriver } from '../../../src/providers/messaging/whatsapp-cloud.js';
import { generate, mobilePhone } from '../../auth/helpers.js';
import { type LoopbackServer, readBody, sendJson, serveOnLoopback } from '../../fakes/http.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { codeMessage, failure, silentLogger, twilioSettings, whatsappCloudSettings } from './helpers.js';

describe('redactPhoneNumbers', () => {
  it.each([
    [
      "The 'To' number +237690000001 is not a valid phone number.",
      "The 'To' number [phone] is not a valid phone number.",
    ],
    ['Message undeliverable to 237690000001', 'Message undeliverable to [phone]'],
    ['To whatsapp:+237690000001 failed', 'To whatsapp:[phone] failed'],
    ['number +237 690 00 00 01.', 'number [phone].'],
    ['number +33 6-12-34-56-78', 'number [phone]'],
    ['(+33) 612 345 678 is unknown', '([phone] is unknown'],
  ])('%s', (text, redacted) => {
    expect(redactPhoneNumbers(text)).toBe(redacted);
  });

  it.each([
    'twilio: 21211 Invalid recipient',
    'whatsapp-cloud: 131026 Message undeliverable [fbtrace_id AbC1234567890123xyz]',
    'twilio: no answer within 10000 ms',
    'HTTP 400',
    'sid SM0123456789abcdef0123456789abcdef',
    'Validity period can only be set to integers between 1 and 36,000 seconds',
  ])('keeps %s', (text) => {
    expect(redactPhoneNumbers(text)).toBe(text);
  });

  it('MessagingError redacts its message, whoever builds it', () => {
    const error = new MessagingError('log: cannot write for +237690000001', {
      provider: 'log',
      reason: 'internal',
    });
    expect(error.message).toBe('log: cannot write for [phone]');
  });
});

/** A provider that refuses every message, echoing the recipient in its error text as Twilio does. */
async function echoingProvider(): Promise<LoopbackServer> {
  return serveOnLoopback(async (request, response) => {
    const raw = await readBody(request);
    if (request.url?.includes('/Messages.json')) {
      const to = new URLSearchParams(raw).get('To');
      sendJson(response, 400, {
        code: 21211,
        message: `The 'To' number ${to} is not a valid phone number.`,
        more_info: 'https://www.twilio.com/docs/errors/21211',
        status: 400,
      });
      return;
    }
    const to = (JSON.parse(raw) as { to: string }).to;
    sendJson(response, 400, {
      error: { message: `(#131026) Message undeliverable to ${to}`, code: 131026, fbtrace_id: 'AbCdEf123' },
    });
  });
}

describe('drivers: a provider text that echoes the recipient', () => {
  let provider: LoopbackServer;
  beforeAll(async () => {
    provider = await echoingProvider();
  });
  afterAll(() => provider.close());

  it('twilio: the error keeps the code and the reason, not the number', async () => {
    const driver = createTwilioDriver(twilioSettings(provider.url), {
      logger: silentLogger,
      retryDelayMs: 0,
    });
    const error = await failure(driver.send(codeMessage({ to: '+237690000001' })));
    expect(error.message).toBe("twilio: 21211 The 'To' number [phone] is not a valid phone number.");
    expect(error).toMatchObject({ reason: 'invalid_recipient', providerCode: 21211 });
  });

  it('whatsapp-cloud: the error keeps the code, not the number', async () => {
    const driver = createWhatsappCloudDriver(whatsappCloudSettings(provider.url), {
      logger: silentLogger,
      retryDelayMs: 0,
    });
    const error = await failure(driver.send(codeMessage({ to: '+237690000001', channel: 'whatsapp' })));
    expect(error.message).toBe(
      'whatsapp-cloud: 131026 (#131026) Message undeliverable to [phone] [fbtrace_id AbCdEf123]',
    );
  });

  describe('through POST /api/otp/generate', () => {
    let t: TestApp;
    const lines: string[] = [];
    beforeAll(async () => {
      t = await createTestApp({
        configuredMessenger: true,
        config: { messagingDriver: 'twilio', twilio: twilioSettings(provider.url) },
        logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
      });
    });
    afterAll(() => t.close());

    it('the log says why the send failed, without the phone number', async () => {
      const phone = mobilePhone();
      expect((await generate(t, { phone, country: 'CM', method: 'sms' })).statusCode).toBe(500);
      const warn = lines
        .map((line) => JSON.parse(line))
        .find((l) => l.msg === 'sign-in code could not be sent');
      expect(warn).toMatchObject({ providerCode: 21211, err: expect.stringContaining('[phone]') });
      expect(lines.join('\n')).not.toContain(phone.slice(1));
    });
  });
});
