// The service's configuration: every environment variable is read and validated here, once, and
// nowhere else (lint forbids `process.env` outside this file). Each variable is declared once, in
// ConfigSchema: its type with bounds or allowed values, its default and how its text is read; the
// Config type derives from it. A bad value stops the start with one line naming the variable and
// what it accepts; the rules after the schema refuse settings that are valid alone but not together.
import { createECDH, createPrivateKey, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { isAbsolute, join, resolve } from 'node:path';
import { type Static, Type } from 'typebox';
import {
  aiDrivers,
  appEnvs,
  isOneOf,
  logLevels,
  messagingDrivers,
  notchpayChargeMethods,
  type PaymentProvider,
  paymentProviders,
  pushDrivers,
  roles,
  smsDrivers,
  storageDrivers,
  switchOff,
  webpushDrivers,
} from './lib/allowed-values.js';
import {
  ConfigError,
  choice,
  directory,
  type Env,
  hostList,
  httpUrl,
  onOff,
  optionalText,
  type ReadEarlier,
  Refusal,
  readSettings,
  type SettingKeywords,
  text,
  wholeNumber,
} from './lib/env-settings.js';
import { narratorWorstCaseMs } from './lib/narrator-retries.js';
import { ensurePrivateDir } from './lib/private-files.js';

export type {
  AiDriverName,
  MessagingDriverName,
  PushDriverName,
  Role,
  StorageDriverName,
  WebpushDriverName,
} from './lib/allowed-values.js';
export { ConfigError };
export type PaymentsDriverName = PaymentProvider;
export type TrustProxy = Config['trustProxy'];

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

/** League codes, duplicates dropped; `none` (or nothing) is no league. */
function parseLeagueCodes(raw: string): string[] {
  const codes = raw
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part !== '' && part.toLowerCase() !== 'none');
  return [...new Set(codes)];
}

/** FIXTURES_URL: the file's address on the web, or a file of this machine (`file:///…`). */
function parseFixturesUrl(raw: string): string {
  let protocol: string;
  try {
    protocol = new URL(raw.trim()).protocol;
  } catch {
    throw new Refusal(raw);
  }
  if (protocol !== 'http:' && protocol !== 'https:' && protocol !== 'file:') throw new Refusal(raw);
  return raw.trim();
}

const SERVICE_ACCOUNT = 'a service account key: its JSON, or the path of its file';

/**
 * FCM_SERVICE_ACCOUNT: the Google service account key (the JSON file the Firebase console gives),
 * as its JSON text or the path of its file. Read and checked at start, so a missing file or a key
 * that cannot sign is a start error, not a failure at the first push. Never quoted in an error: the
 * JSON holds the private key (a path is quoted).
 */
