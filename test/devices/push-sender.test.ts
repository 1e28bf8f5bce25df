// The push sender follows the users' event logs and sends each event to each of the owner's
// devices once: every event type, with its French text and string data; a device registered later
// gets only what follows; a failure postpones that device alone (backoff) and leaves the log
// intact, later events still go out; a dead token is pruned; events past PUSH_MAX_AGE_SECONDS are
// not pushed; a restart, or a sender that dies mid-pass, loses nothing and repeats at most the
// send in flight; a committed event wakes a running sender through its notification.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDevices } from '../../src/db/schema/index.js';
import { type UserEventType, userEventTypes } from '../../src/lib/allowed-values.js';
import { ManualClock } from '../../src/lib/clock.js';
import { pushTexts } from '../../src/lib/messages.js';
import type { PushDriver, PushMessage, PushResult } from '../../src/providers/push/index.js';
import {
  createTestApp,
  createTestDatabase,
  type SignedIn,
  signIn,
  type TestApp,
  type TestDatabase,
} from '../helpers.js';

/** A push driver that records what it is asked to send and answers as told (per device token, or in turn). */
function recordingDriver() {
  const sent: PushMessage[] = [];
  const calls: PushMessage[] = [];
  const queue: PushResult[] = [];
  const perToken = new Map<string, PushResult | 'hang'>();
  let onCall: ((message: PushMessage) => void) | undefined;
  const driver: PushDriver & {
    sent: PushMessage[];
    calls: PushMessage[];
    answer(...results: PushResult[]): void;
    forToken(token: string, result: PushResult | 'hang' | undefined): void;
    nextCall(): Promise<PushMessage>;
  } = {
    name: 'log',
    sent,
    calls,
    answer: (...results) => queue.push(...results),
    forToken(token, result) {
      if (result === undefined) perToken.delete(token);
      else perToken.set(token, result);
    },
    nextCall: () => new Promise((resolve) => (onCall = resolve)),
    async send(message) {
      calls.push(message);
      onCall?.(message);
      const result = perToken.get(message.token) ?? queue.shift() ?? { outcome: 'sent' };
      if (result === 'hang') return new Promise<PushResult>(() => {});
      if (result.outcome === 'sent') sent.push(message);
      return result;
    },
  };
  return driver;
}

let database: TestDatabase;
let clock: ManualClock;
let driver: ReturnType<typeof recordingDriver>;
let t: TestApp;

beforeAll(async () => {
  database = await createTestDatabase();
  clock = new ManualClock(new Date());
  driver = recordingDriver();
  t = await createTestApp({ database, clock, pushDriver: driver });
});
afterAll(async () => {
  await t.close();
  await database.drop();
});

let tokenCounter = 0;
function fcmToken(): string {
  tokenCounter += 1;
  return `push${tokenCounter}:APA91b${'Zq7_x-'.repeat(20)}${String(tokenCounter).padStart(4, '0')}`;
}

async function registerDevice(app: TestApp, user: SignedIn, token = fcmToken()) {
  const response = await app.app.inject({
    method: 'POST',
    url: '/api/user/devices',
    headers: user.headers,
    payload: { token, platform: 'android' },
  });
  expect(response.statusCode, response.body).toBe(201);
  return { id: response.json().data.device.id as number, token };
}

async function append(app: TestApp, userId: number, type: UserEventType, data: object = { id: 7 }) {
  return app.app.db.transaction((tx) => app.app.services.events.append(tx, userId, type, data));
}

/** What each device token got, as "token seq" pairs, from the driver's sent messages. */
function deliveries(messages: PushMessage[], tokens: string[]): string[] {
  return messages.filter((m) => tokens.includes(m.token)).map((m) => `${m.token.slice(0, 8)} ${m.data.seq}`);
}

