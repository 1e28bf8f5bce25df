import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Config } from '../../../src/config.js';
import { createWhatsappCloudDriver } from '../../../src/providers/messaging/whatsapp-cloud.js';
import {
  startWhatsappCloudFake,
  WHATSAPP_PHONE_NUMBER_ID,
  WHATSAPP_TOKEN,
  type WhatsappCloudFake,
} from '../../fakes/whatsapp-cloud.js';
import { captureLogger, codeMessage, failure, silentLogger, whatsappCloudSettings } from './helpers.js';

describe('whatsapp-cloud driver', () => {
  let fake: WhatsappCloudFake;
  beforeEach(async () => {
    fake = await startWhatsappCloudFake();
  });
  afterEach(() => fake.close());

  const driver = (overrides: Partial<Config['whatsappCloud']> = {}, timeoutMs = 2000) =>
    createWhatsappCloudDriver(whatsappCloudSettings(fake.baseUrl, overrides), {
      logger: silentLogger,
      timeoutMs,
      retryDelayMs: 0,
    });
  const whatsapp = codeMessage({ channel: 'whatsapp', code: '482913' });

  it('sends the authentication template with the code in the body and behind the copy-code button', async () => {
    const { logger, output } = captureLogger();
    const wa = createWhatsappCloudDriver(whatsappCloudSettings(fake.baseUrl), { logger, retryDelayMs: 0 });
    expect(wa.name).toBe('whatsapp-cloud');
    expect(wa.channels).toEqual(['whatsapp']);

    await wa.send(whatsapp);

    expect(fake.problems).toEqual([]);
    const [request] = fake.requests;
    expect(request?.path).toBe(`/v21.0/${WHATSAPP_PHONE_NUMBER_ID}/messages`);
    expect(request?.headers.authorization).toBe(`Bearer ${WHATSAPP_TOKEN}`);
    expect(request?.headers['content-type']).toBe('application/json');
    expect(request?.body).toEqual({
      messaging_product: 'whatsapp',
      to: '237690000001',
      type: 'template',
      template: {
        name: 'code_verification',
        language: { code: 'fr' },
        components: [
          { type: 'body', parameters: [{ type: 'text', text: '482913' }] },
          { type: 'button', sub_type: 'url', index: '0', parameters: [{ type: 'text', text: '482913' }] },
        ],
      },
    });
    expect(output()).toMatch(/"id":"wamid\./);
    expect(output()).not.toContain(WHATSAPP_TOKEN);
    expect(output()).not.toContain('482913');
  });

  it('accepts WHATSAPP_CLOUD_API_VERSION without its "v"', async () => {
    await driver({ apiVersion: '21.0' }).send(whatsapp);
    expect(fake.problems).toEqual([]);
  });

  it('refuses to start without a token or phone number id, and refuses SMS', async () => {
    expect(() => driver({ token: undefined })).toThrow(/WHATSAPP_CLOUD_TOKEN/);
    expect(() => driver({ phoneNumberId: undefined })).toThrow(/WHATSAPP_CLOUD_PHONE_NUMBER_ID/);
    await expect(driver().send(codeMessage({ channel: 'sms' }))).rejects.toThrow(/WhatsApp only/);
    expect(fake.requests).toHaveLength(0);
  });

  it.each([
    [131030, 'unverified_recipient', 400, false],
    [131026, 'invalid_recipient', 400, false],
    [130429, 'rate_limited', 400, true],
    [132001, 'template', 404, false],
    [190, 'unauthorized', 401, false],
  ] as const)('maps Graph API error %i to %s, without retrying', async (code, reason, status, retryable) => {
    fake.respond({ error: code });
    const error = await failure(driver().send(whatsapp));

    expect(error).toMatchObject({
      provider: 'whatsapp-cloud',
      providerCode: code,
      status,
      reason,
      retryable,
    });
    expect(error.message).toMatch(/fbtrace_id A/);
    expect(fake.requests).toHaveLength(1);
  });

  it('reports a wrong token as the Graph API does (code 190)', async () => {
    const error = await failure(driver({ token: 'expired' }).send(whatsapp));
    expect(error).toMatchObject({ reason: 'unauthorized', providerCode: 190, status: 401 });
    expect(fake.problems).toEqual(['missing or wrong Bearer token']);
  });

  it('reports a template the fake rejects (wrong name) as a template error', async () => {
    const error = await failure(driver({ templateName: 'other' }).send(whatsapp));
    expect(error).toMatchObject({ reason: 'template', providerCode: 132001 });
  });

  it('retries once after a 5xx and succeeds', async () => {
    fake.respond('server-error', 'ok');
    await driver().send(whatsapp);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[1]?.body).toEqual(fake.requests[0]?.body);
  });

  it('gives up after a second 5xx', async () => {
    fake.respond('server-error', 'server-error');
    const error = await failure(driver().send(whatsapp));
    expect(error).toMatchObject({ reason: 'unavailable', status: 500, providerCode: 1, retryable: true });
    expect(fake.requests).toHaveLength(2);
  });

  it('times out a provider that does not answer', async () => {
    fake.respond('hang');
    const error = await failure(driver({}, 100).send(whatsapp));
    expect(error).toMatchObject({ reason: 'timeout', retryable: true });
    expect(fake.requests).toHaveLength(1);
  });
});
