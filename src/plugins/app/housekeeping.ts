// Purges what has expired, on a timer wherever the API runs: sign-in codes past retention, tokens
// no longer usable, idempotent answers past 24 h. Each run is a few indexed deletes, harmless when
// several API processes run it at once; `npm run cli -- purge` does the same by hand.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Purged } from '../../modules/housekeeping/service.js';

export interface HousekeepingOptions {
  /** Time between runs; 0 turns the timer off (the CLI `purge` still works). Default 15 minutes. */
  intervalMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    housekeeping: {
      /** One purge now, at the app clock's time. */
      run(): Promise<Purged>;
    };
  }
}

export const DEFAULT_HOUSEKEEPING_INTERVAL_MS = 15 * 60_000;

async function housekeepingPlugin(app: FastifyInstance, options: HousekeepingOptions): Promise<void> {
  const run = () => app.services.housekeeping.purgeExpired();
  app.decorate('housekeeping', { run });

  const intervalMs = options.intervalMs ?? DEFAULT_HOUSEKEEPING_INTERVAL_MS;
  if (intervalMs <= 0) return;
  let running: Promise<void> | undefined;
  const tick = () => {
    // A slow database must not stack runs on top of each other.
    if (running) return;
    running = run()
      .then((purged) => {
        if (purged.codes + purged.tokens + purged.idempotencyKeys > 0) {
          app.log.info(purged, 'housekeeping: purged expired data');
        }
      })
      .catch((error: unknown) => app.log.warn({ err: error }, 'housekeeping: purge failed'))
      .finally(() => {
        running = undefined;
      });
  };
  let timer: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    timer = setInterval(tick, intervalMs);
    // The timer alone must not keep the process (or a test run) alive.
    timer.unref();
  });
  // Before the database closes: stop the timer and let a run under way finish.
  app.addHook('preClose', async () => {
    clearInterval(timer);
    await running;
  });
}

export default fp(housekeepingPlugin, { name: 'housekeeping', dependencies: ['context'] });
