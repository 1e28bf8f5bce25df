// The analysis worker: claims pronostics in `processing`, runs the analyst, and writes the outcome.
// A failed try is retried with backoff; after the last one, past the row's deadline, or when a row
// comes back more often than it may be tried (its worker crashed mid-analysis each time), the row
// is cancelled and its credits refunded in the same transaction. It runs up to `concurrency`
// analyses at once, so one slow analysis does not hold the queue. It wakes at once on a new row
// (LISTEN/NOTIFY on PostgreSQL, in-process on PGlite) and polls slowly as a safety net. Any number
// of workers may share one PostgreSQL: FOR UPDATE SKIP LOCKED and leases keep them apart, and a
// worker that dies leaves its row to be claimed again when the lease runs out.
import type { FastifyBaseLogger } from 'fastify';
import { channels } from '../db/channels.js';
import type { DatabaseHandle } from '../db/client.js';
import { pronosticTypeSlugs } from '../lib/allowed-values.js';
import type { Clock } from '../lib/clock.js';
import { inLocale } from '../lib/locale.js';
import { messages } from '../lib/messages.js';
import { addSeconds } from '../lib/time.js';
import type { FixtureService } from '../modules/fixtures/service.js';
import type { AnalysisJobs, Cancellation, ClaimedJob } from '../modules/pronostics/analysis-jobs.js';
import type { Analyst } from '../types/analyst.js';

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
  analyst: Analyst;
  /**
   * The fixture side, asked for a job's pre-match odds: its fixture's latest collected by then, or
   * those of the scheduled fixture a free-text match resolves to (without it, analyses get none).
   */
  odds?: Pick<FixtureService, 'oddsFor'>;
  clock: Clock;
  logger: FastifyBaseLogger;
  options?: Partial<WorkerOptions>;
}

export type JobOutcome = 'success' | 'retry' | 'cancelled' | 'released' | 'lost';

class AnalysisTimeout extends Error {}

export type AnalysisWorker = ReturnType<typeof createAnalysisWorker>;

