// What every CLI command gets: the configuration, the clock, a logger on stderr, and the database
// with the same service container as the API, opened together on first use by the one setup of
// every process (src/process.ts), so `help` never touches them. While a service runs on the same
// embedded data directory, the commands reach its database through it (db/open.ts) instead of
// opening the files.
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Config } from '../config.js';
import type { Database, DatabaseHandle } from '../db/client.js';
import { type Clock, systemClock } from '../lib/clock.js';
import { logOptions } from '../lib/log-options.js';
import { type CommandProcess, openProcess } from '../process.js';
import type { Services } from '../services.js';

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
  const clock = options.clock ?? systemClock;
  const terminal = { isTTY: process.stderr.isTTY, destination: 2 } as const;
  const logging = logOptions(config, terminal);
  const logger = (logging.transport
    ? pino(logging)
    : pino(logging, pino.destination(2))) as unknown as FastifyBaseLogger;
  // The database and the container, opened together on first use (src/process.ts).
  let opened: Promise<CommandProcess> | undefined;
  const open = () => {
    opened ??= openProcess({
      role: 'command',
      config,
      clock,
      logger,
      ...(options.database ? { database: options.database } : {}),
    });
    return opened;
  };
  const context: CliContext = {
    config,
    clock,
    logger,
    out: options.out ?? ((line) => process.stdout.write(`${line}\n`)),
    async database() {
      return (await open()).database;
    },
    async db() {
      return (await context.database()).db;
    },
    async services() {
      return (await open()).services;
    },
    async close() {
      // A database passed in stays open: its owner closes it.
      if (opened) await (await opened).close();
    },
  };
  return context;
}
