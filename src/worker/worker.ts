// The analysis worker: claims pronostics in `processing`, runs the engine, and writes the outcome.
// A failed try is retried with backoff; after the last one, past the row's deadline, or when a row
// comes back more often than it may be tried (its worker crashed mid-analysis each time), the row
// is cancelled and its credits refunded in the same transaction. It runs up to `concurrency`
// analyses at once, so one slow analysis does not hold the queue. It wakes at once on a new row
// (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite) and polls slowly as a safety net. Any number
// of workers may share one PostgreSQL: FOR UPDATE SKIP LOCKED and leases keep them apart, and a
// worker that dies leaves its row to be claimed again when the lease runs out.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.js';
import { pronosticTypeSlugs } from '../engine/types.js';
import type { Clock } from '../lib/clock.js';
import { messages } from '../lib/messages.js';
import { addSeconds } from '../lib/time.js';
import type { AnalysisJobs, Cancellation, ClaimedJob } from '../modules/pronostics/analysis-jobs.js';
import type { AnalysisEngine } from './analysis-engine.js';

export const CREATED_CHANNEL = 'pronostic_created';

export interface WorkerOptions {
  /** Tries before a row is cancelled. */
  maxAttempts: number;
  /** Wait before try n+1, by n (seconds); the last value repeats. */
  backoffSeconds: number[];
  /** How long a claim holds a row; an analysis that takes longer is aborted. */
  leaseSeconds: number;
  /** Analyses run at once. */
  concurrency: number;
  /** The safety-net poll. */
  pollMs: number;
  /** On stop, how long the running analyses may take to finish before they are aborted and released. */
  stopGraceMs: number;
}

export const defaultWorkerOptions: WorkerOptions = {
  maxAttempts: 3,
  backoffSeconds: [2, 10],
  leaseSeconds: 60,
  concurrency: 4,
  pollMs: 5000,
  stopGraceMs: 10_000,
};

export interface WorkerDeps {
  /** For wake-ups (LISTEN/NOTIFY); the rows are reached through `jobs`. */
  database: DatabaseHandle;
  jobs: AnalysisJobs;
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
  /** Set by a wake-up: a lane about to go idle looks once more, so no wake-up is lost. */
  #again = false;
  /** The running lanes: each claims and analyses rows one after another until none is due. */
  readonly #lanes = new Set<Promise<void>>();
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

  /** A row may be due: starts a lane if one is free, else has a busy lane look again. */
  wake(): void {
    if (!this.#running || this.#stopping) return;
    this.#again = true;
    if (this.#lanes.size >= this.options.concurrency) return;
    const lane: Promise<void> = this.lane()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'analysis worker lane failed'))
      .finally(() => this.#lanes.delete(lane));
    this.#lanes.add(lane);
  }

  private async lane(): Promise<void> {
    while (!this.#stopping) {
      // Cleared before the claim: a wake-up after this point is seen by this claim or the next.
      this.#again = false;
      if ((await this.runOnce()) === undefined && !this.#again) return;
    }
  }

  /** Processes due rows, `concurrency` at a time, until none is left; returns how many it processed. */
  async drain(): Promise<number> {
    let processed = 0;
    const lane = async () => {
      while (!this.#stopping && (await this.runOnce()) !== undefined) processed += 1;
    };
    await Promise.all(Array.from({ length: this.options.concurrency }, lane));
    return processed;
  }

  /** Claims and processes one due row; undefined when there was none. */
  async runOnce(): Promise<JobOutcome | undefined> {
    const { clock } = this.deps;
    const now = clock.now();
    const job = await this.deps.jobs.claimNext(now, addSeconds(now, this.options.leaseSeconds));
    if (!job) return undefined;
    return this.process(job);
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#stopping = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#unlisten?.();
    if (this.#lanes.size > 0) {
      const running = Promise.all(this.#lanes).then(() => 'done' as const);
      const grace = new Promise<'late'>((resolve) =>
        setTimeout(() => resolve('late'), this.options.stopGraceMs).unref(),
      );
      if ((await Promise.race([running, grace])) === 'late') {
        // The running analyses are aborted; process() then releases their rows for another worker.
        this.#abort.abort();
        await running;
      }
    }
    this.#running = false;
    this.#abort = new AbortController();
  }

  private async process(job: ClaimedJob): Promise<JobOutcome> {
    const { clock, logger } = this.deps;
    const log = logger.child({ pronostic_id: job.id, attempt: job.attempts });
    if (new Date(job.deadlineAt).getTime() <= clock.now().getTime()) {
      return this.cancel(job, { reason: 'timeout', message: messages.analysisTimedOut }, 'deadline passed');
    }
    if (job.attempts > this.options.maxAttempts) {
      // Only a claim that never ended comes back this often: its worker died (or lost its lease)
      // each time, and running it again may crash this one too.
      log.error('analysis claimed more often than it may be tried; cancelling');
      return this.cancel(
        job,
        { reason: 'analysis_failed', message: messages.analysisFailed },
        `claimed ${job.attempts} times without finishing`,
      );
    }
    const supported: readonly string[] = this.deps.engine.supportedTypes ?? pronosticTypeSlugs;
    if (!supported.includes(job.typeSlug)) {
      log.warn({ type: job.typeSlug }, 'pronostic type unknown to the engine; cancelling and refunding');
      return this.cancel(
        job,
        { reason: 'unsupported_type', message: messages.analysisUnsupportedType },
        `pronostic type "${job.typeSlug}" is not one the engine answers`,
      );
    }
    const signal = AbortSignal.any([
      this.#abort.signal,
      AbortSignal.timeout(this.options.leaseSeconds * 1000),
    ]);
    try {
      const outcome = await this.analyse(job, signal);
      const finished = await this.deps.jobs.succeed(job, outcome, clock.now());
      if (!finished) log.warn('analysis finished after its lease was taken over; result discarded');
      return finished ? 'success' : 'lost';
    } catch (error) {
      if (this.#abort.signal.aborted) {
        await this.deps.jobs.release(job);
        log.info('analysis released on shutdown');
        return 'released';
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (job.attempts >= this.options.maxAttempts) {
        log.error({ err: error }, 'analysis failed on its last try; cancelling');
        return this.cancel(job, { reason: 'analysis_failed', message: messages.analysisFailed }, reason);
      }
      const backoff = this.options.backoffSeconds;
      const wait = backoff[Math.min(job.attempts - 1, backoff.length - 1)] ?? 10;
      log.warn({ err: error, retry_in_s: wait }, 'analysis failed; will retry');
      await this.deps.jobs.scheduleRetry(job, addSeconds(clock.now(), wait), reason);
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
  private async cancel(job: ClaimedJob, cancellation: Cancellation, error: string): Promise<JobOutcome> {
    const { clock } = this.deps;
    const done = await this.deps.jobs.cancelAndRefund(job, cancellation, error, clock.now());
    return done ? 'cancelled' : 'lost';
  }
}
