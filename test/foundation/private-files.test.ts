// The service's files are its user's alone: DATA_DIR and the embedded database's folder 0700, the
// generated secret, the lock file, the outbox and stored uploads 0600, and the database's socket
// created 0600 (never world-connectable, not even for a moment before a chmod).
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../../src/config.js';
import { openConfiguredDatabase } from '../../src/db/open.js';
import { ManualClock } from '../../src/lib/clock.js';
import { ensurePrivateDir } from '../../src/lib/private-files.js';
import { createLogDriver, OUTBOX_FILE } from '../../src/providers/messaging/log.js';
import { createLocalStorage } from '../../src/providers/storage/local.js';

const root = mkdtempSync(join(tmpdir(), 'private-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const mode = (path: string) => statSync(path).mode & 0o777;
const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;

describe('private files', () => {
  it('DATA_DIR is created 0700 with its secret 0600; an existing one of ours is tightened', () => {
    const dataDir = join(root, 'fresh', 'data');
    loadConfig({ DATA_DIR: dataDir }, root);
    expect(mode(dataDir)).toBe(0o700);
    expect(mode(join(dataDir, 'app-secret'))).toBe(0o600);
    const loose = join(root, 'loose');
    mkdirSync(loose);
    chmodSync(loose, 0o755);
    ensurePrivateDir(loose);
    expect(mode(loose)).toBe(0o700);
  });

  it('the embedded database: folder 0700, lock file 0600, socket 0600', async () => {
    const dataDir = join(root, 'service');
    const handle = await openConfiguredDatabase(testConfig({ dataDir, databaseUrl: undefined }), 'service');
    try {
      expect(mode(dataDir)).toBe(0o700);
      expect(mode(join(dataDir, 'pglite'))).toBe(0o700);
      const entries = readdirSync(dataDir);
      const lock = entries.find((name) => name.endsWith('.lock'));
      expect(lock, entries.join(', ')).toBeDefined();
      expect(mode(join(dataDir, lock!))).toBe(0o600);
      const socket = join(dataDir, '.s.PGSQL.5432');
      expect(statSync(socket).isSocket()).toBe(true);
      expect(mode(socket)).toBe(0o600);
    } finally {
      await handle.close();
    }
  });

  it('the outbox and stored uploads are 0600 in 0700 folders', async () => {
    const dataDir = join(root, 'files');
    const driver = createLogDriver({ dataDir, logger: silent, clock: new ManualClock() });
    await driver.send({
      to: '+237670000001',
      channel: 'sms',
      code: '123456',
      text: 'code',
      locale: 'fr',
      ttlSeconds: 600,
    });
    expect(mode(join(dataDir, OUTBOX_FILE))).toBe(0o600);
    const storage = createLocalStorage(join(dataDir, 'uploads'));
    await storage.put('tickets/1/a.pdf', Buffer.from('%PDF-1.4'), { contentType: 'application/pdf' });
    expect(mode(join(dataDir, 'uploads', 'tickets'))).toBe(0o700);
    expect(mode(join(dataDir, 'uploads', 'tickets', '1', 'a.pdf'))).toBe(0o600);
  });
});
