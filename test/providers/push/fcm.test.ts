// The FCM HTTP v1 driver against a local fake speaking its protocol: the service account's signed
// JWT traded for an access token (verified with the key pair's public key), cached until shortly
// before it expires and refreshed once on a 401; one message per device with the notification and
// string data; dead tokens (UNREGISTERED, NOT_FOUND, an invalid token, another sender's) reported
// for pruning; 429 and 5xx reported for a later retry with Retry-After; a refused message skipped.
// Then the whole way through the app: PUSH_DRIVER=fcm from the configuration, an event pushed,
// a dead token pruned, a 503 retried later with backoff.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../src/config.js';
import { pushDevices } from '../../../src/db/schema/index.js';
import { ManualClock } from '../../../src/lib/clock.js';
import { createFcmDriver, retryAfterMs, serviceAccountAssertion } from '../../../src/providers/push/fcm.js';
import { createPushDriver, type PushMessage } from '../../../src/providers/push/index.js';
import { type FcmFake, startFcmFake } from '../../fakes/fcm.js';
import { createTestApp, signIn } from '../../helpers.js';

const logger = pino({ level: 'silent' });
let fake: FcmFake;
let clock: ManualClock;

beforeAll(async () => {
  fake = await startFcmFake();
});
afterAll(() => fake.close());
afterEach(() => {
  expect(fake.problems).toEqual([]);
});

function driver(overrides: { timeoutMs?: number } = {}) {
  clock = new ManualClock();
  return createFcmDriver(
    { serviceAccount: fake.serviceAccount, baseUrl: fake.baseUrl },
    { clock, logger, ...overrides },
  );
}

let counter = 0;
function message(overrides: Partial<PushMessage> = {}): PushMessage {
  counter += 1;
  return {
    deviceId: counter,
    token: `fcm-token-${counter}:APA91b${'x'.repeat(120)}`,
    platform: 'android',
    title: 'Votre analyse est prête',
    body: 'Ouvrez l’application pour découvrir votre pronostic.',
    data: {
      type: 'pronostic.succeeded',
      seq: String(counter),
      id: '12',
      created_at: '2026-03-10T12:00:00.000000Z',
    },
    ...overrides,
  };
}

describe('the FCM driver', () => {
  it('trades a signed JWT for an access token, then sends the v1 message with it', async () => {
    const fcm = driver();
    const tokensBefore = fake.tokenRequests;
    const sent = message();
    expect(await fcm.send(sent)).toEqual({ outcome: 'sent' });
    expect(fake.tokenRequests).toBe(tokensBefore + 1);
    const delivered = fake.delivered.at(-1)!;
    expect(delivered.token).toBe(sent.token);
    expect(delivered.accessToken).toMatch(/^ya29\.fake-access-token-\d+$/);
    expect(delivered.message).toEqual({
      token: sent.token,
      notification: { title: sent.title, body: sent.body },
      data: sent.data,
      android: { priority: 'high' },
      apns: { headers: { 'apns-priority': '10' }, payload: { aps: { sound: 'default' } } },
      webpush: { headers: { Urgency: 'high' } },
    });
  });

  it('keeps the access token until a minute before it expires', async () => {
    const fcm = driver();
    const before = fake.tokenRequests;
    await fcm.send(message());
    await fcm.send(message());
    expect(fake.tokenRequests).toBe(before + 1);
    clock.advanceSeconds(3599 - 61);
    await fcm.send(message());
    expect(fake.tokenRequests).toBe(before + 1);
    clock.advanceSeconds(2);
    await fcm.send(message());
    expect(fake.tokenRequests).toBe(before + 2);
  });

  it('signs the JWT with the service account: iss, scope, aud = token_uri, one hour', () => {
    const jwt = serviceAccountAssertion(fake.serviceAccount, Date.parse('2026-03-10T12:00:00Z'));
    const [header, claims] = jwt
      .split('.')
      .slice(0, 2)
      .map((part) => JSON.parse(Buffer.from(part, 'base64url').toString()));
    expect(header).toEqual({ alg: 'RS256', typ: 'JWT' });
    expect(claims).toEqual({
      iss: fake.serviceAccount.clientEmail,
      scope: 'https://www.googleapis.com/auth/firebase.messaging',
      aud: fake.serviceAccount.tokenUri,
      iat: 1773144000,
      exp: 1773147600,
    });
  });

  it('a 401 fetches a new access token once and sends again', async () => {
    const fcm = driver();
    await fcm.send(message());
    const before = { tokens: fake.tokenRequests, sends: fake.sendRequests };
    fake.respond('expired-token');
    expect(await fcm.send(message())).toEqual({ outcome: 'sent' });
    expect(fake.tokenRequests).toBe(before.tokens + 1);
    expect(fake.sendRequests).toBe(before.sends + 2);
  });

  it('a 401 with a fresh token too is retried later, not a loop', async () => {
    const fcm = driver();
    await fcm.send(message());
    fake.respond('expired-token', 'expired-token');
    const before = fake.sendRequests;
    expect(await fcm.send(message())).toMatchObject({ outcome: 'retry' });
    expect(fake.sendRequests).toBe(before + 2);
  });

  it('a token endpoint that refuses is a retry later (no send without a token)', async () => {
    const fcm = driver();
    fake.failTokens(400);
    const before = fake.sendRequests;
    const result = await fcm.send(message());
    expect(result).toMatchObject({ outcome: 'retry', reason: expect.stringContaining('invalid_grant') });
    expect(fake.sendRequests).toBe(before);
  });

  it.each([
    ['unregistered', 'unregistered'],
    ['not-found', 'unregistered'],
    ['invalid-token', 'unregistered'],
    ['sender-mismatch', 'unregistered'],
    ['invalid-data', 'rejected'],
    ['unavailable', 'retry'],
    ['internal', 'retry'],
    ['quota', 'retry'],
  ] as const)('FCM %s → %s', async (behaviour, outcome) => {
    const fcm = driver();
    fake.respond(behaviour);
    expect(await fcm.send(message())).toMatchObject({ outcome });
  });

  it('honours Retry-After on 429 and 503 (seconds or an HTTP date)', async () => {
    const fcm = driver();
    fake.respond({ error: 'quota', retryAfter: '120' });
    expect(await fcm.send(message())).toMatchObject({ outcome: 'retry', retryAfterMs: 120_000 });
    fake.respond({
      error: 'unavailable',
      retryAfter: new Date(clock.now().getTime() + 30_000).toUTCString(),
    });
    expect(await fcm.send(message())).toMatchObject({ outcome: 'retry', retryAfterMs: 30_000 });
    expect(retryAfterMs('soon', 0)).toBeUndefined();
  });

  it('an unreachable FCM is a retry later', async () => {
    const fcm = createFcmDriver(
      { serviceAccount: { ...fake.serviceAccount }, baseUrl: 'http://127.0.0.1:9' },
      { clock: new ManualClock(), logger, timeoutMs: 2000 },
    );
    expect(await fcm.send(message())).toMatchObject({ outcome: 'retry' });
  });
});

