// Every environment variable the service reads, as a table: its default, each form it accepts and
// what that parses to, and the one line that stops the start on a bad value or a missing companion.
// The table pins the behaviour of src/config.ts so that a rewrite of the parser keeps it; a variable
// the parser reads without a row here fails the last test.
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Config, ConfigError, loadConfig } from '../../src/config.js';
import { ALL_COMPETITION_CODES } from '../../src/lib/competitions.js';

type Env = Record<string, string>;

const secret = 'x'.repeat(40);
const tombstoneKey = 't'.repeat(40);
const cwd = '/srv/app';
/** APP_SECRET and TOMBSTONE_KEY are set unless the row is about them. */
const load = (variable: string, env: Env) =>
  loadConfig(
    {
      ...(variable === 'APP_SECRET' ? {} : { APP_SECRET: secret }),
      ...(variable === 'TOMBSTONE_KEY' ? {} : { TOMBSTONE_KEY: tombstoneKey }),
      ...env,
    },
    cwd,
  );

const twilio: Env = {
  MESSAGING_DRIVER: 'twilio',
  TWILIO_ACCOUNT_SID: 'AC1',
  TWILIO_AUTH_TOKEN: 't',
  TWILIO_SMS_FROM: 'PRONOS',
  TWILIO_WHATSAPP_FROM: '+15550001',
  TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
};
const notchpay: Env = {
  PAYMENTS_DRIVER: 'notchpay',
  NOTCHPAY_PUBLIC_KEY: 'pk_live_1',
  NOTCHPAY_PRIVATE_KEY: 'sk_live_1',
  NOTCHPAY_WEBHOOK_SECRET: 'hsk_1',
};
const whatsappCloud: Env = {
  WHATSAPP_DRIVER: 'whatsapp-cloud',
  WHATSAPP_CLOUD_TOKEN: 'EAA1',
  WHATSAPP_CLOUD_PHONE_NUMBER_ID: '1055',
};
const openai: Env = {
  AI_DRIVER: 'openai',
  AI_BASE_URL: 'https://llm.example.com/v1',
  AI_API_KEY: 'sk-1',
  AI_MODEL: 'gpt-test',
};
const s3: Env = { STORAGE_DRIVER: 's3', S3_BUCKET: 'files', S3_ACCESS_KEY: 'AK', S3_SECRET_KEY: 'SK' };
const production: Env = { APP_ENV: 'production', ...twilio, ...notchpay };
const postgres: Env = { DATABASE_URL: 'postgres://db/app' };
/** A fresh directory for the secret generated when APP_SECRET is unset. */
const secretDir = mkdtempSync(join(tmpdir(), 'cfg-table-'));

/** A Google service account key (FCM_SERVICE_ACCOUNT), as JSON and as a file. */
const privateKey = generateKeyPairSync('rsa', { modulusLength: 1024 })
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
const serviceAccountKey = {
  type: 'service_account',
  project_id: 'pronostics-prod',
  private_key: privateKey,
  client_email: 'push@pronostics-prod.iam.gserviceaccount.com',
  token_uri: 'https://oauth2.googleapis.com/token',
};
const serviceAccountJson = JSON.stringify(serviceAccountKey);
const keyDir = mkdtempSync(join(tmpdir(), 'cfg-fcm-'));
const keyFile = join(keyDir, 'key.json');
writeFileSync(keyFile, serviceAccountJson);
const notJsonFile = join(keyDir, 'not-json.txt');
writeFileSync(notJsonFile, 'hello');
const parsedKey = {
  projectId: 'pronostics-prod',
  clientEmail: 'push@pronostics-prod.iam.gserviceaccount.com',
  privateKey,
  tokenUri: 'https://oauth2.googleapis.com/token',
};
const fcm: Env = { PUSH_DRIVER: 'fcm', FCM_SERVICE_ACCOUNT: keyFile };
const keyAccepts = 'a service account key: its JSON, or the path of its file';
/** A VAPID key pair (src/config.ts's test pair) and another's public key. */
const vapidPublic = 'BASxLXNaHfu0hYKy1Bu6yYpKQUSP09vZXQYz2NfTNkFiW4cRaVO4vZ377-nGEy56X2dafxtvT7RnRu1URr3-398';
const vapidPrivate = 'VWGFpqoSsZ9V1lPD4pH-Hk6vqF_3eq6vCjSSgYibhJY';
const vapid: Env = { WEBPUSH_VAPID_PUBLIC_KEY: vapidPublic, WEBPUSH_VAPID_PRIVATE_KEY: vapidPrivate };
const otherVapidPublic = `B${'Q'.repeat(86)}`;
const hostsAccepts =
  'host names separated by commas (*.example.com for any subdomain, host:port for another port than 443)';

/** [variable, value (undefined: unset), Config field (dot path), parsed value, other variables set] */
type Accepted = [string, string | undefined, string, unknown, Env?];

