// The process's own settings: which environment and role it runs, where it listens, where its data,
// built files and database are, its secret, its logs and its memory.
import { type Static, Type } from 'typebox';
import { appEnvs, logLevels, roles } from '../lib/allowed-values.js';
import {
  ConfigError,
  choice,
  directory,
  optionalText,
  type SettingKeywords,
  text,
  wholeNumber,
} from '../lib/env-settings.js';
import { inTests } from './common.js';

export const ProcessSettings = Type.Object({
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
  tombstoneKey: Type.String({
    env: 'TOMBSTONE_KEY',
    minLength: 32,
    accepts: 'at least 32 characters',
    hidden: true,
    // Unset: required in production, elsewhere generated once into DATA_DIR (after every check).
    default: '',
    description:
      "Key of a deleted account's phone hash (the tombstone's); never written into a backup, so a backup and its generated APP_SECRET cannot recover deleted numbers.",
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
});
export type ProcessConfig = Static<typeof ProcessSettings>;

/** A production start needs its own secret: a generated one would differ between machines. */
export function requireSecretInProduction(config: ProcessConfig): void {
  if (config.appEnv === 'production' && config.appSecret === '') {
    throw new ConfigError('APP_SECRET is required when APP_ENV=production (at least 32 characters)');
  }
}

/**
 * A production start needs its own tombstone key too: one generated into DATA_DIR would differ between
 * machines, and a key kept beside the data protects nothing from whoever holds the data.
 */
export function requireTombstoneKeyInProduction(config: ProcessConfig): void {
  if (config.appEnv === 'production' && config.tombstoneKey === '') {
    throw new ConfigError('TOMBSTONE_KEY is required when APP_ENV=production (at least 32 characters)');
  }
}

/** Two processes cannot share PGlite, which is one process's database. */
export function requirePostgresForSplitRoles(config: ProcessConfig): void {
  if (config.role !== 'all' && !config.databaseUrl?.startsWith('postgres')) {
    throw new ConfigError(
      `ROLE=${config.role} needs DATABASE_URL=postgres://…: PGlite is one process's database, use ROLE=all`,
    );
  }
}
