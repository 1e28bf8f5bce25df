// The service's configuration: every environment variable is read and validated here, once, and
// nowhere else (lint forbids `process.env` outside this file). A bad value stops the start with one
// line naming the variable and what it accepts.
import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import {
  AI_DRIVERS,
  type AiDriverName,
  APP_ENVS,
  type AppEnv,
  isOneOf,
  LOG_LEVELS,
  type LogLevel,
  MESSAGING_DRIVERS,
  type MessagingDriverName,
  NOTCHPAY_CHARGE_METHODS,
  type NotchPayChargeMethod,
  PAYMENT_PROVIDERS,
  type PaymentProvider,
  ROLES,
  type Role,
  SMS_DRIVERS,
  STORAGE_DRIVERS,
  type StorageDriverName,
  SWITCH_OFF,
  SWITCH_ON,
} from './lib/allowed-values.js';
import { narratorWorstCaseMs } from './lib/narrator-retries.js';
import { ensurePrivateDir } from './lib/private-files.js';

export type { AiDriverName, MessagingDriverName, Role, StorageDriverName };
export type PaymentsDriverName = PaymentProvider;
export type TrustProxy = boolean | number | string[];

export interface Config {
  appEnv: AppEnv;
  appName: string;
  appSecret: string;
  role: Role;
  port: number;
  host: string;
  dataDir: string;
  /** The admin console's built files (`npm run build` writes them to dist/console), served at /admin. */
  consoleDir: string;
  /** Unset: PGlite in DATA_DIR/pglite; `memory://`: throw-away PGlite; `postgres://…`: PostgreSQL. */
  databaseUrl: string | undefined;
  /** PostgreSQL only: the longest one statement may run before the server cancels it. */
  dbStatementTimeoutMs: number;
  redisUrl: string | undefined;
  logLevel: LogLevel;
  trustProxy: TrustProxy;
  corsOrigins: string[];
  bodyLimitBytes: number;
  rateLimit: boolean;
  /** Requests per client network (IPv4 address, IPv6 /64) per minute, every request counted (the flood guard). */
  rateLimitPerMinute: number;

  tokenIdleTtlSeconds: number;
  /** Absolute lifetime of a token, whatever its activity. */
  tokenMaxAgeSeconds: number;
  /** How long a process may answer for a checked token from memory (0: every request reads the database). */
  tokenCacheSeconds: number;
  otpTtlSeconds: number;
  otpMaxAttempts: number;
  otpResendCooldownSeconds: number;
  /** Codes delivered per country calling code in a rolling hour (SMS-fraud cap). */
  otpCountryHourlyBudget: number;
  /** Codes delivered in all in a rolling hour (SMS-fraud cap). */
  otpGlobalHourlyBudget: number;
  /** Share (%) of each SMS budget kept for numbers that verified a code before. */
  otpReturningSharePercent: number;
  welcomeCredits: number;
  withdrawMin: number;
  referralCommissionPercent: number;
  /** A payout still not final this long after its approval is escalated to an admin (never refunded by itself). */
  payoutStuckSeconds: number;

  messagingDriver: MessagingDriverName;
  whatsappDriver: MessagingDriverName;
  twilio: {
    baseUrl: string;
    accountSid: string | undefined;
    authToken: string | undefined;
    smsFrom: string | undefined;
    messagingServiceSid: string | undefined;
    whatsappFrom: string | undefined;
    whatsappContentSid: string | undefined;
  };
  whatsappCloud: {
    baseUrl: string;
    apiVersion: string;
    token: string | undefined;
    phoneNumberId: string | undefined;
    templateName: string;
    templateLanguage: string;
  };

  paymentsDriver: PaymentsDriverName;
  paymentSandboxDelayMs: number;
  /** Pending payments one user may hold at once (429 past it; lifted by RATE_LIMIT=off). */
  paymentMaxPending: number;
  notchpay: {
    baseUrl: string;
    publicKey: string | undefined;
    privateKey: string | undefined;
    /** The webhook hash key: HMAC-SHA256 of the raw body, hex, in `x-notch-signature`. */
    webhookSecret: string | undefined;
    /** The documentation disagrees on the direct charge's method: POST by default, PUT if the account needs it. */
    chargeMethod: NotchPayChargeMethod;
    /** Per call to NotchPay. */
    timeoutMs: number;
  };

