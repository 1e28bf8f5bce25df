// Admission to the analysis queue. Creates can arrive faster than the workers analyse (a burst, or
// every core busy serving requests): the queue then grows without bound, and each new analysis
// waits behind all of it, minutes after its credits were taken. Instead, while the oldest row
// waiting for a worker's lane has waited longer than `maxWaitSeconds`, a create is held before it
// debits anything, and goes ahead as soon as the queue is back under that wait; held longer than
// `holdSeconds`, it is refused with a 429 and `retry_after`, having changed nothing. Holding slows
// the creates to the pace the workers keep, so an accepted analysis is done within seconds.
//
// The wait is read from the database (every worker process drains the same rows), at most once
// per `refreshMs` for the whole process however many creates ask, so the cost is a few indexed
// reads a second.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { RateLimited } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { oldestWaitingSince } from './repository.js';

export interface AnalysisAdmissionOptions {
  /** The longest a row may wait for a lane before creates are held; 0 never holds. */
  maxWaitSeconds: number;
  /** How long a create is held before it is refused. */
  holdSeconds: number;
  /** How often the queue's wait is read while creates ask. */
  refreshMs: number;
}

export interface AnalysisAdmissionDeps {
  db: Database;
  clock: Clock;
  options: Pick<AnalysisAdmissionOptions, 'maxWaitSeconds'> & Partial<AnalysisAdmissionOptions>;
}

export type AnalysisAdmission = ReturnType<typeof createAnalysisAdmission>;

export function createAnalysisAdmission({ db, clock, options }: AnalysisAdmissionDeps) {
  const { maxWaitSeconds, holdSeconds = 10, refreshMs = 100 } = options;
  /**
   * The last reading: when it was taken, by the process's time and by the clock (which tests move
   * while the process's stands still), and how long the oldest row had waited then.
   */
  let reading: { takenAt: number; clockAt: number; waitedMs: number } | undefined;
  /** The reading under way, shared by every create that asks meanwhile. */
  let pending: Promise<number> | undefined;

  async function read(): Promise<number> {
    const now = clock.now();
    const since = await oldestWaitingSince(db, now);
    const waitedMs = since === null ? 0 : Math.max(0, now.getTime() - since.getTime());
    reading = { takenAt: performance.now(), clockAt: now.getTime(), waitedMs };
    return waitedMs;
  }

  /** How long the oldest waiting row has waited, at most `refreshMs` old. */
  function queueWaitMs(): Promise<number> {
    if (
      reading &&
      performance.now() - reading.takenAt < refreshMs &&
      Math.abs(clock.now().getTime() - reading.clockAt) < refreshMs
    ) {
      return Promise.resolve(reading.waitedMs);
    }
    pending ??= read().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  return {
    /**
     * Resolves once a new analysis would not queue behind a row older than `maxWaitSeconds`;
     * RateLimited when that takes longer than `holdSeconds` (real time: a hold is the caller's wait).
     */
    async waitForRoom(): Promise<void> {
      if (maxWaitSeconds === 0) return;
      const limitMs = maxWaitSeconds * 1000;
      const holdUntil = performance.now() + holdSeconds * 1000;
      while ((await queueWaitMs()) > limitMs) {
        if (performance.now() >= holdUntil) throw new RateLimited(maxWaitSeconds, messages.analysisQueueFull);
        await sleep(refreshMs);
      }
    },
  };
}