function parseServiceAccount(raw: string, cwd: string): ServiceAccount {
  const given = raw.trim();
  const isJson = given.startsWith('{');
  const shown = isJson ? '<JSON>' : given;
  const refuse = (why: string) => new Refusal(shown, `${SERVICE_ACCOUNT} (${why})`);
  let text = given;
  if (!isJson) {
    const path = isAbsolute(given) ? given : resolve(cwd, given);
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw refuse(`cannot read the file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw refuse('not JSON');
  }
  const field = (name: string) => {
    const value = key?.[name];
    if (typeof value !== 'string' || value.trim() === '') throw refuse(`no ${name}`);
    return value;
  };
  const account = {
    projectId: field('project_id'),
    clientEmail: field('client_email'),
    privateKey: field('private_key'),
    tokenUri: key?.token_uri === undefined ? 'https://oauth2.googleapis.com/token' : field('token_uri'),
  };
  try {
    createPrivateKey(account.privateKey);
  } catch {
    throw refuse('its private_key is not a PEM private key');
  }
  if (!/^https?:\/\/./.test(account.tokenUri)) throw refuse('its token_uri is not an http(s) URL');
  return account;
}

const ServiceAccountSchema = Type.Object({
  projectId: Type.String(),
  clientEmail: Type.String(),
  privateKey: Type.String(),
  tokenUri: Type.String(),
});
export type ServiceAccount = Static<typeof ServiceAccountSchema>;

const inTests = (earlier: ReadEarlier) => earlier('APP_ENV') === 'test';
const inProduction = (earlier: ReadEarlier) => earlier('APP_ENV') === 'production';

const ConfigSchema = Type.Object({
  appEnv: choice('APP_ENV', appEnvs, { default: 'development' }),
  appName: text('APP_NAME', { default: 'Pronostics' }),
  appSecret: Type.String({
    env: 'APP_SECRET',
    minLength: 32,
    accepts: 'at least 32 characters',
    hidden: true,
    // Unset: required in production, elsewhere generated once into DATA_DIR (after every check).
    default: '',
    description: 'The secret that keys code and token hashes.',
  } satisfies SettingKeywords<string> & { minLength: number }),
  role: choice('ROLE', roles, { default: 'all' }),
  port: wholeNumber('PORT', { default: 3000, minimum: 0, maximum: 65535 }),
  heapGrowingPercent: wholeNumber('HEAP_GROWING_PERCENT', {
    default: 50,
    minimum: 0,
    maximum: 300,
    description:
      "How much V8's heap may grow past its live size before a full garbage collection, in % (0: V8's own factor, 10 to 300 %). Smaller keeps the resident memory near the live size for a little more GC work.",
  }),
  host: text('HOST', { default: '127.0.0.1' }),
  dataDir: directory('DATA_DIR', { default: './data' }),
  consoleDir: directory('CONSOLE_DIR', {
    default: './dist/console',
    description:
      "The admin console's built files (`npm run build` writes them to dist/console), served at /admin.",
  }),
  webappDir: directory('WEBAPP_DIR', {
    default: './dist/webapp',
    description:
      "The web app's built files (`npm run build` writes them to dist/webapp, with .br and .gz copies), served at /app/.",
  }),
  databaseUrl: optionalText('DATABASE_URL', {
    pattern: '^(?:memory://$|postgres(?:ql)?://.)',
    accepts: 'unset (embedded PGlite), memory:// or a postgres:// URL',
    description:
      'Unset: PGlite in DATA_DIR/pglite; `memory://`: throw-away PGlite; `postgres://…`: PostgreSQL.',
  }),
  pgliteSharedBuffersMb: wholeNumber('PGLITE_SHARED_BUFFERS_MB', {
    // Measured (docs/performance.md): 16 served the list as fast as 128 for 135 MB less memory; the
    // pages it misses come from the operating system's file cache.
    default: 16,
    minimum: 1,
    maximum: 4096,
    description:
      "The embedded database's buffer cache (without DATABASE_URL), in MB: held in the process's memory for good once filled; the pages it misses are read through the file system (the OS caches them).",
  }),
  dbStatementTimeoutMs: wholeNumber('DB_STATEMENT_TIMEOUT_MS', {
    default: 15_000,
    minimum: 100,
    maximum: 3_600_000,
    description: 'PostgreSQL only: the longest one statement may run before the server cancels it.',
  }),
  redisUrl: optionalText('REDIS_URL', { pattern: '^rediss?://.', accepts: 'a redis:// URL' }),
  logLevel: choice('LOG_LEVEL', logLevels, {
    defaultFrom: (earlier) => (inTests(earlier) ? 'silent' : 'info'),
  }),
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

  tokenIdleTtlSeconds: wholeNumber('TOKEN_IDLE_TTL_SECONDS', {
    default: 600,
    minimum: 10,
    maximum: 30 * 24 * 3600,
  }),
  tokenMaxAgeSeconds: wholeNumber('TOKEN_MAX_AGE_SECONDS', {
    default: 30 * 24 * 3600,
    minimum: 60,
    maximum: 366 * 24 * 3600,
    description: 'Absolute lifetime of a token, whatever its activity.',
  }),
  eventsRetentionDays: wholeNumber('EVENTS_RETENTION_DAYS', {
    default: 7,
    minimum: 1,
    maximum: 366,
    description: 'Days the event logs keep an event before housekeeping purges it.',
  }),
  eventsHeartbeatSeconds: wholeNumber('EVENTS_HEARTBEAT_SECONDS', {
    default: 15,
    minimum: 1,
    maximum: 300,
    description: 'Seconds between the comment lines an event stream sends, so proxies keep it open.',
  }),
  eventsMaxStreamsPerUser: wholeNumber('EVENTS_MAX_STREAMS_PER_USER', {
    default: 3,
    minimum: 1,
    maximum: 100,
    description:
      'Event streams one user may hold open in one process (429 past it, whatever RATE_LIMIT says).',
  }),
  eventsMaxStreams: wholeNumber('EVENTS_MAX_STREAMS', {
    default: 10_000,
    minimum: 1,
    maximum: 1_000_000,
    description: 'Event streams one process holds open at most (429 past it).',
  }),
  eventsBufferEvents: wholeNumber('EVENTS_BUFFER_EVENTS', {
    default: 100,
    minimum: 1,
    maximum: 100_000,
    description: 'Events waiting for a slow stream (past what the socket holds) before it is disconnected.',
  }),
  tokenCacheSeconds: wholeNumber('TOKEN_CACHE_SECONDS', {
    // Off in tests, which change users and tokens behind the service's back and look at once;
    // the cache's own tests turn it on.
    defaultFrom: (earlier) => (inTests(earlier) ? 0 : 10),
    minimum: 0,
    maximum: 60,
    description:
      'How long a process may answer for a checked token from memory (0: every request reads the database).',
  }),
  otpTtlSeconds: wholeNumber('OTP_TTL_SECONDS', { default: 600, minimum: 30, maximum: 3600 }),
  otpMaxAttempts: wholeNumber('OTP_MAX_ATTEMPTS', { default: 5, minimum: 1, maximum: 20 }),
  otpResendCooldownSeconds: wholeNumber('OTP_RESEND_COOLDOWN_SECONDS', {
    default: 60,
    minimum: 0,
    maximum: 3600,
  }),
  // docs/decisions/0020-sms-budgets.md: sized for a Cameroon-first launch.
  otpCountryHourlyBudget: wholeNumber('OTP_COUNTRY_HOURLY_BUDGET', {
    default: 500,
    minimum: 1,
    maximum: 10_000_000,
    description: 'Codes delivered per country calling code in a rolling hour (SMS-fraud cap).',
  }),
  otpGlobalHourlyBudget: wholeNumber('OTP_GLOBAL_HOURLY_BUDGET', {
    default: 1500,
    minimum: 1,
    maximum: 10_000_000,
    description: 'Codes delivered in all in a rolling hour (SMS-fraud cap).',
  }),
  otpReturningSharePercent: wholeNumber('OTP_RETURNING_SHARE_PERCENT', {
    default: 50,
    minimum: 0,
    maximum: 100,
    description: 'Share (%) of each SMS budget kept for numbers that verified a code before.',
  }),
  // docs/decisions/0104-signup-challenge.md: about 0.5 ms of a server core per counter tried.
  signupChallengeCost: wholeNumber('SIGNUP_CHALLENGE_COST', {
    default: 1000,
    minimum: 1,
    maximum: 100_000,
    description:
      'PBKDF2 iterations per counter a sign-up challenge makes the client try (its work per try; the tries grow with the pressure).',
  }),
  welcomeCredits: wholeNumber('WELCOME_CREDITS', { default: 0, minimum: 0, maximum: 1_000_000 }),
  withdrawMin: wholeNumber('WITHDRAW_MIN', { default: 5000, minimum: 1, maximum: 100_000_000 }),
  referralCommissionPercent: wholeNumber('REFERRAL_COMMISSION_PERCENT', {
    default: 10,
    minimum: 0,
    maximum: 100,
  }),
  payoutStuckSeconds: wholeNumber('PAYOUT_STUCK_SECONDS', {
    default: 6 * 3600,
    minimum: 60,
    maximum: 30 * 24 * 3600,
    description:
      'A payout still not final this long after its approval is escalated to an admin (never refunded by itself).',
  }),

  // Typed as any messaging driver: the messenger refuses at creation one that sends no SMS.
  messagingDriver: choice('MESSAGING_DRIVER', smsDrivers, { default: 'log', typedAs: messagingDrivers }),
  whatsappDriver: choice('WHATSAPP_DRIVER', messagingDrivers, {
    defaultFrom: (earlier) => earlier('MESSAGING_DRIVER') as (typeof smsDrivers)[number],
  }),
  twilio: Type.Object({
    baseUrl: httpUrl('TWILIO_BASE_URL', { default: 'https://api.twilio.com' }),
    accountSid: optionalText('TWILIO_ACCOUNT_SID'),
    authToken: optionalText('TWILIO_AUTH_TOKEN'),
    smsFrom: optionalText('TWILIO_SMS_FROM'),
    messagingServiceSid: optionalText('TWILIO_MESSAGING_SERVICE_SID'),
    whatsappFrom: optionalText('TWILIO_WHATSAPP_FROM'),
    whatsappContentSid: optionalText('TWILIO_WHATSAPP_CONTENT_SID'),
    /** The English code template; unset, English requests get the French one. */
    whatsappContentSidEn: optionalText('TWILIO_WHATSAPP_CONTENT_SID_EN'),
  }),
  whatsappCloud: Type.Object({
    baseUrl: httpUrl('WHATSAPP_CLOUD_BASE_URL', { default: 'https://graph.facebook.com' }),
    apiVersion: text('WHATSAPP_CLOUD_API_VERSION', { default: 'v21.0' }),
    token: optionalText('WHATSAPP_CLOUD_TOKEN'),
    phoneNumberId: optionalText('WHATSAPP_CLOUD_PHONE_NUMBER_ID'),
    templateName: text('WHATSAPP_CLOUD_TEMPLATE', { default: 'code_verification' }),
    templateLanguage: text('WHATSAPP_CLOUD_TEMPLATE_LANGUAGE', { default: 'fr' }),
    /**
     * The English code template: its name (unset: WHATSAPP_CLOUD_TEMPLATE's, for a template approved
     * in both languages) and its language code (Meta's, e.g. `en` or `en_US`; `en` when only the
     * name is set). Both unset, English requests get the French template.
     */
    templateNameEn: optionalText('WHATSAPP_CLOUD_TEMPLATE_NAME_EN'),
    templateLanguageEn: optionalText('WHATSAPP_CLOUD_TEMPLATE_LANGUAGE_EN'),
  }),

  paymentsDriver: choice('PAYMENTS_DRIVER', paymentProviders, { default: 'sandbox' }),
  paymentSandboxDelayMs: wholeNumber('PAYMENT_SANDBOX_DELAY_MS', {
    default: 2000,
    minimum: 0,
    maximum: 3_600_000,
  }),
  paymentMaxPending: wholeNumber('PAYMENT_MAX_PENDING', {
    default: 10,
    minimum: 1,
    maximum: 1000,
    description: 'Pending payments one user may hold at once (429 past it; lifted by RATE_LIMIT=off).',
  }),
  notchpay: Type.Object({
    baseUrl: httpUrl('NOTCHPAY_BASE_URL', { default: 'https://api.notchpay.co' }),
    publicKey: optionalText('NOTCHPAY_PUBLIC_KEY'),
    privateKey: optionalText('NOTCHPAY_PRIVATE_KEY'),
    webhookSecret: optionalText('NOTCHPAY_WEBHOOK_SECRET', {
      description: 'The webhook hash key: HMAC-SHA256 of the raw body, hex, in `x-notch-signature`.',
    }),
    chargeMethod: choice('NOTCHPAY_CHARGE_METHOD', notchpayChargeMethods, { default: 'POST' }),
    timeoutMs: wholeNumber('NOTCHPAY_TIMEOUT_MS', {
      default: 15_000,
      minimum: 1000,
      maximum: 120_000,
      description: 'Per call to NotchPay.',
    }),
  }),

  pushDriver: choice('PUSH_DRIVER', pushDrivers, {
    default: 'log',
    description:
      'How events reach registered phones: `log` (DATA_DIR/push-outbox.jsonl, nothing sent) or `fcm` (Firebase Cloud Messaging).',
  }),
  pushMaxAgeSeconds: wholeNumber('PUSH_MAX_AGE_SECONDS', {
    default: 3600,
    minimum: 60,
    maximum: 86_400,
    description:
      'An event older than this is no longer pushed (a late notification is noise); the log keeps it.',
  }),
  fcm: Type.Object({
    serviceAccount: Type.Union([ServiceAccountSchema, Type.Undefined()], {
      env: 'FCM_SERVICE_ACCOUNT',
      accepts: SERVICE_ACCOUNT,
      default: undefined,
      parse: parseServiceAccount,
      description:
        'The Google service account key (JSON, or the path of its file), required with PUSH_DRIVER=fcm.',
    } satisfies SettingKeywords<ServiceAccount | undefined>),
    projectId: optionalText('FCM_PROJECT_ID', {
      pattern: '^[a-z][a-z0-9-]{4,61}[a-z0-9]$',
      accepts: 'a Firebase project id such as my-app-12345',
      description: "The Firebase project messages go to; unset: the service account key's project_id.",
    }),
    baseUrl: httpUrl('FCM_BASE_URL', { default: 'https://fcm.googleapis.com' }),
  }),
  webpush: Type.Object({
    driver: choice('WEBPUSH_DRIVER', webpushDrivers, {
      defaultFrom: (earlier) => (inProduction(earlier) ? 'vapid' : 'log'),
      description:
        'How events reach `webpush` devices (the web app in a browser): `log` (DATA_DIR/push-outbox.jsonl, nothing sent) or `vapid` (Web Push with the VAPID keys). Default: vapid in production, log elsewhere.',
    }),
    publicKey: optionalText('WEBPUSH_VAPID_PUBLIC_KEY', {
      pattern: '^[A-Za-z0-9_-]{87}$',
      accepts: 'a VAPID public key: a P-256 point, 65 bytes in base64url (87 characters)',
      description:
        'The VAPID public key browsers subscribe with (`GET /api/push/webpush-key`). Unset: required in production with WEBPUSH_DRIVER=vapid, elsewhere generated once into DATA_DIR with its private key.',
    }),
    privateKey: optionalText('WEBPUSH_VAPID_PRIVATE_KEY', {
      pattern: '^[A-Za-z0-9_-]{43}$',
      accepts: 'a VAPID private key: 32 bytes in base64url (43 characters)',
      hidden: true,
      description:
        'The VAPID private key that signs each push (`npx web-push generate-vapid-keys` makes a pair).',
    }),
    subject: optionalText('WEBPUSH_SUBJECT', {
      pattern: '^(mailto:[^\\s@]+@[^\\s@]+|https://\\S+)$',
      accepts: 'a mailto: address or an https:// URL',
      description:
        'Who push services may contact about our pushes (VAPID `sub`): a mailto: address or an https:// URL. Required with WEBPUSH_DRIVER=vapid in production.',
    }),
    allowedHosts: hostList('WEBPUSH_ALLOWED_HOSTS', {
      default: [
        'fcm.googleapis.com',
        'updates.push.services.mozilla.com',
        'web.push.apple.com',
        '*.notify.windows.com',
      ],
      description:
        'The push-service hosts a subscription endpoint may name (`*.example.com`: any subdomain). Anything else is refused at registration: the service never posts to an address a stranger chose.',
    }),
  }),

  aiDriver: choice('AI_DRIVER', aiDrivers, { default: 'builtin' }),
  ai: Type.Object({
    baseUrl: httpUrl('AI_BASE_URL'),
    apiKey: optionalText('AI_API_KEY'),
    model: optionalText('AI_MODEL'),
    timeoutMs: wholeNumber('AI_TIMEOUT_MS', {
      default: 10_000,
      minimum: 100,
      maximum: 600_000,
      description: 'Per LLM call, reading the answer included.',
    }),
    narrativeDeadlineMs: wholeNumber('AI_NARRATIVE_DEADLINE_MS', {
      default: 40_000,
      minimum: 100,
      maximum: 3_600_000,
      description: 'For the whole rewrite, retries included; past it the statistical text stands.',
    }),
  }),
  resultsBaseUrl: httpUrl('RESULTS_BASE_URL', { default: 'https://www.football-data.co.uk/mmz4281' }),
  resultsSyncLeagues: Type.Array(Type.String({ pattern: '^[A-Za-z0-9]{1,8}$' }), {
    env: 'RESULTS_SYNC_LEAGUES',
    accepts: 'comma-separated league codes such as E0,SP1 (or none)',
    // Nothing leaves the machine in development or tests unless asked.
    defaultFrom: (earlier) => (inProduction(earlier) ? ['E0', 'SP1', 'D1', 'I1', 'F1'] : []),
    parse: parseLeagueCodes,
    description:
      'Leagues whose current season the worker downloads from RESULTS_BASE_URL daily (football-data.co.uk codes). Default: the five big leagues in production, none elsewhere.',
  } satisfies SettingKeywords<string[]>),
  fixturesUrl: Type.String({
    env: 'FIXTURES_URL',
    accepts: 'an http(s) URL or a file:// URL',
    default: 'https://www.football-data.co.uk/fixtures.csv',
    parse: parseFixturesUrl,
    description:
      "Where `fixtures:sync` downloads upcoming fixtures (football-data.co.uk's fixtures.csv); `file:///…` reads a local copy.",
  } satisfies SettingKeywords<string>),
  downloadMaxBytes: wholeNumber('DOWNLOAD_MAX_BYTES', {
    default: 20 * 1024 * 1024,
    minimum: 1024,
    maximum: 1024 * 1024 * 1024,
    description:
      'Largest results or fixtures file a sync downloads (bytes); past it the sync fails with one line.',
  }),
  backupDir: Type.String({
    env: 'BACKUP_DIR',
    accepts: 'a path',
    defaultFrom: (earlier: ReadEarlier) => join(earlier('DATA_DIR') as string, 'backups'),
    parse: (raw: string, cwd: string) => (isAbsolute(raw) ? raw : resolve(cwd, raw)),
    description:
      'Where scheduled backups are written (`npm run cli -- backup` without a file too); never part of a backup itself.',
  } satisfies SettingKeywords<string>),
  backupIntervalHours: wholeNumber('BACKUP_INTERVAL_HOURS', {
    default: 0,
    minimum: 0,
    maximum: 720,
    description:
      'Hours between scheduled backups of the embedded database and its files, each verified once written (0: none).',
  }),
  backupKeep: wholeNumber('BACKUP_KEEP', {
    default: 7,
    minimum: 1,
    maximum: 1000,
    description:
      'How many scheduled backups BACKUP_DIR keeps: the newest N, older ones deleted once a new one is verified.',
  }),
  fixturesSyncIntervalHours: wholeNumber('FIXTURES_SYNC_INTERVAL_HOURS', {
    // Nothing leaves the machine in development or tests unless asked.
    defaultFrom: (earlier) => (inProduction(earlier) ? 6 : 0),
    minimum: 0,
    maximum: 168,
    description:
      'How often the worker syncs fixtures of RESULTS_SYNC_LEAGUES from FIXTURES_URL (0: never; by hand with `fixtures:sync`). Default: 6 in production, 0 elsewhere.',
  }),
  workerConcurrency: wholeNumber('WORKER_CONCURRENCY', {
    default: 4,
    minimum: 1,
    maximum: 64,
    description: 'Analyses one worker process runs at once.',
  }),
  analysisQueueMaxWaitSeconds: wholeNumber('ANALYSIS_QUEUE_MAX_WAIT_SECONDS', {
    // Tests drain the queue by hand (or not at all) on a clock they move.
    defaultFrom: (earlier) => (inTests(earlier) ? 0 : 1),
    minimum: 0,
    maximum: 3600,
    description:
      'While the oldest analysis waiting for a worker has waited longer than this, new pronostics are held (ANALYSIS_QUEUE_HOLD_SECONDS, then 429) before any debit, so an accepted analysis does not queue for minutes (0: never hold). Default: 1, 0 in tests.',
  }),
  analysisQueueHoldSeconds: wholeNumber('ANALYSIS_QUEUE_HOLD_SECONDS', {
    default: 10,
    minimum: 1,
    maximum: 120,
    description: 'How long a new pronostic is held while the analysis queue is too deep, before a 429.',
  }),
  workerLeaseSeconds: wholeNumber('WORKER_LEASE_SECONDS', {
    default: 60,
    minimum: 10,
    maximum: 3600,
    description: 'How long a claim holds a pronostic row; an analysis still running then is aborted.',
  }),

  storageDriver: choice('STORAGE_DRIVER', storageDrivers, {
    default: 'local',
    description:
      'Where uploaded files (avatars, ticket attachments) live: DATA_DIR/files, or an S3-compatible bucket.',
  }),
  s3: Type.Object({
    endpoint: httpUrl('S3_ENDPOINT', {
      description: 'Unset: AWS S3 in S3_REGION; else any S3-compatible server (MinIO, Garage, R2…).',
    }),
    bucket: optionalText('S3_BUCKET'),
    accessKey: optionalText('S3_ACCESS_KEY'),
    secretKey: optionalText('S3_SECRET_KEY'),
    region: text('S3_REGION', { default: 'us-east-1' }),
    forcePathStyle: onOff('S3_FORCE_PATH_STYLE', {
      defaultFrom: (earlier) => earlier('S3_ENDPOINT') !== undefined,
      description: 'Path-style URLs (`endpoint/bucket/key`): what most S3-compatible servers need.',
    }),
  }),
});