describe('PUSH_DRIVER=fcm through the app', () => {
  it('reads the service account from a file, pushes an event, prunes a dead token, retries a 503 later', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fcm-key-'));
    const keyFile = join(dir, 'service-account.json');
    writeFileSync(keyFile, fake.serviceAccountJson);
    const config = loadConfig(
      {
        APP_ENV: 'test',
        APP_SECRET: 's'.repeat(40),
        PUSH_DRIVER: 'fcm',
        FCM_SERVICE_ACCOUNT: keyFile,
        FCM_BASE_URL: fake.baseUrl,
      },
      process.cwd(),
    );
    expect(createPushDriver(config, { clock: new ManualClock(), logger }).name).toBe('fcm');
    const t = await createTestApp({
      config: { pushDriver: config.pushDriver, fcm: config.fcm },
      clock: new ManualClock(new Date()),
    });
    try {
      const user = await signIn(t);
      const tokens = ['alive', 'dead', 'flaky'].map((name) => `${name}:APA91b${'y'.repeat(140)}`);
      for (const token of tokens) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/user/devices',
          headers: user.headers,
          payload: { token, platform: 'android' },
        });
        expect(response.statusCode).toBe(201);
      }
      fake.forToken(tokens[1]!, 'unregistered');
      fake.forToken(tokens[2]!, { error: 'unavailable', retryAfter: '10' });
      const event = await t.app.db.transaction((tx) =>
        t.app.services.events.append(tx, user.id, 'pronostic.succeeded', { id: 99 }),
      );
      const report = await t.app.runtime.pushSender.runOnce();
      expect(report).toMatchObject({ sent: 1, pruned: 1, postponed: 1 });
      const got = fake.delivered.filter((d) => d.token === tokens[0]);
      expect(got).toHaveLength(1);
      expect(got[0]!.message).toMatchObject({
        notification: { title: 'Votre analyse est prête' },
        data: { type: 'pronostic.succeeded', seq: String(event.id), id: '99' },
      });
      const left = await t.app.db.select({ token: pushDevices.token }).from(pushDevices);
      expect(left.map((row) => row.token).sort()).toEqual([tokens[0], tokens[2]].sort());

      // FCM is back: once the backoff is over, the postponed device gets the event, the others nothing more.
      fake.forToken(tokens[1]!, undefined);
      fake.forToken(tokens[2]!, undefined);
      t.clock.advance(11_000);
      await t.app.runtime.pushSender.runOnce();
      expect(
        fake.delivered.filter((d) => tokens.includes(d.token)).map((d) => d.token.split(':')[0]),
      ).toEqual(['alive', 'flaky']);
    } finally {
      await t.close();
    }
  });
});
