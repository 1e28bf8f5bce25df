// Upgrades: the backups kept in test/data/backups/, one per schema-changing release, each made by
// `npm run cli -- backup` on a small seeded database (scripts/backups/seed-release-data.ts), restore
// into an empty DATA_DIR and migrate to this code's schema with their data whole. A release that
// adds a migration keeps these green and adds its own (docs/operations.md, "Backups").
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/client.js';
import { restoreBackup } from '../../src/modules/backups/service.js';
import { cli, openRestored, scratchDir } from './helpers.js';

const KEPT = join(import.meta.dirname, '..', 'data', 'backups');
const journal = JSON.parse(
  readFileSync(
    join(import.meta.dirname, '..', '..', 'src', 'db', 'migrations', 'meta', '_journal.json'),
    'utf8',
  ),
) as { entries: { tag: string }[] };

const opened: DatabaseHandle[] = [];
afterAll(async () => {
  for (const database of opened) await database.close();
});

async function count(database: DatabaseHandle, query: string): Promise<number> {
  const result = (await database.db.execute(sql.raw(query))) as unknown as { rows: { n: number | string }[] };
  return Number(result.rows[0]!.n);
}

describe('the backups kept from earlier releases', { timeout: 180_000 }, () => {
  const kept = readdirSync(KEPT).filter((name) => name.endsWith('.tar.gz'));

  it('include the one of release 1.5.0 (migration 0029)', () => {
    expect(kept).toContain('release-1.5.0-migration-0029.tar.gz');
  });

  it.each(kept)('%s restores and migrates to the current schema with its data whole', async (name) => {
    const dataDir = scratchDir('pronostics-upgrade-');
    const result = await restoreBackup({
      file: join(KEPT, name),
      dataDir,
      backupDir: join(dataDir, 'backups'),
    });
    expect(result.migration).toBe(journal.entries.at(-1)!.tag);
    const database = await openRestored(dataDir);
    opened.push(database);
    expect(await count(database, 'SELECT count(*) AS n FROM drizzle.__drizzle_migrations')).toBe(
      journal.entries.length,
    );
    expect(await count(database, 'SELECT count(*) AS n FROM users')).toBe(result.manifest.rows.users);
    expect(
      await count(database, `SELECT count(*) AS n FROM payments WHERE status = 'success'`),
    ).toBeGreaterThan(0);
    expect(await count(database, 'SELECT count(*) AS n FROM pronostics')).toBe(
      result.manifest.rows.pronostics,
    );
    expect(await count(database, 'SELECT count(*) AS n FROM wallet_operations')).toBe(
      result.manifest.rows.wallet_operations,
    );
    const avatars = (await database.db.execute(
      sql.raw('SELECT avatar_path FROM users WHERE avatar_path IS NOT NULL'),
    )) as unknown as { rows: { avatar_path: string }[] };
    expect(avatars.rows.length).toBeGreaterThan(0);
    for (const { avatar_path } of avatars.rows) {
      expect(readFileSync(join(dataDir, 'files', avatar_path.replace(/^\//, ''))).length).toBeGreaterThan(0);
    }
    const config = testConfig({ dataDir, databaseUrl: undefined });
    const verified = await cli(config, ['ledger:verify'], { database });
    expect(verified.code).toBe(0);
    expect(verified.out.at(-1)).toBe('Ledger OK.');
    // A sequence goes on after the restored rows: a new user gets a new id.
    const next = (await database.db.execute(
      sql.raw(
        `INSERT INTO users (phone, country, affiliation_code) VALUES ('+237670199999', 'CM', 'UPGRADE1') RETURNING id`,
      ),
    )) as unknown as { rows: { id: number }[] };
    expect(Number(next.rows[0]!.id)).toBeGreaterThan(result.manifest.rows.users ?? 0);
  });
});
