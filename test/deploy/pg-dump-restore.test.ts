// The PostgreSQL backup of docs/operations.md ("Backups", "On PostgreSQL"), done once: a database
// filled through the app (users, packs bought and one payment failed, credits granted, pronostics
// analysed and one deleted) is dumped with the machine's pg_dump (custom format) and restored with
// pg_restore into a new database; the copy holds the same rows, `npm run cli -- ledger:verify` finds
// it clean, and the app serves a user from it with the token they signed in with.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import {
  createTestApp,
  postgresUrlOf,
  type SignedIn,
  signIn,
  type TestApp,
  usingPostgres,
} from '../helpers.js';
import { checkedOut } from '../payments/helpers.js';

const run = promisify(execFile);
const FAILING_PHONE = '+237670000000';

/** Every table of the public schema with its row count, and the sequences' positions. */
async function inventory(url: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const counts: Record<string, number> = {};
    const tables = await client.query<{ name: string }>(
      `SELECT quote_ident(tablename) AS name FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`,
    );
    for (const { name } of tables.rows) {
      counts[name] = Number((await client.query(`SELECT count(*) AS n FROM ${name}`)).rows[0].n);
    }
    const sequences = await client.query<{ name: string; last: string | null }>(
      `SELECT sequencename AS name, last_value AS last FROM pg_sequences WHERE schemaname = 'public'`,
    );
    for (const { name, last } of sequences.rows) counts[`sequence ${name}`] = Number(last ?? 0);
    return counts;
  } finally {
    await client.end();
  }
}

describe.skipIf(!usingPostgres())('pg_dump → pg_restore of the service database (PostgreSQL pass)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pronostics-pgdump-'));
  const restored = `pronostics_restored_${randomBytes(6).toString('hex')}`;
  const restoredUrl = new URL(process.env.TEST_DATABASE_URL || 'postgres://localhost/postgres');
  restoredUrl.pathname = `/${restored}`;
  let admin: pg.Client;
  let t: TestApp;
  let users: SignedIn[] = [];

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    t = await createTestApp({ config: { welcomeCredits: 3 } });
    users = [await signIn(t), await signIn(t), await signIn(t, { credits: 4 })];
    for (const [i, user] of users.entries()) {
      await checkedOut(t, user, { pack_id: i + 1 });
      await checkedOut(t, user, { pack_id: 1, phone: FAILING_PHONE });
    }
    t.clock.advance(2000);
    expect(await t.app.runtime.sandboxWebhooks?.deliverDue()).toBeGreaterThanOrEqual(6);
    const created: number[] = [];
    for (const user of users) {
      for (const type of [1, 6]) {
        const response = await t.app.inject({
          method: 'POST',
          url: '/api/user/pronostic/create',
          headers: user.headers,
          payload: { type_id: type, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
        });
        expect(response.statusCode, response.body).toBe(201);
        created.push(response.json().data.pronostic.id);
      }
    }
    while (await t.app.runtime.analysisWorker.runOnce());
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${created[0]}`,
      headers: users[0]!.headers,
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await admin?.query(`DROP DATABASE IF EXISTS ${restored} WITH (FORCE)`);
    await admin?.end();
    rmSync(dir, { recursive: true, force: true });
  });

  it('restores every row, and ledger:verify finds the copy clean', async () => {
    const sourceUrl = await postgresUrlOf(t);
    const source = await inventory(sourceUrl);
    expect(source.users).toBe(3);
    expect(source.pronostics).toBe(6);
    expect(source.payments).toBe(6);
    expect(source.wallet_operations).toBeGreaterThanOrEqual(3 + 1 + 3 + 6);

    const dump = join(dir, 'pronostics.dump');
    await run('pg_dump', ['--format=custom', '--file', dump, '--dbname', sourceUrl]);
    await admin.query(`CREATE DATABASE ${restored}`);
    await run('pg_restore', ['--exit-on-error', '--no-owner', '--dbname', restoredUrl.toString(), dump]);
    expect(await inventory(restoredUrl.toString())).toEqual(source);

    const verify = await run('npm', ['run', '--silent', 'cli', '--', 'ledger:verify'], {
      env: {
        ...process.env,
        DATABASE_URL: restoredUrl.toString(),
        DATA_DIR: join(dir, 'data'),
        APP_SECRET: t.config.appSecret,
        LOG_LEVEL: 'silent',
      },
    });
    expect(verify.stdout).toContain('Checked 3 users: 0 balance mismatch(es), 0 reference(s) credited twice');
    expect(verify.stdout.trim().split('\n').at(-1)).toBe('Ledger OK.');
  }, 120_000);

  it('serves the users from the copy with the tokens they had', async () => {
    const handle = await openDatabase({ url: restoredUrl.toString(), poolSize: 2 });
    const copy = await createTestApp({
      database: { handle, url: restoredUrl.toString(), drop: () => handle.close() },
    });
    try {
      for (const user of users) {
        const path = { method: 'GET' as const, url: '/api/user/pronostics', headers: user.headers };
        const before = await t.app.inject(path);
        const after = await copy.app.inject(path);
        expect(after.statusCode).toBe(200);
        expect(after.json().data).toEqual(before.json().data);
      }
    } finally {
      await copy.app.close();
      await handle.close();
    }
  });
});
