// How the service logs: JSON lines (for collectors) everywhere, except a developer's terminal,
// where pino-pretty turns them into readable lines. Shared by the HTTP service, the worker process
// and the CLI so the three read alike.
import type { LoggerOptions } from 'pino';
import type { Config } from '../config.js';

/** Request headers that carry secrets never reach the log. */
const redact = ['req.headers.authorization', 'req.headers.cookie'];

/**
 * Pino options for a process writing to `destination` (file descriptor 1 or 2): readable lines
 * when it is a terminal and APP_ENV=development, JSON otherwise.
 */
export function logOptions(
  config: Pick<Config, 'appEnv' | 'logLevel'>,
  terminal: { isTTY?: boolean; destination?: 1 | 2 } = {},
): LoggerOptions {
  const base: LoggerOptions = { level: config.logLevel, redact };
  if (config.appEnv !== 'development' || terminal.isTTY !== true) return base;
  return {
    ...base,
    transport: {
      target: 'pino-pretty',
      options: {
        destination: terminal.destination ?? 1,
        translateTime: 'SYS:HH:MM:ss.l',
        ignore: 'pid,hostname',
      },
    },
  };
}
