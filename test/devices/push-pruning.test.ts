// A wrong push project is not a mass forget (issue 42): a wrong FCM_PROJECT_ID answers 404 and a
// wrong sender 403 SENDER_ID_MISMATCH for every device, as dead tokens do. Through the real FCM
// driver against the local FCM fake: after PRUNE_PAUSE_AFTER distinct devices answer dead in a row
// (no success between, within the window), pruning pauses: the devices are kept and retried, one
// `push.pruning_paused` admin event is raised, and /metrics shows it. A success resumes pruning.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { adminEvents, pushDevices } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { PRUNE_PAUSE_AFTER } from '../../src/modules/devices/push.js';
import { createPushDriver } from '../../src/providers/push/index.js';
import { FCM_PROJECT, type FcmFake, startFcmFake } from '../fakes/fcm.js';
import { startWebPushFake } from '../fakes/web-push.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

const METRICS_TOKEN = 'm'.repeat(32);
let fake: FcmFake;

beforeAll(async () => {
  fake = await startFcmFake();
});
afterAll(() => fake.close());

function fcmApp(projectId?: string) {
  return createTestApp({
    config: {
      pushDriver: 'fcm',
      fcm: { serviceAccount: fake.serviceAccount, projectId, baseUrl: fake.baseUrl },
      metricsToken: METRICS_TOKEN,
    },
    clock: new ManualClock(new Date()),
  });
}

let counter = 0;
/** `count` devices, spread over users (at most 5 each), each with one event to push. */
async function devicesWithAnEvent(t: TestApp, count: number, name = 'device') {
  const tokens: string[] = [];
  let user: SignedIn | undefined;
  for (let index = 0; index < count; index += 1) {
    if (index % 4 === 0) {
      if (user) await event(t, user);
      user = await signIn(t);
    }
    counter += 1;
    const token = `${name}-${counter}:APA91b${'z'.repeat(140)}`;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/devices',
      headers: user!.headers,
      payload: { token, platform: 'android' },
    });
    expect(response.statusCode, response.body).toBe(201);
    tokens.push(token);
  }
  if (user) await event(t, user);
  return tokens;
}

function event(t: TestApp, user: SignedIn) {
  return t.app.db.transaction((tx) =>
    t.app.services.events.append(tx, user.id, 'pronostic.succeeded', { id: 7 }),
  );
}

async function devicesLeft(t: TestApp, tokens: string[]) {
  const rows = await t.app.db.select({ token: pushDevices.token }).from(pushDevices);
  return rows.filter((row) => tokens.includes(row.token)).length;
}

const pausedEvents = (t: TestApp) =>
  t.app.db.select().from(adminEvents).where(eq(adminEvents.type, 'push.pruning_paused'));

async function metric(t: TestApp, name: string): Promise<number> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/metrics',
    headers: { authorization: `Bearer ${METRICS_TOKEN}` },
  });
  expect(response.statusCode).toBe(200);
  const line = response.body.split('\n').find((text) => text.startsWith(`${name} `));
  expect(line, name).toBeDefined();
  return Number(line!.split(' ')[1]);
}

describe('a wrong FCM_PROJECT_ID: every device answers 404', () => {
  it('pauses pruning after a few devices: the rest are kept and retried, one admin event, the metric', async () => {
    const t = await fcmApp('wrong-project-42');
    try {
      const tokens = await devicesWithAnEvent(t, 12);
      const report = await t.app.runtime.pushSender.runOnce();
      expect(report).toMatchObject({
        sent: 0,
        pruned: PRUNE_PAUSE_AFTER - 1,
        held: 12 - (PRUNE_PAUSE_AFTER - 1),
      });
      expect(await devicesLeft(t, tokens)).toBe(12 - (PRUNE_PAUSE_AFTER - 1));
      const [paused, ...more] = await pausedEvents(t);
      expect(more).toEqual([]);
      expect(paused!.data).toMatchObject({ dead_answers: PRUNE_PAUSE_AFTER, window_seconds: 600 });
      // The back office reads it in its event log.
      const admin = await signIn(t, { role: 'admin' });
      const history = await t.app.inject({
        method: 'GET',
        url: '/api/admin/events/history',
        headers: admin.headers,
      });
      expect(history.statusCode, history.body).toBe(200);
      expect(history.json().data.events.map((row: { type: string }) => row.type)).toContain(
        'push.pruning_paused',
      );
      expect(await metric(t, 'pronostics_push_pruning_paused')).toBe(1);
      expect(await metric(t, 'pronostics_push_devices_held_total')).toBe(12 - (PRUNE_PAUSE_AFTER - 1));

      // Retried after the backoff: still 404, still kept, no second event.
      t.clock.advance(20 * 60_000);
      const again = await t.app.runtime.pushSender.runOnce();
      expect(again).toMatchObject({ pruned: 0, held: 12 - (PRUNE_PAUSE_AFTER - 1) });
      expect(await devicesLeft(t, tokens)).toBe(12 - (PRUNE_PAUSE_AFTER - 1));
      expect(await pausedEvents(t)).toHaveLength(1);
    } finally {
      await t.close();
      expect(fake.problems.every((problem) => problem === 'project wrong-project-42')).toBe(true);
      fake.problems.length = 0;
    }
  });
});