  aiDriver: AiDriverName;
  ai: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
    /** Per LLM call, reading the answer included. */
    timeoutMs: number;
    /** For the whole rewrite, retries included; past it the statistical text stands. */
    narrativeDeadlineMs: number;
  };
  resultsBaseUrl: string;
  /**
   * Leagues whose current season the worker downloads from RESULTS_BASE_URL daily (football-data.co.uk
   * codes). Default: the five big leagues in production, none elsewhere (nothing leaves the machine
   * in development or tests unless asked).
   */
  resultsSyncLeagues: string[];
  /** Analyses one worker process runs at once. */
  workerConcurrency: number;
  /** How long a claim holds a pronostic row; an analysis still running then is aborted. */
  workerLeaseSeconds: number;

  /** Where uploaded files (avatars, ticket attachments) live: DATA_DIR/files, or an S3-compatible bucket. */
  storageDriver: StorageDriverName;
  s3: {
    /** Unset: AWS S3 in S3_REGION; else any S3-compatible server (MinIO, Garage, R2…). */
    endpoint: string | undefined;
    bucket: string | undefined;
    accessKey: string | undefined;
    secretKey: string | undefined;
    region: string;
    /** Path-style URLs (`endpoint/bucket/key`): what most S3-compatible servers need. */
    forcePathStyle: boolean;
  };
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;

function fail(name: string, accepts: string, value: string): never {
  throw new ConfigError(`${name}=${JSON.stringify(value)} is invalid: expected ${accepts}`);
}

function text(env: Env, name: string, fallback: string): string {
  const value = env[name];
  return value === undefined || value === '' ? fallback : value;
}

function optional(env: Env, name: string): string | undefined {
  const value = env[name];
  return value === undefined || value === '' ? undefined : value;
}

function oneOf<T extends string>(env: Env, name: string, choices: readonly T[], fallback: T): T {
  const value = text(env, name, fallback);
  if (!(choices as readonly string[]).includes(value)) fail(name, `one of ${choices.join(', ')}`, value);
  return value as T;
}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^-?\d+$/.test(raw.trim())) fail(name, `a whole number from ${min} to ${max}`, raw);
  const value = Number(raw.trim());
  if (value < min || value > max) fail(name, `a whole number from ${min} to ${max}`, raw);
  return value;
}

function onOff(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name, fallback ? 'on' : 'off').toLowerCase();
  if (isOneOf(SWITCH_ON, raw)) return true;
  if (isOneOf(SWITCH_OFF, raw)) return false;
  return fail(name, 'on or off', raw);
}

function httpUrl(env: Env, name: string, fallback: string | undefined): string | undefined {
  const raw = optional(env, name) ?? fallback;
  if (raw === undefined) return undefined;
  try {
    const url = new URL(raw);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol');
  } catch {
    fail(name, 'an http(s) URL', raw);
  }
  return raw.replace(/\/+$/, '');
}

function parseTrustProxy(env: Env): TrustProxy {
  const raw = text(env, 'TRUST_PROXY', 'off').trim();
  if (isOneOf(SWITCH_OFF, raw.toLowerCase())) return false;
  if (['on', 'true'].includes(raw.toLowerCase())) {
    fail('TRUST_PROXY', 'off, a hop count (1-10) or comma-separated proxy addresses/CIDRs', raw);
  }
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (hops < 1 || hops > 10) fail('TRUST_PROXY', 'off, a hop count (1-10) or proxy addresses', raw);
    return hops;
  }
  const addresses = raw.split(',').map((part) => part.trim());
  const address = /^(?:[0-9.]+|[0-9a-fA-F:]+)(?:\/\d{1,3})?$|^(?:loopback|linklocal|uniquelocal)$/;
  if (addresses.some((part) => !address.test(part))) {
    fail('TRUST_PROXY', 'off, a hop count (1-10) or comma-separated proxy addresses/CIDRs', raw);
  }
  return addresses;
}

function parseDatabaseUrl(env: Env): string | undefined {
  const raw = optional(env, 'DATABASE_URL');
  if (raw === undefined) return undefined;
  if (raw === 'memory://' || /^postgres(?:ql)?:\/\/.+/.test(raw)) return raw;
  return fail('DATABASE_URL', 'unset (embedded PGlite), memory:// or a postgres:// URL', raw);
}

