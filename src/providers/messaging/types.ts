// The messaging contract: what the sign-in service hands a driver (one code message) and the one
// error every driver throws when a code could not be sent.

import type { MessagingDriverName } from '../../config.js';
import type { Locale, OtpChannel } from '../../lib/allowed-values.js';
import { redactPhoneNumbers } from './redact.js';

export type { MessagingDriverName };

export type Channel = OtpChannel;

export interface CodeMessage {
  /** E.164, e.g. +237690000001. */
  to: string;
  channel: Channel;
  /** The one-time code alone: WhatsApp templates carry it as a parameter, not inside `text`. */
  code: string;
  /** The full sentence in `locale` (the SMS body and the development outbox line). */
  text: string;
  /** The requesting call's language: WhatsApp picks its approved template by it. */
  locale: Locale;
  /** How long the code stays valid; drivers keep a message from arriving after that. */
  ttlSeconds: number;
}

export interface MessagingDriver {
  readonly name: MessagingDriverName;
  readonly channels: readonly Channel[];
  send(message: CodeMessage): Promise<void>;
}

/**
 * Why a send failed, in our words rather than each provider's codes. Every one of them is the spec's
 * 500 "code could not be sent"; the distinction is for the log and for operators.
 */
export type MessagingFailure =
  | 'invalid_recipient'
  | 'region_not_permitted'
  | 'unverified_recipient'
  | 'invalid_sender'
  | 'rate_limited'
  | 'outside_session'
  | 'unauthorized'
  | 'template'
  | 'unavailable'
  | 'timeout'
  | 'rejected'
  | 'internal';

export interface MessagingErrorDetails {
  provider: MessagingDriverName;
  reason: MessagingFailure;
  /** The provider's own error code (Twilio `code`, Meta `error.code`), when it gave one. */
  providerCode?: number | undefined;
  /** The provider's HTTP status, when it answered. */
  status?: number | undefined;
  /** True when the same message may succeed later (rate limit, outage, timeout). */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * Safe to log as is: it never holds a credential or the code, and phone numbers in the message (a
 * provider's text may echo the recipient) are redacted here, whichever driver built it.
 */
export class MessagingError extends Error {
  override name = 'MessagingError';
  readonly provider: MessagingDriverName;
  readonly reason: MessagingFailure;
  readonly providerCode: number | undefined;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(message: string, details: MessagingErrorDetails) {
    super(redactPhoneNumbers(message), details.cause === undefined ? undefined : { cause: details.cause });
    this.provider = details.provider;
    this.reason = details.reason;
    this.providerCode = details.providerCode;
    this.status = details.status;
    this.retryable = details.retryable ?? false;
  }
}
