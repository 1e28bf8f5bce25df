// The development driver: nothing leaves the machine. Each message goes to the log and to one JSON
// line in DATA_DIR/outbox.jsonl, the inbox a developer (or a black-box test) reads the code from.
import { appendFile, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { otpChannels } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import type { MessagingDriver } from './types.js';

export const OUTBOX_FILE = 'outbox.jsonl';

export function createLogDriver(deps: {
  dataDir: string;
  logger: FastifyBaseLogger;
  clock: Clock;
}): MessagingDriver {
  const file = join(deps.dataDir, OUTBOX_FILE);
  // This driver's appends run one after the other, so its lines keep their order. Each line is also
  // a single small O_APPEND write, which keeps it whole beside another driver's or process's lines.
  let appending: Promise<void> = Promise.resolve();
  const appendLine = (line: string): Promise<void> => {
    const next = appending
      .catch(() => undefined)
      .then(async () => {
        await mkdir(dirname(file), { recursive: true, mode: 0o700 });
        // Codes and phone numbers: owner only.
        await appendFile(file, line, { encoding: 'utf8', flag: 'a', mode: 0o600 });
      });
    appending = next;
    return next;
  };
  return {
    name: 'log',
    channels: otpChannels,
    async send(message) {
      const { to, channel, text } = message;
      const sentAt = deps.clock.now().toISOString();
      await appendLine(`${JSON.stringify({ to, channel, text, sent_at: sentAt })}\n`);
      // The code is logged on purpose: in development the log is the phone.
      deps.logger.info({ to, channel, text }, 'code message (log driver, not sent)');
    },
  };
}
