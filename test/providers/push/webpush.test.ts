// The Web Push driver against a local push service that checks the protocol (RFC 8030 request,
// RFC 8292 VAPID JWT, RFC 8291 aes128gcm payload decrypted by the fake's own code): a notification
// arrives as the JSON the web app's service worker shows; each answer becomes our outcome (gone →
// unregistered, 429/5xx → retry after Retry-After, a refusal of our key or size → rejected, the
// device kept), and an unreachable service is a retry, never a throw.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../../src/config.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createPushDriver, type PushMessage } from '../../../src/providers/push/index.js';
import { startWebPushFake, type WebPushFake } from '../../fakes/web-push.js';

const config = testConfig();
const vapid = {
  publicKey: config.webpush.publicKey!,
  privateKey: config.webpush.privateKey!,
  subject: 'mailto:ops@example.cm',
};

let fake: WebPushFake;
let driver: ReturnType<typeof createPushDriver>;

beforeAll(async () => {
  fake = await startWebPushFake();
  driver = createPushDriver(
    {
      ...config,
      dataDir: mkdtempSync(join(tmpdir(), 'webpush-driver-')),
      pushMaxAgeSeconds: 1800,
      webpush: { ...config.webpush, ...vapid, driver: 'vapid' },
    },
    { clock: new ManualClock(), logger: pino({ level: 'silent' }), webpushAgent: fake.agent },
  );
});
afterAll(() => fake.close());

function message(token: string, overrides: Partial<PushMessage> = {}): PushMessage {
  return {
    deviceId: 1,
    token,
    platform: 'webpush',
    title: 'Votre analyse est prête',
    body: 'Ouvrez l’application pour découvrir votre pronostic.',
    data: { type: 'pronostic.succeeded', seq: '3', id: '41', created_at: '2026-03-10T12:00:00.000000Z' },
    ...overrides,
  };
}

describe('the Web Push driver', () => {
  it('posts the notification encrypted to the subscription, signed with VAPID, with PUSH_MAX_AGE as TTL', async () => {
    const browser = fake.subscribe(vapid.publicKey);
    const sent = message(JSON.stringify(browser.json));
    expect(await driver.send(sent)).toEqual({ outcome: 'sent' });
    expect(fake.problems).toEqual([]);
    expect(fake.delivered.at(-1)).toEqual({
      id: browser.id,
      ttl: 1800,
      urgency: 'normal',
      payload: { title: sent.title, body: sent.body, data: sent.data },
    });
  });

  it('a subscription that is gone (410) or unknown (404) is unregistered: the device is pruned', async () => {
    const browser = fake.subscribe(vapid.publicKey);
    fake.expire(browser.id);
    expect(await driver.send(message(JSON.stringify(browser.json)))).toMatchObject({
      outcome: 'unregistered',
    });
    const unknown = { ...browser.json, endpoint: `${fake.origin}/push/never-subscribed` };
    expect(await driver.send(message(JSON.stringify(unknown)))).toMatchObject({ outcome: 'unregistered' });
  });

  it('429 and 5xx are retried later, after Retry-After when given', async () => {
    const token = JSON.stringify(fake.subscribe(vapid.publicKey).json);
    fake.respond(429, 503);
    expect(await driver.send(message(token))).toMatchObject({ outcome: 'retry', retryAfterMs: 7000 });
    expect(await driver.send(message(token))).toMatchObject({ outcome: 'retry' });
    expect(await driver.send(message(token))).toEqual({ outcome: 'sent' });
  });

  it('a refusal of our key (403: the subscription was made with another) skips the message and keeps the device', async () => {
    const browser = fake.subscribe('BOtherKey'.padEnd(87, 'A'));
    const result = await driver.send(message(JSON.stringify(browser.json)));
    expect(result).toMatchObject({ outcome: 'rejected' });
    expect(fake.problems.pop()).toBe('k is not the key the subscription was made with');
    fake.respond(413);
    const token = JSON.stringify(fake.subscribe(vapid.publicKey).json);
    expect(await driver.send(message(token))).toMatchObject({ outcome: 'rejected' });
  });

  it('an unreachable push service is a retry, and a stored token that is no subscription is unregistered', async () => {
    const browser = fake.subscribe(vapid.publicKey);
    const closed = { ...browser.json, endpoint: 'https://127.0.0.1:9/push/x' };
    expect(await driver.send(message(JSON.stringify(closed)))).toMatchObject({ outcome: 'retry' });
    expect(await driver.send(message('{"endpoint":"https://x"}'))).toMatchObject({ outcome: 'unregistered' });
  });

  it('FCM platforms still go to PUSH_DRIVER’s driver (log here), whatever WEBPUSH_DRIVER is', async () => {
    const fcmToken = `d1Xk9:APA91bH${'a1B2c3_D4-'.repeat(14)}`;
    const before = fake.delivered.length;
    expect(await driver.send(message(fcmToken, { platform: 'android' }))).toEqual({ outcome: 'sent' });
    expect(fake.delivered.length).toBe(before);
  });
});