function parseSyncLeagues(env: Env, appEnv: Config['appEnv']): string[] {
  const raw = optional(env, 'RESULTS_SYNC_LEAGUES');
  if (raw === undefined) return appEnv === 'production' ? ['E0', 'SP1', 'D1', 'I1', 'F1'] : [];
  const codes = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'none');
  if (codes.some((code) => !/^[A-Za-z0-9]{1,8}$/.test(code))) {
    fail('RESULTS_SYNC_LEAGUES', 'comma-separated league codes such as E0,SP1 (or none)', raw);
  }
  return [...new Set(codes)];
}

function parseCorsOrigins(env: Env): string[] {
  const raw = optional(env, 'CORS_ORIGINS');
  if (raw === undefined) return [];
  const origins = raw.split(',').map((part) => part.trim());
  for (const origin of origins) {
    if (origin === '*') continue;
    try {
      const url = new URL(origin);
      if (url.origin !== origin) throw new Error('not an origin');
    } catch {
      fail('CORS_ORIGINS', '* or comma-separated origins such as https://app.example.com', raw);
    }
  }
  return origins;
}

/** The secret that keys code and token hashes: APP_SECRET, or one generated once into DATA_DIR. */
function resolveSecret(env: Env, appEnv: Config['appEnv'], dataDir: string): string {
  const given = optional(env, 'APP_SECRET');
  if (given !== undefined) {
    if (given.length < 32) fail('APP_SECRET', 'at least 32 characters', '<hidden>');
    return given;
  }
  if (appEnv === 'production') {
    throw new ConfigError('APP_SECRET is required when APP_ENV=production (at least 32 characters)');
  }
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensurePrivateDir(dataDir);
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

export function loadConfig(env: Env = process.env, cwd: string = process.cwd()): Config {
  const appEnv = oneOf(env, 'APP_ENV', APP_ENVS, 'development');
  const rawDataDir = text(env, 'DATA_DIR', './data');
  const dataDir = isAbsolute(rawDataDir) ? rawDataDir : resolve(cwd, rawDataDir);
  const messagingDriver = oneOf(env, 'MESSAGING_DRIVER', SMS_DRIVERS, 'log');
  const whatsappDriver = oneOf(env, 'WHATSAPP_DRIVER', MESSAGING_DRIVERS, messagingDriver);
  const paymentsDriver = oneOf(env, 'PAYMENTS_DRIVER', PAYMENT_PROVIDERS, 'sandbox');
  const aiDriver = oneOf(env, 'AI_DRIVER', AI_DRIVERS, 'builtin');
  const role = oneOf(env, 'ROLE', ROLES, 'all');
  const databaseUrl = parseDatabaseUrl(env);

  if (appEnv === 'production') {
    if (optional(env, 'APP_SECRET') === undefined) {
      throw new ConfigError('APP_SECRET is required when APP_ENV=production (at least 32 characters)');
    }
    if (messagingDriver === 'log' || whatsappDriver === 'log') {
      throw new ConfigError(
        'MESSAGING_DRIVER/WHATSAPP_DRIVER=log is for development: APP_ENV=production needs twilio or whatsapp-cloud',
      );
    }
    if (paymentsDriver === 'sandbox') {
      throw new ConfigError(
        'PAYMENTS_DRIVER=sandbox is for development: APP_ENV=production needs PAYMENTS_DRIVER=notchpay',
      );
    }
  }
  if (role !== 'all' && !databaseUrl?.startsWith('postgres')) {
    throw new ConfigError(
      `ROLE=${role} needs DATABASE_URL=postgres://…: PGlite is one process's database, use ROLE=all`,
    );
  }

  const config: Config = {
    appEnv,
    appName: text(env, 'APP_NAME', 'Pronostics'),
    appSecret: '',
    role,
    port: integer(env, 'PORT', 3000, 0, 65535),
    host: text(env, 'HOST', '127.0.0.1'),
    dataDir,
    consoleDir: (() => {
      const raw = text(env, 'CONSOLE_DIR', './dist/console');
      return isAbsolute(raw) ? raw : resolve(cwd, raw);
    })(),
    databaseUrl,
    dbStatementTimeoutMs: integer(env, 'DB_STATEMENT_TIMEOUT_MS', 15_000, 100, 3_600_000),
    redisUrl: (() => {
      const raw = optional(env, 'REDIS_URL');
      if (raw !== undefined && !/^rediss?:\/\/.+/.test(raw)) fail('REDIS_URL', 'a redis:// URL', raw);
      return raw;
    })(),
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, appEnv === 'test' ? 'silent' : 'info'),
    trustProxy: parseTrustProxy(env),
    corsOrigins: parseCorsOrigins(env),
    bodyLimitBytes: integer(env, 'BODY_LIMIT_BYTES', 64 * 1024, 1024, 50 * 1024 * 1024),
    rateLimit: onOff(env, 'RATE_LIMIT', true),
    rateLimitPerMinute: integer(env, 'RATE_LIMIT_PER_MINUTE', 300, 1, 1_000_000),

    tokenIdleTtlSeconds: integer(env, 'TOKEN_IDLE_TTL_SECONDS', 600, 10, 30 * 24 * 3600),
    tokenMaxAgeSeconds: integer(env, 'TOKEN_MAX_AGE_SECONDS', 30 * 24 * 3600, 60, 366 * 24 * 3600),
    // Off in tests, which change users and tokens behind the service's back and look at once;
    // the cache's own tests turn it on.
    tokenCacheSeconds: integer(env, 'TOKEN_CACHE_SECONDS', appEnv === 'test' ? 0 : 10, 0, 60),
    otpTtlSeconds: integer(env, 'OTP_TTL_SECONDS', 600, 30, 3600),
    otpMaxAttempts: integer(env, 'OTP_MAX_ATTEMPTS', 5, 1, 20),
    otpResendCooldownSeconds: integer(env, 'OTP_RESEND_COOLDOWN_SECONDS', 60, 0, 3600),
    // docs/decisions.md, "Hardening: sign-in": sized for a Cameroon-first launch.
    otpCountryHourlyBudget: integer(env, 'OTP_COUNTRY_HOURLY_BUDGET', 500, 1, 10_000_000),
    otpGlobalHourlyBudget: integer(env, 'OTP_GLOBAL_HOURLY_BUDGET', 1500, 1, 10_000_000),
    otpReturningSharePercent: integer(env, 'OTP_RETURNING_SHARE_PERCENT', 50, 0, 100),
    welcomeCredits: integer(env, 'WELCOME_CREDITS', 0, 0, 1_000_000),
    withdrawMin: integer(env, 'WITHDRAW_MIN', 5000, 1, 100_000_000),
    referralCommissionPercent: integer(env, 'REFERRAL_COMMISSION_PERCENT', 10, 0, 100),
    payoutStuckSeconds: integer(env, 'PAYOUT_STUCK_SECONDS', 6 * 3600, 60, 30 * 24 * 3600),

    messagingDriver,
    whatsappDriver,
    twilio: {
      baseUrl: httpUrl(env, 'TWILIO_BASE_URL', 'https://api.twilio.com') as string,
      accountSid: optional(env, 'TWILIO_ACCOUNT_SID'),
      authToken: optional(env, 'TWILIO_AUTH_TOKEN'),
      smsFrom: optional(env, 'TWILIO_SMS_FROM'),
      messagingServiceSid: optional(env, 'TWILIO_MESSAGING_SERVICE_SID'),
      whatsappFrom: optional(env, 'TWILIO_WHATSAPP_FROM'),
      whatsappContentSid: optional(env, 'TWILIO_WHATSAPP_CONTENT_SID'),
    },
    whatsappCloud: {
      baseUrl: httpUrl(env, 'WHATSAPP_CLOUD_BASE_URL', 'https://graph.facebook.com') as string,
      apiVersion: text(env, 'WHATSAPP_CLOUD_API_VERSION', 'v21.0'),
      token: optional(env, 'WHATSAPP_CLOUD_TOKEN'),
      phoneNumberId: optional(env, 'WHATSAPP_CLOUD_PHONE_NUMBER_ID'),
      templateName: text(env, 'WHATSAPP_CLOUD_TEMPLATE', 'code_verification'),
      templateLanguage: text(env, 'WHATSAPP_CLOUD_TEMPLATE_LANGUAGE', 'fr'),
    },

    paymentsDriver,
    paymentSandboxDelayMs: integer(env, 'PAYMENT_SANDBOX_DELAY_MS', 2000, 0, 3_600_000),
    paymentMaxPending: integer(env, 'PAYMENT_MAX_PENDING', 10, 1, 1000),
    notchpay: {
      baseUrl: httpUrl(env, 'NOTCHPAY_BASE_URL', 'https://api.notchpay.co') as string,
      publicKey: optional(env, 'NOTCHPAY_PUBLIC_KEY'),
      privateKey: optional(env, 'NOTCHPAY_PRIVATE_KEY'),
      webhookSecret: optional(env, 'NOTCHPAY_WEBHOOK_SECRET'),
      chargeMethod: oneOf(env, 'NOTCHPAY_CHARGE_METHOD', NOTCHPAY_CHARGE_METHODS, 'POST'),
      timeoutMs: integer(env, 'NOTCHPAY_TIMEOUT_MS', 15_000, 1000, 120_000),
    },

    aiDriver,
    ai: {
      baseUrl: httpUrl(env, 'AI_BASE_URL', undefined),
      apiKey: optional(env, 'AI_API_KEY'),
      model: optional(env, 'AI_MODEL'),
      timeoutMs: integer(env, 'AI_TIMEOUT_MS', 10_000, 100, 600_000),
      narrativeDeadlineMs: integer(env, 'AI_NARRATIVE_DEADLINE_MS', 40_000, 100, 3_600_000),
    },
    resultsBaseUrl: httpUrl(env, 'RESULTS_BASE_URL', 'https://www.football-data.co.uk/mmz4281') as string,
    resultsSyncLeagues: parseSyncLeagues(env, appEnv),
    workerConcurrency: integer(env, 'WORKER_CONCURRENCY', 4, 1, 64),
    workerLeaseSeconds: integer(env, 'WORKER_LEASE_SECONDS', 60, 10, 3600),

    storageDriver: oneOf(env, 'STORAGE_DRIVER', STORAGE_DRIVERS, 'local'),
    s3: {
      endpoint: httpUrl(env, 'S3_ENDPOINT', undefined),
      bucket: optional(env, 'S3_BUCKET'),
      accessKey: optional(env, 'S3_ACCESS_KEY'),
      secretKey: optional(env, 'S3_SECRET_KEY'),
      region: text(env, 'S3_REGION', 'us-east-1'),
      forcePathStyle: onOff(env, 'S3_FORCE_PATH_STYLE', optional(env, 'S3_ENDPOINT') !== undefined),
    },
  };

  if (aiDriver === 'openai') {
    for (const [name, value] of [
      ['AI_BASE_URL', config.ai.baseUrl],
      ['AI_API_KEY', config.ai.apiKey],
      ['AI_MODEL', config.ai.model],
    ] as const) {
      if (value === undefined) throw new ConfigError(`${name} is required when AI_DRIVER=openai`);
    }
  }
  requireDriverSettings(config);
  refuseTestKeysInProduction(config);
  requireStorageSettings(config);
  requireNarrativeInsideLease(config);
  config.appSecret = resolveSecret(env, appEnv, dataDir);
  return Object.freeze(config);
}

