// NotchPay (Cameroon mobile money): a payment is created under our reference, then charged directly
// on the payer's phone (no hosted page), read back by reference, and announced by signed webhooks.
// Every call is safe to repeat: NotchPay keys the payment on our reference and answers 409 when it
// already knows it, so an uncertain create (timeout, 409) is resolved by reading, never by a second one.
// Payouts (withdrawals) go through a recipient, then a transfer under our reference (`wd-<id>`), both
// with the private key in `X-Grant`; a transfer create is sent once, and any doubt about it (timeout,
// 409, 5xx, lost connection) is resolved by reading that reference.
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { setTimeout as defaultSleep } from 'node:timers/promises';
import type { Config } from '../../config.js';
import { ConfigError } from '../../lib/env-settings.js';
import { describeFetchError, isRecord, isTimeout, parseJson } from '../http-answers.js';
import { redactPhoneNumbers } from '../messaging/redact.js';
import {
  PaymentProviderError,
  type PaymentsDriver,
  type PaymentToStart,
  type ProviderPayment,
  type ProviderTransfer,
  type TransferToSend,
  type WebhookEvent,
} from './types.js';

type NotchPaySettings = Config['notchpay'];

/** What the driver takes besides its settings; tests pass their own fetch and a sleep that does not wait. */
export interface NotchPayDriverDeps {
  fetch?: typeof fetch;
  sleep?: (ms: number) => Promise<void>;
}

/** Calls per request, the first included: a passing outage is ridden out, a long one is reported. */
export const NOTCHPAY_MAX_ATTEMPTS = 3;
/** The pauses before the second and third attempts after a 5xx, a network error or a 429 without Retry-After. */
export const NOTCHPAY_BACKOFF_MS = [500, 2000] as const;
/** The longest Retry-After we wait through inside one call; a longer one is reported as retryable. */
export const NOTCHPAY_MAX_RETRY_AFTER_MS = 10_000;

export const NOTCHPAY_SIGNATURE_HEADER = 'x-notch-signature';

/** No answer within the per-call timeout: the call may or may not have taken effect at NotchPay. */
class NotchPayTimeout extends PaymentProviderError {}

interface CallOptions {
  signal: AbortSignal | undefined;
  /** Only reads are repeated after a timeout; a write that timed out is resolved by reading. */
  retryTimeouts: boolean;
  /** Payouts and recipients need the private key in `X-Grant`. */
  grant?: boolean;
  /** Calls at most (NOTCHPAY_MAX_ATTEMPTS by default); a transfer create is sent once. */
  maxAttempts?: number;
}