/** Whole numbers: [variable, field, default, min, max, other variables the bounds need]. */
const wholeNumbers: [string, string, number, number, number, Env?][] = [
  ['PORT', 'port', 3000, 0, 65535],
  ['DB_STATEMENT_TIMEOUT_MS', 'dbStatementTimeoutMs', 15_000, 100, 3_600_000],
  ['BODY_LIMIT_BYTES', 'bodyLimitBytes', 65_536, 1024, 52_428_800],
  ['RATE_LIMIT_PER_MINUTE', 'rateLimitPerMinute', 300, 1, 1_000_000],
  ['TOKEN_IDLE_TTL_SECONDS', 'tokenIdleTtlSeconds', 600, 10, 2_592_000],
  ['TOKEN_MAX_AGE_SECONDS', 'tokenMaxAgeSeconds', 2_592_000, 60, 31_622_400],
  ['EVENTS_RETENTION_DAYS', 'eventsRetentionDays', 7, 1, 366],
  ['EVENTS_HEARTBEAT_SECONDS', 'eventsHeartbeatSeconds', 15, 1, 300],
  ['EVENTS_MAX_STREAMS_PER_USER', 'eventsMaxStreamsPerUser', 3, 1, 100],
  ['EVENTS_MAX_STREAMS', 'eventsMaxStreams', 10_000, 1, 1_000_000],
  ['EVENTS_BUFFER_EVENTS', 'eventsBufferEvents', 100, 1, 100_000],
  ['PUSH_MAX_AGE_SECONDS', 'pushMaxAgeSeconds', 3600, 60, 86_400],
  ['TOKEN_CACHE_SECONDS', 'tokenCacheSeconds', 60, 0, 300],
  ['METRICS_PORT', 'metricsPort', 0, 0, 65535],
  ['OTP_TTL_SECONDS', 'otpTtlSeconds', 600, 30, 3600],
  ['OTP_MAX_ATTEMPTS', 'otpMaxAttempts', 5, 1, 20],
  ['OTP_RESEND_COOLDOWN_SECONDS', 'otpResendCooldownSeconds', 60, 0, 3600],
  ['OTP_COUNTRY_HOURLY_BUDGET', 'otpCountryHourlyBudget', 500, 1, 10_000_000],
  ['OTP_GLOBAL_HOURLY_BUDGET', 'otpGlobalHourlyBudget', 1500, 1, 10_000_000],
  ['OTP_RETURNING_SHARE_PERCENT', 'otpReturningSharePercent', 50, 0, 100],
  ['SIGNUP_CHALLENGE_COST', 'signupChallengeCost', 1000, 1, 100_000],
  ['SLIP_VOID_DAYS', 'slipVoidDays', 3, 1, 60],
  ['WELCOME_CREDITS', 'welcomeCredits', 0, 0, 1_000_000],
  ['WITHDRAW_MIN', 'withdrawMin', 5000, 1, 100_000_000],
  ['REFERRAL_COMMISSION_PERCENT', 'referralCommissionPercent', 10, 0, 100],
  ['PAYOUT_STUCK_SECONDS', 'payoutStuckSeconds', 21_600, 60, 2_592_000],
  ['PAYMENT_SANDBOX_DELAY_MS', 'paymentSandboxDelayMs', 2000, 0, 3_600_000],
  ['PAYMENT_MAX_PENDING', 'paymentMaxPending', 10, 1, 1000],
  ['AGE_MINIMUM', 'responsiblePlay.ageMinimum', 18, 1, 120],
  ['NOTCHPAY_TIMEOUT_MS', 'notchpay.timeoutMs', 15_000, 1000, 120_000],
  ['AI_TIMEOUT_MS', 'ai.timeoutMs', 10_000, 100, 600_000],
  // The deadline's bound is 3 600 000, but the longest lease (3600 s) lets it reach 2 400 000 only.
  ['AI_NARRATIVE_DEADLINE_MS', 'ai.narrativeDeadlineMs', 40_000, 100, 3_600_000],
  ['WORKER_CONCURRENCY', 'workerConcurrency', 4, 1, 64],
  ['HEAP_GROWING_PERCENT', 'heapGrowingPercent', 50, 0, 300],
  ['PGLITE_SHARED_BUFFERS_MB', 'pgliteSharedBuffersMb', 16, 1, 4096],
  ['ANALYSIS_QUEUE_MAX_WAIT_SECONDS', 'analysisQueueMaxWaitSeconds', 1, 0, 3600],
  ['ANALYSIS_QUEUE_HOLD_SECONDS', 'analysisQueueHoldSeconds', 10, 1, 120],
  ['FIXTURES_SYNC_INTERVAL_HOURS', 'fixturesSyncIntervalHours', 0, 0, 168],
  ['DOWNLOAD_MAX_BYTES', 'downloadMaxBytes', 20_971_520, 1024, 1_073_741_824],
  ['BACKUP_INTERVAL_HOURS', 'backupIntervalHours', 0, 0, 720],
  ['BACKUP_KEEP', 'backupKeep', 7, 1, 1000],
  ['WITHDRAWAL_SECOND_APPROVAL_XAF', 'withdrawalSecondApprovalXaf', 100_000, 1, 1_000_000_000],
  ['WORKER_LEASE_SECONDS', 'workerLeaseSeconds', 60, 10, 3600, { AI_NARRATIVE_DEADLINE_MS: '6666' }],
];

/** Optional strings: unset or empty is undefined, anything else is kept as given. */
const optionalStrings: [string, string][] = [
  ['TWILIO_ACCOUNT_SID', 'twilio.accountSid'],
  ['TWILIO_AUTH_TOKEN', 'twilio.authToken'],
  ['TWILIO_SMS_FROM', 'twilio.smsFrom'],
  ['TWILIO_MESSAGING_SERVICE_SID', 'twilio.messagingServiceSid'],
  ['TWILIO_WHATSAPP_FROM', 'twilio.whatsappFrom'],
  ['TWILIO_WHATSAPP_CONTENT_SID', 'twilio.whatsappContentSid'],
  ['TWILIO_WHATSAPP_CONTENT_SID_EN', 'twilio.whatsappContentSidEn'],
  ['WHATSAPP_CLOUD_TOKEN', 'whatsappCloud.token'],
  ['WHATSAPP_CLOUD_PHONE_NUMBER_ID', 'whatsappCloud.phoneNumberId'],
  ['WHATSAPP_CLOUD_TEMPLATE_NAME_EN', 'whatsappCloud.templateNameEn'],
  ['WHATSAPP_CLOUD_TEMPLATE_LANGUAGE_EN', 'whatsappCloud.templateLanguageEn'],
  ['NOTCHPAY_PUBLIC_KEY', 'notchpay.publicKey'],
  ['NOTCHPAY_PRIVATE_KEY', 'notchpay.privateKey'],
  ['NOTCHPAY_WEBHOOK_SECRET', 'notchpay.webhookSecret'],
  ['AI_API_KEY', 'ai.apiKey'],
  ['AI_MODEL', 'ai.model'],
  ['S3_BUCKET', 's3.bucket'],
  ['S3_ACCESS_KEY', 's3.accessKey'],
  ['S3_SECRET_KEY', 's3.secretKey'],
];

/** Strings with a default: unset or empty is the default, anything else is kept as given (untrimmed). */
const texts: [string, string, string][] = [
  ['APP_NAME', 'appName', 'Pronostics'],
  ['HOST', 'host', '127.0.0.1'],
  ['WHATSAPP_CLOUD_API_VERSION', 'whatsappCloud.apiVersion', 'v21.0'],
  ['WHATSAPP_CLOUD_TEMPLATE', 'whatsappCloud.templateName', 'code_verification'],
  ['WHATSAPP_CLOUD_TEMPLATE_LANGUAGE', 'whatsappCloud.templateLanguage', 'fr'],
  ['S3_REGION', 's3.region', 'us-east-1'],
  ['RESPONSIBLE_PLAY_URL', 'responsiblePlay.url', '/responsible-play'],
];

