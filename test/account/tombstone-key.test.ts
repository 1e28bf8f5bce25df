// The tombstone's phone hash keyed by TOMBSTONE_KEY (issue 55, decision 0125): whoever holds the
// database and a backup (which carries the generated APP_SECRET, never TOMBSTONE_KEY) cannot test
// numbers against it; hashes written under APP_SECRET alone are re-keyed once, and old and new
// tombstones both still stop a second welcome. Production refuses to start without the key.
import { createHmac } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, TOMBSTONE_KEY_FILE } from '../../src/config.js';
import { users } from '../../src/db/schema/index.js';
import { keyedHash } from '../../src/lib/crypto.js';
import { welcomedPhoneHash } from '../../src/modules/users/service.js';
import { createTestApp, createTestDatabase, nextPhone, signIn, type TestApp } from '../helpers.js';
import { deleteAccount, deletionCode } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { welcomeCredits: 3 } });
});
afterAll(() => t.close());

const creditsOf = async (id: number) => (await t.app.services.users.findById(id))!.creditsBalance;
const tombstoneOf = async (id: number) => (await t.app.db.select().from(users).where(eq(users.id, id)))[0]!;

describe('a deleted account keeps HMAC(TOMBSTONE_KEY, HMAC(APP_SECRET, phone))', () => {
  it('APP_SECRET alone (what a backup carries) does not give the tombstone hash', async () => {
    const phone = nextPhone();
    const user = await signIn(t, { phone });
    const deleted = await deleteAccount(t, user, { code: await deletionCode(t, user) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const row = await tombstoneOf(user.id);
    const appSecretOnly = keyedHash(t.config.appSecret, 'welcomed_phone', phone);
    expect(row.welcomedPhoneHash).not.toBe(appSecretOnly);
    expect(row.welcomedPhoneHash).toBe(welcomedPhoneHash(t.config, phone));
    expect(row.welcomedPhoneHashKey).toBe('tombstone_key');
    // Another TOMBSTONE_KEY, same APP_SECRET: another hash.
    expect(welcomedPhoneHash({ ...t.config, tombstoneKey: 'x'.repeat(40) }, phone)).not.toBe(
      row.welcomedPhoneHash,
    );
  });
});

describe('re-keying the hashes written under APP_SECRET alone', () => {
  it('runs once: an old tombstone is re-keyed in place, then still stops a second welcome', async () => {
    const phone = nextPhone();
    const user = await signIn(t, { phone });
    expect(await creditsOf(user.id)).toBe(3);
    const deleted = await deleteAccount(t, user, { code: await deletionCode(t, user) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    // As migration 0037 leaves a tombstone written before it: keyed by APP_SECRET, marked so.
    const old = keyedHash(t.config.appSecret, 'welcomed_phone', phone);
    await t.app.db
      .update(users)
      .set({ welcomedPhoneHash: old, welcomedPhoneHashKey: 'app_secret' })
      .where(eq(users.id, user.id));

    expect(await t.app.services.users.rekeyTombstones()).toBe(1);
    const row = await tombstoneOf(user.id);
    expect(row.welcomedPhoneHash).toBe(createHmac('sha256', t.config.tombstoneKey).update(old).digest('hex'));
    expect(row.welcomedPhoneHashKey).toBe('tombstone_key');
    // Done: a second run (the next start) finds nothing and keys nothing twice.
    expect(await t.app.services.users.rekeyTombstones()).toBe(0);
    expect((await tombstoneOf(user.id)).welcomedPhoneHash).toBe(row.welcomedPhoneHash);

    // The number signs up again (through HTTP): the re-keyed tombstone is found, no second welcome.
    const again = await signIn(t, { phone });
    expect(again.id).not.toBe(user.id);
    expect(await creditsOf(again.id)).toBe(0);
  });

  it('the start re-keys: an app built on a database holding an old tombstone re-keys it before serving', async () => {
    const database = await createTestDatabase();
    const phone = nextPhone();
    let app = await createTestApp({ config: { welcomeCredits: 3 }, database });
    try {
      const user = await signIn(app, { phone });
      const deleted = await deleteAccount(app, user, { code: await deletionCode(app, user) });
      expect(deleted.statusCode, deleted.body).toBe(200);
      const old = keyedHash(app.config.appSecret, 'welcomed_phone', phone);
      await app.app.db
        .update(users)
        .set({ welcomedPhoneHash: old, welcomedPhoneHashKey: 'app_secret' })
        .where(eq(users.id, user.id));
      await app.close();
      app = await createTestApp({ config: { welcomeCredits: 3 }, database });
      const [row] = await app.app.db.select().from(users).where(eq(users.id, user.id));
      expect(row!.welcomedPhoneHashKey).toBe('tombstone_key');
      const again = await signIn(app, { phone });
      expect((await app.app.services.users.findById(again.id))!.creditsBalance).toBe(0);
    } finally {
      await app.close();
      await database.drop();
    }
  });
});

describe('TOMBSTONE_KEY in the configuration', () => {
  it('production refuses to start without it, naming every fault at once', () => {
    let thrown: unknown;
    try {
      loadConfig({ APP_ENV: 'production', APP_SECRET: 'y'.repeat(40) }, '/srv/app');
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    const lines = (thrown as Error).message.split('\n');
    expect(lines).toContain('TOMBSTONE_KEY is required when APP_ENV=production (at least 32 characters)');
    expect(lines.length).toBeGreaterThan(1);
  });

  it('development generates it once into DATA_DIR (0600) and reads it back', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'tombstone-key-'));
    const env = { APP_SECRET: 'y'.repeat(40), DATA_DIR: dataDir };
    const first = loadConfig(env, '/srv/app', { generateTombstoneKey: true });
    expect(first.tombstoneKey).toMatch(/^[0-9a-f]{64}$/);
    const file = join(dataDir, TOMBSTONE_KEY_FILE);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, 'utf8').trim()).toBe(first.tombstoneKey);
    expect(loadConfig(env, '/srv/app', { generateTombstoneKey: true }).tombstoneKey).toBe(first.tombstoneKey);
    // Given, it is used as it is and nothing is written.
    expect(loadConfig({ ...env, TOMBSTONE_KEY: 'k'.repeat(32) }, '/srv/app').tombstoneKey).toBe(
      'k'.repeat(32),
    );
  });
});
