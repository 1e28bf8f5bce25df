// Shared pieces for the sign-in tests: valid phones, a messenger that keeps what it was asked to send
// (or fails on demand), and the two OTP calls through HTTP.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import { eq } from 'drizzle-orm';
import { otpCodes } from '../../src/db/schema/index.js';
import { type CodeMessage, MessagingError, type Messenger } from '../../src/providers/messaging/index.js';
import { createTestApp, type TestApp } from '../helpers.js';

let counter = 0;

/**
 * A fresh Cameroonian mobile number (+237 69x xx xx xx), valid for libphonenumber's full metadata.
 * (test/helpers.ts nextPhone() can produce +23760…, which that metadata rightly refuses.)
 */
export function mobilePhone(): string {
  counter += 1;
  return `+23769${String((process.pid * 1000 + counter) % 10_000_000).padStart(7, '0')}`;
}

export interface CapturingMessenger extends Messenger {
  sent: CodeMessage[];
  /** The next sends throw these, in order. */
  failNext(...errors: MessagingError[]): void;
  /** The code of the last message to `phone`. */
  lastCode(phone: string): string;
}

export function providerFailure(): MessagingError {
  return new MessagingError('twilio: 21614 not a mobile number', {
    provider: 'twilio',
    reason: 'invalid_recipient',
    providerCode: 21614,
    status: 400,
  });
}

export function capturingMessenger(): CapturingMessenger {
  const sent: CodeMessage[] = [];
  const failures: MessagingError[] = [];
  return {
    sent,
    failNext: (...errors) => void failures.push(...errors),
    async send(message) {
      const failure = failures.shift();
      if (failure) throw failure;
      sent.push(message);
    },
    lastCode(phone) {
      const message = sent.filter((m) => m.to === phone).at(-1);
      if (!message) throw new Error(`no code was sent to ${phone}`);
      return message.code;
    },
  };
}

export interface OtpTestApp extends TestApp {
  messenger: CapturingMessenger;
}

export async function createOtpApp(options: Parameters<typeof createTestApp>[0] = {}): Promise<OtpTestApp> {
  const messenger = capturingMessenger();
  const t = await createTestApp({ messenger, ...options });
  return Object.assign(t, { messenger });
}

export interface CallOptions {
  ip?: string;
  headers?: Record<string, string>;
}

export function generate(t: TestApp, payload: unknown, options: CallOptions = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/otp/generate',
    payload: payload as Record<string, unknown>,
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

export function verify(t: TestApp, payload: unknown, options: CallOptions = {}) {
  return t.app.inject({
    method: 'POST',
    url: '/api/otp/verify',
    payload: payload as Record<string, unknown>,
    ...(options.ip ? { remoteAddress: options.ip } : {}),
    ...(options.headers ? { headers: options.headers } : {}),
  });
}

/**
 * A generate as a client that handles the sign-up challenge (decision 0104): a 428 is solved and the
 * same request sent again with its proof (the ALTCHA payload, base64).
 */
export async function generateSolving(
  t: TestApp,
  payload: Record<string, unknown>,
  options: CallOptions = {},
) {
  const first = await generate(t, payload, options);
  if (first.statusCode !== 428) return first;
  const challenge = first.json().data.challenge as Challenge;
  const solution = await solveChallenge({ challenge, deriveKey });
  const proof = Buffer.from(JSON.stringify({ challenge, solution })).toString('base64');
  return generate(t, { ...payload, proof }, options);
}

/** Asks for a code by SMS for `phone` (a Cameroonian number) and returns it. */
export async function requestCode(t: OtpTestApp, phone: string, options: CallOptions = {}): Promise<string> {
  const response = await generate(t, { phone, country: 'CM', method: 'sms' }, options);
  if (response.statusCode !== 200)
    throw new Error(`generate answered ${response.statusCode}: ${response.body}`);
  return t.messenger.lastCode(phone);
}

/** A code that is not `code`, of the same form. */
export function otherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

export async function codeRows(t: TestApp, phone: string) {
  return t.app.db.select().from(otpCodes).where(eq(otpCodes.phone, phone)).orderBy(otpCodes.id);
}

export async function tempDir(): Promise<{ path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'auth-test-'));
  return { path, remove: () => rm(path, { recursive: true, force: true }) };
}