export function createNotchPayDriver(
  settings: NotchPaySettings,
  deps: NotchPayDriverDeps = {},
): PaymentsDriver {
  const { publicKey, webhookSecret } = settings;
  if (!publicKey) throw new ConfigError('NOTCHPAY_PUBLIC_KEY is required when PAYMENTS_DRIVER=notchpay');
  if (!webhookSecret) {
    throw new ConfigError('NOTCHPAY_WEBHOOK_SECRET is required when PAYMENTS_DRIVER=notchpay');
  }
  const doFetch = deps.fetch ?? globalThis.fetch;
  const sleep = deps.sleep ?? ((ms: number) => defaultSleep(ms).then(() => undefined));
  const baseUrl = settings.baseUrl.replace(/\/+$/, '');
  const { privateKey } = settings;

  async function call(method: string, path: string, body: unknown, options: CallOptions): Promise<unknown> {
    for (let attempt = 1; ; attempt++) {
      let failure: PaymentProviderError;
      let waitMs: number = NOTCHPAY_BACKOFF_MS[attempt - 1] ?? NOTCHPAY_BACKOFF_MS[1];
      try {
        const timeout = AbortSignal.timeout(settings.timeoutMs);
        const response = await doFetch(`${baseUrl}${path}`, {
          method,
          headers: {
            // NotchPay takes the public key as it is, without "Bearer".
            authorization: publicKey as string,
            ...(options.grant ? { 'x-grant': grantKey() } : {}),
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
          signal: options.signal ? AbortSignal.any([options.signal, timeout]) : timeout,
        });
        const answer = parseJson(await response.text());
        if (response.ok) return answer;
        failure = toProviderError(response.status, answer);
        if (!failure.retryable) throw failure;
        if (response.status === 429) {
          const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
          if (retryAfterMs !== undefined) {
            if (retryAfterMs > NOTCHPAY_MAX_RETRY_AFTER_MS) throw failure;
            waitMs = retryAfterMs;
          }
        }
      } catch (error) {
        if (error instanceof PaymentProviderError) throw error;
        if (options.signal?.aborted) {
          throw new PaymentProviderError(`notchpay: ${method} ${path} abandoned by the caller`, {
            provider: 'notchpay',
            retryable: true,
            cause: error,
          });
        }
        if (isTimeout(error)) {
          failure = new NotchPayTimeout(
            `notchpay: no answer to ${method} ${path} within ${settings.timeoutMs} ms`,
            {
              provider: 'notchpay',
              retryable: true,
              cause: error,
            },
          );
          if (!options.retryTimeouts) throw failure;
        } else {
          failure = new PaymentProviderError(`notchpay: unreachable (${describeFetchError(error)})`, {
            provider: 'notchpay',
            retryable: true,
            cause: error,
          });
        }
      }
      if (attempt >= (options.maxAttempts ?? NOTCHPAY_MAX_ATTEMPTS)) throw failure;
      await sleep(waitMs);
    }
  }

  function grantKey(): string {
    if (!privateKey) {
      throw new PaymentProviderError('notchpay: NOTCHPAY_PRIVATE_KEY is required for payouts', {
        provider: 'notchpay',
        retryable: false,
      });
    }
    return privateKey;
  }

  async function fetchTransfer(transfer: TransferToSend, signal?: AbortSignal): Promise<ProviderTransfer> {
    const answer = await call('GET', `/transfers/${encodeURIComponent(transfer.reference)}`, undefined, {
      signal,
      retryTimeouts: true,
      grant: true,
    });
    return toProviderTransfer(answer, transfer);
  }

  async function fetchPayment(payment: PaymentToStart, signal?: AbortSignal): Promise<ProviderPayment> {
    const answer = await call('GET', paymentPath(payment), undefined, { signal, retryTimeouts: true });
    return toProviderPayment(answer, payment);
  }

  return {
    name: 'notchpay',

    async start(payment, signal) {
      let created: ProviderPayment;
      try {
        const answer = await call(
          'POST',
          '/payments',
          {
            amount: payment.amount,
            currency: payment.currency,
            customer: { phone: payment.payerPhone },
            reference: payment.reference,
            description: payment.description,
          },
          { signal, retryTimeouts: false },
        );
        created = toProviderPayment(answer, payment);
      } catch (error) {
        if (!isUncertain(error)) throw error;
        created = await fetchPayment(payment, signal).catch((readError: unknown) => {
          throw notCreated(readError, payment);
        });
        // An earlier attempt got further than creating it: the payer was already asked.
        if (created.status !== 'pending') return created;
      }

      try {
        const answer = await call(
          settings.chargeMethod,
          paymentPath(payment),
          // NotchPay wants the number without the plus: 2376….
          { channel: payment.channel, data: { phone: payment.payerPhone.replace(/^\+/, '') } },
          { signal, retryTimeouts: false },
        );
        const charged = readTransaction(answer) ? toProviderPayment(answer, payment) : created;
        return { ...charged, paymentUrl: charged.paymentUrl ?? created.paymentUrl };
      } catch (error) {
        if (!isUncertain(error)) throw error;
        return fetchPayment(payment, signal);
      }
    },

    fetch: fetchPayment,

    async sendTransfer(transfer, signal) {
      // A recipient moves no money: a new one per attempt is harmless, so its create may be retried.
      const recipientAnswer = await call(
        'POST',
        '/recipients',
        {
          name: transfer.recipientName,
          phone: transfer.phone,
          channel: transfer.channel,
          account_number: transfer.phone,
          country: 'CM',
          reference: `${transfer.reference}-${randomBytes(4).toString('hex')}`,
        },
        { signal, retryTimeouts: false, grant: true },
      );
      const recipient = readObject(recipientAnswer, 'recipient');
      const recipientId = recipient ? text(recipient.id) : null;
      if (!recipientId) {
        throw new PaymentProviderError(`notchpay: the recipient of ${transfer.reference} has no id`, {
          provider: 'notchpay',
          retryable: true,
        });
      }
      try {
        const answer = await call(
          'POST',
          '/transfers',
          {
            amount: transfer.amount,
            currency: transfer.currency,
            channel: transfer.channel,
            recipient: recipientId,
            description: transfer.description,
            reference: transfer.reference,
          },
          { signal, retryTimeouts: false, grant: true, maxAttempts: 1 },
        );
        return toProviderTransfer(answer, transfer);
      } catch (error) {
        if (!isUncertainTransfer(error)) throw error;
        // It may have been created: only reading the reference tells, never a second create.
        return fetchTransfer(transfer, signal).catch((readError: unknown) => {
          throw notCreatedTransfer(readError, transfer);
        });
      }
    },

    fetchTransfer,

    verifyWebhook: (rawBody, headers) => signedWebhookEvent(webhookSecret, rawBody, headers),
  };
}

/** The event of a webhook signed with our secret (HMAC-SHA256 of the raw body, hex); null when the signature is missing or wrong. */
function signedWebhookEvent(
  secret: string,
  rawBody: Buffer,
  headers: Record<string, string | string[] | undefined>,
): WebhookEvent | null {
  const header = headers[NOTCHPAY_SIGNATURE_HEADER];
  const signature = Array.isArray(header) ? (header.length === 1 ? header[0] : undefined) : header;
  if (typeof signature !== 'string' || !/^[0-9a-f]{64}$/i.test(signature.trim())) return null;
  const expected = createHmac('sha256', secret).update(rawBody).digest();
  if (!timingSafeEqual(Buffer.from(signature.trim(), 'hex'), expected)) return null;
  return toWebhookEvent(parseJson(rawBody.toString('utf8')));
}

function paymentPath(payment: PaymentToStart): string {
  return `/payments/${encodeURIComponent(payment.reference)}`;
}

/** A 409 (NotchPay already knows the reference) or a timeout: the truth is found by reading it. */
function isUncertain(error: unknown): boolean {
  return error instanceof NotchPayTimeout || (error instanceof PaymentProviderError && error.status === 409);
}

/** Anything but a clear refusal of a transfer create may have created it. */
function isUncertainTransfer(error: unknown): boolean {
  return error instanceof PaymentProviderError && (error.retryable || error.status === 409);
}

function notCreatedTransfer(error: unknown, transfer: TransferToSend): unknown {
  if (!(error instanceof PaymentProviderError) || error.status !== 404) return error;
  return new PaymentProviderError(`notchpay: transfer ${transfer.reference} was not created`, {
    provider: 'notchpay',
    status: 404,
    retryable: true,
    cause: error,
  });
}

/** The object of an answer: under its own name (`transfer`, `recipient`) or `data`. */
function readObject(answer: unknown, name: string): Record<string, unknown> | undefined {
  if (!isRecord(answer)) return undefined;
  if (isRecord(answer[name])) return answer[name] as Record<string, unknown>;
  if (isRecord(answer.data)) return answer.data;
  return undefined;
}

function toProviderTransfer(answer: unknown, transfer: TransferToSend): ProviderTransfer {
  const data = readObject(answer, 'transfer');
  const invalid = (what: string) =>
    new PaymentProviderError(`notchpay: answer about transfer ${transfer.reference} ${what}`, {
      provider: 'notchpay',
      retryable: true,
    });
  if (!data) throw invalid('has no transfer');
  const reference = ourReference(data);
  if (reference !== null && reference !== transfer.reference && reference !== text(data.id)) {
    throw new PaymentProviderError(
      `notchpay: asked about transfer ${transfer.reference}, answered about ${reference}`,
      { provider: 'notchpay', retryable: false },
    );
  }
  const status = text(data.status);
  const amount = toAmount(data.amount);
  if (status === null) throw invalid('has no status');
  if (amount === null) throw invalid('has no amount');
  const notchReference = text(data.reference);
  return {
    reference: transfer.reference,
    providerReference: text(data.id) ?? (notchReference !== transfer.reference ? notchReference : null),
    status,
    amount,
    currency: text(data.currency) ?? 'XAF',
  };
}

/**
 * A create whose answer was lost but that NotchPay never recorded (404 on the read): nothing exists
 * yet, so starting again later is right, and the error says so.
 */
function notCreated(error: unknown, payment: PaymentToStart): unknown {
  if (!(error instanceof PaymentProviderError) || error.status !== 404) return error;
  return new PaymentProviderError(
    `notchpay: ${payment.reference} was not created (no answer, then unknown)`,
    {
      provider: 'notchpay',
      status: 404,
      retryable: true,
      cause: error,
    },
  );
}

/** The transaction of an answer: `transaction` in the payments API, `data` in the generic envelope. */
function readTransaction(answer: unknown): Record<string, unknown> | undefined {
  if (!isRecord(answer)) return undefined;
  if (isRecord(answer.transaction)) return answer.transaction;
  if (isRecord(answer.data)) return answer.data;
  return undefined;
}

function toProviderPayment(answer: unknown, payment: PaymentToStart): ProviderPayment {
  const transaction = readTransaction(answer);
  const invalid = (what: string) =>
    new PaymentProviderError(`notchpay: answer about ${payment.reference} ${what}`, {
      provider: 'notchpay',
      retryable: true,
    });
  if (!transaction) throw invalid('has no transaction');
  const reference = ourReference(transaction);
  if (reference !== null && reference !== payment.reference) {
    throw new PaymentProviderError(
      `notchpay: asked about ${payment.reference}, answered about ${reference}`,
      {
        provider: 'notchpay',
        retryable: false,
      },
    );
  }
  const status = text(transaction.status);
  const amount = toAmount(transaction.amount);
  const currency = text(transaction.currency);
  if (status === null) throw invalid('has no status');
  if (amount === null) throw invalid('has no amount');
  if (currency === null) throw invalid('has no currency');
  const notchReference = text(transaction.reference);
  return {
    reference: payment.reference,
    providerReference: text(transaction.id) ?? (notchReference !== payment.reference ? notchReference : null),
    status,
    // As NotchPay says it: the wallet compares it with the snapshot before crediting.
    amount,
    currency,
    paymentUrl: isRecord(answer) ? text(answer.authorization_url) : null,
  };
}

/**
 * Our reference in a NotchPay object. The documentation shows it as `merchant_reference` or
 * `trxref` beside NotchPay's own `reference` (`trx.…`), and elsewhere as `reference` itself; the
 * explicit names win.
 */
function ourReference(data: Record<string, unknown>): string | null {
  return text(data.merchant_reference) ?? text(data.trxref) ?? text(data.reference);
}

/** Both documented envelopes: `{id, type, created_at, data}` and `{id, event, data}`. */
function toWebhookEvent(body: unknown): WebhookEvent {
  if (!isRecord(body)) return { id: null, type: 'unknown', reference: null };
  const data = isRecord(body.data) ? body.data : {};
  return {
    id: text(body.id),
    type: text(body.type) ?? text(body.event) ?? 'unknown',
    reference: ourReference(data),
  };
}

/** NotchPay's error body is `{code, status, message, errors: {field: [...]}}`. */
function toProviderError(status: number, body: unknown): PaymentProviderError {
  const message = isRecord(body) ? text(body.message) : null;
  const fields =
    isRecord(body) && isRecord(body.errors)
      ? Object.entries(body.errors)
          .map(
            ([field, problems]) =>
              `${field}: ${Array.isArray(problems) ? problems.join(', ') : String(problems)}`,
          )
          .join('; ')
      : '';
  const detail = [message ?? `HTTP ${status}`, fields].filter(Boolean).join(' — ');
  // NotchPay's messages may echo the payer's number ("The phone 2376… is invalid").
  return new PaymentProviderError(redactPhoneNumbers(`notchpay: ${status} ${detail}`), {
    provider: 'notchpay',
    status,
    retryable: status === 408 || status === 429 || status >= 500,
  });
}

/** Delta-seconds only: the HTTP-date form would need the wall clock, and NotchPay sends seconds. */
function parseRetryAfter(header: string | null): number | undefined {
  if (header === null || !/^\s*\d+\s*$/.test(header)) return undefined;
  return Number(header) * 1000;
}

function toAmount(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value.trim())) return Number(value);
  return null;
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 ? value : null;
}
