// Event streams across a PostgreSQL restart (issue 42, "Streams across a database restart"): the
// streams stay open while their database goes away and comes back; every event committed before,
// during the gap the listener needs to LISTEN again, and after, arrives once and in order; an append
// tried while the server is down fails and never shows. The server-side listener re-subscribes
// (db/client.ts: the lost LISTEN connection is replaced, then every stream reads its log after its
// last seq), so the client does not even reconnect. Runs a cluster of its own (initdb / pg_ctl on a
// free port in a temp dir, as scripts/reliability/chaos.ts does), never the shared server; skipped
// where the PostgreSQL binaries are not installed (PG_BIN, or /usr/lib/postgresql/<version>/bin).
import { spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import http from 'node:http';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

function postgresBinaries(): string | undefined {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root).sort((a, b) => Number(b) - Number(a));
  return versions.map((version) => join(root, version, 'bin')).find((bin) => existsSync(join(bin, 'initdb')));
}

const pgBin = postgresBinaries();
const asRoot = process.getuid?.() === 0;

/** Runs a PostgreSQL binary (as the `postgres` user when this runs as root: initdb refuses root). */
function pgCommand(binary: string, args: string[]): void {
  const command = asRoot ? 'runuser' : join(pgBin!, binary);
  const full = asRoot ? ['-u', 'postgres', '--', join(pgBin!, binary), ...args] : args;
  const result = spawnSync(command, full, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${binary} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

let workDir: string;
let pgData: string;
let port: number;
let handle: DatabaseHandle;
let t: TestApp;
let base: string;

function startCluster(): void {
  pgCommand('pg_ctl', [
    '-D',
    pgData,
    '-l',
    join(workDir, 'postgres.log'),
    '-o',
    `-p ${port} -k ${workDir} -c listen_addresses=127.0.0.1`,
    '-w',
    'start',
  ]);
}

const stopCluster = () => pgCommand('pg_ctl', ['-D', pgData, '-m', 'fast', '-w', 'stop']);

interface Stream {
  /** The events received, parsed (`id: <seq>` then its JSON). */
  events(): { id: number; data: { n: string } }[];
  until(predicate: () => boolean, ms?: number): Promise<void>;
  /** Resolves when the response ends (the server closed the stream). */
  ended: Promise<'ended'>;
  close(): void;
}

function open(user: SignedIn): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const request = http.get(`${base}/api/user/events`, { headers: user.headers }, (response) => {
      let text = '';
      const waiters = new Set<() => void>();
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        text += chunk;
        for (const waiter of waiters) waiter();
      });
      const ended = new Promise<'ended'>((done) => {
        response.on('end', () => done('ended'));
        response.on('close', () => done('ended'));
      });
      const events = () =>
        text
          .split('\n\n')
          .filter((block) => block.startsWith('id: '))
          .map((block) => JSON.parse(block.split('\n')[1]!.slice('data: '.length)));
      resolve({
        events,
        until(predicate, ms = 20_000) {
          if (predicate()) return Promise.resolve();
          return new Promise((done, fail) => {
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(new Error(`stream did not get there in ${ms} ms; got: ${JSON.stringify(text)}`));
            }, ms);
            const check = () => {
              if (!predicate()) return;
              clearTimeout(timer);
              waiters.delete(check);
              done();
            };
            waiters.add(check);
          });
        },
        ended,
        close: () => request.destroy(),
      });
    });
    request.on('error', reject);
  });
}

describe.skipIf(pgBin === undefined)(
  'event streams across a PostgreSQL restart',
  { timeout: 120_000 },
  () => {
    beforeAll(async () => {
      workDir = mkdtempSync(join(tmpdir(), 'pronostics-restart-'));
      const clusterDir = join(workDir, 'cluster');
      mkdirSync(clusterDir);
      if (asRoot) {
        const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
        const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
        chownSync(workDir, uid, gid);
        chownSync(clusterDir, uid, gid);
      }
      pgData = join(clusterDir, 'data');
      pgCommand('initdb', ['-D', pgData, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
      port = await freePort();
      startCluster();
      handle = await openDatabase({ url: `postgres://postgres@127.0.0.1:${port}/postgres`, poolSize: 5 });
      await handle.migrate();
      t = await createTestApp({
        database: { handle, drop: () => handle.close() },
        config: { eventsHeartbeatSeconds: 1 },
      });
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    }, 120_000);

    afterAll(async () => {
      await t?.close();
      if (pgData && existsSync(join(pgData, 'postmaster.pid'))) {
        try {
          stopCluster();
        } catch {}
      }
      if (workDir) rmSync(workDir, { recursive: true, force: true });
    });

    /** One append in its own transaction: its seq once committed, undefined when it failed. */
    async function append(user: SignedIn, n: string): Promise<number | undefined> {
      try {
        const event = await t.app.db.transaction((tx) =>
          t.app.services.events.append(tx, user.id, 'credits.adjusted', { n }),
        );
        return event.id;
      } catch {
        return undefined;
      }
    }

    /** Appends until one commits (the pool's first connections after a restart may still fail). */
    async function appendCommitted(user: SignedIn, n: string): Promise<number> {
      for (let attempt = 0; attempt < 100; attempt++) {
        const seq = await append(user, n);
        if (seq !== undefined) return seq;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      throw new Error(`could not commit ${n} after the restart`);
    }

    it('delivers every committed event once, in order, on the streams opened before', async () => {
      const alice = await signIn(t);
      const bob = await signIn(t);
      const streams = [
        { user: alice, stream: await open(alice) },
        { user: alice, stream: await open(alice) },
        { user: bob, stream: await open(bob) },
      ];
      const committed = new Map<number, { seq: number; n: string }[]>([
        [alice.id, []],
        [bob.id, []],
      ]);
      const commit = async (user: SignedIn, n: string) => {
        committed.get(user.id)!.push({ seq: await appendCommitted(user, n), n });
      };
      const allArrived = () =>
        streams.every(({ user, stream }) => stream.events().length >= committed.get(user.id)!.length);

      for (const n of ['before-1', 'before-2']) {
        await commit(alice, n);
        await commit(bob, n);
      }
      for (const { stream } of streams) await stream.until(allArrived);

      stopCluster();
      // Down: nothing commits, and what was tried never shows.
      expect(await append(alice, 'while-down')).toBeUndefined();
      startCluster();
      // At once: most likely before the listener LISTENs again (its first retry waits 250 ms).
      await commit(alice, 'after-1');
      await commit(bob, 'after-1');
      for (const { stream } of streams) await stream.until(allArrived);
      // Later, through the new LISTEN connection.
      await new Promise((resolve) => setTimeout(resolve, 1500));
      for (const n of ['after-2', 'after-3']) {
        await commit(alice, n);
        await commit(bob, n);
      }
      for (const { stream } of streams) await stream.until(allArrived);
      // A moment for a duplicate to show, if one were coming.
      await new Promise((resolve) => setTimeout(resolve, 500));

      for (const { user, stream } of streams) {
        const expected = committed.get(user.id)!;
        expect(stream.events().map((event) => [event.id, event.data.n])).toEqual(
          expected.map((event) => [event.seq, event.n]),
        );
        expect(expected.map((event) => event.seq)).toEqual([1, 2, 3, 4, 5]);
        // The same response all along: the stream was never ended and reopened.
        expect(await Promise.race([stream.ended, Promise.resolve('open')])).toBe('open');
        stream.close();
      }
    });
  },
);
