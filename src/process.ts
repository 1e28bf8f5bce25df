// One setup for every process: open the database, build the service container (services.ts) on it,
// build the runtime's loops (runtime/runtime.ts) on both, and one `close` that undoes it in the
// reverse order (stop the loops, close the analyst's fit thread, close the database). buildApp
// (ROLE=all and ROLE=api), the worker process (ROLE=worker) and the CLI each call it, so the order
// is written here once.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import { openConfiguredDatabase } from './db/open.js';
import { type Clock, systemClock } from './lib/clock.js';
import type { WorkerOptions } from './runtime/analysis-worker.js';
import { createRuntime, type Runtime } from './runtime/runtime.js';
import { createServices, type ServiceDeps, type Services } from './services.js';

/**
 * Which process opens: the HTTP service (ROLE=all or ROLE=api: whether it runs the loops is
 * buildApp's `runLoops`), the background worker (ROLE=worker), or one CLI command, which builds no
 * loops and, on an embedded database a running service holds, reaches it through its socket.
 */
export type ProcessRole = 'service' | 'worker' | 'command';

export interface ProcessOptions
  extends Pick<ServiceDeps, 'messenger' | 'analyst' | 'paymentsDriver' | 'storage' | 'pushDriver'> {
  role: ProcessRole;
  config: Config;
  logger: FastifyBaseLogger;
  clock?: Clock;
  /** An open, migrated database owned by the caller (tests): used as it is and left open by `close`. */
  database?: DatabaseHandle;
  /** Analysis worker tuning over the configured concurrency and lease (tests shorten the backoff). */
  workerOptions?: Partial<WorkerOptions>;
}

/** What a command needs: the database and the container on it. */
export interface CommandProcess {
  database: DatabaseHandle;
  clock: Clock;
  services: Services;
  /**
   * Closes the analyst (its fit thread, if one started), writes the slip checks not counted yet,
   * then closes the database when this process opened it.
   */
  close(): Promise<void>;
}

/** What the service and the worker need: the same, and the loops, built but not started. */
export interface LoopProcess extends CommandProcess {
  runtime: Runtime;
  /** Stops the loops (letting the work under way finish), then closes as a command does. */
  close(): Promise<void>;
}

/** The database's pool: the service's default, four connections for a worker or a command. */
const POOL_SIZE: Record<ProcessRole, number | undefined> = { service: undefined, worker: 4, command: 4 };

export async function openProcess(options: ProcessOptions & { role: 'command' }): Promise<CommandProcess>;
export async function openProcess(
  options: ProcessOptions & { role: 'service' | 'worker' },
): Promise<LoopProcess>;
export async function openProcess(options: ProcessOptions): Promise<CommandProcess | LoopProcess> {
  const { role, config, logger } = options;
  const clock = options.clock ?? systemClock;
  const ownsDatabase = options.database === undefined;
  const poolSize = POOL_SIZE[role];
  const database =
    options.database ??
    (await openConfiguredDatabase(config, role, {
      ...(poolSize ? { poolSize } : {}),
      warn: (line) => logger.warn(line),
    }));
  const services = createServices({
    database,
    config,
    clock,
    logger,
    ...(options.messenger ? { messenger: options.messenger } : {}),
    ...(options.analyst ? { analyst: options.analyst } : {}),
    ...(options.paymentsDriver ? { paymentsDriver: options.paymentsDriver } : {}),
    ...(options.storage ? { storage: options.storage } : {}),
    ...(options.pushDriver ? { pushDriver: options.pushDriver } : {}),
  });
  const closeServices = async () => {
    await services.analyst.close?.();
    await services.slips.close();
    await services.tokens.close();
    if (ownsDatabase) await database.close();
  };
  if (role === 'command') return { database, clock, services, close: closeServices };

  const runtime = createRuntime({
    database,
    services,
    config,
    clock,
    logger,
    ...(options.workerOptions ? { workerOptions: options.workerOptions } : {}),
  });
  return {
    database,
    clock,
    services,
    runtime,
    async close() {
      // A no-op when the loops never started or were stopped already (the app stops them in preClose).
      await runtime.stop();
      await closeServices();
    },
  };
}
