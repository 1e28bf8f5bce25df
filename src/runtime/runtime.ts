// The runtime: every background loop of the service, built once, with one start and one stop.
// buildApp runs it beside the HTTP server when ROLE=all, and src/worker-process.ts runs it alone when
// ROLE=worker, so both processes run the same loops built the same way:
//
//   analysis worker   claims pronostics in `processing` and analyses them (woken by NOTIFY)
//   payment poller    follows pending payments and payouts to the provider's word (woken by NOTIFY)
//   settlement        settles due pronostics against results (woken by the results sync)
//   results sync      downloads the current season of RESULTS_SYNC_LEAGUES and the national teams'
//                     results (INTERNATIONAL_RESULTS_URL) once a day
//   fixtures sync     downloads upcoming fixtures every FIXTURES_SYNC_INTERVAL_HOURS (production)
//   housekeeping      purges expired codes, dead tokens and old idempotent answers
//   push sender       sends users' events to their push devices (woken by NOTIFY, a slow poll)
//   sandbox webhooks  with the sandbox driver only: delivers its signed webhooks to the webhook dispatch
//   backups           embedded database only: a verified backup every BACKUP_INTERVAL_HOURS into BACKUP_DIR
//
// Every loop reaches the modules only through their services (the container's), and each stop
// lets the work under way finish (or hands it back) before the database closes.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import { isSandboxDriver } from '../providers/payments/sandbox.js';
import type { Services } from '../services.js';
import { createAnalysisWorker, type WorkerOptions } from './analysis-worker.js';
import { createBackupLoop } from './backup-loop.js';
import { createFixturesSync } from './fixtures-sync.js';
import { createHousekeepingLoop } from './housekeeping-loop.js';
import { createPaymentPoller } from './payment-poller.js';
import { createPushSender } from './push-sender.js';
import { createResultsSync } from './results-sync.js';
import { createSandboxWebhooks } from './sandbox-webhooks.js';
import { createSettlementLoop } from './settlement-loop.js';

export interface RuntimeDeps {
  database: DatabaseHandle;
  services: Services;
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Analysis worker tuning over the configured concurrency and lease (tests shorten the backoff). */
  workerOptions?: Partial<WorkerOptions>;
}

export type Runtime = ReturnType<typeof createRuntime>;

export function createRuntime(deps: RuntimeDeps) {
  const { database, services, config, clock, logger } = deps;
  const analysisWorker = createAnalysisWorker({
    database,
    jobs: services.analysisJobs,
    analyst: services.analyst,
    odds: services.fixtures,
    clock,
    logger: logger.child({ component: 'worker' }),
    options: {
      concurrency: config.workerConcurrency,
      leaseSeconds: config.workerLeaseSeconds,
      ...deps.workerOptions,
    },
  });
  const paymentPoller = createPaymentPoller({
    database,
    payments: services.payments,
    payouts: services.payouts,
    logger: logger.child({ component: 'payment-poller' }),
  });
  const settlement = createSettlementLoop({
    // The analyses first, then the slips, which read their legs' analyses as just settled.
    settler: {
      async settleDue() {
        const report = await services.trackRecord.settleDue();
        const slips = await services.slips.settleDue();
        return { ...report, slipsSettled: slips.settled };
      },
    },
    logger: logger.child({ component: 'settlement' }),
  });
  const resultsSync = createResultsSync({
    source: services.football,
    clock,
    logger: logger.child({ component: 'results-sync' }),
    options: { leagues: config.resultsSyncLeagues },
    ...(config.internationalResultsUrl ? { internationals: services.fixtures } : {}),
    settlement,
    fixtures: services.fixtures,
  });
  const fixturesSync = createFixturesSync({
    source: services.fixtures,
    logger: logger.child({ component: 'fixtures-sync' }),
    leagues: config.resultsSyncLeagues,
    intervalMs: config.fixturesSyncIntervalHours * 3600_000,
    settlement,
  });
  const housekeeping = createHousekeepingLoop({
    housekeeping: services.housekeeping,
    logger: logger.child({ component: 'housekeeping' }),
  });
  const pushSender = createPushSender({
    database,
    push: services.push,
    clock,
    logger: logger.child({ component: 'push-sender' }),
  });
  const driver = services.paymentsDriver;
  const sandboxWebhooks = isSandboxDriver(driver)
    ? createSandboxWebhooks({ sandbox: driver, webhooks: services.webhooks, logger })
    : undefined;
  // PostgreSQL is backed up by its own tools (docs/operations.md, "Backups"); memory:// has nothing to keep.
  const embeddedOnDisk = config.databaseUrl === undefined;
  const backupLoop = createBackupLoop({
    backups: services.backups,
    logger: logger.child({ component: 'backups' }),
    intervalMs: embeddedOnDisk ? config.backupIntervalHours * 3600_000 : 0,
  });
  let started = false;

  return {
    analysisWorker,
    paymentPoller,
    settlement,
    resultsSync,
    fixturesSync,
    housekeeping,
    pushSender,
    /** Only with the sandbox payments driver. */
    sandboxWebhooks,
    backupLoop,

    async start(): Promise<void> {
      if (started) return;
      started = true;
      await warnWithoutResults(services.analyst, logger);
      await analysisWorker.start();
      await paymentPoller.start();
      settlement.start();
      resultsSync.start();
      fixturesSync.start();
      housekeeping.start();
      await pushSender.start();
      sandboxWebhooks?.start();
      await backupLoop.start();
      if (!embeddedOnDisk && config.backupIntervalHours > 0) {
        logger.warn(
          'BACKUP_INTERVAL_HOURS backs up the embedded database only: on PostgreSQL use pg_dump or base backups (docs/operations.md, "Backups")',
        );
      }
      if (config.resultsSyncLeagues.length > 0 || config.internationalResultsUrl) {
        logger.info(
          { leagues: config.resultsSyncLeagues, international: config.internationalResultsUrl ?? null },
          'daily results sync scheduled',
        );
      }
    },

    /** Stops every loop, letting the work under way finish; the database stays open. */
    async stop(): Promise<void> {
      if (!started) return;
      started = false;
      await backupLoop.stop();
      await sandboxWebhooks?.stop();
      await resultsSync.stop();
      await fixturesSync.stop();
      await settlement.stop();
      await housekeeping.stop();
      await pushSender.stop();
      await paymentPoller.stop();
      await analysisWorker.stop();
    },
  };
}

/** A fresh install has no results: it still analyses, from priors, but the operator should know. */
async function warnWithoutResults(analyst: Services['analyst'], logger: FastifyBaseLogger): Promise<void> {
  if (!analyst.describe) return;
  const facts = await analyst.describe();
  if (facts.matches === 0) {
    logger.warn(
      'no football results are loaded: analyses use priors only (low confidence). ' +
        'Run `npm run cli -- results:import <file.csv…>` or `npm run cli -- results:sync E0 SP1`.',
    );
  } else {
    logger.info(facts, 'football results loaded');
  }
}
