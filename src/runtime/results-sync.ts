// The daily results sync: the runtime downloads the current season of each configured league
// (RESULTS_SYNC_LEAGUES, from RESULTS_BASE_URL in football-data.co.uk's layout) and imports it, so a
// production install stays current with no cron. Each league is tried up to three times with
// growing pauses; one log line per league says what came in or why it failed. Importing is
// idempotent, so a sync that runs twice (two workers, a restart) adds nothing twice. The national
// teams' results file (INTERNATIONAL_RESULTS_URL, issue 52) is synced in the same pass, the same way.
import type { FastifyBaseLogger } from 'fastify';

/** What the sync needs of the football module (its service implements it). */
export interface ResultsSource {
  /** Downloads and imports one league's season current at `now`. */
  syncCurrentSeason(
    code: string,
    now: Date,
  ): Promise<{
    season: string;
    url: string;
    rows: number;
    inserted: number;
    duplicates: number;
    skipped: unknown[];
  }>;
}

/** The national teams' results file (the fixtures service implements it; issue 52). */
export interface InternationalResultsSource {
  syncInternationalResults(): Promise<
    { url: string; rows: number; inserted: number; duplicates: number; skipped: number } | undefined
  >;
}

/** The outcome's `league` for the national teams' file. */
export const INTERNATIONAL_SYNC_LABEL = 'international';

export interface ResultsSyncOptions {
  leagues: readonly string[];
  /** Between two syncs. */
  intervalMs: number;
  /** Pauses before the second, third… try of a league. */
  retryDelaysMs: readonly number[];
  /** First sync after start (the worker's own start-up comes first). */
  firstDelayMs: number;
}

export const defaultResultsSyncOptions: Omit<ResultsSyncOptions, 'leagues'> = {
  intervalMs: 24 * 3600_000,
  retryDelaysMs: [60_000, 5 * 60_000],
  firstDelayMs: 30_000,
};

export interface ResultsSyncDeps {
  source: ResultsSource;
  clock: { now(): Date };
  logger: FastifyBaseLogger;
  options: Partial<ResultsSyncOptions> & { leagues: readonly string[] };
  /** Woken after a pass that stored new matches. */
  settlement: { wake(): void };
  /** Synced after the leagues when INTERNATIONAL_RESULTS_URL is set (absent: not synced). */
  internationals?: InternationalResultsSource;
  /** Closes the fixtures the new results were played in (the fixtures service). */
  fixtures?: { closeFromResults(): Promise<{ played: number; postponed: number }> };
}

export interface LeagueSyncOutcome {
  league: string;
  ok: boolean;
  attempts: number;
  inserted?: number;
  error?: string;
}

export type ResultsSync = ReturnType<typeof createResultsSync>;

export function createResultsSync(deps: ResultsSyncDeps) {
  const { logger, source, clock, settlement } = deps;
  const options: ResultsSyncOptions = { ...defaultResultsSyncOptions, ...deps.options };
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<LeagueSyncOutcome[]> | undefined;
  let stop = new AbortController();

  /** Syncs every league now (a pass already under way is joined, not doubled). */
  function runOnce(): Promise<LeagueSyncOutcome[]> {
    running ??= pass().finally(() => {
      running = undefined;
    });
    return running;
  }

  async function pass(): Promise<LeagueSyncOutcome[]> {
    const outcomes: LeagueSyncOutcome[] = [];
    for (const league of options.leagues) {
      if (stop.signal.aborted) break;
      outcomes.push(await syncLeague(league));
    }
    if (deps.internationals && !stop.signal.aborted)
      outcomes.push(await syncInternationals(deps.internationals));
    if (outcomes.some((outcome) => outcome.ok)) await closeFixtures();
    if (outcomes.some((outcome) => (outcome.inserted ?? 0) > 0)) settlement.wake();
    return outcomes;
  }

  /** Results in: the fixtures they close are `played` (or, long without one, `postponed`). */
  async function closeFixtures(): Promise<void> {
    if (!deps.fixtures) return;
    try {
      const closed = await deps.fixtures.closeFromResults();
      if (closed.played + closed.postponed > 0) logger.info(closed, 'fixtures closed by results');
    } catch (error) {
      logger.error(
        { err: error instanceof Error ? error.message : String(error) },
        'closing fixtures failed',
      );
    }
  }

  function syncLeague(league: string): Promise<LeagueSyncOutcome> {
    return withRetries(league, async () => {
      const report = await source.syncCurrentSeason(league, clock.now());
      return {
        details: {
          league,
          season: report.season,
          url: report.url,
          rows: report.rows,
          inserted: report.inserted,
          duplicates: report.duplicates,
          skipped: report.skipped.length,
        },
        inserted: report.inserted,
      };
    });
  }

  function syncInternationals(internationals: InternationalResultsSource): Promise<LeagueSyncOutcome> {
    return withRetries(INTERNATIONAL_SYNC_LABEL, async () => {
      const report = await internationals.syncInternationalResults();
      return {
        details: { league: INTERNATIONAL_SYNC_LABEL, ...report },
        inserted: report?.inserted ?? 0,
      };
    });
  }

  /** One source tried up to three times; one log line says what came in or why it failed. */
  async function withRetries(
    league: string,
    attemptSync: () => Promise<{ details: Record<string, unknown>; inserted: number }>,
  ): Promise<LeagueSyncOutcome> {
    const tries = options.retryDelaysMs.length + 1;
    let lastError = '';
    for (let attempt = 1; attempt <= tries; attempt++) {
      try {
        const { details, inserted } = await attemptSync();
        logger.info({ ...details, attempts: attempt }, 'results synced');
        return { league, ok: true, attempts: attempt, inserted };
      } catch (error) {
        lastError = error instanceof Error ? error.message : String(error);
        if (attempt === tries || !(await pause(options.retryDelaysMs[attempt - 1]!))) break;
      }
    }
    logger.error({ league, attempts: tries, err: lastError }, 'results sync failed');
    return { league, ok: false, attempts: tries, error: lastError };
  }

  /** Waits before a retry; false when stopped meanwhile. */
  function pause(ms: number): Promise<boolean> {
    const signal = stop.signal;
    if (signal.aborted) return Promise.resolve(false);
    return new Promise((resolve) => {
      const waiting = setTimeout(() => {
        signal.removeEventListener('abort', onAbort);
        resolve(true);
      }, ms);
      const onAbort = () => {
        clearTimeout(waiting);
        resolve(false);
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
  }

  return {
    options,

    /** Schedules the first sync, then one every interval; nothing when there is nothing to sync. */
    start(): void {
      if ((options.leagues.length === 0 && !deps.internationals) || timer) return;
      stop = new AbortController();
      const tick = (delay: number) => {
        timer = setTimeout(() => {
          void runOnce().finally(() => {
            if (!stop.signal.aborted) tick(options.intervalMs);
          });
        }, delay);
        timer.unref();
      };
      tick(options.firstDelayMs);
    },

    runOnce,

    async stop(): Promise<void> {
      stop.abort();
      if (timer) clearTimeout(timer);
      timer = undefined;
      await running;
    },
  };
}
