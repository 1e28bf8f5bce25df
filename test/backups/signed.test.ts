// Archives authenticated by BACKUP_KEY (DESIGN, "Backups"; issue 55): the manifest carries the
// HMAC-SHA256 of itself without `hmac` (keys sorted, no spaces); restore refuses a forged, unsigned
// or (without the key) signed archive unless --force-unsigned; the key is nowhere in the archive,
// and neither is DATA_DIR's generated tombstone key.
import { createHmac } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOMBSTONE_KEY_FILE } from '../../src/config.js';
import { manifestHmac, signedBytes } from '../../src/modules/backups/manifest.js';
import type { Manifest } from '../../src/modules/backups/service.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { cli, listing, openRestored, rewriteArchive, scratchDir } from './helpers.js';

const KEY = 'backup-key-of-the-tests-0123456789abcdef';
const TOMBSTONE_KEY = 'tombstone-key-in-data-dir-0123456789abcdef';
let t: TestApp;
let signed: string;
let manifest: Manifest;
let work: string;

beforeAll(async () => {
  const dataDir = scratchDir();
  // A development DATA_DIR holds its generated tombstone key: it must stay out of every archive.
  writeFileSync(join(dataDir, TOMBSTONE_KEY_FILE), `${TOMBSTONE_KEY}\n`, { mode: 0o600 });
  t = await createTestApp({ config: { dataDir, backupDir: join(dataDir, 'backups'), backupKey: KEY } });
  await signIn(t, { credits: 3 });
  work = scratchDir('pronostics-signed-');
  signed = join(work, 'signed.tar.gz');
  manifest = (await t.app.services.backups.backup(signed)).manifest;
});
afterAll(() => t.close());

/** `restore` through the CLI into a fresh DATA_DIR, with or without BACKUP_KEY. */
async function restore(file: string, key: string | undefined, ...flags: string[]) {
  const dataDir = join(scratchDir(), 'data');
  const config = { ...t.config, databaseUrl: undefined, dataDir, backupDir: join(dataDir, 'backups') };
  const result = await cli({ ...config, backupKey: key }, ['restore', file, ...flags]);
  return { ...result, dataDir };
}

async function expectRefused(file: string, key: string | undefined, message: RegExp) {
  const { code, err, out, dataDir } = await restore(file, key);
  expect(code).toBe(1);
  expect(out).toEqual([]);
  expect(err).toHaveLength(1);
  expect(err[0]).toMatch(message);
  expect(err[0]).toMatch(/restore it with --force-unsigned only if you trust where it came from$/);
  expect(listing(dataDir)).toBeNull();
}

describe('BACKUP_KEY signs the manifest', () => {
  it('hmac is HMAC-SHA256 of the manifest without hmac, keys sorted, no spaces', () => {
    expect(manifest.hmac).toMatch(/^[0-9a-f]{64}$/);
    const { hmac, ...rest } = manifest;
    const sorted = (value: unknown): unknown =>
      value === null || typeof value !== 'object' || Array.isArray(value)
        ? value
        : Object.fromEntries(
            Object.entries(value as Record<string, unknown>)
              .sort(([a], [b]) => (a < b ? -1 : 1))
              .map(([k, v]) => [k, sorted(v)]),
          );
    const bytes = JSON.stringify(sorted(rest));
    // No space outside the strings, and keys in order at every level.
    expect(bytes.startsWith('{"created_at":')).toBe(true);
    expect(bytes).toContain('"database":{"kind":');
    expect(signedBytes(manifest)).toBe(bytes);
    expect(hmac).toBe(createHmac('sha256', KEY).update(bytes).digest('hex'));
  });

  it('the key is nowhere in the archive, nor the tombstone key (the backup names only app-secret and VAPID)', () => {
    const tarBytes = gunzipSync(readFileSync(signed));
    expect(tarBytes.includes(Buffer.from(KEY))).toBe(false);
    expect(tarBytes.includes(Buffer.from(TOMBSTONE_KEY))).toBe(false);
    expect(manifest.secrets).not.toContain(TOMBSTONE_KEY_FILE);
    expect(Object.keys(manifest.members).filter((name) => name.includes('tombstone'))).toEqual([]);
    expect(tarBytes.includes(Buffer.from(TOMBSTONE_KEY_FILE))).toBe(false);
  });

  it('the service verifies a scheduled archive with the key', async () => {
    await expect(t.app.services.backups.verify(signed)).resolves.toMatchObject({ hmac: manifest.hmac });
  });
});

describe('restore with BACKUP_KEY', { timeout: 180_000 }, () => {
  it('a forged manifest: a file hash changed and hmac recomputed with another key, refused', async () => {
    const forged = join(work, 'forged.tar.gz');
    await rewriteArchive(
      signed,
      forged,
      (edited) => {
        edited.hmac = manifestHmac(edited as unknown as Manifest, 'an-attackers-key-0123456789abcdef0123');
      },
      { name: 'database/tables/users.copy', bytes: Buffer.from('id\n') },
    );
    await expectRefused(forged, KEY, /has a manifest\.json whose hmac does not match under BACKUP_KEY/);
  });

  it('a forged manifest with its hmac dropped (unsigned while the key is set), refused', async () => {
    const dropped = join(work, 'dropped.tar.gz');
    await rewriteArchive(signed, dropped, (edited) => {
      delete edited.hmac;
      edited.version = '0.0.1';
    });
    await expectRefused(
      dropped,
      KEY,
      /is not signed \(its manifest\.json has no hmac\) while BACKUP_KEY is set/,
    );
  });

  it('a signed archive without the key (it cannot be checked), refused', async () => {
    await expectRefused(
      signed,
      undefined,
      /is signed \(its manifest\.json has an hmac\) but BACKUP_KEY is not set/,
    );
  });

  it('the signed archive with its key: restored', async () => {
    const { code, err, dataDir } = await restore(signed, KEY);
    expect(err).toEqual([]);
    expect(code).toBe(0);
    const database = await openRestored(dataDir);
    await database.close();
    expect(listing(dataDir)).not.toContain(TOMBSTONE_KEY_FILE);
  });

  it('--force-unsigned restores an archive the key does not authenticate, and says so', async () => {
    const dropped = join(work, 'forced.tar.gz');
    await rewriteArchive(signed, dropped, (edited) => {
      edited.hmac = '0'.repeat(64);
    });
    const { code, err, out } = await restore(dropped, KEY, '--force-unsigned');
    expect(err).toEqual([]);
    expect(code).toBe(0);
    expect(out.some((line) => /hmac does not match.*restored as asked \(--force-unsigned\)/.test(line))).toBe(
      true,
    );
  });
});
