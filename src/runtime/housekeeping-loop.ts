// Purges what has expired, on a timer with the other background loops: sign-in codes past
// retention, tokens no longer usable, idempotent answers past 24 h. Each run is a few indexed
// deletes, harmless when several processes run it at once; `npm run cli -- purge` does the same by
// hand.
import type { FastifyBaseLogger } from 'fastify';
import type { HousekeepingService, Purged } from '../modules/housekeeping/service.js';

export const DEFAULT_HOUSEKEEPING_INTERVAL_MS = 15 * 60_000;

export type HousekeepingLoop = ReturnType<typeof createHousekeepingLoop>;

export function createHousekeepingLoop(deps: {
  housekeeping: HousekeepingService;
  logger: FastifyBaseLogger;
  /** Time between runs; 0 turns the timer off (`runOnce` and the CLI's purge still work). */
  intervalMs?: number;
}) {
  const { housekeeping, logger } = deps;
  const intervalMs = deps.intervalMs ?? DEFAULT_HOUSEKEEPING_INTERVAL_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  function tick(): void {
    // A slow database must not stack runs on top of each other.
    running ??= housekeeping
      .purgeExpired()
      .then((purged) => {
        const total =
          purged.codes +
          purged.tokens +
          purged.idempotencyKeys +
          purged.events +
          purged.files +
          purged.phones;
        if (total > 0) {
          logger.info(purged, 'housekeeping: purged expired data');
        }
      })
      .catch((error: unknown) => logger.warn({ err: error }, 'housekeeping: purge failed'))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    start(): void {
      if (timer || intervalMs <= 0) return;
      timer = setInterval(tick, intervalMs);
      timer.unref();
    },

    /** One purge now, at the clock's time. */
    runOnce(): Promise<Purged> {
      return housekeeping.purgeExpired();
    },

    async stop(): Promise<void> {
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