export type Config = Static<typeof ConfigSchema>;

export interface LoadOptions {
  /**
   * false: an unset APP_SECRET stays empty instead of being generated into DATA_DIR. For `restore`,
   * which must write nothing in DATA_DIR before the archive is checked (the archive brings its own).
   */
  generateSecret?: boolean;
  /**
   * true: in development, unset VAPID keys are generated into DATA_DIR (the service and the CLI, through
   * loadConfigOrExit). Off for every other reader, tests and tools, which must write nothing.
   */
  generateVapidKeys?: boolean;
}

/**
 * Every variable is read first, so a malformed value is named before any rule on settings taken
 * together; the secret is generated last, once the settings are known to be whole.
 */
export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  options: LoadOptions = {},
): Config {
  const config = readSettings(ConfigSchema, env, cwd);
  refuseDevelopmentSettingsInProduction(config);
  requirePostgresForSplitRoles(config);
  requireAiSettings(config);
  requireDriverSettings(config);
  refuseTestKeysInProduction(config);
  requireStorageSettings(config);
  requireNarrativeInsideLease(config);
  refuseMetricsPortClash(config);
  requireWebpushKeys(config);
  if (options.generateSecret !== false) {
    if (config.appSecret === '') config.appSecret = generatedSecret(config.dataDir);
    const vapidWanted = options.generateVapidKeys === true && config.appEnv === 'development';
    if (vapidWanted && config.webpush.publicKey === undefined) {
      Object.assign(config.webpush, generatedVapidKeys(config.dataDir));
    }
  }
  return Object.freeze(config);
}

