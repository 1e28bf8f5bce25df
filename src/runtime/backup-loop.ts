// Scheduled backups of the embedded database (BACKUP_INTERVAL_HOURS, 0: none): every interval, one
// archive into BACKUP_DIR, read back and checked, then the oldest beyond BACKUP_KEEP deleted
// (modules/backups). The first run comes one interval after the newest backup already in
// BACKUP_DIR (at least a minute after the start), so restarts neither skip nor repeat one. A
// failure is logged at `error` and counted in /metrics by the service; the loop carries on.
import type { FastifyBaseLogger } from 'fastify';
import type { BackupResult } from '../modules/backups/service.js';

/** The first scheduled backup waits at least this long after the start (the service warms up). */
const FIRST_DELAY_MS = 60_000;

export interface ScheduledBackups {
  runScheduled(): Promise<BackupResult | undefined>;
  lastScheduledAt(): Promise<number | undefined>;
}

export type BackupLoop = ReturnType<typeof createBackupLoop>;

export function createBackupLoop(deps: {
  backups: ScheduledBackups;
  logger: FastifyBaseLogger;
  /** Time between backups; 0 turns the loop off (`npm run cli -- backup` still works). */
  intervalMs: number;
  now?: () => number;
}) {
  const { backups, logger, intervalMs } = deps;
  const now = deps.now ?? Date.now;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  let stopped = true;

  function schedule(delayMs: number): void {
    if (stopped) return;
    timer = setTimeout(() => {
      running = backups.runScheduled().finally(() => {
        running = undefined;
        schedule(intervalMs);
      });
    }, delayMs);
    timer.unref();
  }

  return {
    async start(): Promise<void> {
      if (!stopped || intervalMs <= 0) return;
      stopped = false;
      const last = await backups.lastScheduledAt().catch(() => undefined);
      const due = last === undefined ? 0 : last + intervalMs - now();
      const delayMs = Math.max(FIRST_DELAY_MS, due);
      logger.info({ inMinutes: Math.round(delayMs / 60_000) }, 'scheduled backups on: next one');
      schedule(delayMs);
    },

    /** One scheduled backup now (tests; the timer is unchanged). */
    runOnce(): Promise<BackupResult | undefined> {
      return backups.runScheduled();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
