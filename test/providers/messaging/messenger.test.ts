import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Config, ConfigError } from '../../../src/config.js';
import { ManualClock } from '../../../src/lib/clock.js';
import {
  type CodeMessage,
  createMessenger,
  type MessagingDriver,
  MessagingError,
} from '../../../src/providers/messaging/index.js';
import { startTwilioFake, type TwilioFake } from '../../fakes/twilio.js';
import { startWhatsappCloudFake, type WhatsappCloudFake } from '../../fakes/whatsapp-cloud.js';
import {
  codeMessage,
  silentLogger,
  tempDir,
  testConfig,
  twilioSettings,
  whatsappCloudSettings,
} from './helpers.js';

const clock = new ManualClock('2026-03-10T12:00:00.000Z');
const sms = codeMessage({ channel: 'sms' });
const whatsapp = codeMessage({ channel: 'whatsapp', to: '+237690000002' });

/** A driver that only records, for routing tests. */
function recorder(name: MessagingDriver['name'], channels: MessagingDriver['channels']) {
  const sent: CodeMessage[] = [];
  const driver: MessagingDriver = {
    name,
    channels,
    send: async (message) => {
      sent.push(message);
    },
  };
  return { driver, sent };
}

describe('createMessenger', () => {
  let dir: Awaited<ReturnType<typeof tempDir>>;
  let twilio: TwilioFake;
  let cloud: WhatsappCloudFake;
  beforeEach(async () => {
    [dir, twilio, cloud] = await Promise.all([tempDir(), startTwilioFake(), startWhatsappCloudFake()]);
  });
  afterEach(() => Promise.all([dir.remove(), twilio.close(), cloud.close()]));

  const config = (overrides: Partial<Config>) =>
    testConfig({
      dataDir: dir.path,
      twilio: twilioSettings(twilio.baseUrl),
      whatsappCloud: whatsappCloudSettings(cloud.baseUrl),
      ...overrides,
    });
  const messenger = (
    overrides: Partial<Config>,
    drivers?: Parameters<typeof createMessenger>[0]['drivers'],
  ) => createMessenger({ config: config(overrides), logger: silentLogger, clock, drivers, retryDelayMs: 0 });

  it('sends both channels through the log driver by default (development)', async () => {
    const m = messenger({});
    await m.send(sms);
    await m.send(whatsapp);

    const lines = (await readFile(join(dir.path, 'outbox.jsonl'), 'utf8')).trimEnd().split('\n');
    expect(lines.map((line) => JSON.parse(line))).toEqual([
      { to: '+237690000001', channel: 'sms', text: sms.text, sent_at: '2026-03-10T12:00:00.000Z' },
      { to: '+237690000002', channel: 'whatsapp', text: whatsapp.text, sent_at: '2026-03-10T12:00:00.000Z' },
    ]);
  });

  it('sends both channels through twilio when MESSAGING_DRIVER=twilio', async () => {
    const m = messenger({ messagingDriver: 'twilio', whatsappDriver: 'twilio' });
    await m.send(sms);
    await m.send(whatsapp);

    expect(twilio.problems).toEqual([]);
    expect(twilio.requests.map((r) => r.form.To)).toEqual(['+237690000001', 'whatsapp:+237690000002']);
    expect(cloud.requests).toHaveLength(0);
  });

  it('lets WHATSAPP_DRIVER=whatsapp-cloud take WhatsApp while twilio keeps SMS', async () => {
    const m = messenger({ messagingDriver: 'twilio', whatsappDriver: 'whatsapp-cloud' });
    await m.send(sms);
    await m.send(whatsapp);

    expect(twilio.requests.map((r) => r.form.To)).toEqual(['+237690000001']);
    expect(cloud.requests.map((r) => (r.body as { to: string }).to)).toEqual(['237690000002']);
    expect([...twilio.problems, ...cloud.problems]).toEqual([]);
  });

  it('lets WHATSAPP_DRIVER=twilio take WhatsApp while SMS stays in the outbox', async () => {
    const m = messenger({ messagingDriver: 'log', whatsappDriver: 'twilio' });
    await m.send(sms);
    await m.send(whatsapp);

    expect(twilio.requests.map((r) => r.form.To)).toEqual(['whatsapp:+237690000002']);
    const outbox = await readFile(join(dir.path, 'outbox.jsonl'), 'utf8');
    expect(
      outbox
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).channel),
    ).toEqual(['sms']);
  });

  it('refuses at creation a driver that cannot serve its channel', () => {
    expect(() => messenger({ messagingDriver: 'whatsapp-cloud' })).toThrow(ConfigError);
    expect(() => messenger({ messagingDriver: 'whatsapp-cloud' })).toThrow(
      /^MESSAGING_DRIVER=whatsapp-cloud cannot send sms/,
    );
    expect(() =>
      messenger({
        messagingDriver: 'log',
        whatsappDriver: 'twilio',
        twilio: twilioSettings(twilio.baseUrl, { whatsappContentSid: undefined }),
      }),
    ).toThrow(/WHATSAPP_DRIVER=twilio: .*TWILIO_WHATSAPP_CONTENT_SID/);
    expect(() =>
      messenger({
        messagingDriver: 'twilio',
        whatsappDriver: 'whatsapp-cloud',
        twilio: twilioSettings(twilio.baseUrl, { smsFrom: undefined, messagingServiceSid: undefined }),
      }),
    ).toThrow(/MESSAGING_DRIVER=twilio: .*TWILIO_SMS_FROM or TWILIO_MESSAGING_SERVICE_SID/);
    expect(() =>
      messenger({
        whatsappDriver: 'whatsapp-cloud',
        whatsappCloud: whatsappCloudSettings(cloud.baseUrl, { token: undefined }),
      }),
    ).toThrow(/WHATSAPP_CLOUD_TOKEN/);
  });

  it('routes by channel to injected drivers, and still checks what they serve', async () => {
    const smsDriver = recorder('twilio', ['sms', 'whatsapp']);
    const waDriver = recorder('whatsapp-cloud', ['whatsapp']);
    const m = messenger({}, { sms: smsDriver.driver, whatsapp: waDriver.driver });
    await m.send(sms);
    await m.send(whatsapp);

    expect(smsDriver.sent).toEqual([sms]);
    expect(waDriver.sent).toEqual([whatsapp]);
    expect(() => messenger({}, { sms: waDriver.driver })).toThrow(/cannot send sms/);
  });

  it('passes a provider failure on as a MessagingError', async () => {
    twilio.respond({ error: 21408 });
    const m = messenger({ messagingDriver: 'twilio', whatsappDriver: 'twilio' });
    await expect(m.send(sms)).rejects.toMatchObject({
      name: 'MessagingError',
      provider: 'twilio',
      reason: 'region_not_permitted',
      providerCode: 21408,
    });
  });

  it('turns any other driver failure into a MessagingError', async () => {
    const broken: MessagingDriver = {
      name: 'log',
      channels: ['sms', 'whatsapp'],
      send: () => Promise.reject(new Error('ENOSPC: no space left on device')),
    };
    const m = messenger({}, { sms: broken });
    const error = await m.send(sms).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessagingError);
    expect(error).toMatchObject({ provider: 'log', reason: 'internal', retryable: false });
    expect((error as Error).cause).toBeInstanceOf(Error);
  });
});