function refuseDevelopmentSettingsInProduction(config: Config): void {
  if (config.appEnv !== 'production') return;
  if (config.appSecret === '') {
    throw new ConfigError('APP_SECRET is required when APP_ENV=production (at least 32 characters)');
  }
  if (config.messagingDriver === 'log' || config.whatsappDriver === 'log') {
    throw new ConfigError(
      'MESSAGING_DRIVER/WHATSAPP_DRIVER=log is for development: APP_ENV=production needs twilio or whatsapp-cloud',
    );
  }
  if (config.paymentsDriver === 'sandbox') {
    throw new ConfigError(
      'PAYMENTS_DRIVER=sandbox is for development: APP_ENV=production needs PAYMENTS_DRIVER=notchpay',
    );
  }
}

/** Two processes cannot share PGlite, which is one process's database. */
function requirePostgresForSplitRoles(config: Config): void {
  if (config.role !== 'all' && !config.databaseUrl?.startsWith('postgres')) {
    throw new ConfigError(
      `ROLE=${config.role} needs DATABASE_URL=postgres://…: PGlite is one process's database, use ROLE=all`,
    );
  }
}

function requireAiSettings(config: Config): void {
  if (config.aiDriver !== 'openai') return;
  requireSet('AI_DRIVER=openai', {
    AI_BASE_URL: config.ai.baseUrl,
    AI_API_KEY: config.ai.apiKey,
    AI_MODEL: config.ai.model,
  });
}

