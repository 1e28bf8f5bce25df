// ROLE=worker as its own process on PostgreSQL: it analyses rows that an API process creates,
// woken across processes by LISTEN/NOTIFY. (On PGlite the start refuses ROLE=worker: config tests.)
import { type ChildProcess, spawn } from 'node:child_process';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pronostics } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, postgresUrlOf, signIn, type TestApp, usingPostgres } from '../helpers.js';

async function startWorker(
  t: TestApp,
): Promise<{ child: ChildProcess; exited: Promise<number | null>; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: {
      ...process.env,
      ROLE: 'worker',
      DATABASE_URL: await postgresUrlOf(t),
      APP_SECRET: t.config.appSecret,
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('background loops started')) resolve();
    });
    // Its stderr too: a start that fails says why there.
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.on('exit', (code) => reject(new Error(`worker exited ${code}: ${output}`)));
  });
  return { child, exited, output: () => output };
}

async function createAndAwait(t: TestApp): Promise<string> {
  const user = await signIn(t, { credits: 1 });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: 1, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
  });
  const id = created.json().data.pronostic.id;
  let status = 'processing';
  // Far below the 5 s poll when the NOTIFY wakes the worker; the bound only stops a hung test.
  for (let i = 0; i < 400 && status === 'processing'; i++) {
    await new Promise((resolve) => setTimeout(resolve, 25));
    const [row] = await t.app.db.select().from(pronostics).where(eq(pronostics.id, id));
    status = row!.status;
  }
  return status;
}

describe.skipIf(!usingPostgres())('ROLE=worker process', () => {
  let t: TestApp;
  beforeAll(async () => {
    // The worker process keeps real time, so the API's clock must too (deadlines are absolute).
    t = await createTestApp({ runLoops: false, clock: new ManualClock(new Date()) });
  });
  afterAll(() => t?.close());

  it('analyses what the API creates, and stops cleanly on SIGTERM', async () => {
    const { child, exited, output } = await startWorker(t);
    expect(output()).not.toContain('Server listening');
    expect(await createAndAwait(t)).toBe('success');

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  }, 120_000);

  it('stays up when its connections are cut (a PostgreSQL restart) and analyses again', async () => {
    // Found by `npm run chaos`: with its LISTEN connection lost and the reconnect waiting on an
    // unref'd timer, the worker's event loop emptied and the process closed itself.
    const { child, exited } = await startWorker(t);
    const admin = new pg.Client({ connectionString: await postgresUrlOf(t) });
    await admin.connect();
    try {
      for (let cut = 0; cut < 3; cut++) {
        await admin.query(
          `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
            WHERE datname = current_database() AND pid <> pg_backend_pid()`,
        );
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
      expect(child.exitCode).toBe(null);
      expect(await createAndAwait(t)).toBe('success');
      expect(child.exitCode).toBe(null);
    } finally {
      await admin.end();
      child.kill('SIGTERM');
      await exited;
    }
  }, 120_000);
});
