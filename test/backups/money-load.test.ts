// A backup taken while money moves: many clients buy packs through the sandbox (settled by its
// signed webhooks) and create pronostics, through the app, while `backups.backup` reads the
// database in one transaction. The archive restored into another DATA_DIR passes `ledger:verify`,
// holds every row committed before the backup started (and nothing the source never had), the
// stored avatar and the generated secret. On PostgreSQL (TEST_DATABASE_URL) the snapshot's
// REPEATABLE READ transaction runs beside the load's transactions; on PGlite it holds the one session.
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DatabaseHandle, Executor } from '../../src/db/client.js';
import { restoreBackup } from '../../src/modules/backups/service.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { multipart, photo } from '../profile/forms.js';
import { cli, openRestored, scratchDir } from './helpers.js';

const USERS = 10;
const ROUNDS = 6;

let t: TestApp;
let dataDir: string;
let restored: DatabaseHandle | undefined;

beforeAll(async () => {
  dataDir = scratchDir();
  t = await createTestApp({
    config: {
      dataDir,
      backupDir: join(dataDir, 'backups'),
      paymentSandboxDelayMs: 0,
      paymentMaxPending: 1000,
      rateLimit: false,
    },
  });
});
afterAll(async () => {
  await restored?.close();
  await t.close();
});

async function ids(db: Executor, query: string): Promise<number[]> {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: { id: number | string }[] };
  return result.rows.map((row) => Number(row.id)).sort((a, b) => a - b);
}

async function rowsById(db: Executor, query: string): Promise<Map<number, string>> {
  const result = (await db.execute(sql.raw(query))) as unknown as { rows: { id: number; line: string }[] };
  return new Map(result.rows.map((row) => [Number(row.id), row.line]));
}

describe('a backup under a money load', () => {
  it('restores elsewhere to a clean ledger holding every row committed before it', {
    timeout: 120_000,
  }, async () => {
    const clients: SignedIn[] = [];
    for (let i = 0; i < USERS; i++) clients.push(await signIn(t, { credits: 40 }));
    const avatar = await multipart([['avatar', await photo(64, 64, 'png'), 'me.png', 'image/png']]);
    const uploaded = await t.app.inject({
      method: 'POST',
      url: '/api/user/profile/avatar',
      payload: avatar.payload,
      headers: { ...avatar.headers, ...clients[0]!.headers },
    });
    expect(uploaded.statusCode, uploaded.body).toBe(200);
    const avatarPath = uploaded.json().data.avatar as string;
    writeFileSync(join(dataDir, 'app-secret'), 'generated-secret-of-this-data-dir\n', { mode: 0o600 });

    let answered = 0;
    let loading = true;
    const statuses: number[] = [];
    const load = Promise.all(
      clients.map(async (client, c) => {
        for (let round = 0; round < ROUNDS; round++) {
          const [paid, created] = await Promise.all([
            t.app.inject({
              method: 'POST',
              url: '/api/user/wallet/checkout',
              headers: client.headers,
              payload: { pack_id: 1 + (round % 2), phone: client.phone },
            }),
            t.app.inject({
              method: 'POST',
              url: '/api/user/pronostic/create',
              headers: client.headers,
              payload: { type_id: 1, teams_details: { home: `Home ${c}`, away: `Away ${round}` } },
            }),
          ]);
          statuses.push(paid.statusCode, created.statusCode);
          answered += 2;
        }
      }),
    ).finally(() => {
      loading = false;
    });
    // The sandbox's webhooks, delivered while the load runs (the runtime's loop in production).
    const settling = (async () => {
      while (loading) {
        await t.app.runtime.sandboxWebhooks!.deliverDue();
        await new Promise((resolve) => setTimeout(resolve, 2));
      }
    })();

    while (answered < USERS * ROUNDS) await new Promise((resolve) => setTimeout(resolve, 2));
    // Everything committed now is committed before the backup's transaction begins.
    const db = t.app.db;
    const before = {
      users: await ids(db, 'SELECT id FROM users'),
      paid: await ids(db, `SELECT id FROM payments WHERE status = 'success'`),
      pronostics: await ids(db, 'SELECT id FROM pronostics'),
      operations: await ids(db, 'SELECT id FROM wallet_operations'),
    };
    const file = join(dataDir, 'backups', 'under-load.tar.gz');
    const backup = await t.app.services.backups.backup(file);
    await load;
    await settling;
    while ((await t.app.runtime.sandboxWebhooks!.deliverDue()) > 0);
    expect(statuses.every((status) => status === 201)).toBe(true);
    await expectLedgerConsistent(t);

    expect(backup.manifest.rows.payments).toBeGreaterThanOrEqual(before.paid.length);
    expect(backup.manifest.files).toMatchObject({ storage: 'local', count: 1 });
    expect(backup.manifest.secrets).toEqual(['app-secret']);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    const target = scratchDir('pronostics-restored-');
    const result = await restoreBackup({ file, dataDir: target, backupDir: join(target, 'backups') });
    expect(result.migration).toBe(backup.manifest.migration);
    restored = await openRestored(target);

    const verified = await cli({ ...t.config, dataDir: target }, ['ledger:verify'], { database: restored });
    expect(verified.err).toEqual([]);
    expect(verified.code).toBe(0);
    expect(verified.out.at(-1)).toBe('Ledger OK.');

    const after = {
      users: await ids(restored.db, 'SELECT id FROM users'),
      paid: await ids(restored.db, `SELECT id FROM payments WHERE status = 'success'`),
      pronostics: await ids(restored.db, 'SELECT id FROM pronostics'),
      operations: await ids(restored.db, 'SELECT id FROM wallet_operations'),
    };
    for (const key of Object.keys(before) as (keyof typeof before)[]) {
      expect(after[key], key).toEqual(expect.arrayContaining(before[key]));
    }
    // Nothing the source never had: every restored ledger row is the source's, byte for byte.
    const lineOf = `SELECT id, row_to_json(w)::text AS line FROM wallet_operations w`;
    const source = await rowsById(db, lineOf);
    for (const [id, line] of await rowsById(restored.db, lineOf)) expect(line).toBe(source.get(id));
    expect(after.operations.length).toBe(backup.manifest.rows.wallet_operations);

    // The stored avatar and the generated secret came back with the database.
    const key = avatarPath.replace(/^\//, '');
    expect(readFileSync(join(target, 'files', key))).toEqual(readFileSync(join(dataDir, 'files', key)));
    expect(readFileSync(join(target, 'app-secret'), 'utf8')).toBe('generated-secret-of-this-data-dir\n');
  });
});