/** http(s) URLs: trailing slashes dropped. */
const urls: [string, string, string | undefined][] = [
  ['TWILIO_BASE_URL', 'twilio.baseUrl', 'https://api.twilio.com'],
  ['WHATSAPP_CLOUD_BASE_URL', 'whatsappCloud.baseUrl', 'https://graph.facebook.com'],
  ['NOTCHPAY_BASE_URL', 'notchpay.baseUrl', 'https://api.notchpay.co'],
  ['AI_BASE_URL', 'ai.baseUrl', undefined],
  ['RESULTS_BASE_URL', 'resultsBaseUrl', 'https://www.football-data.co.uk/mmz4281'],
  ['S3_ENDPOINT', 's3.endpoint', undefined],
  ['FCM_BASE_URL', 'fcm.baseUrl', 'https://fcm.googleapis.com'],
];

const on = ['on', 'ON', 'On', 'true', 'TRUE', 'True', '1', 'yes', 'YES', 'Yes'];
const off = ['off', 'OFF', 'Off', 'false', 'FALSE', 'False', '0', 'no', 'NO', 'No'];

const accepted: Accepted[] = [
  ['APP_ENV', undefined, 'appEnv', 'development'],
  ['APP_ENV', '', 'appEnv', 'development'],
  ['APP_ENV', 'development', 'appEnv', 'development'],
  ['APP_ENV', 'test', 'appEnv', 'test'],
  ['APP_ENV', 'production', 'appEnv', 'production', production],

  ['APP_SECRET', undefined, 'appSecret', expect.stringMatching(/^[0-9a-f]{64}$/), { DATA_DIR: secretDir }],
  ['APP_SECRET', 'y'.repeat(32), 'appSecret', 'y'.repeat(32)],
  ['APP_SECRET', 'z'.repeat(80), 'appSecret', 'z'.repeat(80)],
  // Unset outside production: empty for a reader that generates nothing (the service generates it, issue 55).
  ['TOMBSTONE_KEY', undefined, 'tombstoneKey', ''],
  ['TOMBSTONE_KEY', 'k'.repeat(32), 'tombstoneKey', 'k'.repeat(32)],
  ['BACKUP_KEY', undefined, 'backupKey', undefined],
  ['BACKUP_KEY', 'b'.repeat(32), 'backupKey', 'b'.repeat(32)],

  ['ROLE', undefined, 'role', 'all'],
  ['ROLE', 'all', 'role', 'all'],
  ['ROLE', 'api', 'role', 'api', postgres],
  ['ROLE', 'worker', 'role', 'worker', { DATABASE_URL: 'postgresql://db/app' }],

  ['DATA_DIR', undefined, 'dataDir', '/srv/app/data'],
  ['DATA_DIR', 'var', 'dataDir', '/srv/app/var'],
  ['DATA_DIR', '../shared', 'dataDir', '/srv/shared'],
  ['DATA_DIR', '/var/lib/pronostics', 'dataDir', '/var/lib/pronostics'],
  ['BACKUP_DIR', undefined, 'backupDir', '/srv/app/data/backups'],
  ['BACKUP_DIR', undefined, 'backupDir', '/var/lib/pronostics/backups', { DATA_DIR: '/var/lib/pronostics' }],
  ['BACKUP_DIR', 'saves', 'backupDir', '/srv/app/saves'],
  ['BACKUP_DIR', '/mnt/backups', 'backupDir', '/mnt/backups'],
  ['CONSOLE_DIR', undefined, 'consoleDir', '/srv/app/dist/console'],
  ['CONSOLE_DIR', 'web', 'consoleDir', '/srv/app/web'],
  ['CONSOLE_DIR', '/opt/console', 'consoleDir', '/opt/console'],
  ['WEBAPP_DIR', undefined, 'webappDir', '/srv/app/dist/webapp'],
  ['WEBAPP_DIR', 'web', 'webappDir', '/srv/app/web'],

  ['DATABASE_URL', undefined, 'databaseUrl', undefined],
  ['DATABASE_URL', '', 'databaseUrl', undefined],
  ['DATABASE_URL', 'memory://', 'databaseUrl', 'memory://'],
  ['DATABASE_URL', 'postgres://u:p@db:5432/app', 'databaseUrl', 'postgres://u:p@db:5432/app'],
  ['DATABASE_URL', 'postgresql://db/app', 'databaseUrl', 'postgresql://db/app'],
  ['REDIS_URL', undefined, 'redisUrl', undefined],
  ['REDIS_URL', 'redis://cache:6379', 'redisUrl', 'redis://cache:6379'],
  ['REDIS_URL', 'rediss://cache:6380/1', 'redisUrl', 'rediss://cache:6380/1'],

  ['LOG_LEVEL', undefined, 'logLevel', 'info'],
  ['LOG_LEVEL', undefined, 'logLevel', 'silent', { APP_ENV: 'test' }],
  ...['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].map(
    (level): Accepted => ['LOG_LEVEL', level, 'logLevel', level],
  ),

  ['TRUST_PROXY', undefined, 'trustProxy', false],
  ...['off', 'OFF', 'false', 'False', '0', 'no', 'NO', ' off '].map(
    (value): Accepted => ['TRUST_PROXY', value, 'trustProxy', false],
  ),
  ['TRUST_PROXY', '1', 'trustProxy', 1],
  ['TRUST_PROXY', ' 2 ', 'trustProxy', 2],
  ['TRUST_PROXY', '10', 'trustProxy', 10],
  ['TRUST_PROXY', '10.0.0.1', 'trustProxy', ['10.0.0.1']],
  ['TRUST_PROXY', '10.0.0.1, 10.0.0.0/8', 'trustProxy', ['10.0.0.1', '10.0.0.0/8']],
  ['TRUST_PROXY', '::1,fd00::/8', 'trustProxy', ['::1', 'fd00::/8']],
  ['TRUST_PROXY', 'loopback, linklocal,uniquelocal', 'trustProxy', ['loopback', 'linklocal', 'uniquelocal']],

  ['CORS_ORIGINS', undefined, 'corsOrigins', []],
  ['CORS_ORIGINS', '*', 'corsOrigins', ['*']],
  ['CORS_ORIGINS', 'https://app.example.com', 'corsOrigins', ['https://app.example.com']],
  [
    'CORS_ORIGINS',
    'https://app.example.com, http://localhost:5173',
    'corsOrigins',
    ['https://app.example.com', 'http://localhost:5173'],
  ],

  // Responsible play's age gate: on in production, off elsewhere (the test suite included).
  ['AGE_GATE', undefined, 'responsiblePlay.ageGate', false],
  ['AGE_GATE', undefined, 'responsiblePlay.ageGate', true, production],
  ['AGE_GATE', 'off', 'responsiblePlay.ageGate', false, production],
  ['AGE_GATE', 'on', 'responsiblePlay.ageGate', true],

  ['RATE_LIMIT', undefined, 'rateLimit', true],
  ['RATE_LIMIT', '', 'rateLimit', true],
  ...on.map((value): Accepted => ['RATE_LIMIT', value, 'rateLimit', true]),
  ...off.map((value): Accepted => ['RATE_LIMIT', value, 'rateLimit', false]),

  ['TOKEN_CACHE_SECONDS', undefined, 'tokenCacheSeconds', 0, { APP_ENV: 'test' }],
  ['ANALYSIS_QUEUE_MAX_WAIT_SECONDS', undefined, 'analysisQueueMaxWaitSeconds', 0, { APP_ENV: 'test' }],

  ['METRICS_TOKEN', undefined, 'metricsToken', undefined],
  ['METRICS_TOKEN', '', 'metricsToken', undefined],
  ['METRICS_TOKEN', 'a'.repeat(16), 'metricsToken', 'a'.repeat(16)],
  ['METRICS_TOKEN', 'Zx9!~_-./+=:@#%^', 'metricsToken', 'Zx9!~_-./+=:@#%^'],
  ['METRICS_TOKEN', 'b'.repeat(512), 'metricsToken', 'b'.repeat(512)],
  // A worker has no service port: its metrics port may be any.
  ['METRICS_PORT', '3000', 'metricsPort', 3000, { ROLE: 'worker', ...postgres }],

  ['MESSAGING_DRIVER', undefined, 'messagingDriver', 'log'],
  ['MESSAGING_DRIVER', 'log', 'messagingDriver', 'log'],
  ['MESSAGING_DRIVER', 'twilio', 'messagingDriver', 'twilio', twilio],
  // A messaging service instead of a sender number.
  [
    'MESSAGING_DRIVER',
    'twilio',
    'twilio.messagingServiceSid',
    'MG1',
    { ...twilio, TWILIO_SMS_FROM: '', TWILIO_MESSAGING_SERVICE_SID: 'MG1' },
  ],
  ['WHATSAPP_DRIVER', undefined, 'whatsappDriver', 'log'],
  ['WHATSAPP_DRIVER', undefined, 'whatsappDriver', 'twilio', twilio],
  ['WHATSAPP_DRIVER', 'log', 'whatsappDriver', 'log'],
  [
    'WHATSAPP_DRIVER',
    'log',
    'whatsappDriver',
    'log',
    { ...twilio, TWILIO_WHATSAPP_FROM: '', TWILIO_WHATSAPP_CONTENT_SID: '' },
  ],
  [
    'WHATSAPP_DRIVER',
    'twilio',
    'whatsappDriver',
    'twilio',
    {
      TWILIO_ACCOUNT_SID: 'AC1',
      TWILIO_AUTH_TOKEN: 't',
      TWILIO_WHATSAPP_FROM: '+15550001',
      TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
    },
  ],
  ['WHATSAPP_DRIVER', 'whatsapp-cloud', 'whatsappDriver', 'whatsapp-cloud', whatsappCloud],

  ['PAYMENTS_DRIVER', undefined, 'paymentsDriver', 'sandbox'],
  ['PAYMENTS_DRIVER', 'sandbox', 'paymentsDriver', 'sandbox'],
  ['PAYMENTS_DRIVER', 'notchpay', 'paymentsDriver', 'notchpay', notchpay],
  // Test keys outside production: what a developer uses.
  [
    'NOTCHPAY_PUBLIC_KEY',
    'pk_test_1',
    'notchpay.publicKey',
    'pk_test_1',
    { ...notchpay, NOTCHPAY_PRIVATE_KEY: 'sk_test_1' },
  ],
  // `test` inside a word is no test marker.
  ['NOTCHPAY_PRIVATE_KEY', 'sk_live_contest', 'notchpay.privateKey', 'sk_live_contest', production],
  ['NOTCHPAY_CHARGE_METHOD', undefined, 'notchpay.chargeMethod', 'POST'],
  ['NOTCHPAY_CHARGE_METHOD', 'POST', 'notchpay.chargeMethod', 'POST'],
  ['NOTCHPAY_CHARGE_METHOD', 'PUT', 'notchpay.chargeMethod', 'PUT'],

  ['AI_DRIVER', undefined, 'aiDriver', 'builtin'],
  ['AI_DRIVER', 'builtin', 'aiDriver', 'builtin'],
  ['AI_DRIVER', 'openai', 'aiDriver', 'openai', openai],
  // 3 tries of 10 s and 2 pauses of 5 s: exactly the default 40 s deadline.
  ['AI_TIMEOUT_MS', '10000', 'ai.timeoutMs', 10_000, openai],
  [
    'AI_NARRATIVE_DEADLINE_MS',
    '2400000',
    'ai.narrativeDeadlineMs',
    2_400_000,
    { WORKER_LEASE_SECONDS: '3600' },
  ],

  ['RESULTS_SYNC_LEAGUES', undefined, 'resultsSyncLeagues', []],
  ['FIXTURES_SYNC_INTERVAL_HOURS', undefined, 'fixturesSyncIntervalHours', 6, production],
  ['FIXTURES_URL', undefined, 'fixturesUrl', 'https://www.football-data.co.uk/fixtures.csv'],
  ['FIXTURES_URL', 'http://127.0.0.1:8123/fixtures.csv', 'fixturesUrl', 'http://127.0.0.1:8123/fixtures.csv'],
  ['FIXTURES_URL', 'file:///srv/data/fixtures.csv', 'fixturesUrl', 'file:///srv/data/fixtures.csv'],
  ['EXTRA_FIXTURES_URL', undefined, 'extraFixturesUrl', undefined],
  [
    'EXTRA_FIXTURES_URL',
    undefined,
    'extraFixturesUrl',
    'https://www.football-data.co.uk/new_league_fixtures.csv',
    production,
  ],
  ['EXTRA_FIXTURES_URL', 'file:///srv/data/extra.csv', 'extraFixturesUrl', 'file:///srv/data/extra.csv'],
  ['INTERNATIONAL_RESULTS_URL', undefined, 'internationalResultsUrl', undefined],
  [
    'INTERNATIONAL_RESULTS_URL',
    undefined,
    'internationalResultsUrl',
    'https://raw.githubusercontent.com/martj42/international_results/master/results.csv',
    production,
  ],
  [
    'INTERNATIONAL_RESULTS_URL',
    'file:///srv/data/results.csv',
    'internationalResultsUrl',
    'file:///srv/data/results.csv',
  ],
  ['FOOTBALL_TXT_URL', undefined, 'footballTxtUrls', []],
  ['FOOTBALL_TXT_URL', undefined, 'footballTxtUrls', [], production],
  ['FOOTBALL_TXT_URL', 'none', 'footballTxtUrls', []],
  [
    'FOOTBALL_TXT_URL',
    'https://example.org/cl.txt, file:///srv/data/el.txt,https://example.org/cl.txt',
    'footballTxtUrls',
    ['https://example.org/cl.txt', 'file:///srv/data/el.txt'],
  ],
  ['RESULTS_SYNC_LEAGUES', undefined, 'resultsSyncLeagues', [...ALL_COMPETITION_CODES], production],
  ['RESULTS_SYNC_LEAGUES', 'none', 'resultsSyncLeagues', []],
  ['RESULTS_SYNC_LEAGUES', 'NONE', 'resultsSyncLeagues', [], production],
  ['RESULTS_SYNC_LEAGUES', ', ,', 'resultsSyncLeagues', []],
  ['RESULTS_SYNC_LEAGUES', 'E0', 'resultsSyncLeagues', ['E0']],
  ['RESULTS_SYNC_LEAGUES', 'E0, SP1,E0,e0', 'resultsSyncLeagues', ['E0', 'SP1', 'e0']],
  ['RESULTS_SYNC_LEAGUES', 'ABCDEFGH', 'resultsSyncLeagues', ['ABCDEFGH']],

  ['PUSH_DRIVER', undefined, 'pushDriver', 'log'],
  ['PUSH_DRIVER', 'log', 'pushDriver', 'log'],
  ['PUSH_DRIVER', 'fcm', 'pushDriver', 'fcm', fcm],
  ['FCM_SERVICE_ACCOUNT', undefined, 'fcm.serviceAccount', undefined],
  ['FCM_SERVICE_ACCOUNT', keyFile, 'fcm.serviceAccount', parsedKey],
  ['FCM_SERVICE_ACCOUNT', ` ${serviceAccountJson} `, 'fcm.serviceAccount', parsedKey],
  // A relative path is from the working directory.
  ['FCM_SERVICE_ACCOUNT', relative(cwd, keyFile), 'fcm.serviceAccount', parsedKey],
  [
    'FCM_SERVICE_ACCOUNT',
    JSON.stringify({ ...serviceAccountKey, token_uri: undefined }),
    'fcm.serviceAccount.tokenUri',
    'https://oauth2.googleapis.com/token',
  ],
  ['FCM_PROJECT_ID', undefined, 'fcm.projectId', undefined],
  ['FCM_PROJECT_ID', 'pronostics-staging', 'fcm.projectId', 'pronostics-staging'],

  ['WEBPUSH_DRIVER', undefined, 'webpush.driver', 'log'],
  // Production's default; without keys web push is off (a start warning), not a start error.
  ['WEBPUSH_DRIVER', undefined, 'webpush.driver', 'vapid', production],
  [
    'WEBPUSH_DRIVER',
    'vapid',
    'webpush.driver',
    'vapid',
    { ...vapid, WEBPUSH_SUBJECT: 'mailto:ops@example.cm' },
  ],
  // Unset and not generated: only the service's own start generates a development pair.
  ['WEBPUSH_VAPID_PUBLIC_KEY', undefined, 'webpush.publicKey', undefined],
  ['WEBPUSH_VAPID_PUBLIC_KEY', vapidPublic, 'webpush.publicKey', vapidPublic, vapid],
  ['WEBPUSH_VAPID_PRIVATE_KEY', vapidPrivate, 'webpush.privateKey', vapidPrivate, vapid],
  ['WEBPUSH_SUBJECT', undefined, 'webpush.subject', undefined],
  ['WEBPUSH_SUBJECT', 'mailto:ops@example.cm', 'webpush.subject', 'mailto:ops@example.cm'],
  ['WEBPUSH_SUBJECT', 'https://example.cm/contact', 'webpush.subject', 'https://example.cm/contact'],
  [
    'WEBPUSH_ALLOWED_HOSTS',
    undefined,
    'webpush.allowedHosts',
    ['fcm.googleapis.com', 'updates.push.services.mozilla.com', 'web.push.apple.com', '*.notify.windows.com'],
  ],
  [
    'WEBPUSH_ALLOWED_HOSTS',
    ' Push.Example.com, *.notify.windows.com ,',
    'webpush.allowedHosts',
    ['push.example.com', '*.notify.windows.com'],
  ],

  ['STORAGE_DRIVER', undefined, 'storageDriver', 'local'],
  ['STORAGE_DRIVER', 'local', 'storageDriver', 'local'],
  ['STORAGE_DRIVER', 's3', 'storageDriver', 's3', s3],
  ['S3_FORCE_PATH_STYLE', undefined, 's3.forcePathStyle', false],
  ['S3_FORCE_PATH_STYLE', undefined, 's3.forcePathStyle', true, { S3_ENDPOINT: 'http://minio:9000' }],
  ['S3_FORCE_PATH_STYLE', 'off', 's3.forcePathStyle', false, { S3_ENDPOINT: 'http://minio:9000' }],
  ...on.map((value): Accepted => ['S3_FORCE_PATH_STYLE', value, 's3.forcePathStyle', true]),
  ...off.map((value): Accepted => ['S3_FORCE_PATH_STYLE', value, 's3.forcePathStyle', false]),

  ...wholeNumbers.flatMap(([variable, field, fallback, min, max, others]): Accepted[] => [
    [variable, undefined, field, fallback, others],
    [variable, '', field, fallback, others],
    [variable, String(min), field, min, others],
    [variable, ` ${min + 1} `, field, min + 1, others],
    [variable, `0${min + 1}`, field, min + 1, others],
    ...(variable === 'AI_NARRATIVE_DEADLINE_MS'
      ? []
      : [[variable, String(max), field, max, others] as Accepted]),
  ]),
  ...optionalStrings.flatMap(([variable, field]): Accepted[] => [
    [variable, undefined, field, undefined],
    [variable, '', field, undefined],
    [variable, ' some value ', field, ' some value '],
  ]),
  ...texts.flatMap(([variable, field, fallback]): Accepted[] => [
    [variable, undefined, field, fallback],
    [variable, '', field, fallback],
    [variable, ' given ', field, ' given '],
  ]),
  ...urls.flatMap(([variable, field, fallback]): Accepted[] => [
    [variable, undefined, field, fallback],
    [variable, '', field, fallback],
    [variable, 'http://127.0.0.1:4010', field, 'http://127.0.0.1:4010'],
    [variable, 'https://example.com/api//', field, 'https://example.com/api'],
  ]),
];

