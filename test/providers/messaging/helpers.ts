// Shared pieces for the messaging tests: a logger whose output can be read back, and configurations
// pointing the drivers at the local fake servers.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { expect } from 'vitest';
import { type Config, testConfig } from '../../../src/config.js';
import type { CodeMessage } from '../../../src/providers/messaging/index.js';
import { MessagingError } from '../../../src/providers/messaging/types.js';
import { TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN } from '../../fakes/twilio.js';
import {
  WHATSAPP_API_VERSION,
  WHATSAPP_LANGUAGE,
  WHATSAPP_PHONE_NUMBER_ID,
  WHATSAPP_TEMPLATE,
  WHATSAPP_TOKEN,
} from '../../fakes/whatsapp-cloud.js';

export const SENTENCE = 'Votre code de vérification est 123456. Il expire dans 10 minutes.';

export function codeMessage(overrides: Partial<CodeMessage> = {}): CodeMessage {
  return {
    to: '+237690000001',
    channel: 'sms',
    code: '123456',
    text: SENTENCE,
    locale: 'fr',
    ttlSeconds: 600,
    ...overrides,
  };
}

/** A debug-level logger that keeps every line, to check what was (and was not) logged. */
export function captureLogger() {
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  return { logger, output: () => lines.join('') };
}

export const silentLogger = pino({ level: 'silent' });

export function twilioSettings(baseUrl: string, overrides: Partial<Config['twilio']> = {}): Config['twilio'] {
  return {
    baseUrl,
    accountSid: TWILIO_ACCOUNT_SID,
    authToken: TWILIO_AUTH_TOKEN,
    smsFrom: '+15005550006',
    messagingServiceSid: undefined,
    whatsappFrom: '+14155238886',
    whatsappContentSid: `HX${'b'.repeat(32)}`,
    whatsappContentSidEn: undefined,
    ...overrides,
  };
}

export function whatsappCloudSettings(
  baseUrl: string,
  overrides: Partial<Config['whatsappCloud']> = {},
): Config['whatsappCloud'] {
  return {
    baseUrl,
    apiVersion: WHATSAPP_API_VERSION,
    token: WHATSAPP_TOKEN,
    phoneNumberId: WHATSAPP_PHONE_NUMBER_ID,
    templateName: WHATSAPP_TEMPLATE,
    templateLanguage: WHATSAPP_LANGUAGE,
    templateNameEn: undefined,
    templateLanguageEn: undefined,
    ...overrides,
  };
}

export { testConfig };

export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'messaging-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}

/** The rejection of a send, asserted to be a MessagingError. */
export async function failure(promise: Promise<void>): Promise<MessagingError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(MessagingError);
  return error as MessagingError;
}
