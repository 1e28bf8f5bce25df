// Scheduled backups (BACKUP_INTERVAL_HOURS): each run writes into BACKUP_DIR, reads the archive
// back, keeps the newest BACKUP_KEEP; a failure is logged at error and counted for /metrics, and
// the loop's first run follows the newest backup already there.
import { readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBackupsService } from '../../src/modules/backups/service.js';
import { createBackupLoop } from '../../src/runtime/backup-loop.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { scratchDir } from './helpers.js';

let t: TestApp;
let dataDir: string;
const backupDir = () => join(dataDir, 'backups');

beforeAll(async () => {
  dataDir = scratchDir();
  t = await createTestApp({ config: { dataDir, backupDir: join(dataDir, 'backups'), backupKeep: 2 } });
  await signIn(t, { credits: 2 });
});
afterAll(() => t.close());

/** A logger that keeps what it is told. */
function keptLogger() {
  const lines: { level: string; message: string; fields: unknown }[] = [];
  const at =
    (level: string) =>
    (fields: unknown, message?: string): void =>
      void lines.push({ level, message: message ?? String(fields), fields });
  const logger = {
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    child: () => logger,
  } as unknown as FastifyBaseLogger;
  return { logger, lines };
}

describe('scheduled backups', { timeout: 120_000 }, () => {
  it('write a verified archive each run and keep the newest BACKUP_KEEP', async () => {
    const written: string[] = [];
    for (let run = 0; run < 3; run++) {
      const result = await t.app.runtime.backupLoop.runOnce();
      expect(result).toBeDefined();
      written.push(result!.file);
      t.clock.advance(3600_000);
    }
    const left = readdirSync(backupDir()).filter((name) => name.endsWith('.tar.gz'));
    expect(left.sort()).toEqual(written.slice(1).map((file) => file.slice(backupDir().length + 1)));
    for (const name of left) await t.app.services.backups.verify(join(backupDir(), name));
    expect(t.app.services.backups.backupStats()).toMatchObject({ succeeded: 3, failed: 0 });
    // Nothing but the archives: no staging folder or partial file left behind.
    expect(readdirSync(backupDir()).sort()).toEqual(left.sort());
  });

  it('log a failure loudly and count it, keeping the earlier backups', async () => {
    const broken = join(scratchDir(), 'not-a-directory');
    writeFileSync(broken, 'a file where BACKUP_DIR should be');
    const { logger, lines } = keptLogger();
    const backups = createBackupsService({
      database: t.database,
      config: { ...t.config, dataDir, backupDir: broken, backupKeep: 2 },
      clock: t.clock,
      logger,
    });
    expect(await backups.runScheduled()).toBeUndefined();
    expect(backups.backupStats()).toEqual({ succeeded: 0, failed: 1, lastSuccessAt: null });
    const failure = lines.find((line) => line.level === 'error');
    expect(failure?.message).toMatch(/^BACKUP FAILED: .*\(the previous backups are kept\)$/);
  });

  it('start one interval after the newest backup already in BACKUP_DIR, a minute at the least', async () => {
    const hour = 3600_000;
    const now = 10 * hour;
    for (const [last, minutes] of [
      [now - 20 * 60_000, 40],
      [now - 5 * hour, 1],
      [undefined, 1],
    ] as const) {
      const { logger, lines } = keptLogger();
      const loop = createBackupLoop({
        backups: { runScheduled: async () => undefined, lastScheduledAt: async () => last },
        logger,
        intervalMs: hour,
        now: () => now,
      });
      await loop.start();
      await loop.stop();
      expect(lines[0]?.fields).toEqual({ inMinutes: minutes });
    }
  });
});
