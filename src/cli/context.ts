// What every CLI command gets: the configuration, the clock, a logger on stderr, and the database
// with the same service container as the API (src/services.ts), opened on first use so `help` never
// touches it. While a service runs on the same embedded data directory, the commands reach its
// database through it (db/open.ts) instead of opening the files.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import { openConfiguredDatabase } from '../db/open.js';
import { type Clock, systemClock } from '../lib/clock.js';
import { logOptions } from '../lib/log-options.js';
import { createServices, type Services } from '../services.js';

export interface CliContext {
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The migrated database handle (opened on first call; a running service's when it holds it). */
  database(): Promise<DatabaseHandle>;
  db(): Promise<Database>;
  /** The modules' services on that database (opened on first call). */
  services(): Promise<Services>;
  /** Where commands print their results (stdout); tests capture it. */
  out: (line: string) => void;
  close(): Promise<void>;
}

export function createCliContext(
  config: Config,
  options: { database?: DatabaseHandle; clock?: Clock; out?: (line: string) => void } = {},
): CliContext {
  let opened: Promise<DatabaseHandle> | undefined = options.database
    ? Promise.resolve(options.database)
    : undefined;
  const ownsDatabase = options.database === undefined;
  let services: Services | undefined;
  const terminal = { isTTY: process.stderr.isTTY, destination: 2 } as const;
  const logging = logOptions(config, terminal);
  const logger = (logging.transport
    ? pino(logging)
    : pino(logging, pino.destination(2))) as unknown as FastifyBaseLogger;
  const context: CliContext = {
    config,
    clock: options.clock ?? systemClock,
    logger,
    out: options.out ?? ((line) => process.stdout.write(`${line}\n`)),
    database() {
      opened ??= openConfiguredDatabase(config, 'command', {
        poolSize: 4,
        warn: (line) => logger.warn(line),
      });
      return opened;
    },
    async db() {
      return (await context.database()).db;
    },
    async services() {
      const database = await context.database();
      services ??= createServices({ database, config, clock: context.clock, logger });
      return services;
    },
    async close() {
      if (opened && ownsDatabase) await (await opened).close();
    },
  };
  return context;
}
