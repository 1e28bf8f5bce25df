// ROLE=worker: the analysis worker alone, without the HTTP server, on a shared PostgreSQL.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.js';
import { openConfiguredDatabase } from '../db/open.js';
import { systemClock } from '../lib/clock.js';
import { logOptions } from '../lib/log-options.js';
import { createServices } from '../services.js';
import { PaymentPoller } from './payment-poller.js';
import { ResultsSync } from './results-sync.js';
import { SettlementLoop } from './settlement.js';
import { AnalysisWorker } from './worker.js';

export interface RunningWorker {
  logger: FastifyBaseLogger;
  stop(): Promise<void>;
}

export async function startWorkerProcess(config: Config): Promise<RunningWorker> {
  const logger = pino(logOptions(config, { isTTY: process.stdout.isTTY })) as unknown as FastifyBaseLogger;
  const database = await openConfiguredDatabase(config, 'worker', { poolSize: 4 });
  const services = createServices({ database, config, clock: systemClock, logger });
  const { engine } = services;
  if (engine.describe) await warnWithoutResults({ describe: engine.describe.bind(engine) }, logger);
  const worker = new AnalysisWorker({
    database,
    jobs: services.analysisJobs,
    engine,
    clock: systemClock,
    logger,
    options: { concurrency: config.workerConcurrency, leaseSeconds: config.workerLeaseSeconds },
  });
  const paymentPoller = new PaymentPoller({
    database,
    payments: services.payments,
    payouts: services.payouts,
    logger,
  });
  const settlement = new SettlementLoop({ settler: services.trackRecord, logger });
  const resultsSync = new ResultsSync({
    source: services.football,
    clock: systemClock,
    logger,
    options: { leagues: config.resultsSyncLeagues },
    onImported: () => settlement.wake(),
  });
  // The loops' timers are unref'd (tests stop them at will) and the LISTEN connection's reconnect
  // waits on an unref'd timer: with every connection lost (a PostgreSQL restart) nothing would hold
  // the event loop, and the process would close itself. This ref'd timer holds it until stop().
  const keepAlive = setInterval(() => {}, 60_000);
  await worker.start();
  await paymentPoller.start();
  resultsSync.start();
  settlement.start();
  logger.info({ role: 'worker' }, 'analysis worker and payment poller started');
  if (config.resultsSyncLeagues.length > 0) {
    logger.info({ leagues: config.resultsSyncLeagues }, 'daily results sync scheduled');
  }
  return {
    logger,
    async stop() {
      clearInterval(keepAlive);
      await resultsSync.stop();
      await settlement.stop();
      await paymentPoller.stop();
      await worker.stop();
      await engine.close?.();
      await database.close();
    },
  };
}

/** A fresh install has no results: it still analyses, from priors, but the operator should know. */
export async function warnWithoutResults(
  analyst: { describe(): Promise<{ matches: number; leagues: number }> },
  logger: FastifyBaseLogger,
): Promise<void> {
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
