// The settlement loop: settles every due pronostic (see track-record/service.ts) when woken (after
// an import or a results sync stored new matches) and on a slow timer, which also catches results
// imported by another process (the CLI) and fixtures whose 7-day window ran out. One pass at a
// time; a wake-up during a pass runs one more pass after it.
import type { FastifyBaseLogger } from 'fastify';
import type { SettleReport } from '../modules/track-record/service.js';

export interface Settler {
  /** The analyses' report, and how many slips settled after them (issue 53). */
  settleDue(): Promise<SettleReport & { slipsSettled?: number }>;
}

export interface SettlementLoopOptions {
  /** The slow timer between passes. */
  intervalMs: number;
}

export const defaultSettlementLoopOptions: SettlementLoopOptions = { intervalMs: 10 * 60_000 };

export type SettlementLoop = ReturnType<typeof createSettlementLoop>;

export function createSettlementLoop(deps: {
  settler: Settler;
  logger: FastifyBaseLogger;
  options?: Partial<SettlementLoopOptions>;
}) {
  const { settler, logger } = deps;
  const options = { ...defaultSettlementLoopOptions, ...deps.options };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  let stopped = true;

  /** Results may have arrived: run a pass now (or once more after the one under way). */
  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = loop().finally(() => {
      running = undefined;
    });
  }

  async function loop(): Promise<void> {
    do {
      again = false;
      try {
        const report = await settler.settleDue();
        if (report.settled > 0 || (report.slipsSettled ?? 0) > 0) logger.info(report, 'pronostics settled');
      } catch (error) {
        logger.error({ err: error }, 'settlement pass failed');
      }
    } while (again && !stopped);
  }

  return {
    options,

    start(): void {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(wake, options.intervalMs);
      timer.unref();
      wake();
    },

    wake,

    /** One pass, now (tests and the CLI); joins a pass under way first. */
    async runOnce(): Promise<SettleReport> {
      await running;
      return settler.settleDue();
    },

    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      timer = undefined;
      await running;
    },
  };
}
