// The messenger the sign-in service uses: it picks a driver per channel from the configuration
// (MESSAGING_DRIVER for both, WHATSAPP_DRIVER overriding WhatsApp) and hands each code message to it.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { ConfigError } from '../../lib/env-settings.js';
import { createLogDriver } from './log.js';
import { createTwilioDriver, twilioChannelProblem } from './twilio.js';
import {
  type Channel,
  type CodeMessage,
  type MessagingDriver,
  type MessagingDriverName,
  MessagingError,
} from './types.js';
import { createWhatsappCloudDriver } from './whatsapp-cloud.js';

export * from './types.js';

export interface Messenger {
  /** Resolves once the provider accepted the message; throws MessagingError otherwise. */
  send(message: CodeMessage): Promise<void>;
}

export interface MessengerDeps {
  config: Config;
  logger: FastifyBaseLogger;
  clock: Clock;
  fetch?: typeof fetch;
  /** Drivers to use instead of the configured ones, per channel (tests). */
  drivers?: Partial<Record<Channel, MessagingDriver>>;
  /** Per HTTP attempt; 10 s by default. */
  timeoutMs?: number;
  /** Pause before retrying a provider outage; 250 ms by default. */
  retryDelayMs?: number;
}

const SETTING: Record<Channel, string> = { sms: 'MESSAGING_DRIVER', whatsapp: 'WHATSAPP_DRIVER' };

/** Throws ConfigError when a channel's driver cannot serve it: a start error, not a failed sign-in. */
export function createMessenger(deps: MessengerDeps): Messenger {
  const { config, logger } = deps;
  const http = { logger, fetch: deps.fetch, timeoutMs: deps.timeoutMs, retryDelayMs: deps.retryDelayMs };
  const built = new Map<MessagingDriverName, MessagingDriver>();

  const configured = (name: MessagingDriverName, channel: Channel): MessagingDriver => {
    if (name === 'twilio') {
      const problem = twilioChannelProblem(config.twilio, channel);
      if (problem) throw new ConfigError(`${SETTING[channel]}=twilio: ${problem}`);
    }
    // One instance per driver name, so SMS and WhatsApp through Twilio share it.
    let driver = built.get(name);
    if (!driver) {
      if (name === 'log') driver = createLogDriver({ dataDir: config.dataDir, logger, clock: deps.clock });
      else if (name === 'twilio') driver = createTwilioDriver(config.twilio, http);
      else driver = createWhatsappCloudDriver(config.whatsappCloud, http);
      built.set(name, driver);
    }
    return driver;
  };

  const pick = (channel: Channel, name: MessagingDriverName): MessagingDriver => {
    const driver = deps.drivers?.[channel] ?? configured(name, channel);
    if (!driver.channels.includes(channel)) {
      const serves = driver.channels.join(' and ') || 'nothing';
      const hint = channel === 'sms' ? ' (use log or twilio; set whatsapp-cloud in WHATSAPP_DRIVER)' : '';
      throw new ConfigError(
        `${SETTING[channel]}=${driver.name} cannot send ${channel}: it serves ${serves}${hint}`,
      );
    }
    return driver;
  };

  const routes: Record<Channel, MessagingDriver> = {
    sms: pick('sms', config.messagingDriver),
    whatsapp: pick('whatsapp', config.whatsappDriver),
  };

  return {
    async send(message) {
      const driver = routes[message.channel];
      if (!driver) throw new TypeError(`unknown messaging channel ${JSON.stringify(message.channel)}`);
      try {
        await driver.send(message);
      } catch (error) {
        if (error instanceof MessagingError) throw error;
        // A driver's own bug or a full disk still surfaces as "code could not be sent".
        throw new MessagingError(
          `${driver.name}: ${error instanceof Error ? error.message : String(error)}`,
          {
            provider: driver.name,
            reason: 'internal',
            cause: error,
          },
        );
      }
    },
  };
}