export function createAnalysisWorker(deps: WorkerDeps) {
  const { database, jobs, analyst, odds: fixtures, clock, logger } = deps;
  const options: WorkerOptions = { ...defaultWorkerOptions, ...deps.options };
  let running = false;
  let stopping = false;
  /** Set by a wake-up: a lane about to go idle looks once more, so no wake-up is lost. */
  let again = false;
  /** The running lanes: each claims and analyses rows one after another until none is due. */
  const lanes = new Set<Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;
  let abort = new AbortController();

  /** A row may be due: starts a lane if one is free, else has a busy lane look again. */
  function wake(): void {
    if (!running || stopping) return;
    again = true;
    if (lanes.size >= options.concurrency) return;
    const lane: Promise<void> = runLane()
      .catch((error: unknown) => logger.error({ err: error }, 'analysis worker lane failed'))
      .finally(() => lanes.delete(lane));
    lanes.add(lane);
  }

  async function runLane(): Promise<void> {
    while (!stopping) {
      // Cleared before the claim: a wake-up after this point is seen by this claim or the next.
      again = false;
      if ((await runOnce()) === undefined && !again) return;
    }
  }

  /** Claims and processes one due row; undefined when there was none. */
  async function runOnce(): Promise<JobOutcome | undefined> {
    const now = clock.now();
    const job = await jobs.claimNext(now, addSeconds(now, options.leaseSeconds));
    if (!job) return undefined;
    return process(job);
  }

  /**
   * Runs in the pronostic's language (its account's at creation): the analysis, a cancellation's
   * message and the refund's ledger row are written in it, with no request there to ask.
   */
  function process(job: ClaimedJob): Promise<JobOutcome> {
    return inLocale(job.locale, () => processInLocale(job));
  }

  async function processInLocale(job: ClaimedJob): Promise<JobOutcome> {
    const log = logger.child({ pronostic_id: job.id, attempt: job.attempts });
    if (new Date(job.deadlineAt).getTime() <= clock.now().getTime()) {
      return cancel(job, { reason: 'timeout', message: messages.analysisTimedOut }, 'deadline passed');
    }
    if (job.attempts > options.maxAttempts) {
      // Only a claim that never ended comes back this often: its worker died (or lost its lease)
      // each time, and running it again may crash this one too.
      log.error('analysis claimed more often than it may be tried; cancelling');
      return cancel(
        job,
        { reason: 'analysis_failed', message: messages.analysisFailed },
        `claimed ${job.attempts} times without finishing`,
      );
    }
    const supported: readonly string[] = analyst.supportedTypes ?? pronosticTypeSlugs;
    if (!supported.includes(job.typeSlug)) {
      log.warn({ type: job.typeSlug }, 'pronostic type unknown to the analyst; cancelling and refunding');
      return cancel(
        job,
        { reason: 'unsupported_type', message: messages.analysisUnsupportedType },
        `pronostic type "${job.typeSlug}" is not one the analyst answers`,
      );
    }
    const { signal, release } = jobSignal();
    try {
      const outcome = await analyse(job, signal);
      const finished = await jobs.succeed(job, outcome, clock.now());
      if (!finished) log.warn('analysis finished after its lease was taken over; result discarded');
      return finished ? 'success' : 'lost';
    } catch (error) {
      if (abort.signal.aborted) {
        await jobs.release(job);
        log.info('analysis released on shutdown');
        return 'released';
      }
      const reason = error instanceof Error ? error.message : String(error);
      if (job.attempts >= options.maxAttempts) {
        log.error({ err: error }, 'analysis failed on its last try; cancelling');
        return cancel(job, { reason: 'analysis_failed', message: messages.analysisFailed }, reason);
      }
      const backoff = options.backoffSeconds;
      const wait = backoff[Math.min(job.attempts - 1, backoff.length - 1)] ?? 10;
      log.warn({ err: error, retry_in_s: wait }, 'analysis failed; will retry');
      await jobs.scheduleRetry(job, addSeconds(clock.now(), wait), reason);
      return 'retry';
    } finally {
      release();
    }
  }

  /**
   * The signal one analysis runs under: aborted on shutdown or when its lease runs out, and let go
   * of as soon as the analysis ends. Not `AbortSignal.any([shutdown, AbortSignal.timeout(lease)])`:
   * Node keeps such a signal, once it has a listener, until it aborts, so every finished job (its
   * listeners, its result) stayed in memory for the rest of its lease: ~4 KB a job, tens of MB
   * under the create load (docs/performance.md, round five).
   */
  function jobSignal(): { signal: AbortSignal; release: () => void } {
    const controller = new AbortController();
    const shutdown = abort.signal;
    const onShutdown = () => controller.abort(shutdown.reason);
    if (shutdown.aborted) onShutdown();
    else shutdown.addEventListener('abort', onShutdown, { once: true });
    const lease = setTimeout(
      () => controller.abort(new DOMException('The analysis outlived its lease', 'TimeoutError')),
      options.leaseSeconds * 1000,
    );
    return {
      signal: controller.signal,
      release: () => {
        clearTimeout(lease);
        shutdown.removeEventListener('abort', onShutdown);
      },
    };
  }

  async function analyse(job: ClaimedJob, signal: AbortSignal) {
    // The market's pre-match odds as of now (the fixture's latest), recorded with the result.
    const odds = await fixtures?.oddsFor(
      { fixtureId: job.fixtureId, teamsDetails: job.teamsDetails },
      clock.now(),
    );
    const input = { ...(odds ? { prematchOdds: odds.odds } : {}), locale: job.locale };
    // The analyst should honour the signal; the race makes sure a deaf one cannot hold the lease forever.
    const outcome = await Promise.race([
      analyst.analyse(job.teamsDetails, job.typeSlug, signal, input),
      new Promise<never>((_, reject) => {
        const fail = () => reject(new AnalysisTimeout('analysis aborted'));
        if (signal.aborted) fail();
        else signal.addEventListener('abort', fail, { once: true });
      }),
    ]);
    return { ...outcome, oddsId: odds?.oddsId ?? null };
  }

  /** Cancels and refunds in one transaction; only the worker holding the claim can do it. */
  async function cancel(job: ClaimedJob, cancellation: Cancellation, error: string): Promise<JobOutcome> {
    const done = await jobs.cancelAndRefund(job, cancellation, error, clock.now());
    return done ? 'cancelled' : 'lost';
  }

  return {
    options,

    async start(): Promise<void> {
      if (running) return;
      running = true;
      stopping = false;
      unlisten = await database.listen(channels.pronosticCreated, wake);
      timer = setInterval(wake, options.pollMs);
      timer.unref();
      wake();
    },

    wake,
    runOnce,

    /** Processes due rows, `concurrency` at a time, until none is left; returns how many it processed. */
    async drain(): Promise<number> {
      let processed = 0;
      const lane = async () => {
        while (!stopping && (await runOnce()) !== undefined) processed += 1;
      };
      await Promise.all(Array.from({ length: options.concurrency }, lane));
      return processed;
    },

    async stop(): Promise<void> {
      if (!running) return;
      stopping = true;
      if (timer) clearInterval(timer);
      await unlisten?.();
      if (lanes.size > 0) {
        const all = Promise.all(lanes).then(() => 'done' as const);
        const grace = new Promise<'late'>((resolve) =>
          setTimeout(() => resolve('late'), options.stopGraceMs).unref(),
        );
        if ((await Promise.race([all, grace])) === 'late') {
          // The running analyses are aborted; process() then releases their rows for another worker.
          abort.abort();
          await all;
        }
      }
      running = false;
      abort = new AbortController();
    },
  };
}
