// The settlement loop of the worker: settles every due pronostic (see track-record/service.ts) when
// woken (after an import or a results sync stored new matches) and on a slow timer, which also
// catches results imported by another process (the CLI) and fixtures whose 7-day window ran out.
// One pass at a time; a wake-up during a pass runs one more pass after it.
import type { FastifyBaseLogger } from 'fastify';

/** What a settlement pass reports (the track-record service implements Settler). */
export interface SettleReport {
  scanned: number;
  settled: number;
  won: number;
  lost: number;
  void: number;
}

export interface Settler {
  settleDue(): Promise<SettleReport>;
}

export interface SettlementLoopOptions {
  /** The slow timer between passes. */
  intervalMs: number;
}

export const defaultSettlementLoopOptions: SettlementLoopOptions = { intervalMs: 10 * 60_000 };

export class SettlementLoop {
  readonly options: SettlementLoopOptions;
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #again = false;
  #stopped = true;

  constructor(
    private readonly deps: {
      settler: Settler;
      logger: FastifyBaseLogger;
      options?: Partial<SettlementLoopOptions>;
    },
  ) {
    this.options = { ...defaultSettlementLoopOptions, ...deps.options };
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    this.#timer = setInterval(() => this.wake(), this.options.intervalMs);
    this.#timer.unref();
    this.wake();
  }

  /** Results may have arrived: run a pass now (or once more after the one under way). */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.loop().finally(() => {
      this.#running = undefined;
    });
  }

  /** One pass, now (tests and the CLI); joins a pass under way first. */
  async runOnce(): Promise<SettleReport> {
    await this.#running;
    return this.deps.settler.settleDue();
  }

  private async loop(): Promise<void> {
    do {
      this.#again = false;
      try {
        const report = await this.deps.settler.settleDue();
        if (report.settled > 0) this.deps.logger.info(report, 'pronostics settled');
      } catch (error) {
        this.deps.logger.error({ err: error }, 'settlement pass failed');
      }
    } while (this.#again && !this.#stopped);
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = undefined;
    await this.#running;
  }
}
