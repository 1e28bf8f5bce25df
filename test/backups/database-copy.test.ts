// The backup of an on-disk embedded database (issue 43, the snapshot's hold): the database writes
// each table itself in COPY text format into its own folder (no row crosses the protocol while the
// session is held), byte for byte what the portable reader (a cursor, used on an in-memory PGlite
// and PostgreSQL) writes; the archive is layout 2 and restores every row as it was; a member that
// names a column the table lacks, or a layout this code does not know, is refused in one line.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { shippedMigrations } from '../../src/modules/backups/manifest.js';
import { restoreBackup } from '../../src/modules/backups/service.js';
import { snapshotDatabase } from '../../src/modules/backups/snapshot.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { cli, openRestored, rewriteArchive, scratchDir } from './helpers.js';

/** Text COPY must escape: a tab, a newline, a carriage return, a backslash, and some UTF-8. */
const AWKWARD = 'tab\there\nnew line\r\\back\\slash é ⚽ \u000b\f\b end';

let t: TestApp;
let handle: DatabaseHandle;
let dataDir: string;
let good: string;
const restoredHandles: DatabaseHandle[] = [];

beforeAll(async () => {
  dataDir = scratchDir();
  handle = await openDatabase({ url: join(dataDir, 'pglite') });
  await handle.migrate();
  t = await createTestApp({
    database: { handle, drop: () => handle.close() },
    config: { dataDir, backupDir: join(dataDir, 'backups') },
  });
  const user = await signIn(t, { credits: 3 });
  await handle.db.execute(sql`
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, ai_model, search_text,
                            run_after, deadline_at)
    VALUES (${user.id}, 1, 'success', 1, ${JSON.stringify({ home: AWKWARD, away: 'Rival "quoted"' })}::jsonb,
            'dixon-coles-1', ${AWKWARD}, now(), now())`);
  good = join(scratchDir('pronostics-archives-'), 'good.tar.gz');
});
afterAll(async () => {
  for (const restored of restoredHandles) await restored.close();
  await t.close();
});

const leftovers = () =>
  readdirSync(join(dataDir, 'pglite')).filter((name) => name.startsWith('backup-copy-'));

describe('the snapshot of an on-disk embedded database', { timeout: 120_000 }, () => {
  it('is written by the database itself, the same bytes as the portable reader', async () => {
    expect(handle.directory).toBe(join(dataDir, 'pglite'));
    const shipped = shippedMigrations();
    const atSnapshot = async () => {};
    const byDatabase = await snapshotDatabase(handle.db, {
      staging: scratchDir(),
      databaseDirectory: handle.directory!,
      shipped,
      atSnapshot,
    });
    const byCursor = await snapshotDatabase(handle.db, { staging: scratchDir(), shipped, atSnapshot });
    try {
      expect(byDatabase.rows).toEqual(byCursor.rows);
      expect(byDatabase.rows.pronostics).toBe(1);
      const tables = byDatabase.files.filter((file) => file.name.startsWith('database/tables/'));
      expect(tables.length).toBe(Object.keys(byDatabase.rows).length);
      for (const file of tables) {
        expect(file.path.startsWith(join(dataDir, 'pglite', 'backup-copy-')), file.name).toBe(true);
        const other = byCursor.files.find((candidate) => candidate.name === file.name)!;
        expect(readFileSync(file.path, 'utf8'), file.name).toBe(readFileSync(other.path, 'utf8'));
      }
      const pronostics = readFileSync(
        tables.find((file) => file.name === 'database/tables/pronostics.copy')!.path,
        'utf8',
      );
      expect(pronostics.split('\n')[0]).toMatch(/^id\tuser_id\t/);
      expect(pronostics).toContain('tab\\there\\nnew line\\r\\\\back\\\\slash é ⚽ \\v\\f\\b end');
    } finally {
      await byDatabase.cleanup();
      await byCursor.cleanup();
    }
    expect(leftovers()).toEqual([]);
  });

  it('makes a layout 2 archive that restores every row as it was, leaving nothing behind', async () => {
    const result = await t.app.services.backups.backup(good);
    expect(result.manifest.format_version).toBe(2);
    expect(result.manifest.database.tables_read_by).toBe('copy');
    const members = Object.keys(result.manifest.members);
    expect(members).toContain('database/tables/pronostics.copy');
    expect(members.filter((name) => name.endsWith('.jsonl'))).toEqual([]);
    expect(leftovers()).toEqual([]);

    const target = scratchDir('pronostics-restored-');
    await restoreBackup({ file: good, dataDir: target, backupDir: join(target, 'backups') });
    const restored = await openRestored(target);
    restoredHandles.push(restored);
    for (const table of ['users', 'pronostics', 'wallet_operations', 'otp_codes']) {
      const lines = `SELECT row_to_json(t)::text AS line FROM ${table} t ORDER BY 1`;
      const read = async (db: DatabaseHandle) =>
        ((await db.db.execute(sql.raw(lines))) as unknown as { rows: { line: string }[] }).rows;
      expect(await read(restored), table).toEqual(await read(handle));
    }
  });

  it('refuses a member naming a column its table lacks, and a layout it does not know', async () => {
    const work = scratchDir('pronostics-archives-');
    const foreignColumn = join(work, 'column.tar.gz');
    await rewriteArchive(good, foreignColumn, () => {}, {
      name: 'database/tables/users.copy',
      bytes: Buffer.from('id\tshoe_size\n1\t44\n'),
    });
    const target = join(scratchDir(), 'data');
    const refused = await cli(
      { ...t.config, databaseUrl: undefined, dataDir: target, backupDir: join(target, 'backups') },
      ['restore', foreignColumn],
    );
    expect(refused.code).toBe(1);
    expect(refused.err).toEqual([
      expect.stringMatching(/holds a column shoe_size of users, which its schema does not have/),
    ]);
    expect(existsSync(target)).toBe(false);

    const newer = join(work, 'layout-3.tar.gz');
    await rewriteArchive(good, newer, (manifest) => {
      manifest.format_version = 3;
    });
    const layout = await cli(
      { ...t.config, databaseUrl: undefined, dataDir: target, backupDir: join(target, 'backups') },
      ['restore', newer],
    );
    expect(layout.err).toEqual([
      expect.stringMatching(/is a backup of layout 3, this code reads layouts 1 and 2/),
    ]);
    expect(existsSync(target)).toBe(false);
  });
});
