// The development push driver: nothing leaves the machine. Each notification goes to the log and
// to one JSON line in DATA_DIR/push-outbox.jsonl, the phone a developer (or a black-box test) reads.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '../../lib/clock.js';
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
  const file = join(deps.dataDir, PUSH_OUTBOX_FILE);
  // One append after the other, so the lines keep their order.
  let appending: Promise<void> = Promise.resolve();
  const appendLine = (line: string): Promise<void> => {
    const next = appending
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        await appendFile(file, line, { encoding: 'utf8', flag: 'a', mode: 0o600 });
      });
    appending = next;
    return next;
  };
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
        await appendLine(`${JSON.stringify(line)}\n`);
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
