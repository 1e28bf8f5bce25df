// The HTTP front: which proxies are trusted, which origins may call, how large a body may be, the
// flood guard, and where the metrics are served.
import { type Static, Type } from 'typebox';
import { isOneOf, switchOff } from '../lib/allowed-values.js';
import {
  ConfigError,
  onOff,
  optionalText,
  Refusal,
  type SettingKeywords,
  wholeNumber,
} from '../lib/env-settings.js';
import type { ProcessConfig } from './process.js';

const PROXY_ADDRESSES = 'off, a hop count (1-10) or comma-separated proxy addresses/CIDRs';
const PROXY_ADDRESS = /^(?:[0-9.]+|[0-9a-fA-F:]+)(?:\/\d{1,3})?$|^(?:loopback|linklocal|uniquelocal)$/;

/** TRUST_PROXY: off, how many proxies stand in front, or their addresses. `on` is refused: trust whom? */
function parseTrustProxy(given: string): boolean | number | string[] {
  const raw = given.trim();
  const word = raw.toLowerCase();
  if (isOneOf(switchOff, word)) return false;
  if (word === 'on' || word === 'true') throw new Refusal(raw);
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) throw new Refusal(raw, 'off, a hop count (1-10) or proxy addresses');
    return hops;
  }
  const addresses = raw.split(',').map((part) => part.trim());
  if (addresses.some((part) => !PROXY_ADDRESS.test(part))) throw new Refusal(raw);
  return addresses;
}

function parseOrigins(raw: string): string[] {
  const origins = raw.split(',').map((part) => part.trim());
  const isOrigin = (origin: string) => {
    try {
      return new URL(origin).origin === origin;
    } catch {
      return false;
    }
  };
  if (!origins.every((origin) => origin === '*' || isOrigin(origin))) throw new Refusal();
  return origins;
}

export const HttpSettings = Type.Object({
  trustProxy: Type.Union([Type.Boolean(), Type.Integer(), Type.Array(Type.String())], {
    env: 'TRUST_PROXY',
    accepts: PROXY_ADDRESSES,
    default: false,
    parse: parseTrustProxy,
  } satisfies SettingKeywords<boolean | number | string[]>),
  corsOrigins: Type.Array(Type.String(), {
    env: 'CORS_ORIGINS',
    accepts: '* or comma-separated origins such as https://app.example.com',
    default: [],
    parse: parseOrigins,
  } satisfies SettingKeywords<string[]>),
  bodyLimitBytes: wholeNumber('BODY_LIMIT_BYTES', {
    default: 64 * 1024,
    minimum: 1024,
    maximum: 50 * 1024 * 1024,
  }),
  rateLimit: onOff('RATE_LIMIT', { default: true }),
  rateLimitPerMinute: wholeNumber('RATE_LIMIT_PER_MINUTE', {
    default: 300,
    minimum: 1,
    maximum: 1_000_000,
    description:
      'Requests per client network (IPv4 address, IPv6 /64) per minute, every request counted (the flood guard).',
  }),

  metricsToken: optionalText('METRICS_TOKEN', {
    pattern: '^[\\x21-\\x7e]{16,512}$',
    accepts: '16 to 512 printable characters without spaces',
    hidden: true,
    description:
      'The bearer token `GET /metrics` (Prometheus text) asks for on the service port; unset: no metrics there.',
  }),
  metricsPort: wholeNumber('METRICS_PORT', {
    default: 0,
    minimum: 0,
    maximum: 65535,
    description:
      'A port on 127.0.0.1 that answers `GET /metrics` without a token (its own small server; a ROLE=worker process too); 0: none.',
  }),
});
export type HttpConfig = Static<typeof HttpSettings>;

/** The metrics port is a second listener of the same process: it cannot be the service's own. */
export function refuseMetricsPortClash(config: HttpConfig & Pick<ProcessConfig, 'port' | 'role'>): void {
  if (config.metricsPort !== 0 && config.metricsPort === config.port && config.role !== 'worker') {
    throw new ConfigError(
      `METRICS_PORT=${config.metricsPort} is the service's PORT: give the metrics their own port (or 0 for none)`,
    );
  }
}

/**
 * RATE_LIMIT=off lifts every SMS budget, the per-phone caps and the sign-up challenge: for
 * benchmarks and black-box tests, never a production start.
 */
export function refuseRateLimitOffInProduction(config: HttpConfig & Pick<ProcessConfig, 'appEnv'>): void {
  if (config.appEnv === 'production' && !config.rateLimit) {
    throw new ConfigError(
      'RATE_LIMIT=off is refused when APP_ENV=production: it lifts every SMS budget, the per-phone caps and the sign-up challenge',
    );
  }
}

/** Whether HOST only takes connections from this machine. */
function loopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '');
  return bare === 'localhost' || bare === '::1' || /^127\.\d+\.\d+\.\d+$/.test(bare);
}

/**
 * TRUST_PROXY believes X-Forwarded-For: on a HOST others can reach directly, a client that skips the
 * proxy writes its own address into the per-IP limits.
 */
export function proxyWarnings(
  config: Pick<HttpConfig, 'trustProxy'> & Pick<ProcessConfig, 'host'>,
): string[] {
  if (config.trustProxy === false || config.trustProxy === 0 || loopbackHost(config.host)) return [];
  return [
    `TRUST_PROXY is set while HOST=${config.host} is not a loopback address: a client that reaches the service without the proxy chooses the X-Forwarded-For address its per-IP limits count (listen on 127.0.0.1 behind the proxy, or firewall the port)`,
  ];
}