/** Settings a choice needs: the first one unset stops the start with `NAME is required when <when>`. */
function requireSet(when: string, settings: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) throw new ConfigError(`${name} is required when ${when}`);
  }
}

/** The secret APP_SECRET would give, generated once into DATA_DIR and read back from there after. */
function generatedSecret(dataDir: string): string {
  const file = join(dataDir, 'app-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  ensurePrivateDir(dataDir);
  const secret = randomBytes(32).toString('hex');
  writeFileSync(file, `${secret}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secret;
}

/** DATA_DIR's generated VAPID key pair (development only), beside the generated APP_SECRET. */
export const VAPID_KEYS_FILE = 'webpush-vapid.json';

/** A VAPID key pair generated once into DATA_DIR and read back from there after. */
function generatedVapidKeys(dataDir: string): { publicKey: string; privateKey: string } {
  const file = join(dataDir, VAPID_KEYS_FILE);
  if (existsSync(file))
    return JSON.parse(readFileSync(file, 'utf8')) as { publicKey: string; privateKey: string };
  ensurePrivateDir(dataDir);
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const keys = {
    publicKey: ecdh.getPublicKey().toString('base64url'),
    privateKey: ecdh.getPrivateKey().toString('base64url').padStart(43, 'A'),
  };
  writeFileSync(file, `${JSON.stringify(keys)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return keys;
}

/**
 * The VAPID keys go in pairs, and the public key must be the private key's (a mismatch would be
 * found only by every browser refusing every push). With keys, the `vapid` driver needs its subject;
 * without keys outside development, web push is off: no key to subscribe with, no `webpush` device.
 */
function requireWebpushKeys(config: Config): void {
  const { publicKey, privateKey, subject, driver } = config.webpush;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError(
      'WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY are set together or not at all',
    );
  }
  if (publicKey !== undefined && privateKey !== undefined) {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    if (ecdh.getPublicKey().toString('base64url') !== publicKey) {
      throw new ConfigError('WEBPUSH_VAPID_PUBLIC_KEY is not the public key of WEBPUSH_VAPID_PRIVATE_KEY');
    }
  }
  // Without keys web push is off (configWarnings says so in production; development generates them).
  if (driver === 'vapid' && publicKey !== undefined) {
    requireSet('WEBPUSH_DRIVER=vapid', { WEBPUSH_SUBJECT: subject });
  }
}

/** A driver chosen without the settings it needs is a start error, not a failure at the first send. */
function requireDriverSettings(config: Config): void {
  const { twilio, notchpay, whatsappCloud } = config;
  if (config.messagingDriver === 'twilio' || config.whatsappDriver === 'twilio') {
    requireSet('the twilio driver is used', {
      TWILIO_ACCOUNT_SID: twilio.accountSid,
      TWILIO_AUTH_TOKEN: twilio.authToken,
    });
    if (config.messagingDriver === 'twilio' && !twilio.smsFrom && !twilio.messagingServiceSid) {
      throw new ConfigError('TWILIO_SMS_FROM or TWILIO_MESSAGING_SERVICE_SID is required for twilio SMS');
    }
  }
  if (config.whatsappDriver === 'twilio') {
    requireSet('WHATSAPP_DRIVER=twilio is used', {
      TWILIO_WHATSAPP_FROM: twilio.whatsappFrom,
      TWILIO_WHATSAPP_CONTENT_SID: twilio.whatsappContentSid,
    });
  }
  if (config.paymentsDriver === 'notchpay') {
    // Withdrawals are paid out by transfers, which need the private key (`X-Grant`).
    requireSet('PAYMENTS_DRIVER=notchpay is used', {
      NOTCHPAY_PUBLIC_KEY: notchpay.publicKey,
      NOTCHPAY_PRIVATE_KEY: notchpay.privateKey,
      NOTCHPAY_WEBHOOK_SECRET: notchpay.webhookSecret,
    });
  }
  if (config.pushDriver === 'fcm') {
    requireSet('PUSH_DRIVER=fcm', { FCM_SERVICE_ACCOUNT: config.fcm.serviceAccount ? 'set' : undefined });
  }
  if (config.whatsappDriver === 'whatsapp-cloud') {
    requireSet('WHATSAPP_DRIVER=whatsapp-cloud is used', {
      WHATSAPP_CLOUD_TOKEN: whatsappCloud.token,
      WHATSAPP_CLOUD_PHONE_NUMBER_ID: whatsappCloud.phoneNumberId,
    });
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
  if (config.appEnv === 'production' && config.webpush.publicKey === undefined) {
    warnings.push(
      'Web push is off: WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY are unset, so the web app cannot subscribe a browser to notifications (`npx web-push generate-vapid-keys` makes a pair; docs/operations.md, "Push notifications").',
    );
  }
  return warnings;
}

/** STORAGE_DRIVER=s3 without its bucket or keys is a start error, not a failure at the first upload. */
function requireStorageSettings(config: Config): void {
  if (config.storageDriver !== 's3') return;
  requireSet('STORAGE_DRIVER=s3', {
    S3_BUCKET: config.s3.bucket,
    S3_ACCESS_KEY: config.s3.accessKey,
    S3_SECRET_KEY: config.s3.secretKey,
  });
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

/** The metrics port is a second listener of the same process: it cannot be the service's own. */
function refuseMetricsPortClash(config: Config): void {
  if (config.metricsPort !== 0 && config.metricsPort === config.port && config.role !== 'worker') {
    throw new ConfigError(
      `METRICS_PORT=${config.metricsPort} is the service's PORT: give the metrics their own port (or 0 for none)`,
    );
  }
}

/** For process entry points: the configuration, or one line on stderr and exit code 1. */
export function loadConfigOrExit(options: LoadOptions = {}): Config {
  try {
    return loadConfig(process.env, process.cwd(), { generateVapidKeys: true, ...options });
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
      // A pair made for the tests (`npx web-push generate-vapid-keys`), as APP_SECRET above.
      WEBPUSH_VAPID_PUBLIC_KEY:
        'BASxLXNaHfu0hYKy1Bu6yYpKQUSP09vZXQYz2NfTNkFiW4cRaVO4vZ377-nGEy56X2dafxtvT7RnRu1URr3-398',
      WEBPUSH_VAPID_PRIVATE_KEY: 'VWGFpqoSsZ9V1lPD4pH-Hk6vqF_3eq6vCjSSgYibhJY',
    },
    process.cwd(),
  );
  return Object.freeze({ ...base, ...overrides });
}
