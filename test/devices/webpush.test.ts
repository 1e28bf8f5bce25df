// Browsers as push devices (DESIGN, "Events"; the web app): `GET /api/push/webpush-key` gives the
// VAPID public key without a token; `POST /api/user/devices` with `platform: "webpush"` takes the
// browser's PushSubscription as JSON, refuses anything that is not one, an endpoint that is not
// https, and a push service not in WEBPUSH_ALLOWED_HOSTS (a private or link-local address included)
// as a 422 on `token`; the same subscription sent again is one device. Then an event reaches the
// browser through the push sender, encrypted, at a local push service checking the protocol, and a
// subscription that is gone is forgotten.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDevices } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createPushDriver } from '../../src/providers/push/index.js';
import { startWebPushFake, type WebPushFake } from '../fakes/web-push.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let fake: WebPushFake;
let t: TestApp;

beforeAll(async () => {
  fake = await startWebPushFake();
  const clock = new ManualClock(new Date());
  const base = (await import('../../src/config.js')).testConfig();
  const webpush = {
    ...base.webpush,
    driver: 'vapid' as const,
    subject: 'mailto:ops@example.cm',
    allowedHosts: [...base.webpush.allowedHosts, new URL(fake.origin).host],
  };
  const dataDir = mkdtempSync(join(tmpdir(), 'webpush-app-'));
  const pushDriver = createPushDriver(
    { ...base, dataDir, webpush },
    { clock, logger: pino({ level: 'silent' }), webpushCa: fake.ca },
  );
  t = await createTestApp({ clock, config: { webpush, dataDir }, pushDriver });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

function register(user: SignedIn, token: string, headers: Record<string, string> = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/devices',
    headers: { ...user.headers, ...headers },
    payload: { token, platform: 'webpush' },
  });
}

describe('GET /api/push/webpush-key', () => {
  it('gives the VAPID public key without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/push/webpush-key' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      user: null,
      message: 'Clé publique des notifications web (VAPID).',
      data: { public_key: t.config.webpush.publicKey },
      errors: [],
    });
  });

  it('is a 404 when the service has no VAPID key (web push off), and no browser can register', async () => {
    const off = await createTestApp({
      config: {
        webpush: { ...t.config.webpush, publicKey: undefined, privateKey: undefined, driver: 'log' },
      },
    });
    try {
      const response = await off.app.inject({
        method: 'GET',
        url: '/api/push/webpush-key',
        headers: { 'accept-language': 'en' },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe('Web push notifications are not enabled on this service.');
      const user = await signIn(off);
      const refused = await off.app.inject({
        method: 'POST',
        url: '/api/user/devices',
        headers: user.headers,
        payload: { token: JSON.stringify(fake.subscribe('B'.padEnd(87, 'A')).json), platform: 'webpush' },
      });
      expect(refused.statusCode).toBe(422);
      expect(refused.json().errors).toEqual({
        platform: ['Les notifications web ne sont pas activées sur ce service.'],
      });
    } finally {
      await off.close();
    }
  });
});