/** [variable, value, the one line, other variables set] */
type Refused = [string, string, string, Env?];

const wholeNumberRefusals = wholeNumbers.flatMap(([variable, , , min, max, others]): Refused[] =>
  ['abc', '1.5', '+1', '1e3', String(min - 1), String(max + 1)].map(
    (value): Refused => [
      variable,
      value,
      `${variable}=${JSON.stringify(value)} is invalid: expected a whole number from ${min} to ${max}`,
      others,
    ],
  ),
);

const urlRefusals = urls.flatMap(([variable]): Refused[] =>
  ['ftp://example.com', 'example.com', 'not a url'].map(
    (value): Refused => [
      variable,
      value,
      `${variable}=${JSON.stringify(value)} is invalid: expected an http(s) URL`,
    ],
  ),
);

const trustProxyLong = 'off, a hop count (1-10) or comma-separated proxy addresses/CIDRs';
const corsAccepts = '* or comma-separated origins such as https://app.example.com';
const leaguesAccepts = 'comma-separated league codes such as E0,SP1 (or none)';

const refused: Refused[] = [
  ['APP_ENV', 'staging', 'APP_ENV="staging" is invalid: expected one of development, production, test'],
  ['APP_ENV', 'Production', 'APP_ENV="Production" is invalid: expected one of development, production, test'],
  ['APP_SECRET', 'y'.repeat(31), 'APP_SECRET="<hidden>" is invalid: expected at least 32 characters'],
  ['TOMBSTONE_KEY', 'k'.repeat(31), 'TOMBSTONE_KEY="<hidden>" is invalid: expected at least 32 characters'],
  [
    'TOMBSTONE_KEY',
    '',
    'TOMBSTONE_KEY is required when APP_ENV=production (at least 32 characters)',
    production,
  ],
  ['BACKUP_KEY', 'b'.repeat(31), 'BACKUP_KEY="<hidden>" is invalid: expected at least 32 characters'],
  [
    'APP_SECRET',
    '',
    // Every fault of the start at once (issue 55): the development drivers are named too.
    [
      'APP_SECRET is required when APP_ENV=production (at least 32 characters)',
      'MESSAGING_DRIVER/WHATSAPP_DRIVER=log is for development: APP_ENV=production needs twilio or whatsapp-cloud',
      'PAYMENTS_DRIVER=sandbox is for development: APP_ENV=production needs PAYMENTS_DRIVER=notchpay',
    ].join('\n'),
    { APP_ENV: 'production', DATA_DIR: secretDir },
  ],
  ['ROLE', 'both', 'ROLE="both" is invalid: expected one of all, api, worker'],
  ['ROLE', 'API', 'ROLE="API" is invalid: expected one of all, api, worker'],
  [
    'ROLE',
    'worker',
    "ROLE=worker needs DATABASE_URL=postgres://…: PGlite is one process's database, use ROLE=all",
  ],
  [
    'ROLE',
    'api',
    "ROLE=api needs DATABASE_URL=postgres://…: PGlite is one process's database, use ROLE=all",
    { DATABASE_URL: 'memory://' },
  ],
  [
    'DATABASE_URL',
    'mysql://db/app',
    'DATABASE_URL="mysql://db/app" is invalid: expected unset (embedded PGlite), memory:// or a postgres:// URL',
  ],
  [
    'DATABASE_URL',
    'postgres://',
    'DATABASE_URL="postgres://" is invalid: expected unset (embedded PGlite), memory:// or a postgres:// URL',
  ],
  ['REDIS_URL', 'http://cache', 'REDIS_URL="http://cache" is invalid: expected a redis:// URL'],
  ['REDIS_URL', 'redis://', 'REDIS_URL="redis://" is invalid: expected a redis:// URL'],
  [
    'LOG_LEVEL',
    'verbose',
    'LOG_LEVEL="verbose" is invalid: expected one of fatal, error, warn, info, debug, trace, silent',
  ],
  [
    'LOG_LEVEL',
    'INFO',
    'LOG_LEVEL="INFO" is invalid: expected one of fatal, error, warn, info, debug, trace, silent',
  ],
  ['TRUST_PROXY', 'on', `TRUST_PROXY="on" is invalid: expected ${trustProxyLong}`],
  ['TRUST_PROXY', ' TRUE ', `TRUST_PROXY="TRUE" is invalid: expected ${trustProxyLong}`],
  ['TRUST_PROXY', 'yes', `TRUST_PROXY="yes" is invalid: expected ${trustProxyLong}`],
  [
    'TRUST_PROXY',
    'proxy.example.com',
    `TRUST_PROXY="proxy.example.com" is invalid: expected ${trustProxyLong}`,
  ],
  ['TRUST_PROXY', '10.0.0.1,', `TRUST_PROXY="10.0.0.1," is invalid: expected ${trustProxyLong}`],
  ['TRUST_PROXY', '11', 'TRUST_PROXY="11" is invalid: expected off, a hop count (1-10) or proxy addresses'],
  ['TRUST_PROXY', '00', 'TRUST_PROXY="00" is invalid: expected off, a hop count (1-10) or proxy addresses'],
  ['CORS_ORIGINS', 'not an origin', `CORS_ORIGINS="not an origin" is invalid: expected ${corsAccepts}`],
  [
    'CORS_ORIGINS',
    'https://app.example.com/',
    `CORS_ORIGINS="https://app.example.com/" is invalid: expected ${corsAccepts}`,
  ],
  [
    'CORS_ORIGINS',
    'https://app.example.com,',
    `CORS_ORIGINS="https://app.example.com," is invalid: expected ${corsAccepts}`,
  ],
  [
    'METRICS_TOKEN',
    'a'.repeat(15),
    'METRICS_TOKEN="<hidden>" is invalid: expected 16 to 512 printable characters without spaces',
  ],
  [
    'METRICS_TOKEN',
    'a'.repeat(513),
    'METRICS_TOKEN="<hidden>" is invalid: expected 16 to 512 printable characters without spaces',
  ],
  [
    'METRICS_TOKEN',
    'with a space inside it',
    'METRICS_TOKEN="<hidden>" is invalid: expected 16 to 512 printable characters without spaces',
  ],
  [
    'METRICS_PORT',
    '3000',
    "METRICS_PORT=3000 is the service's PORT: give the metrics their own port (or 0 for none)",
  ],
  [
    'METRICS_PORT',
    '8080',
    "METRICS_PORT=8080 is the service's PORT: give the metrics their own port (or 0 for none)",
    { PORT: '8080' },
  ],
  ['RATE_LIMIT', 'maybe', 'RATE_LIMIT="maybe" is invalid: expected on or off'],
  ['AGE_GATE', 'sometimes', 'AGE_GATE="sometimes" is invalid: expected on or off'],
  // The value is named lower-cased, as it was compared.
  ['RATE_LIMIT', 'MAYBE', 'RATE_LIMIT="maybe" is invalid: expected on or off'],
  ['RATE_LIMIT', ' on', 'RATE_LIMIT=" on" is invalid: expected on or off'],
  ['S3_FORCE_PATH_STYLE', 'Sometimes', 'S3_FORCE_PATH_STYLE="sometimes" is invalid: expected on or off'],

  ['MESSAGING_DRIVER', 'pigeon', 'MESSAGING_DRIVER="pigeon" is invalid: expected one of log, twilio'],
  // WhatsApp Cloud sends no SMS.
  [
    'MESSAGING_DRIVER',
    'whatsapp-cloud',
    'MESSAGING_DRIVER="whatsapp-cloud" is invalid: expected one of log, twilio',
  ],
  ['MESSAGING_DRIVER', 'Twilio', 'MESSAGING_DRIVER="Twilio" is invalid: expected one of log, twilio'],
  ['WHATSAPP_DRIVER', 'fax', 'WHATSAPP_DRIVER="fax" is invalid: expected one of log, twilio, whatsapp-cloud'],
  ['PAYMENTS_DRIVER', 'paypal', 'PAYMENTS_DRIVER="paypal" is invalid: expected one of sandbox, notchpay'],
  ['AI_DRIVER', 'gpt', 'AI_DRIVER="gpt" is invalid: expected one of builtin, openai'],
  ['STORAGE_DRIVER', 'gcs', 'STORAGE_DRIVER="gcs" is invalid: expected one of local, s3'],
  ['PUSH_DRIVER', 'apns', 'PUSH_DRIVER="apns" is invalid: expected one of log, fcm'],
  ['PUSH_DRIVER', 'fcm', 'FCM_SERVICE_ACCOUNT is required when PUSH_DRIVER=fcm'],
  [
    'FCM_SERVICE_ACCOUNT',
    '/nowhere/key.json',
    `FCM_SERVICE_ACCOUNT="/nowhere/key.json" is invalid: expected ${keyAccepts} (cannot read the file: ENOENT)`,
  ],
  [
    'FCM_SERVICE_ACCOUNT',
    notJsonFile,
    `FCM_SERVICE_ACCOUNT=${JSON.stringify(notJsonFile)} is invalid: expected ${keyAccepts} (not JSON)`,
  ],
  // The JSON holds the private key: never quoted.
  [
    'FCM_SERVICE_ACCOUNT',
    JSON.stringify({ ...serviceAccountKey, client_email: '' }),
    `FCM_SERVICE_ACCOUNT="<JSON>" is invalid: expected ${keyAccepts} (no client_email)`,
  ],
  [
    'FCM_SERVICE_ACCOUNT',
    JSON.stringify({ ...serviceAccountKey, private_key: 'not a key' }),
    `FCM_SERVICE_ACCOUNT="<JSON>" is invalid: expected ${keyAccepts} (its private_key is not a PEM private key)`,
  ],
  [
    'FCM_SERVICE_ACCOUNT',
    JSON.stringify({ ...serviceAccountKey, token_uri: 'ftp://x' }),
    `FCM_SERVICE_ACCOUNT="<JSON>" is invalid: expected ${keyAccepts} (its token_uri is not an http(s) URL)`,
  ],
  [
    'FCM_PROJECT_ID',
    'My Project',
    'FCM_PROJECT_ID="My Project" is invalid: expected a Firebase project id such as my-app-12345',
  ],
  ['NOTCHPAY_CHARGE_METHOD', 'put', 'NOTCHPAY_CHARGE_METHOD="put" is invalid: expected one of POST, PUT'],
  ['RESULTS_SYNC_LEAGUES', 'E0;SP1', `RESULTS_SYNC_LEAGUES="E0;SP1" is invalid: expected ${leaguesAccepts}`],
  [
    'RESULTS_SYNC_LEAGUES',
    'ABCDEFGHI',
    `RESULTS_SYNC_LEAGUES="ABCDEFGHI" is invalid: expected ${leaguesAccepts}`,
  ],
  [
    'FIXTURES_URL',
    'ftp://example.com/fixtures.csv',
    'FIXTURES_URL="ftp://example.com/fixtures.csv" is invalid: expected an http(s) URL or a file:// URL',
  ],
  [
    'FIXTURES_URL',
    'fixtures.csv',
    'FIXTURES_URL="fixtures.csv" is invalid: expected an http(s) URL or a file:// URL',
  ],
  [
    'INTERNATIONAL_RESULTS_URL',
    'results.csv',
    'INTERNATIONAL_RESULTS_URL="results.csv" is invalid: expected an http(s) URL or a file:// URL',
  ],
  [
    'FOOTBALL_TXT_URL',
    'https://example.org/cl.txt,cl.txt',
    // The refusal names the one bad address.
    'FOOTBALL_TXT_URL="cl.txt" is invalid: expected comma-separated http(s) or file:// URLs (or none)',
  ],
  ...wholeNumberRefusals,
  ...urlRefusals,

  // A driver without the settings it needs.
  ...['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN'].map(
    (variable): Refused => [variable, '', `${variable} is required when the twilio driver is used`, twilio],
  ),
  [
    'TWILIO_SMS_FROM',
    '',
    'TWILIO_SMS_FROM or TWILIO_MESSAGING_SERVICE_SID is required for twilio SMS',
    twilio,
  ],
  ...['TWILIO_WHATSAPP_FROM', 'TWILIO_WHATSAPP_CONTENT_SID'].map(
    (variable): Refused => [
      variable,
      '',
      `${variable} is required when WHATSAPP_DRIVER=twilio is used`,
      twilio,
    ],
  ),
  [
    'WHATSAPP_DRIVER',
    'twilio',
    'TWILIO_ACCOUNT_SID is required when the twilio driver is used',
    { TWILIO_WHATSAPP_FROM: '+15550001', TWILIO_WHATSAPP_CONTENT_SID: 'HX1' },
  ],
  ...['WHATSAPP_CLOUD_TOKEN', 'WHATSAPP_CLOUD_PHONE_NUMBER_ID'].map(
    (variable): Refused => [
      variable,
      '',
      `${variable} is required when WHATSAPP_DRIVER=whatsapp-cloud is used`,
      whatsappCloud,
    ],
  ),
  ...['NOTCHPAY_PUBLIC_KEY', 'NOTCHPAY_PRIVATE_KEY', 'NOTCHPAY_WEBHOOK_SECRET'].map(
    (variable): Refused => [
      variable,
      '',
      `${variable} is required when PAYMENTS_DRIVER=notchpay is used`,
      notchpay,
    ],
  ),
  ...['AI_BASE_URL', 'AI_API_KEY', 'AI_MODEL'].map(
    (variable): Refused => [variable, '', `${variable} is required when AI_DRIVER=openai`, openai],
  ),
  ...['S3_BUCKET', 'S3_ACCESS_KEY', 'S3_SECRET_KEY'].map(
    (variable): Refused => [variable, '', `${variable} is required when STORAGE_DRIVER=s3`, s3],
  ),

  // The narrator's deadline inside the job lease, its tries inside the deadline.
  [
    'AI_NARRATIVE_DEADLINE_MS',
    '40001',
    'AI_NARRATIVE_DEADLINE_MS=40001 does not fit the job lease: at most 40000 ms (two thirds of WORKER_LEASE_SECONDS=60)',
  ],
  [
    'AI_NARRATIVE_DEADLINE_MS',
    '3600000',
    'AI_NARRATIVE_DEADLINE_MS=3600000 does not fit the job lease: at most 2400000 ms (two thirds of WORKER_LEASE_SECONDS=3600)',
    { WORKER_LEASE_SECONDS: '3600' },
  ],
  [
    'WORKER_LEASE_SECONDS',
    '30',
    'AI_NARRATIVE_DEADLINE_MS=40000 does not fit the job lease: at most 20000 ms (two thirds of WORKER_LEASE_SECONDS=30)',
  ],
  [
    'AI_TIMEOUT_MS',
    '10001',
    'AI_TIMEOUT_MS=10001 does not fit AI_NARRATIVE_DEADLINE_MS=40000: 3 tries and their pauses may take 40003 ms',
    openai,
  ],

  ['WEBPUSH_DRIVER', 'fcm', 'WEBPUSH_DRIVER="fcm" is invalid: expected one of log, vapid'],
  [
    'WEBPUSH_VAPID_PUBLIC_KEY',
    'short',
    'WEBPUSH_VAPID_PUBLIC_KEY="short" is invalid: expected a VAPID public key: a P-256 point, 65 bytes in base64url (87 characters)',
  ],
  [
    'WEBPUSH_VAPID_PRIVATE_KEY',
    'short',
    'WEBPUSH_VAPID_PRIVATE_KEY="<hidden>" is invalid: expected a VAPID private key: 32 bytes in base64url (43 characters)',
  ],
  [
    'WEBPUSH_VAPID_PUBLIC_KEY',
    vapidPublic,
    'WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY are set together or not at all',
  ],
  [
    'WEBPUSH_VAPID_PUBLIC_KEY',
    otherVapidPublic,
    'WEBPUSH_VAPID_PUBLIC_KEY is not the public key of WEBPUSH_VAPID_PRIVATE_KEY',
    { WEBPUSH_VAPID_PRIVATE_KEY: vapidPrivate },
  ],
  ['WEBPUSH_DRIVER', 'vapid', 'WEBPUSH_SUBJECT is required when WEBPUSH_DRIVER=vapid', vapid],
  [
    'WEBPUSH_SUBJECT',
    'ops@example.cm',
    'WEBPUSH_SUBJECT="ops@example.cm" is invalid: expected a mailto: address or an https:// URL',
  ],
  [
    'WEBPUSH_ALLOWED_HOSTS',
    'push.example.com, not a host',
    `WEBPUSH_ALLOWED_HOSTS="not a host" is invalid: expected ${hostsAccepts}`,
  ],

  // What production refuses.
  [
    'APP_ENV',
    'production',
    [
      'MESSAGING_DRIVER/WHATSAPP_DRIVER=log is for development: APP_ENV=production needs twilio or whatsapp-cloud',
      'PAYMENTS_DRIVER=sandbox is for development: APP_ENV=production needs PAYMENTS_DRIVER=notchpay',
    ].join('\n'),
  ],
  [
    'WHATSAPP_DRIVER',
    'log',
    'MESSAGING_DRIVER/WHATSAPP_DRIVER=log is for development: APP_ENV=production needs twilio or whatsapp-cloud',
    production,
  ],
  [
    'PAYMENTS_DRIVER',
    'sandbox',
    'PAYMENTS_DRIVER=sandbox is for development: APP_ENV=production needs PAYMENTS_DRIVER=notchpay',
    production,
  ],
  [
    'NOTCHPAY_PUBLIC_KEY',
    'pk_test_abc',
    'NOTCHPAY_PUBLIC_KEY is a NotchPay test key: APP_ENV=production needs live keys',
    production,
  ],
  [
    'NOTCHPAY_PRIVATE_KEY',
    'sk.TEST-abc',
    'NOTCHPAY_PRIVATE_KEY is a NotchPay test key: APP_ENV=production needs live keys',
    production,
  ],
];

