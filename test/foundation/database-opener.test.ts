// The one database opener: PostgreSQL gets its statement timeout and a LISTEN connection that comes
// back after the server drops it; an embedded data folder is locked against a second process and
// opened with its configured buffer cache.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { acquireDataDirLock, DataDirInUse, lockFileOf } from '../../src/db/data-dir-lock.js';
import { openConfiguredDatabase } from '../../src/db/open.js';
import { createTestDatabase, type TestDatabase, usingPostgres } from '../helpers.js';

async function currentDatabaseUrl(database: TestDatabase): Promise<string> {
  const result = await database.handle.db.execute(sql`SELECT current_database() AS name`);
  const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}

describe.skipIf(!usingPostgres())('PostgreSQL connections', () => {
  let database: TestDatabase;
  beforeEach(async () => {
    database = await createTestDatabase();
  });
  afterEach(() => database.drop());

  it('LISTEN is re-established after its backend is terminated', async () => {
    const url = await currentDatabaseUrl(database);
    const handle = await openConfiguredDatabase(testConfig({ databaseUrl: url }), 'worker', { poolSize: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const received: string[] = [];
      await handle.listen('opener_probe', (payload) => received.push(payload));
      const terminated = await admin.query(
        `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
          WHERE datname = current_database() AND query LIKE 'LISTEN%' AND pid <> pg_backend_pid()`,
      );
      expect(terminated.rowCount).toBe(1);
      // Notify until one arrives: the reconnect waits a moment first (generous bound, loaded machine).
      for (let i = 0; i < 300 && !received.includes('after'); i++) {
        await admin.query(`SELECT pg_notify('opener_probe', 'after')`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(received).toContain('after');
      const listening = await admin.query(
        `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'`,
      );
      expect(listening.rows[0].n).toBe(1);
    } finally {
      await admin.end();
      await handle.close();
    }
  });

  it('a connection lost inside a transaction fails that transaction, not the process', async () => {
    // Found by `npm run chaos`: a PostgreSQL restart during a worker's transaction ended the worker
    // process (an 'error' event on the checked-out client, which had no listener).
    const url = await currentDatabaseUrl(database);
    const handle = await openConfiguredDatabase(testConfig({ databaseUrl: url }), 'worker', { poolSize: 2 });
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    try {
      const transaction = handle.db.transaction(async (tx) => {
        const result = await tx.execute(sql`SELECT pg_backend_pid() AS pid`);
        const pid = (result as unknown as { rows: { pid: number }[] }).rows[0]!.pid;
        await admin.query('SELECT pg_terminate_backend($1)', [pid]);
        // Between two queries: the connection ends while nothing waits on it.
        await new Promise((resolve) => setTimeout(resolve, 300));
        await tx.execute(sql`SELECT 1`);
      });
      await expect(transaction).rejects.toThrow();
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(uncaught).toEqual([]);
      // The pool dropped the dead client: the next queries run on a new connection.
      await handle.ping();
      await handle.db.transaction(async (tx) => tx.execute(sql`SELECT 1`));
    } finally {
      process.off('uncaughtException', onUncaught);
      await admin.end();
      await handle.close();
    }
  });

  it('the pool has DB_STATEMENT_TIMEOUT_MS as statement_timeout; a longer statement is cancelled', async () => {
    const url = await currentDatabaseUrl(database);
    const handle = await openConfiguredDatabase(
      testConfig({ databaseUrl: url, dbStatementTimeoutMs: 300 }),
      'command',
    );
    try {
      const shown = await handle.db.execute(sql`SHOW statement_timeout`);
      expect((shown as unknown as { rows: { statement_timeout: string }[] }).rows[0]!.statement_timeout).toBe(
        '300ms',
      );
      await expect(handle.db.execute(sql`SELECT pg_sleep(5)`)).rejects.toMatchObject({
        cause: expect.objectContaining({ code: '57014' }),
      });
      // Migrations run without it (a no-op here, but through the same session settings).
      await handle.migrate();
    } finally {
      await handle.close();
    }
  });

  it('a wake-up sent just before the pool closes is delivered, not failed on an ended pool', async () => {
    // Services send NOTIFY without waiting (a pronostic's 201 does not wait for its wake-up); a
    // shutdown that ends the pool right after must let those go out first.
    const url = await currentDatabaseUrl(database);
    const listener = await openConfiguredDatabase(testConfig({ databaseUrl: url }), 'worker', {
      poolSize: 2,
    });
    const sender = await openConfiguredDatabase(testConfig({ databaseUrl: url }), 'service', { poolSize: 2 });
    try {
      const received: string[] = [];
      await listener.listen('closing_probe', (payload) => received.push(payload));
      const sent = [1, 2, 3].map((n) => sender.notify('closing_probe', String(n)));
      await sender.close();
      await expect(Promise.all(sent)).resolves.toEqual([undefined, undefined, undefined]);
      for (let i = 0; i < 100 && received.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
      expect(received.sort()).toEqual(['1', '2', '3']);
      // After the close a wake-up is dropped quietly: the workers' poll finds the row anyway.
      await expect(sender.notify('closing_probe', '4')).resolves.toBeUndefined();
    } finally {
      await sender.close();
      await listener.close();
    }
  });
});

describe('the embedded data-folder lock', () => {
  let dir: string;
  beforeEach(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'pronostics-lock-')), 'pglite');
  });
  afterEach(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it('is refused to a second holder while held, and free again once released', () => {
    const lock = acquireDataDirLock(dir);
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUse);
    lock.release();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    acquireDataDirLock(dir).release();
  });

  it('names a live owner from another process, and takes over the lock of a dead one', () => {
    // A live process that is not this one: the test runner's parent.
    writeFileSync(lockFileOf(dir), JSON.stringify({ pid: process.ppid, host: hostname() }));
    expect(() => acquireDataDirLock(dir)).toThrow(
      expect.objectContaining({ owner: expect.objectContaining({ pid: process.ppid }) }),
    );
    // A process that has exited: its pid no longer runs.
    const dead = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))']);
    writeFileSync(lockFileOf(dir), JSON.stringify({ pid: Number(dead.stdout.toString()), host: hostname() }));
    const lock = acquireDataDirLock(dir);
    lock.advertise('/tmp/x/.s.PGSQL.5432');
    expect(() => acquireDataDirLock(dir)).toThrow(DataDirInUse);
    lock.release();
  });

  it('a worker or a command finding the folder held by a non-sharing process refuses with one line', async () => {
    const config = testConfig({ databaseUrl: undefined, dataDir: join(dir, '..') });
    const lock = acquireDataDirLock(dir);
    try {
      await expect(openConfiguredDatabase(config, 'command')).rejects.toThrow(
        /pglite is in use by process \d+, which does not share it/,
      );
      await expect(openConfiguredDatabase(config, 'service')).rejects.toThrow(/is already in use by process/);
    } finally {
      lock.release();
    }
  });

  it('opens the embedded database with PGLITE_SHARED_BUFFERS_MB as its buffer cache', async () => {
    const config = testConfig({
      databaseUrl: undefined,
      dataDir: join(dir, '..'),
      pgliteSharedBuffersMb: 24,
    });
    const handle = await openConfiguredDatabase(config, 'command');
    try {
      const result = await handle.db.execute(sql`SHOW shared_buffers`);
      expect((result as unknown as { rows: { shared_buffers: string }[] }).rows[0]!.shared_buffers).toBe(
        '24MB',
      );
    } finally {
      await handle.close();
    }
  });
});
