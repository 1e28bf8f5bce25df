// The fixtures sync: every FIXTURES_SYNC_INTERVAL_HOURS (6 in production, off elsewhere) the
// runtime downloads FIXTURES_URL and upserts the upcoming fixtures of RESULTS_SYNC_LEAGUES with their
// pre-match odds, then closes the fixtures the stored results say were played (or postponed). One
// log line per pass; a failed pass waits for the next (the file changes slowly, nothing is lost).
// Upserting is idempotent, so two workers syncing at once store each change once.
import type { FastifyBaseLogger } from 'fastify';

/** What the loop needs of the fixtures module (its service implements it). */
export interface FixturesSource {
  sync(
    leagues: readonly string[],
  ): Promise<{ url: string; rows: number; fixtures: number; odds: number; skipped: number }>;
  closeFromResults(): Promise<{ played: number; postponed: number }>;
  /** The European cups' Football.TXT files (FOOTBALL_TXT_URL; nothing when unset). */
  syncFootballTxt?(): Promise<{ files: number; results: number; fixtures: number; skipped: number }>;
}

export interface FixturesSyncDeps {
  source: FixturesSource;
  logger: FastifyBaseLogger;
  leagues: readonly string[];
  /** Between two passes; 0: never (the loop does not start). */
  intervalMs: number;
  /** First pass after start. */
  firstDelayMs?: number;
  /** Woken after a pass that closed fixtures as played. */
  settlement: { wake(): void };
}

export type FixturesSync = ReturnType<typeof createFixturesSync>;

export function createFixturesSync(deps: FixturesSyncDeps) {
  const { source, logger, leagues, intervalMs, settlement } = deps;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<boolean> | undefined;
  let stopped = false;

  async function pass(): Promise<boolean> {
    try {
      const report = await source.sync(leagues);
      const cups = source.syncFootballTxt ? await source.syncFootballTxt() : undefined;
      const closed = await source.closeFromResults();
      logger.info({ leagues, ...report, ...(cups?.files ? { cups } : {}), ...closed }, 'fixtures synced');
      if (closed.played > 0) settlement.wake();
      return true;
    } catch (error) {
      logger.error(
        { leagues, err: error instanceof Error ? error.message : String(error) },
        'fixtures sync failed',
      );
      return false;
    }
  }

  /** One pass now (a pass under way is joined); true when it succeeded. */
  function runOnce(): Promise<boolean> {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    /** Schedules the passes; nothing without an interval or leagues. */
    start(): void {
      if (intervalMs <= 0 || leagues.length === 0 || timer) return;
      stopped = false;
      const tick = (delay: number) => {
        timer = setTimeout(() => {
          void runOnce().finally(() => {
            if (!stopped) tick(intervalMs);
          });
        }, delay);
        timer.unref();
      };
      tick(deps.firstDelayMs ?? 60_000);
    },

    runOnce,

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