function field(config: Config, path: string): unknown {
  return path.split('.').reduce<unknown>((value, key) => (value as Record<string, unknown>)[key], config);
}

function envOf(variable: string, value: string | undefined, others: Env = {}): Env {
  const env = { ...others };
  if (value === undefined) delete env[variable];
  else env[variable] = value;
  return env;
}

describe('configuration table', () => {
  it.each(accepted)('%s=%j gives %s = %j', (variable, value, path, expected, others) => {
    expect(field(load(variable, envOf(variable, value, others)), path)).toEqual(expected);
  });

  it.each(refused)('%s=%j stops the start: %s', (variable, value, message, others) => {
    let thrown: unknown;
    try {
      load(variable, envOf(variable, value, others));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toBe(message);
  });

  it('has a row for every variable the service reads, and none for a variable it does not', () => {
    const read = new Set<string>();
    const env = new Proxy<Env>(
      { APP_SECRET: secret, TOMBSTONE_KEY: tombstoneKey },
      {
        get(target, name) {
          if (typeof name === 'string') read.add(name);
          return typeof name === 'string' ? target[name] : undefined;
        },
      },
    );
    loadConfig(env, cwd);
    const rows = new Set(accepted.map(([variable]) => variable));
    expect([...read].sort()).toEqual([...rows].sort());
    expect(read.size).toBeGreaterThan(60);
  });
});