describe('a wrong sender: every device answers 403 SENDER_ID_MISMATCH', () => {
  it('pauses pruning the same way; a successful send resumes it, and a dead token is forgotten again', async () => {
    const t = await fcmApp();
    try {
      const tokens = await devicesWithAnEvent(t, 8, 'mismatch');
      for (const token of tokens) fake.forToken(token, 'sender-mismatch');
      const report = await t.app.runtime.pushSender.runOnce();
      expect(report).toMatchObject({ pruned: PRUNE_PAUSE_AFTER - 1, held: 8 - (PRUNE_PAUSE_AFTER - 1) });
      expect(await pausedEvents(t)).toHaveLength(1);
      expect(await metric(t, 'pronostics_push_pruning_paused')).toBe(1);

      // The sender is fixed: the kept devices get their event, and pruning resumes.
      for (const token of tokens) fake.forToken(token, undefined);
      t.clock.advance(20 * 60_000);
      const fixed = await t.app.runtime.pushSender.runOnce();
      expect(fixed).toMatchObject({ sent: 8 - (PRUNE_PAUSE_AFTER - 1), held: 0 });
      expect(await metric(t, 'pronostics_push_pruning_paused')).toBe(0);
      const [dead] = await devicesWithAnEvent(t, 1, 'dead');
      fake.forToken(dead!, 'unregistered');
      expect(await t.app.runtime.pushSender.runOnce()).toMatchObject({ pruned: 1, held: 0 });
      expect(await devicesLeft(t, [dead!])).toBe(0);
      fake.forToken(dead!, undefined);
    } finally {
      await t.close();
    }
    expect(fake.problems).toEqual([]);
    expect(FCM_PROJECT).toBe('pronostics-test');
  });
});

describe('one pruning guard per driver', () => {
  it("FCM's dead answers pause FCM's pruning only: a browser's gone subscription is still forgotten", async () => {
    const webpushFake = await startWebPushFake();
    const base = testConfig();
    const clock = new ManualClock(new Date());
    const config = {
      pushDriver: 'fcm' as const,
      fcm: { serviceAccount: fake.serviceAccount, projectId: 'wrong-project-43', baseUrl: fake.baseUrl },
      webpush: {
        ...base.webpush,
        driver: 'vapid' as const,
        subject: 'mailto:ops@example.cm',
        allowedHosts: [new URL(webpushFake.origin).host],
      },
      dataDir: mkdtempSync(join(tmpdir(), 'push-guards-')),
    };
    const pushDriver = createPushDriver(
      { ...base, ...config },
      { clock, logger: pino({ level: 'silent' }), webpushCa: webpushFake.ca },
    );
    const t = await createTestApp({ config, clock, pushDriver });
    try {
      await devicesWithAnEvent(t, 8, 'guards');
      const apps = await t.app.runtime.pushSender.runOnce();
      expect(apps).toMatchObject({ pruned: PRUNE_PAUSE_AFTER - 1, held: 8 - (PRUNE_PAUSE_AFTER - 1) });

      const user = await signIn(t);
      const browser = webpushFake.subscribe(t.config.webpush.publicKey!);
      const registered = await t.app.inject({
        method: 'POST',
        url: '/api/user/devices',
        headers: user.headers,
        payload: { token: JSON.stringify(browser.json), platform: 'webpush' },
      });
      expect(registered.statusCode, registered.body).toBe(201);
      webpushFake.expire(browser.id);
      await event(t, user);
      const browsers = await t.app.runtime.pushSender.runOnce();
      expect(browsers).toMatchObject({ pruned: 1, held: 0 });
      const left = await t.app.db.select().from(pushDevices).where(eq(pushDevices.userId, user.id));
      expect(left).toEqual([]);
    } finally {
      await t.close();
      await webpushFake.close();
      fake.problems.length = 0;
    }
  });
});
