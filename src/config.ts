// The service's configuration: every environment variable is read and validated here, once, and
// nowhere else (lint forbids `process.env` outside this file). The variables are declared beside what
// they configure, one piece per area in src/config/ (process, http, sign-in, events, money, messaging,
// push, prediction, files), each with the rules on its settings taken together; this file assembles
// them into one schema, ConfigSchema, and the Config type derives from it. Each variable is declared
// once: its type with bounds or allowed values, its default and how its text is read. A bad value
// stops the start with one line naming the variable and what it accepts; the rules, run after every
// variable is read, refuse settings that are valid alone but not together.
import { type Static, Type } from 'typebox';
import { EventsSettings } from './config/events.js';
import { FilesSettings, requireStorageSettings } from './config/files.js';
import { generatedSecret, generatedVapidKeys, TOMBSTONE_KEY_FILE } from './config/generated.js';
import {
  HttpSettings,
  proxyWarnings,
  refuseMetricsPortClash,
  refuseRateLimitOffInProduction,
} from './config/http.js';
import {
  MessagingSettings,
  refuseLogMessagingInProduction,
  requireTwilioSettings,
  requireWhatsappCloudSettings,
} from './config/messaging.js';
import {
  MoneySettings,
  refuseSandboxInProduction,
  refuseTestKeysInProduction,
  requireNotchpaySettings,
  sandboxWarnings,
} from './config/money.js';
import { PredictionSettings, requireAiSettings, requireNarrativeInsideLease } from './config/prediction.js';
import {
  ProcessSettings,
  requirePostgresForSplitRoles,
  requireSecretInProduction,
  requireTombstoneKeyInProduction,
} from './config/process.js';
import { PushSettings, requireFcmSettings, requireWebpushKeys, webpushWarnings } from './config/push.js';
import { SignInSettings } from './config/sign-in.js';
import type { PaymentProvider } from './lib/allowed-values.js';
import { ConfigError, type Env, readSettings } from './lib/env-settings.js';

export { TOMBSTONE_KEY_FILE, VAPID_KEYS_FILE } from './config/generated.js';
export type { ServiceAccount } from './config/push.js';
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

/**
 * Every piece, in the order the variables are read: a default that follows another variable
 * (`defaultFrom`) reads one declared before it (APP_ENV and DATA_DIR come first).
 */
const ConfigSchema = Type.Object({
  ...ProcessSettings.properties,
  ...HttpSettings.properties,
  ...SignInSettings.properties,
  ...EventsSettings.properties,
  ...MoneySettings.properties,
  ...MessagingSettings.properties,
  ...PushSettings.properties,
  ...PredictionSettings.properties,
  ...FilesSettings.properties,
});

export type Config = Static<typeof ConfigSchema>;

/** The rules on settings taken together: a start names every one that is broken, in this order. */
const rules: ((config: Config) => void)[] = [
  requireSecretInProduction,
  requireTombstoneKeyInProduction,
  refuseRateLimitOffInProduction,
  refuseLogMessagingInProduction,
  refuseSandboxInProduction,
  requirePostgresForSplitRoles,
  requireAiSettings,
  requireTwilioSettings,
  requireNotchpaySettings,
  requireFcmSettings,
  requireWhatsappCloudSettings,
  refuseTestKeysInProduction,
  requireStorageSettings,
  requireNarrativeInsideLease,
  refuseMetricsPortClash,
  requireWebpushKeys,
];

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
  /**
   * true: an unset TOMBSTONE_KEY (outside production, where it is required) is generated once into
   * DATA_DIR (the service and the CLI, through loadConfigOrExit). Off for tests and tools.
   */
  generateTombstoneKey?: boolean;
}

/**
 * Every variable is read first, then every rule on settings taken together is checked; the secret
 * is generated last, once the settings are known to be whole.
 */
export function loadConfig(
  env: Env = process.env,
  cwd: string = process.cwd(),
  options: LoadOptions = {},
): Config {
  // Every bad variable and every broken rule is named: one start tells the operator all of them.
  const broken: string[] = [];
  const config = readSettings(ConfigSchema, env, cwd, broken);
  for (const rule of rules) {
    try {
      rule(config);
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      broken.push(error.message);
    }
  }
  if (broken.length > 0) throw new ConfigError(broken.join('\n'));
  if (options.generateSecret !== false) {
    if (config.appSecret === '') config.appSecret = generatedSecret(config.dataDir);
    if (options.generateTombstoneKey === true && config.tombstoneKey === '') {
      config.tombstoneKey = generatedSecret(config.dataDir, TOMBSTONE_KEY_FILE);
    }
    const vapidWanted = options.generateVapidKeys === true && config.appEnv === 'development';
    if (vapidWanted && config.webpush.publicKey === undefined) {
      Object.assign(config.webpush, generatedVapidKeys(config.dataDir));
    }
  }
  return Object.freeze(config);
}

/**
 * What the start should say loudly: settings that are valid but dangerous together (each area's
 * warnings, src/config/).
 */
export function configWarnings(config: Config): string[] {
  return [...sandboxWarnings(config), ...webpushWarnings(config), ...proxyWarnings(config)];
}

/** For process entry points: the configuration, or one line on stderr and exit code 1. */
export function loadConfigOrExit(options: LoadOptions = {}): Config {
  try {
    return loadConfig(process.env, process.cwd(), {
      generateVapidKeys: true,
      generateTombstoneKey: true,
      ...options,
    });
  } catch (error) {
    if (error instanceof ConfigError) {
      for (const line of error.message.split('\n')) console.error(`Configuration error: ${line}`);
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
      TOMBSTONE_KEY: 'test-tombstone-key-0123456789abcdef0123456789',
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
