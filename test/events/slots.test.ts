// Event-stream slots (issue 42): every exit path of `open` gives its slot back. A client that hangs
// up while its stream opens (the replay queries of a reconnect) leaves nothing registered (on
// PostgreSQL a test lock on the log holds that window open, over a real socket); a failed replay
// query releases the slot; concurrent opens of one user never pass the per-user cap.

import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimited } from '../../src/lib/errors.js';
import { createTestApp, postgresUrlOf, signIn, type TestApp, usingPostgres } from '../helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { eventsMaxStreamsPerUser: 3 } });
});
afterAll(() => t.close());

const who = (id: number) => ({ id, tokenId: 1, tokenIssuedAtMs: Date.now() });

describe('event-stream slots', () => {
  it('concurrent opens of one user never pass the per-user cap', async () => {
    const user = await signIn(t);
    const streams = t.app.services.eventStreams;
    const results = await Promise.allSettled(Array.from({ length: 6 }, () => streams.open(who(user.id), 0)));
    const opened = results.filter((result) => result.status === 'fulfilled');
    expect(opened).toHaveLength(3);
    for (const result of results) {
      if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(RateLimited);
    }
    for (const result of opened) (result as PromiseFulfilledResult<{ close(): void }>).value.close();
    expect(streams.openCount()).toBe(0);
  });

  it('a client gone while its stream opens leaves no slot behind', async () => {
    const user = await signIn(t);
    const streams = t.app.services.eventStreams;
    const gone = new AbortController();
    // Gone before the replay query answers: what the route's close listener reports.
    const opening = streams.open(who(user.id), 5, false, gone.signal);
    gone.abort();
    const stream = await opening;
    expect(streams.openCount()).toBe(0);
    // The three slots are all there to take.
    const again = await Promise.all([1, 2, 3].map(() => streams.open(who(user.id), 0)));
    expect(streams.openCount()).toBe(3);
    for (const one of again) one.close();
    stream.close();
    expect(streams.openCount()).toBe(0);
  });

  it('a replay query that fails releases the slot', async () => {
    const user = await signIn(t);
    const streams = t.app.services.eventStreams;
    // An id past the log's integer range makes the replay query fail in the database.
    await expect(streams.open(who(user.id), Number.MAX_SAFE_INTEGER, false)).rejects.toThrow();
    expect(streams.openCount()).toBe(0);
  });
});

describe.runIf(usingPostgres())('a client hanging up during the replay, over a socket (PostgreSQL)', () => {
  it('the stream is released once the replay ends, and the user keeps every slot', async () => {
    const user = await signIn(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as AddressInfo).port;
    const locker = new pg.Client({ connectionString: await postgresUrlOf(t) });
    await locker.connect();
    try {
      // The replay's read of the log waits behind this lock: the window stays open.
      await locker.query('BEGIN');
      await locker.query('LOCK TABLE user_events IN ACCESS EXCLUSIVE MODE');
      const socket = connect(port, '127.0.0.1');
      await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
      socket.write(
        `GET /api/user/events HTTP/1.1\r\nHost: test\r\nAuthorization: ${user.headers.authorization}\r\nLast-Event-ID: 3\r\n\r\n`,
      );
      for (let i = 0; i < 200 && t.app.services.eventStreams.openCount() === 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(t.app.services.eventStreams.openCount()).toBe(1);
      socket.destroy();
      await new Promise((resolve) => setTimeout(resolve, 100));
      await locker.query('COMMIT');
      for (let i = 0; i < 200 && t.app.services.eventStreams.openCount() > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(t.app.services.eventStreams.openCount()).toBe(0);
    } finally {
      await locker.query('ROLLBACK').catch(() => undefined);
      await locker.end();
    }
  });
});
