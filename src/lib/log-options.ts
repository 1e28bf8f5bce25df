// How the service logs: JSON lines (for collectors) everywhere, except a developer's terminal,
// where pino-pretty turns them into readable lines. Shared by the HTTP service, the worker process
// and the CLI so the three read alike.
import type { LoggerOptions } from 'pino';

/** Request headers that carry secrets never reach the log. */
const redact = ['req.headers.authorization', 'req.headers.cookie'];

/** Query parameters whose values are personal data or secrets (a phone number, a search, a stream key). */
const REDACTED_QUERY: ReadonlySet<string> = new Set(['phone', 'search', 'stream_key']);

/** The URL as the access log keeps it: the values of REDACTED_QUERY replaced by `[redacted]`. */
export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replaceAll('+', ' '));
      } catch {
        // A malformed name is logged as sent.
      }
      return REDACTED_QUERY.has(decoded) ? `${name}=[redacted]` : pair;
    })
    .join('&');
  return `${url.slice(0, at)}?${query}`;
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  headers?: Record<string, unknown>;
  socket?: { remotePort?: number };
}

/** Fastify's request line in the access log, with the query's personal data redacted. */
const serializers = {
  req(request: LoggedRequest) {
    return {
      method: request.method,
      url: redactUrl(request.url ?? ''),
      host: request.host ?? request.headers?.host,
      remoteAddress: request.ip,
      remotePort: request.socket?.remotePort,
    };
  },
};

/**
 * Pino options for a process writing to `destination` (file descriptor 1 or 2): readable lines
 * when it is a terminal and APP_ENV=development, JSON otherwise.
 */
export function logOptions(
  config: { appEnv: string; logLevel: LoggerOptions['level'] },
  terminal: { isTTY?: boolean; destination?: 1 | 2 } = {},
): LoggerOptions {
  const base: LoggerOptions = { level: config.logLevel, redact, serializers };
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