describe('POST /api/user/devices with platform webpush', () => {
  it('registers the subscription once, whatever the order of its keys; the list shows the endpoint’s end', async () => {
    const user = await signIn(t);
    const browser = fake.subscribe(t.config.webpush.publicKey!);
    const first = await register(user, JSON.stringify(browser.json));
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.device).toMatchObject({ platform: 'webpush' });
    const { endpoint, keys } = browser.json;
    const reordered = JSON.stringify({
      keys: { auth: keys.auth, p256dh: keys.p256dh },
      endpoint,
      expirationTime: null,
    });
    const again = await register(user, reordered);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data.device.id).toBe(first.json().data.device.id);
    const listed = await t.app.inject({ method: 'GET', url: '/api/user/devices', headers: user.headers });
    expect(listed.json().data.devices).toEqual([
      expect.objectContaining({ platform: 'webpush', token_ending: endpoint.slice(-6) }),
    ]);
  });

  const valid = () => fake.subscribe(t.config.webpush.publicKey!).json;
  it.each<[string, () => string, string]>([
    ['not JSON', () => 'not-a-subscription-at-all', 'malformed'],
    ['JSON without keys', () => JSON.stringify({ endpoint: valid().endpoint }), 'malformed'],
    [
      'a p256dh that is no key',
      () => JSON.stringify({ ...valid(), keys: { ...valid().keys, p256dh: 'short' } }),
      'malformed',
    ],
    [
      'an http endpoint',
      () => JSON.stringify({ ...valid(), endpoint: 'http://127.0.0.1:9/push/x' }),
      'endpoint',
    ],
    [
      'credentials in the endpoint',
      () => JSON.stringify({ ...valid(), endpoint: 'https://a:b@127.0.0.1/push/x' }),
      'endpoint',
    ],
    [
      'a host not allowed',
      () => JSON.stringify({ ...valid(), endpoint: 'https://push.evil.example/x' }),
      'host',
    ],
    [
      'a link-local address',
      () => JSON.stringify({ ...valid(), endpoint: 'https://169.254.169.254/latest' }),
      'host',
    ],
    ['a private address', () => JSON.stringify({ ...valid(), endpoint: 'https://10.0.0.7/push' }), 'host'],
    ...[
      'https://attacker.example;.notify.windows.com/w/',
      "https://attacker.example'.notify.windows.com/w/",
      'https://attacker.example{.notify.windows.com/w/',
      'https://attacker.example".notify.windows.com/w/',
      'https://127.0.0.1;.notify.windows.com/w/',
      "https://169.254.169.254'.notify.windows.com/w/",
    ].map(
      (endpoint) =>
        [
          `a host the two URL parsers read differently (${endpoint})`,
          () => JSON.stringify({ ...valid(), endpoint }),
          'endpoint',
        ] as [string, () => string, string],
    ),
    [
      'a port other than 443 on an allowed host',
      () => JSON.stringify({ ...valid(), endpoint: 'https://wns2.notify.windows.com:8443/w/' }),
      'host',
    ],
    [
      'a host only ending like an allowed one',
      () => JSON.stringify({ ...valid(), endpoint: 'https://evilnotify.windows.com/x' }),
      'host',
    ],
  ])('422 on token for %s, nothing stored', async (_case, token, fault) => {
    const user = await signIn(t);
    const response = await register(user, token());
    expect(response.statusCode, response.body).toBe(422);
    const texts = {
      malformed:
        'Le champ token doit être l’abonnement push du navigateur en JSON : {"endpoint", "keys": {"p256dh", "auth"}}.',
      endpoint: 'Le champ token.endpoint doit être une URL https.',
      host: 'Le service de notifications de ce navigateur n’est pas pris en charge.',
    } as const;
    expect(response.json().errors).toEqual({ token: [texts[fault as keyof typeof texts]] });
    const rows = await t.app.db.select().from(pushDevices);
    expect(rows.filter((row) => row.userId === user.id)).toEqual([]);
  });

  it('a subscription on an allowed wildcard host passes; the English texts say the same', async () => {
    const user = await signIn(t);
    const windows = { ...valid(), endpoint: 'https://WNS2-db5p.notify.windows.com:443/w/?token=abc' };
    expect((await register(user, JSON.stringify(windows))).statusCode).toBe(201);
    // Stored (and posted to) as its normalized href.
    const [row] = (await t.app.db.select().from(pushDevices)).filter((device) => device.userId === user.id);
    expect(JSON.parse(row!.token).endpoint).toBe('https://wns2-db5p.notify.windows.com/w/?token=abc');
    const refused = await register(user, 'nope'.repeat(10), { 'accept-language': 'en' });
    expect(refused.json().errors.token).toEqual([
      'The token field must be the browser’s push subscription as JSON: {"endpoint", "keys": {"p256dh", "auth"}}.',
    ]);
  });

  it('more than 2048 characters is a 422; an FCM platform still wants an FCM token', async () => {
    const user = await signIn(t);
    const long = JSON.stringify({ ...valid(), endpoint: `https://127.0.0.1/push/${'x'.repeat(2100)}` });
    expect((await register(user, long)).statusCode).toBe(422);
    const asAndroid = await t.app.inject({
      method: 'POST',
      url: '/api/user/devices',
      headers: user.headers,
      payload: { token: JSON.stringify(valid()), platform: 'android' },
    });
    expect(asAndroid.statusCode).toBe(422);
    expect(asAndroid.json().errors).toEqual({ token: ['Le format du champ token est invalide.'] });
  });
});

describe('an event pushed to a browser', () => {
  it('reaches the push service encrypted and signed; a subscription that is gone is forgotten', async () => {
    const user = await signIn(t);
    const browser = fake.subscribe(t.config.webpush.publicKey!);
    const device = (await register(user, JSON.stringify(browser.json))).json().data.device;
    const event = await t.app.db.transaction((tx) =>
      t.app.services.events.append(tx, user.id, 'pronostic.succeeded', { id: 12 }),
    );
    const report = await t.app.runtime.pushSender.runOnce();
    expect(report).toMatchObject({ sent: 1, pruned: 0 });
    expect(fake.problems).toEqual([]);
    expect(fake.delivered.filter((d) => d.id === browser.id).map((d) => d.payload)).toEqual([
      {
        title: 'Votre analyse est prête',
        body: 'Ouvrez l’application pour découvrir votre pronostic.',
        data: { type: 'pronostic.succeeded', seq: String(event.id), id: '12', created_at: event.created_at },
      },
    ]);

    fake.expire(browser.id);
    await t.app.db.transaction((tx) =>
      t.app.services.events.append(tx, user.id, 'credits.adjusted', { id: 13 }),
    );
    expect(await t.app.runtime.pushSender.runOnce()).toMatchObject({ sent: 0, pruned: 1 });
    const rows = await t.app.db.select().from(pushDevices);
    expect(rows.find((row) => row.id === device.id)).toBeUndefined();
  });
});
