// The analysis worker: claims pronostics in `processing`, runs the engine, and writes the outcome.
// A failed try is retried with backoff; after the last one, or past the row's deadline, the row is
// cancelled and its credits refunded in the same transaction. It wakes at once on a new row
// (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite) and polls slowly as a safety net. Any number
// of workers may share one PostgreSQL: FOR UPDATE SKIP LOCKED and leases keep them apart, and a
// worker that dies leaves its row to be claimed again when the lease runs out.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { messages } from '../lib/messages.js';
import { addSeconds } from '../lib/time.js';
import { searchTextOf } from '../modules/pronostics/service.js';
import { postOperation } from '../modules/wallet/ledger.js';
import type { AnalysisEngine } from './analysis-engine.js';
import {
  type ClaimedJob,
  claimNextJob,
  markCancelled,
  markSucceeded,
  releaseJob,
  scheduleRetry,
} from './repository.js';

export const CREATED_CHANNEL = 'pronostic_created';

export interface WorkerOptions {
  /** Tries before a row is cancelled. */
  maxAttempts: number;
  /** Wait before try n+1, by n (seconds); the last value repeats. */
  backoffSeconds: number[];
  /** How long a claim holds a row; an analysis that takes longer is aborted. */
  leaseSeconds: number;
  /** The safety-net poll. */
  pollMs: number;
  /** On stop, how long the current analysis may take to finish before it is aborted and released. */
  stopGraceMs: number;
}

export const defaultWorkerOptions: WorkerOptions = {
  maxAttempts: 3,
  backoffSeconds: [2, 10],
  leaseSeconds: 60,
  pollMs: 5000,
  stopGraceMs: 10_000,
};

export interface WorkerDeps {
  database: DatabaseHandle;
  engine: AnalysisEngine;
  clock: Clock;
  logger: FastifyBaseLogger;
  options?: Partial<WorkerOptions>;
}

export type JobOutcome = 'success' | 'retry' | 'cancelled' | 'released' | 'lost';

class AnalysisTimeout extends Error {}

export class AnalysisWorker {
  readonly options: WorkerOptions;
  #running = false;
  #stopping = false;
  #again = false;
  #draining: Promise<void> | undefined;
  #timer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;
  #abort = new AbortController();

  constructor(private readonly deps: WorkerDeps) {
    this.options = { ...defaultWorkerOptions, ...deps.options };
  }

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#stopping = false;
    this.#unlisten = await this.deps.database.listen(CREATED_CHANNEL, () => this.wake());
    this.#timer = setInterval(() => this.wake(), this.options.pollMs);
    this.#timer.unref();
    this.wake();
  }

  /** Asks for a drain; concurrent wake-ups fold into one more pass. */
  wake(): void {
    if (!this.#running || this.#stopping) return;
    if (this.#draining) {
      this.#again = true;
      return;
    }
    this.#draining = this.drain()
      .then(() => undefined)
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'analysis worker pass failed'))
      .finally(() => {
        this.#draining = undefined;
        if (this.#again) {
          this.#again = false;
          this.wake();
        }
      });
  }

  /** Processes due rows until none is left (or the worker stops). */
  async drain(): Promise<number> {
    let processed = 0;
    while (!this.#stopping && (await this.runOnce()) !== undefined) processed += 1;
    return processed;
  }

  /** Claims and processes one due row; undefined when there was none. */
  async runOnce(): Promise<JobOutcome | undefined> {
    const { database, clock } = this.deps;
    const now = clock.now();
    const job = await claimNextJob(database.db, now, addSeconds(now, this.options.leaseSeconds));
    if (!job) return undefined;
    return this.process(job);
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#unlisten?.();
    const current = this.#draining;
    if (current) {
      const grace = new Promise<'late'>((resolve) =>
        setTimeout(() => resolve('late'), this.options.stopGraceMs).unref(),
      );
      if ((await Promise.race([current.then(() => 'done' as const), grace])) === 'late') {
        // The running analysis is aborted; process() then releases its row for another worker.
        this.#abort.abort();
        await current;
      }
    }
    this.#running = false;
    this.#abort = new AbortController();
  }

  private async process(job: ClaimedJob): Promise<JobOutcome> {
    const { database, clock, logger } = this.deps;
    const log = logger.child({ pronostic_id: job.id, attempt: job.attempts });
    if (new Date(job.deadlineAt).getTime() <= clock.now().getTime()) {
      return this.cancel(job, 'timeout', messages.analysisTimedOut, 'deadline passed');
    }
    const signal = AbortSignal.any([
      this.#abort.signal,
      AbortSignal.timeout(this.options.leaseSeconds * 1000),
    ]);
    try {
      const outcome = await this.analyse(job, signal);
      const finished = await markSucceeded(
        database.db,
        job,
        { ...outcome, searchText: searchTextOf(job.teamsDetails, outcome.result) },
        clock.now(),
      );
      if (!finished) log.warn('analysis finished after its lease was taken over; result discarded');
      return finished ? 'success' : 'lost';
    } catch (error) {
      if (this.#abort.signal.aborted) {
        await releaseJob(database.db, job);
        log.info('analysis released on shutdown');
        return 'released';
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (job.attempts >= this.options.maxAttempts) {
        log.error({ err: error }, 'analysis failed on its last try; cancelling');
        return this.cancel(job, 'analysis_failed', messages.analysisFailed, reason);
      }
      const backoff = this.options.backoffSeconds;
      const wait = backoff[Math.min(job.attempts - 1, backoff.length - 1)] ?? 10;
      log.warn({ err: error, retry_in_s: wait }, 'analysis failed; will retry');
      await scheduleRetry(database.db, job, addSeconds(clock.now(), wait), reason);
      return 'retry';
    }
  }

  private analyse(job: ClaimedJob, signal: AbortSignal) {
    // The engine should honour the signal; the race makes sure a deaf one cannot hold the lease forever.
    return Promise.race([
      this.deps.engine.analyse(job.teamsDetails, job.typeSlug, signal),
      new Promise<never>((_, reject) => {
        const fail = () => reject(new AnalysisTimeout('analysis aborted'));
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      }),
    ]);
  }

  /** Cancels and refunds in one transaction; only the worker holding the claim can do it. */
  private async cancel(job: ClaimedJob, reason: string, message: string, error: string): Promise<JobOutcome> {
    const { database, clock } = this.deps;
    const done = await database.db.transaction(async (tx) => {
      const cancelled = await markCancelled(tx, job, { reason, message }, error.slice(0, 1000), clock.now());
      if (!cancelled) return false;
      await postOperation(tx, {
        userId: job.userId,
        type: 'pronostic_refund',
        currency: 'credits',
        amount: job.creditsCost,
        description: `${messages.pronosticRefundDescription} #${job.id}`,
        reference: `pronostic:${job.id}`,
      });
      return true;
    });
    return done ? 'cancelled' : 'lost';
  }
}
