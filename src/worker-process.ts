// ROLE=worker: the runtime's background loops alone, without the HTTP server, on a shared PostgreSQL.
// A process entry like server.ts (it sits beside it, above the runtime): src/process.ts opens the
// database, the container and the loops; this file starts them, serves METRICS_PORT, and stops.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from './config.js';
import { logOptions } from './lib/log-options.js';
import { type MetricsListener, serveMetrics } from './lib/metrics-server.js';
import { openProcess } from './process.js';

export interface RunningWorker {
  logger: FastifyBaseLogger;
  stop(): Promise<void>;
}

export async function startWorkerProcess(config: Config): Promise<RunningWorker> {
  const logger = pino(logOptions(config, { isTTY: process.stdout.isTTY })) as unknown as FastifyBaseLogger;
  const { services, runtime, close } = await openProcess({ role: 'worker', config, logger });
  // The loops' timers are unref'd (tests stop them at will) and the LISTEN connection's reconnect
  // waits on an unref'd timer: with every connection lost (a PostgreSQL restart) nothing would hold
  // the event loop, and the process would close itself. This ref'd timer holds it until stop().
  const keepAlive = setInterval(() => {}, 60_000);
  await runtime.start();
  // No HTTP server here: METRICS_PORT is how a worker's figures are scraped.
  const { metrics } = services;
  let listener: MetricsListener | undefined;
  if (metrics && config.metricsPort !== 0)
    listener = await serveMetrics(config.metricsPort, () => metrics.render());
  logger.info({ role: 'worker' }, 'background loops started');
  return {
    logger,
    async stop() {
      clearInterval(keepAlive);
      await listener?.close();
      // The loops, then the analyst, then the database.
      await close();
    },
  };
}