/** A driver chosen without the settings it needs is a start error, not a failure at the first send. */
function requireDriverSettings(config: Config): void {
  const uses = new Set([config.messagingDriver, config.whatsappDriver]);
  const need = (name: string, value: string | undefined, driver: string) => {
    if (value === undefined) throw new ConfigError(`${name} is required when ${driver} is used`);
  };
  if (uses.has('twilio')) {
    need('TWILIO_ACCOUNT_SID', config.twilio.accountSid, 'the twilio driver');
    need('TWILIO_AUTH_TOKEN', config.twilio.authToken, 'the twilio driver');
    if (config.messagingDriver === 'twilio' && !config.twilio.smsFrom && !config.twilio.messagingServiceSid) {
      throw new ConfigError('TWILIO_SMS_FROM or TWILIO_MESSAGING_SERVICE_SID is required for twilio SMS');
    }
  }
  if (config.whatsappDriver === 'twilio') {
    need('TWILIO_WHATSAPP_FROM', config.twilio.whatsappFrom, 'WHATSAPP_DRIVER=twilio');
    need('TWILIO_WHATSAPP_CONTENT_SID', config.twilio.whatsappContentSid, 'WHATSAPP_DRIVER=twilio');
  }
  if (config.paymentsDriver === 'notchpay') {
    need('NOTCHPAY_PUBLIC_KEY', config.notchpay.publicKey, 'PAYMENTS_DRIVER=notchpay');
    // Withdrawals are paid out by transfers, which need the private key (`X-Grant`).
    need('NOTCHPAY_PRIVATE_KEY', config.notchpay.privateKey, 'PAYMENTS_DRIVER=notchpay');
    need('NOTCHPAY_WEBHOOK_SECRET', config.notchpay.webhookSecret, 'PAYMENTS_DRIVER=notchpay');
  }
  if (config.whatsappDriver === 'whatsapp-cloud') {
    need('WHATSAPP_CLOUD_TOKEN', config.whatsappCloud.token, 'WHATSAPP_DRIVER=whatsapp-cloud');
    need(
      'WHATSAPP_CLOUD_PHONE_NUMBER_ID',
      config.whatsappCloud.phoneNumberId,
      'WHATSAPP_DRIVER=whatsapp-cloud',
    );
  }
}

