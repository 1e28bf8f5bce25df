// The typed client's stream follower against the running service: events arrive in seq order; a
// connection the server drops is taken up again with Last-Event-ID, so what was committed meanwhile
// arrives once and nothing twice; a purged gap calls onReset; a dead token ends it with the 401.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventStreamParser, followEvents, type UserEvent } from '../../clients/typescript/index.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp({ config: { eventsHeartbeatSeconds: 1 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

const append = (userId: number, data: Record<string, unknown>) =>
  t.app.db.transaction((tx) => t.app.services.events.append(tx, userId, 'credits.adjusted', data));

async function until(check: () => boolean, ms = 5000): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > ms) throw new Error('timed out');
    await new Promise((done) => setTimeout(done, 20));
  }
}

describe('EventStreamParser', () => {
  it('reads messages split across chunks, multi-line data, CRLF, and skips comments', () => {
    const parser = new EventStreamParser();
    expect(parser.push(': connected\n\nid: 1\nda')).toEqual([]);
    expect(parser.push('ta: {"a":\r\ndata: 1}\r\n\r\n: ping\n\ndata: {"type":"stream.reset"}\n\n')).toEqual([
      { id: '1', data: '{"a":\n1}' },
      { id: undefined, data: '{"type":"stream.reset"}' },
    ]);
  });
});

describe('followEvents', () => {
  it('reconnects after a dropped connection with Last-Event-ID: each event once, in order', async () => {
    const user = await signIn(t);
    const seen: UserEvent[] = [];
    let opened = 0;
    const follower = followEvents({
      baseUrl,
      token: user.token,
      retry: { initialMs: 50, maxMs: 200 },
      onOpen: () => {
        opened += 1;
      },
      onEvent: (event) => {
        seen.push(event);
      },
    });
    try {
      await until(() => opened === 1);
      await append(user.id, { n: 1 });
      await append(user.id, { n: 2 });
      await until(() => seen.length === 2);
      // The server drops every stream (as at a deploy); events commit before the client is back.
      await t.app.services.eventStreams.closeAll();
      await append(user.id, { n: 3 });
      await append(user.id, { n: 4 });
      await until(() => seen.length === 4);
      expect(opened).toBeGreaterThanOrEqual(2);
      await append(user.id, { n: 5 });
      await until(() => seen.length === 5);
      expect(seen.map((event) => [event.id, event.data.n])).toEqual([
        [1, 1],
        [2, 2],
        [3, 3],
        [4, 4],
        [5, 5],
      ]);
      expect(follower.lastEventId()).toBe(5);
    } finally {
      follower.close();
      await follower.done;
    }
  });

  it('starts after lastEventId, tells a purged gap with onReset, and ends with the 401 of a dead token', async () => {
    const user = await signIn(t);
    for (const n of [1, 2, 3]) await append(user.id, { n });
    const { sql } = await import('drizzle-orm');
    await t.app.db.execute(sql`DELETE FROM user_events WHERE user_id = ${user.id} AND seq < 3`);
    const seen: number[] = [];
    let resets = 0;
    const follower = followEvents({
      baseUrl,
      token: user.token,
      lastEventId: 1,
      retry: { initialMs: 50, maxMs: 200 },
      onReset: () => {
        resets += 1;
      },
      onEvent: (event) => {
        seen.push(event.id);
      },
    });
    await until(() => seen.length === 1);
    expect(seen).toEqual([3]);
    expect(resets).toBe(1);
    const logout = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    expect(logout.statusCode).toBe(200);
    const error = await follower.done.catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'ApiError', status: 401 });
  });

  it("starts 'now' after the log's last seq, with the caller's headers, and a refused start ends it", async () => {
    const user = await signIn(t);
    for (const n of [1, 2]) await append(user.id, { n });
    const asked: { url: string; headers: Record<string, string> }[] = [];
    const watching: typeof fetch = (input, init) => {
      asked.push({ url: String(input), headers: { ...(init?.headers as Record<string, string>) } });
      return fetch(input, init);
    };
    const seen: number[] = [];
    let opened = 0;
    const follower = followEvents({
      baseUrl,
      token: user.token,
      lastEventId: 'now',
      headers: () => ({ 'accept-language': 'en' }),
      fetch: watching,
      onOpen: () => {
        opened += 1;
      },
      onEvent: (event) => {
        seen.push(event.data.n as number);
      },
    });
    try {
      await until(() => opened === 1);
      await append(user.id, { n: 3 });
      await until(() => seen.length === 1);
      expect(seen).toEqual([3]);
      expect(asked.map((call) => new URL(call.url).pathname)).toEqual([
        '/api/user/events/history',
        '/api/user/events',
      ]);
      expect(asked[1]?.headers['last-event-id']).toBe('2');
      expect(asked.every((call) => call.headers['accept-language'] === 'en')).toBe(true);
    } finally {
      follower.close();
      await follower.done;
    }

    const refused = followEvents({ baseUrl, token: 'not-a-token', lastEventId: 'now', onEvent: () => {} });
    const error = await refused.done.catch((failure: unknown) => failure);
    expect(error).toMatchObject({ name: 'ApiError', status: 401 });
  });
});
