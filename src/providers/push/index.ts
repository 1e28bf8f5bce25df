// The push driver: PUSH_DRIVER's (`log` in development, `fcm`: Firebase Cloud Messaging) for the
// app's devices (`android`, `ios`, `web`: FCM tokens), WEBPUSH_DRIVER's (`log`, or `vapid`: Web
// Push) for browsers (`webpush`: a PushSubscription). The push sender sees one driver; each device
// goes to its platform's.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { ConfigError } from '../../lib/env-settings.js';
import { createFcmDriver } from './fcm.js';
import { createLogPushDriver } from './log.js';
import type { PushDriver } from './types.js';
import { createWebPushDriver } from './webpush.js';

export * from './types.js';

export function createPushDriver(
  config: Pick<Config, 'pushDriver' | 'fcm' | 'dataDir' | 'webpush' | 'pushMaxAgeSeconds'>,
  deps: {
    clock: Clock;
    logger: FastifyBaseLogger;
    fetch?: typeof fetch;
    /** A certificate authority Web Push trusts beside the system's (a test's fake push service). */
    webpushCa?: string;
  },
): PushDriver {
  let logDriver: PushDriver | undefined;
  const log = () => {
    logDriver ??= createLogPushDriver({ dataDir: config.dataDir, logger: deps.logger, clock: deps.clock });
    return logDriver;
  };
  const apps = config.pushDriver === 'log' ? log() : fcmDriver(config, deps);
  const browsers =
    config.webpush.driver === 'log' ? log() : webPushDriver(config, deps.logger, deps.webpushCa);
  return {
    name: apps.name,
    send: (message) => (message.platform === 'webpush' ? browsers : apps).send(message),
  };
}

function fcmDriver(
  config: Pick<Config, 'fcm'>,
  deps: { clock: Clock; logger: FastifyBaseLogger; fetch?: typeof fetch },
) {
  const { serviceAccount, projectId, baseUrl } = config.fcm;
  // loadConfig refuses this already; a hand-built configuration gets the same line.
  if (!serviceAccount) throw new ConfigError('FCM_SERVICE_ACCOUNT is required when PUSH_DRIVER=fcm');
  return createFcmDriver({ serviceAccount, projectId, baseUrl }, deps);
}

function webPushDriver(
  config: Pick<Config, 'webpush' | 'pushMaxAgeSeconds'>,
  logger: FastifyBaseLogger,
  ca: string | undefined,
) {
  const { publicKey, privateKey, subject } = config.webpush;
  // loadConfig refuses this already; a hand-built configuration gets the same line.
  if (!publicKey || !privateKey || !subject) {
    throw new ConfigError(
      'WEBPUSH_DRIVER=vapid needs WEBPUSH_VAPID_PUBLIC_KEY, WEBPUSH_VAPID_PRIVATE_KEY and WEBPUSH_SUBJECT',
    );
  }
  return createWebPushDriver(
    { publicKey, privateKey, subject },
    {
      logger,
      ttlSeconds: config.pushMaxAgeSeconds,
      allowedHosts: config.webpush.allowedHosts,
      ...(ca ? { ca } : {}),
    },
  );
}
