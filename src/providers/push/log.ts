// The development push driver: nothing leaves the machine. Each notification goes to the log and
// to one JSON line in DATA_DIR/push-outbox.jsonl, the phone a developer (or a black-box test) reads.
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
import { jsonLinesAppender } from '../../lib/json-lines.js';
import type { PushDriver } from './types.js';

export const PUSH_OUTBOX_FILE = 'push-outbox.jsonl';

/** The end of a token, enough to tell devices apart in a log without writing the whole token. */
export function tokenHint(token: string): string {
  return `…${token.slice(-8)}`;
}

export function createLogPushDriver(deps: {
  dataDir: string;
  logger: FastifyBaseLogger;
  clock: Clock;
}): PushDriver {
  const append = jsonLinesAppender(join(deps.dataDir, PUSH_OUTBOX_FILE));
  return {
    name: 'log',
    async send(message) {
      const line = {
        device_id: message.deviceId,
        token: tokenHint(message.token),
        platform: message.platform,
        title: message.title,
        body: message.body,
        data: message.data,
        sent_at: deps.clock.now().toISOString(),
      };
      try {
        await append(line);
      } catch (error) {
        return {
          outcome: 'retry',
          reason: `outbox: ${error instanceof Error ? error.message : String(error)}`,
        };
      }
      deps.logger.info(line, 'push notification (log driver, not sent)');
      return { outcome: 'sent' };
    },
  };
}