/**
 * NotchPay's test keys select its sandbox (INTEGRATIONS.md: they carry a `test_` marker, as in
 * `pk_test_…`): in production they would take no real money while the service grants credits.
 */
function refuseTestKeysInProduction(config: Config): void {
  if (config.appEnv !== 'production' || config.paymentsDriver !== 'notchpay') return;
  for (const [name, value] of [
    ['NOTCHPAY_PUBLIC_KEY', config.notchpay.publicKey],
    ['NOTCHPAY_PRIVATE_KEY', config.notchpay.privateKey],
  ] as const) {
    if (value !== undefined && /(^|[._-])test([._-]|$)/i.test(value)) {
      throw new ConfigError(`${name} is a NotchPay test key: APP_ENV=production needs live keys`);
    }
  }
}

/**
 * What the start should say loudly: settings that are valid but dangerous together. The sandbox
 * payments driver grants credits without money; beside a messaging driver that reaches real
 * phones (APP_ENV left unset on a server, say), anyone can sign in and buy credits for free.
 */
export function configWarnings(config: Config): string[] {
  const warnings: string[] = [];
  const realMessaging = config.messagingDriver !== 'log' || config.whatsappDriver !== 'log';
  if (config.paymentsDriver === 'sandbox' && realMessaging) {
    warnings.push(
      `PAYMENTS_DRIVER=sandbox grants credits without payment while sign-in codes go to real phones (MESSAGING_DRIVER=${config.messagingDriver}, WHATSAPP_DRIVER=${config.whatsappDriver}): anyone can buy credits for free. Set APP_ENV=production and PAYMENTS_DRIVER=notchpay on a server (APP_ENV=${config.appEnv}).`,
    );
  }
  return warnings;
}