describe('the push sender', () => {
  it('sends an event of each type once to each of the owner’s devices, and nothing to others', async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    const phone = await registerDevice(t, user);
    const browser = await registerDevice(t, user);
    const stranger = await registerDevice(t, other);
    const appended = [];
    for (const type of userEventTypes)
      appended.push(await append(t, user.id, type, { id: 40 + appended.length }));

    const report = await t.app.runtime.pushSender.runOnce();
    expect(report).toMatchObject({ sent: userEventTypes.length * 2, skipped: 0, pruned: 0, postponed: 0 });
    for (const device of [phone, browser]) {
      const got = driver.sent.filter((m) => m.token === device.token);
      expect(got.map((m) => m.data.type)).toEqual([...userEventTypes]);
      for (const [i, message] of got.entries()) {
        const event = appended[i]!;
        expect(message).toMatchObject({
          deviceId: device.id,
          platform: 'android',
          title: pushTexts[event.type as UserEventType].title,
          body: pushTexts[event.type as UserEventType].body,
          data: { type: event.type, seq: String(event.id), id: String(40 + i), created_at: event.created_at },
        });
        expect(Object.values(message.data).every((value) => typeof value === 'string')).toBe(true);
      }
    }
    expect(driver.sent.filter((m) => m.token === stranger.token)).toEqual([]);
    expect(pushTexts['pronostic.succeeded'].title).toBe('Votre analyse est prête');

    // Nothing new: nothing sent again.
    expect((await t.app.runtime.pushSender.runOnce()).sent).toBe(0);
    expect(driver.sent.filter((m) => m.token === phone.token)).toHaveLength(userEventTypes.length);
  });

  it('a device registered later gets only the events after its registration', async () => {
    const user = await signIn(t);
    await append(t, user.id, 'credits.adjusted');
    const device = await registerDevice(t, user);
    const later = await append(t, user.id, 'payment.succeeded');
    await t.app.runtime.pushSender.runOnce();
    expect(deliveries(driver.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${later.id}`]);
  });

  it('a failure postpones that device alone, with backoff; the log stays, and the event and later ones go out', async () => {
    const user = await signIn(t);
    const failing = await registerDevice(t, user);
    const healthy = await registerDevice(t, user);
    driver.forToken(failing.token, { outcome: 'retry', reason: '503 UNAVAILABLE', retryAfterMs: 30_000 });
    const first = await append(t, user.id, 'pronostic.succeeded');

    expect(await t.app.runtime.pushSender.runOnce()).toMatchObject({ sent: 1, postponed: 1 });
    const [row] = await t.app.db.select().from(pushDevices).where(eqId(failing.id));
    expect(row).toMatchObject({ attempts: 1, pushedSeq: first.id - 1, leaseUntil: null });
    expect(Date.parse(row!.retryAt!.replace(' ', 'T').replace(/\+00$/, 'Z'))).toBeGreaterThanOrEqual(
      clock.now().getTime() + 30_000 - 1,
    );
    // The event log is intact: the client reads it whatever the push did.
    const history = await t.app.inject({
      method: 'GET',
      url: '/api/user/events/history',
      headers: user.headers,
    });
    expect(history.json().data.events.map((e: { id: number }) => e.id)).toEqual([first.id]);

    // Before the retry is due nothing is tried; a second failure doubles the wait.
    const callsBefore = driver.calls.length;
    await t.app.runtime.pushSender.runOnce();
    expect(driver.calls.length).toBe(callsBefore);
    clock.advance(31_000);
    driver.forToken(failing.token, { outcome: 'retry', reason: '500 INTERNAL' });
    await t.app.runtime.pushSender.runOnce();
    const [twice] = await t.app.db.select().from(pushDevices).where(eqId(failing.id));
    expect(twice!.attempts).toBe(2);

    // The provider is back: the postponed event and a later one reach it, the healthy device gets each once.
    driver.forToken(failing.token, undefined);
    const second = await append(t, user.id, 'payment.succeeded');
    clock.advance(15 * 60_000);
    await t.app.runtime.pushSender.runOnce();
    const short = (d: { token: string }, seq: number) => `${d.token.slice(0, 8)} ${seq}`;
    expect(deliveries(driver.sent, [failing.token])).toEqual([
      short(failing, first.id),
      short(failing, second.id),
    ]);
    expect(deliveries(driver.sent, [healthy.token])).toEqual([
      short(healthy, first.id),
      short(healthy, second.id),
    ]);
    const [done] = await t.app.db.select().from(pushDevices).where(eqId(failing.id));
    expect(done).toMatchObject({ attempts: 0, retryAt: null, pushedSeq: second.id });
  });

  it('prunes a device whose token is dead; the others keep getting events', async () => {
    const user = await signIn(t);
    const dead = await registerDevice(t, user);
    const alive = await registerDevice(t, user);
    driver.forToken(dead.token, { outcome: 'unregistered', reason: '404 NOT_FOUND/UNREGISTERED' });
    await append(t, user.id, 'ticket.replied');
    expect(await t.app.runtime.pushSender.runOnce()).toMatchObject({ sent: 1, pruned: 1 });
    const ids = (await t.app.db.select({ id: pushDevices.id }).from(pushDevices)).map((r) => r.id);
    expect(ids).not.toContain(dead.id);
    expect(ids).toContain(alive.id);
    driver.forToken(dead.token, undefined);
  });

  it('a message the provider refuses is skipped, the device kept', async () => {
    const user = await signIn(t);
    const device = await registerDevice(t, user);
    driver.answer({ outcome: 'rejected', reason: '400 INVALID_ARGUMENT: message too big' });
    await append(t, user.id, 'ticket.replied');
    const next = await append(t, user.id, 'credits.adjusted');
    expect(await t.app.runtime.pushSender.runOnce()).toMatchObject({ sent: 1, rejected: 1 });
    expect(deliveries(driver.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${next.id}`]);
  });

  it('does not push events older than PUSH_MAX_AGE_SECONDS (the log keeps them)', async () => {
    const user = await signIn(t);
    const device = await registerDevice(t, user);
    await append(t, user.id, 'pronostic.succeeded');
    clock.advance((t.config.pushMaxAgeSeconds + 1) * 1000);
    const fresh = await append(t, user.id, 'pronostic.cancelled');
    expect(await t.app.runtime.pushSender.runOnce()).toMatchObject({ sent: 1, skipped: 1 });
    expect(deliveries(driver.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${fresh.id}`]);
  });

  it('passes events the retention purged (never stuck behind a gap in the log)', async () => {
    const user = await signIn(t);
    const device = await registerDevice(t, user);
    const purged = await append(t, user.id, 'ticket.replied');
    clock.advance((t.config.eventsRetentionDays * 86_400 + 60) * 1000);
    await t.app.runtime.housekeeping.runOnce();
    expect((await t.app.runtime.pushSender.runOnce()).sent).toBe(0);
    const [row] = await t.app.db.select().from(pushDevices).where(eqId(device.id));
    expect(row).toMatchObject({ pushedSeq: purged.id, leaseUntil: null });
    const next = await append(t, user.id, 'payment.succeeded');
    await t.app.runtime.pushSender.runOnce();
    expect(deliveries(driver.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${next.id}`]);
  });

  it('after a restart it sends what was committed meanwhile, and repeats nothing', async () => {
    const user = await signIn(t);
    const device = await registerDevice(t, user);
    const before = await append(t, user.id, 'payment.succeeded');
    await t.app.runtime.pushSender.runOnce();
    await t.close();

    // Committed while no sender ran (written by another process, say).
    const restartedDriver = recordingDriver();
    t = await createTestApp({ database, clock, pushDriver: restartedDriver });
    const during = await append(t, user.id, 'payment.failed');
    await t.app.runtime.pushSender.runOnce();
    expect(deliveries(driver.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${before.id}`]);
    expect(deliveries(restartedDriver.sent, [device.token])).toEqual([
      `${device.token.slice(0, 8)} ${during.id}`,
    ]);
    driver = restartedDriver;
  });

  it('a sender that dies mid-pass: another takes over once its lease ran out, repeating at most the send in flight', async () => {
    const user = await signIn(t);
    const device = await registerDevice(t, user);
    const seqs = [];
    for (const type of ['pronostic.succeeded', 'payment.succeeded', 'ticket.replied'] as const) {
      seqs.push((await append(t, user.id, type)).id);
    }
    // The first process sends the first event, then hangs on the second (as a process that froze or was killed).
    const frozen = recordingDriver();
    const first = await createTestApp({ database, clock, pushDriver: frozen });
    frozen.answer({ outcome: 'sent' });
    let calls = 0;
    const stuck = new Promise<void>((resolve) => {
      const original = frozen.send.bind(frozen);
      frozen.send = (message) => {
        calls += 1;
        if (calls === 2) {
          resolve();
          return new Promise<PushResult>(() => {});
        }
        return original(message);
      };
    });
    void first.app.runtime.pushSender.runOnce();
    await stuck;
    expect(deliveries(frozen.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${seqs[0]}`]);

    // Another process, before the lease runs out: the device is not its to send.
    const other = recordingDriver();
    const second = await createTestApp({ database, clock, pushDriver: other });
    expect((await second.app.runtime.pushSender.runOnce()).sent).toBe(0);
    clock.advance(61_000);
    await second.app.runtime.pushSender.runOnce();
    const short = (seq: number | undefined) => `${device.token.slice(0, 8)} ${seq}`;
    expect(deliveries(other.sent, [device.token])).toEqual([short(seqs[1]), short(seqs[2])]);
    await second.close();
    // The frozen process's app is left as a killed process would be (its hung send never returns).
    void first;
  });

  it('a committed event wakes a running sender (event_appended), without waiting for the poll', async () => {
    const user = await signIn(t);
    const device = await registerDevice(t, user);
    await t.app.runtime.pushSender.start();
    try {
      const event = await append(t, user.id, 'withdrawal.succeeded');
      const deadline = Date.now() + 10_000;
      while (!driver.sent.some((m) => m.token === device.token) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(deliveries(driver.sent, [device.token])).toEqual([`${device.token.slice(0, 8)} ${event.id}`]);
    } finally {
      await t.app.runtime.pushSender.stop();
    }
  });
});

import { eq } from 'drizzle-orm';

function eqId(id: number) {
  return eq(pushDevices.id, id);
}
