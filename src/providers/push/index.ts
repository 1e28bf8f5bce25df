// The push driver PUSH_DRIVER names: `log` in development, `fcm` (Firebase Cloud Messaging).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { ConfigError } from '../../lib/env-settings.js';
import { createFcmDriver } from './fcm.js';
import { createLogPushDriver } from './log.js';
import type { PushDriver } from './types.js';

export * from './types.js';

export function createPushDriver(
  config: Pick<Config, 'pushDriver' | 'fcm' | 'dataDir'>,
  deps: { clock: Clock; logger: FastifyBaseLogger; fetch?: typeof fetch },
): PushDriver {
  if (config.pushDriver === 'log') {
    return createLogPushDriver({ dataDir: config.dataDir, logger: deps.logger, clock: deps.clock });
  }
  const { serviceAccount, projectId, baseUrl } = config.fcm;
  // loadConfig refuses this already; a hand-built configuration gets the same line.
  if (!serviceAccount) throw new ConfigError('FCM_SERVICE_ACCOUNT is required when PUSH_DRIVER=fcm');
  return createFcmDriver({ serviceAccount, projectId, baseUrl }, deps);
}