/** STORAGE_DRIVER=s3 without its bucket or keys is a start error, not a failure at the first upload. */
function requireStorageSettings(config: Config): void {
  if (config.storageDriver !== 's3') return;
  for (const [name, value] of [
    ['S3_BUCKET', config.s3.bucket],
    ['S3_ACCESS_KEY', config.s3.accessKey],
    ['S3_SECRET_KEY', config.s3.secretKey],
  ] as const) {
    if (value === undefined) throw new ConfigError(`${name} is required when STORAGE_DRIVER=s3`);
  }
}

/**
 * A paid analysis must never be lost to a slow LLM: the narrator's deadline leaves a third of the
 * job lease to the statistical model and the writes, and the narrator's tries fit its deadline.
 */
function requireNarrativeInsideLease(config: Config): void {
  const { narrativeDeadlineMs, timeoutMs } = config.ai;
  const leaseMs = config.workerLeaseSeconds * 1000;
  const narrativeMaxMs = Math.floor((leaseMs * 2) / 3);
  if (narrativeDeadlineMs > narrativeMaxMs) {
    throw new ConfigError(
      `AI_NARRATIVE_DEADLINE_MS=${narrativeDeadlineMs} does not fit the job lease: at most ${narrativeMaxMs} ms (two thirds of WORKER_LEASE_SECONDS=${config.workerLeaseSeconds})`,
    );
  }
  const worstCaseMs = narratorWorstCaseMs(timeoutMs);
  if (config.aiDriver === 'openai' && worstCaseMs > narrativeDeadlineMs) {
    throw new ConfigError(
      `AI_TIMEOUT_MS=${timeoutMs} does not fit AI_NARRATIVE_DEADLINE_MS=${narrativeDeadlineMs}: 3 tries and their pauses may take ${worstCaseMs} ms`,
    );
  }
}

/** For process entry points: the configuration, or one line on stderr and exit code 1. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }
}

/** Configuration for tests and tools: defaults plus overrides, no files written. */
export function testConfig(overrides: Partial<Config> = {}): Config {
  const base = loadConfig(
    {
      APP_ENV: 'test',
      APP_SECRET: 'test-secret-0123456789abcdef0123456789abcdef',
      DATABASE_URL: 'memory://',
    },
    process.cwd(),
  );
  return Object.freeze({ ...base, ...overrides });
}
