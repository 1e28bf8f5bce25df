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
import { createWebPushDriver } from '../../../src/providers/push/webpush.js';
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
      webpush: {
        ...config.webpush,
        ...vapid,
        driver: 'vapid',
        allowedHosts: [new URL(fake.origin).host, '127.0.0.1:9', `localhost:${new URL(fake.origin).port}`],
      },
    },
    { clock: new ManualClock(), logger: pino({ level: 'silent' }), webpushCa: fake.ca },
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

  it.each([
    ['a `;` the legacy parser stops at', 'https://attacker.example;.notify.windows.com/w/'],
    ["a `'`", "https://attacker.example'.notify.windows.com/w/"],
    ['a `{`', 'https://attacker.example{.notify.windows.com/w/'],
    ['a `"`', 'https://attacker.example".notify.windows.com/w/'],
    ['loopback behind a `;`', 'https://127.0.0.1;.notify.windows.com/w/'],
    ["the metadata address behind a `'`", "https://169.254.169.254'.notify.windows.com/w/"],
    ['a port other than 443 on an allowed host', 'https://wns2.notify.windows.com:8443/w/'],
  ])(
    'a stored endpoint with %s is checked again at send time: nothing is posted',
    async (_case, endpoint) => {
      const browser = fake.subscribe(vapid.publicKey);
      const before = fake.connections();
      const result = await driver.send(message(JSON.stringify({ ...browser.json, endpoint })));
      expect(result).toMatchObject({ outcome: 'unregistered' });
      expect(fake.connections()).toBe(before);
    },
  );

  it('posts to the normalized href, and refuses a name resolving to our own network at send time', async () => {
    const browser = fake.subscribe(vapid.publicKey);
    // An upper-case host and a default port are normalized; the request reaches the push service.
    const shouting = browser.json.endpoint.replace('https://127.0.0.1', 'HTTPS://127.0.0.1');
    expect(await driver.send(message(JSON.stringify({ ...browser.json, endpoint: shouting })))).toEqual({
      outcome: 'sent',
    });
    // `localhost:<port>` is listed (as a DNS name an attacker rebinds to 127.0.0.1 would be) and the
    // certificate names it, yet no connection is made: the lookup answers a loopback address.
    const before = fake.connections();
    const rebound = browser.json.endpoint.replace('127.0.0.1', 'localhost');
    const result = await driver.send(message(JSON.stringify({ ...browser.json, endpoint: rebound })));
    expect(result).toMatchObject({ outcome: 'retry', reason: expect.stringContaining('our own network') });
    expect(fake.connections()).toBe(before);
  });

  it('a stalled push service is a retry within the per-send deadline', async () => {
    const stalled = createWebPushDriver(vapid, {
      logger: pino({ level: 'silent' }),
      ttlSeconds: 60,
      allowedHosts: [new URL(fake.origin).host],
      timeoutMs: 300,
      ca: fake.ca,
    });
    fake.respond(0);
    const started = Date.now();
    const result = await stalled.send(message(JSON.stringify(fake.subscribe(vapid.publicKey).json)));
    expect(result).toMatchObject({ outcome: 'retry', reason: expect.stringContaining('within 300 ms') });
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
