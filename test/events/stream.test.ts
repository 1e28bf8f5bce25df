// The live stream of a user's events over a real socket: an event reaches the stream once its
// transaction commits (never a rolled-back one), `id: <seq>` on each; Last-Event-ID replays what
// was missed, with no duplicate; another user's stream never sees it; a heartbeat comment; the
// per-user limit answers 429 (enveloped, before the stream starts); shutdown ends the streams.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createEventService } from '../../src/modules/events/service.js';
import { createEventStreams } from '../../src/modules/events/streams.js';
import {
  countingDatabase,
  createTestApp,
  postgresUrlOf,
  type SignedIn,
  signIn,
  type TestApp,
  usingPostgres,
} from '../helpers.js';
import { rowsOf } from '../track-record/seed.js';

let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ config: { eventsHeartbeatSeconds: 1, eventsMaxStreamsPerUser: 2 } });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

interface Opened {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** Everything received so far. */
  text(): string;
  /** The `data:` messages with an id, parsed. */
  events(): { id: number; type: string; data: Record<string, unknown> }[];
  until(predicate: (text: string) => boolean, ms?: number): Promise<void>;
  close(): void;
  ended: Promise<void>;
}

function open(
  user: SignedIn,
  headers: Record<string, string> = {},
  path = '/api/user/events',
): Promise<Opened> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}${path}`, { headers: { ...user.headers, ...headers } }, (response) => {
      let text = '';
      const waiters = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        for (const waiter of waiters) waiter();
      });
      const ended = new Promise<void>((done) => {
        response.on('end', done);
        response.on('close', done);
      });
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        text: () => text,
        events: () =>
          text
            .split('\n\n')
            .filter((block) => block.startsWith('id: '))
            .map((block) => JSON.parse(block.split('\n')[1]!.slice('data: '.length))),
        until(predicate, ms = 5000) {
          if (predicate(text)) return Promise.resolve();
          return new Promise((done, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`stream did not get there in ${ms} ms; got: ${JSON.stringify(text)}`));
            }, ms);
            const check = () => {
              if (!predicate(text)) return;
              clearTimeout(timer);
              waiters.delete(check);
              done();
            };
            waiters.add(check);
          });
        },
        close: () => request.destroy(),
        ended,
      });
    });
    request.on('error', reject);
  });
}

const append = (userId: number, data: Record<string, unknown>) =>
  t.app.db.transaction((tx) => t.app.services.events.append(tx, userId, 'credits.adjusted', data));

describe('GET /api/user/events', () => {
  it('sends each event as it commits, id: <seq>; a rolled-back one never', async () => {
    const user = await signIn(t);
    const stream = await open(user);
    try {
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream/);
      await stream.until((text) => text.includes(': connected'));
      await append(user.id, { n: 1 });
      await expect(
        t.app.db.transaction(async (tx) => {
          await t.app.services.events.append(tx, user.id, 'credits.adjusted', { n: 'rolled back' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow();
      await append(user.id, { n: 2 });
      await stream.until((text) => text.includes('"n":2'));
      expect(stream.text()).toContain('id: 1\ndata: {"id":1,"type":"credits.adjusted"');
      expect(stream.events().map((event) => [event.id, event.data])).toEqual([
        [1, { n: 1 }],
        [2, { n: 2 }],
      ]);
      expect(stream.text()).not.toContain('rolled back');
    } finally {
      stream.close();
    }
  });

  it('replays after Last-Event-ID, then follows, with no duplicate; another user sees nothing', async () => {
    const user = await signIn(t);
    const stranger = await signIn(t);
    for (const n of [1, 2, 3]) await append(user.id, { n });
    const stream = await open(user, { 'last-event-id': '1' });
    const other = await open(stranger);
    try {
      await stream.until((text) => text.includes('"n":3'));
      await append(user.id, { n: 4 });
      await stream.until((text) => text.includes('"n":4'));
      expect(stream.events().map((event) => event.id)).toEqual([2, 3, 4]);
      await other.until((text) => text.includes(': connected'));
      expect(other.events()).toEqual([]);
    } finally {
      stream.close();
      other.close();
    }
  });

  it('sends a heartbeat comment on an idle stream', async () => {
    const user = await signIn(t);
    const stream = await open(user);
    try {
      await stream.until((text) => text.includes(': ping\n\n'), 4000);
    } finally {
      stream.close();
    }
  });

  it('answers 429 enveloped past EVENTS_MAX_STREAMS_PER_USER, 401 without a token, 422 on a bad Last-Event-ID', async () => {
    const user = await signIn(t);
    const first = await open(user);
    const second = await open(user);
    try {
      await first.until((text) => text.includes(': connected'));
      await second.until((text) => text.includes(': connected'));
      const third = await t.app.inject({ method: 'GET', url: '/api/user/events', headers: user.headers });
      expect(third.statusCode).toBe(429);
      expect(third.json()).toMatchObject({ data: { retry_after: expect.any(Number) } });
      expect(third.headers['retry-after']).toBeDefined();
      // A closed stream frees its place.
      first.close();
      await first.ended;
      for (let i = 0; i < 50 && t.app.services.eventStreams.openCount() > 1; i++) {
        await new Promise((done) => setTimeout(done, 20));
      }
      const again = await open(user);
      expect(again.status).toBe(200);
      again.close();
    } finally {
      first.close();
      second.close();
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/user/events' })).statusCode).toBe(401);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/user/events',
      headers: { ...user.headers, 'last-event-id': 'abc' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().errors).toHaveProperty('last-event-id');
  });

  it('tells a client resuming from a purged seq to reload (stream.reset)', async () => {
    const user = await signIn(t);
    for (const n of [1, 2, 3]) await append(user.id, { n });
    await t.app.db.execute(
      // The first two are past the retention and purged.
      (await import('drizzle-orm')).sql`DELETE FROM user_events WHERE user_id = ${user.id} AND seq < 3`,
    );
    const stream = await open(user, { 'last-event-id': '1' });
    try {
      await stream.until((text) => text.includes('"n":3'));
      expect(stream.text()).toContain('data: {"type":"stream.reset"}');
      expect(stream.events().map((event) => event.id)).toEqual([3]);
    } finally {
      stream.close();
    }
  });
});

describe('GET /api/admin/events', () => {
  it('streams the back office’s log to admins only; users’ streams never carry it', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const user = await signIn(t);
    const last = await t.app.services.events.adminHistory({ per_page: 1 });
    const stream = await open(admin, { 'last-event-id': String(last.meta.last_seq) }, '/api/admin/events');
    const own = await open(user);
    try {
      expect(stream.status).toBe(200);
      await stream.until((text) => text.includes(': connected'));
      await t.app.db.transaction((tx) =>
        t.app.services.events.appendAdmin(tx, 'flag.raised', { kind: 'test' }),
      );
      await stream.until((text) => text.includes('"kind":"test"'));
      expect(stream.events()).toMatchObject([{ id: last.meta.last_seq + 1, type: 'flag.raised' }]);
      await own.until((text) => text.includes(': connected'));
      expect(own.text()).not.toContain('flag.raised');
      const forbidden = await t.app.inject({
        method: 'GET',
        url: '/api/admin/events',
        headers: user.headers,
      });
      expect(forbidden.statusCode).toBe(403);
    } finally {
      stream.close();
      own.close();
    }
  });
});

describe('what a token stands for changes', () => {
  it('logout ends the streams of its token; a block ends all of the user’s', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const user = await signIn(t);
    t.clock.advance(61_000); // the resend cooldown: a second sign-in, a second token
    const sameUser = await signIn(t, { phone: user.phone });
    const [viaFirst, viaSecond] = [await open(user), await open(sameUser)];
    await viaFirst.until((text) => text.includes(': connected'));
    await viaSecond.until((text) => text.includes(': connected'));
    const logout = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    expect(logout.statusCode).toBe(200);
    await viaFirst.ended;
    const other = await signIn(t);
    const bystander = await open(other);
    await bystander.until((text) => text.includes(': connected'));
    const blocked = await t.app.inject({
      method: 'POST',
      url: `/api/admin/users/${user.id}/block`,
      headers: admin.headers,
      payload: { reason: 'Fraude' },
    });
    expect(blocked.statusCode, blocked.body).toBe(200);
    await viaSecond.ended;
    // Another user's stream stays open.
    await append(other.id, { still: 'open' });
    await bystander.until((text) => text.includes('"still":"open"'));
    bystander.close();
  });
});

describe('a browser’s stream key (EventSource sends no header)', () => {
  const keyOf = async (user: SignedIn) => {
    const issued = await t.app.inject({ method: 'POST', url: '/api/user/events/key', headers: user.headers });
    expect(issued.statusCode, issued.body).toBe(200);
    return issued.json().data as { stream_key: string; expires_at: string };
  };
  const noHeader = { headers: {} } as SignedIn;

  it('opens one stream, once: the key used again, or unknown, answers 401', async () => {
    const user = await signIn(t);
    const { stream_key, expires_at } = await keyOf(user);
    expect(stream_key).toMatch(/^[A-Za-z0-9_-]{20,128}$/);
    expect(Date.parse(expires_at) - t.clock.now().getTime()).toBe(60_000);
    const stream = await open(noHeader, {}, `/api/user/events?stream_key=${stream_key}`);
    try {
      expect(stream.status).toBe(200);
      await stream.until((text) => text.includes(': connected'));
      await append(user.id, { via: 'key' });
      await stream.until((text) => text.includes('"via":"key"'));
    } finally {
      stream.close();
    }
    for (const key of [stream_key, 'x'.repeat(40), 'bad key']) {
      const again = await t.app.inject({
        method: 'GET',
        url: `/api/user/events?stream_key=${encodeURIComponent(key)}`,
      });
      expect(again.statusCode, key).toBe(401);
      expect(again.json()).toMatchObject({ user: null, message: 'Non authentifié.' });
    }
  });

  it('expires after 60 s, dies with its token, and opens the admin stream only for an admin', async () => {
    const user = await signIn(t);
    const stale = await keyOf(user);
    t.clock.advance(60_000);
    const expired = await t.app.inject({
      method: 'GET',
      url: `/api/user/events?stream_key=${stale.stream_key}`,
    });
    expect(expired.statusCode).toBe(401);

    const beforeLogout = await keyOf(user);
    const logout = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    expect(logout.statusCode, logout.body).toBe(200);
    const revoked = await t.app.inject({
      method: 'GET',
      url: `/api/user/events?stream_key=${beforeLogout.stream_key}`,
    });
    expect(revoked.statusCode).toBe(401);

    const other = await signIn(t);
    const notAdmin = await t.app.inject({
      method: 'GET',
      url: `/api/admin/events?stream_key=${(await keyOf(other)).stream_key}`,
    });
    expect(notAdmin.statusCode).toBe(403);
    const admin = await signIn(t, { role: 'admin' });
    const stream = await open(
      noHeader,
      {},
      `/api/admin/events?stream_key=${(await keyOf(admin)).stream_key}`,
    );
    try {
      expect(stream.status).toBe(200);
      await stream.until((text) => text.includes(': connected'));
    } finally {
      stream.close();
    }
  });

  it('is taken once whichever instance it reaches first (two apps on one database)', async () => {
    const second = await createTestApp({
      database: { handle: t.database, drop: async () => {} },
      clock: t.clock,
    });
    try {
      const user = await signIn(t);
      const { stream_key } = await keyOf(user);
      const url = `/api/user/events/history?stream_key=${stream_key}`;
      // The key opens streams only: a history request with it is not signed in.
      expect((await second.app.inject({ method: 'GET', url })).statusCode).toBe(401);
      const answers = await Promise.all(
        [t, second].map((app) =>
          app.app.inject({
            method: 'GET',
            url: `/api/user/events?stream_key=${stream_key}`,
            payloadAsStream: true,
          }),
        ),
      );
      const statuses = answers.map((answer) => answer.statusCode).sort();
      expect(statuses).toEqual([200, 401]);
      for (const answer of answers) answer.stream().destroy();
    } finally {
      await second.close();
    }
  });
});

describe('an open stream and its token', () => {
  it('keeps the token’s idle window alive, and ends at the token’s absolute lifetime', async () => {
    const own = await createTestApp({
      config: { eventsHeartbeatSeconds: 1, tokenIdleTtlSeconds: 10, tokenMaxAgeSeconds: 60 },
    });
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const previous = base;
    base = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
    const lastUsedMs = async (token: number) => {
      const [row] = rowsOf(
        await own.app.db.execute(sql`SELECT last_used_at AS at FROM access_tokens WHERE id = ${token}`),
      );
      return new Date(row!.at as string).getTime();
    };
    try {
      const user = await signIn(own);
      const stream = await open(user);
      await stream.until((text) => text.includes(': connected'));
      const me = await own.app.inject({
        method: 'GET',
        url: '/api/user/events/history',
        headers: user.headers,
      });
      expect(me.statusCode).toBe(200);
      const [row] = rowsOf(
        await own.app.db.execute(sql`SELECT id FROM access_tokens WHERE user_id = ${user.id}`),
      );
      const tokenId = Number(row!.id);
      // 24 s of an open stream and no request: the 10 s idle window is slid at the ticks.
      for (let step = 0; step < 6; step++) {
        own.clock.advance(4_000);
        const target = own.clock.now().getTime();
        for (let i = 0; i < 100 && (await lastUsedMs(tokenId)) < target; i++) {
          await new Promise((done) => setTimeout(done, 50));
        }
        expect(await lastUsedMs(tokenId)).toBe(target);
      }
      const alive = await own.app.inject({
        method: 'GET',
        url: '/api/user/events/history',
        headers: user.headers,
      });
      expect(alive.statusCode).toBe(200);
      // The absolute lifetime ends the stream at the next tick; the reconnect is refused.
      own.clock.advance(40_000);
      await stream.ended;
      const again = await own.app.inject({ method: 'GET', url: '/api/user/events', headers: user.headers });
      expect(again.statusCode).toBe(401);
    } finally {
      base = previous;
      await own.close();
    }
  });
});

describe('a slow client', () => {
  it('is disconnected once EVENTS_BUFFER_EVENTS wait past its buffers; a reading one is not', async () => {
    const streams = createEventStreams({
      db: t.app.db,
      database: t.database,
      logger: t.app.log,
      heartbeatSeconds: 60,
      maxPerUser: 5,
      maxStreams: 10,
      bufferEvents: 3,
      clock: t.clock,
      tokenIdleTtlSeconds: 600,
      tokenMaxAgeSeconds: 3600,
      keepTokensAlive: async () => {},
    });
    const user = await signIn(t);
    try {
      const who = { id: user.id, tokenId: 0, tokenIssuedAtMs: t.clock.now().getTime() };
      const slow = await streams.open(who, 0);
      const reader = await streams.open(who, 0);
      let read = '';
      reader.body.on('data', (chunk: Buffer) => {
        read += chunk.toString();
      });
      const big = 'x'.repeat(8192);
      // A user's events come apart in time (a payment, an analysis): a reader drains between them.
      for (let n = 1; n <= 12; n++) {
        await append(user.id, { n, big });
        await new Promise((done) => setTimeout(done, 10));
      }
      for (let i = 0; i < 250 && (streams.openCount() > 1 || !read.includes('"n":12')); i++) {
        await new Promise((done) => setTimeout(done, 20));
      }
      // The slow one (never read) is gone; the reader got everything.
      expect(streams.openCount()).toBe(1);
      expect(slow.body.destroyed).toBe(true);
      expect(read.match(/^id: /gm)).toHaveLength(12);
    } finally {
      await streams.closeAll();
    }
  });
});

describe('across processes and at rest', () => {
  it.skipIf(!usingPostgres())(
    'receives an event committed through another connection pool (another process)',
    async () => {
      const user = await signIn(t);
      const stream = await open(user);
      const other = await openDatabase({ url: await postgresUrlOf(t), poolSize: 2 });
      try {
        await stream.until((text) => text.includes(': connected'));
        const worker = createEventService({ db: other.db, clock: new ManualClock(), retentionDays: 7 });
        await other.db.transaction((tx) =>
          worker.append(tx, user.id, 'credits.adjusted', { from: 'worker' }),
        );
        await stream.until((text) => text.includes('"from":"worker"'));
        expect(stream.events().map((event) => event.id)).toEqual([1]);
      } finally {
        stream.close();
        await other.close();
      }
    },
  );

  it('the next event rides on its notification: delivered with no query; a big one is read from the log', async () => {
    const counting = await countingDatabase();
    const own = await createTestApp({ database: counting.database, config: { eventsHeartbeatSeconds: 60 } });
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const previous = base;
    base = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
    try {
      const [user, bystander] = [await signIn(own), await signIn(own)];
      const appendTo = (userId: number, data: Record<string, unknown>) =>
        own.app.db.transaction((tx) => own.app.services.events.append(tx, userId, 'credits.adjusted', data));
      const stream = await open(user);
      await stream.until((text) => text.includes(': connected'));
      await new Promise((done) => setTimeout(done, 200));
      // What an append costs by itself: the same for a user with no stream.
      let before = counting.queries();
      await appendTo(bystander.id, { n: 0 });
      await new Promise((done) => setTimeout(done, 200));
      const appendAlone = counting.queries() - before;
      before = counting.queries();
      await appendTo(user.id, { n: 1 });
      await stream.until((text) => text.includes('"n":1'));
      await new Promise((done) => setTimeout(done, 200));
      expect(counting.queries() - before).toBe(appendAlone);
      // Too big to ride along (PostgreSQL's 8,000-byte payload): the stream reads it from the log.
      before = counting.queries();
      await appendTo(user.id, { n: 2, big: 'x'.repeat(9000) });
      await stream.until((text) => text.includes('"n":2'));
      expect(counting.queries() - before).toBeGreaterThan(appendAlone);
      expect(stream.events().map((event) => event.id)).toEqual([1, 2]);
      stream.close();
    } finally {
      base = previous;
      await own.close();
      await counting.database.drop();
    }
  });

  it('an idle stream costs no query (heartbeats included)', async () => {
    const counting = await countingDatabase();
    const own = await createTestApp({ database: counting.database, config: { eventsHeartbeatSeconds: 1 } });
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const previous = base;
    base = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
    try {
      const user = await signIn(own);
      await own.app.db.transaction((tx) =>
        own.app.services.events.append(tx, user.id, 'credits.adjusted', {}),
      );
      const stream = await open(user);
      await stream.until((text) => text.includes('id: 1'));
      // Let the replay's reads finish, then count over two heartbeats.
      await new Promise((done) => setTimeout(done, 200));
      const before = counting.queries();
      await stream.until((text) => text.split(': ping').length > 2, 4000);
      expect(counting.queries()).toBe(before);
      stream.close();
    } finally {
      base = previous;
      await own.close();
      await counting.database.drop();
    }
  });
});

describe('shutdown', () => {
  it('ends the open streams, so the app closes', async () => {
    const own = await createTestApp({ config: { eventsHeartbeatSeconds: 60 } });
    await own.app.listen({ port: 0, host: '127.0.0.1' });
    const previous = base;
    base = `http://127.0.0.1:${(own.app.server.address() as AddressInfo).port}`;
    try {
      const user = await signIn(own);
      const stream = await open(user);
      await stream.until((text) => text.includes(': connected'));
      await own.close();
      await stream.ended;
      expect(own.app.services.eventStreams.openCount()).toBe(0);
    } finally {
      base = previous;
    }
  });
});
