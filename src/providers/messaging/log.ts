// The development driver: nothing leaves the machine. Each message goes to the log and to one JSON
// line in DATA_DIR/outbox.jsonl, the inbox a developer (or a black-box test) reads the code from.
import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { otpChannels } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { jsonLinesAppender } from '../../lib/json-lines.js';
import type { MessagingDriver } from './types.js';

export const OUTBOX_FILE = 'outbox.jsonl';

export function createLogDriver(deps: {
  dataDir: string;
  logger: FastifyBaseLogger;
  clock: Clock;
}): MessagingDriver {
  const append = jsonLinesAppender(join(deps.dataDir, OUTBOX_FILE));
  return {
    name: 'log',
    channels: otpChannels,
    async send(message) {
      const { to, channel, text } = message;
      const sentAt = deps.clock.now().toISOString();
      await append({ to, channel, text, sent_at: sentAt });
      // The code is logged on purpose: in development the log is the phone.
      deps.logger.info({ to, channel, text }, 'code message (log driver, not sent)');
    },
  };
}
