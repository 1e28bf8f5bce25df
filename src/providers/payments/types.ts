// The payments provider interface: what the wallet needs from a mobile-money provider (NotchPay, or
// the development sandbox). A driver speaks the provider's protocol and nothing else: it never
// decides what a payment's state is in our books (the wallet does, after re-fetching).
import type { PaymentChannel, PaymentProvider } from '../../lib/allowed-values.js';

/** The provider's own statuses (NotchPay's vocabulary; the sandbox uses the same words). */
export const providerPendingStatuses = ['pending', 'processing', 'incomplete'] as const;
export const providerFinalFailures = ['failed', 'canceled', 'rejected', 'abandoned', 'expired'] as const;
export type ProviderPaymentStatus =
  | (typeof providerPendingStatuses)[number]
  | (typeof providerFinalFailures)[number]
  | 'complete'
  | 'refunded';

/** A transfer's statuses at the provider (NotchPay's words): still moving, paid, or not paid. */
export const providerTransferPending = ['pending', 'processing', 'sent'] as const;
export const providerTransferFailures = ['failed', 'rejected', 'expired', 'canceled', 'cancelled'] as const;

/** A payout (a withdrawal) as we stored it before asking the provider to send it. */
export interface TransferToSend {
  /** Ours, unique, derived from the withdrawal (`wd-<id>`); the provider keys the transfer on it. */
  reference: string;
  /** Whole XAF: exactly what the user asked for (the provider's fees are ours). */
  amount: number;
  currency: 'XAF';
  /** The receiving mobile-money number, E.164. */
  phone: string;
  channel: PaymentChannel;
  /** The recipient's name as the provider records it. */
  recipientName: string;
  /** Shown in the provider's records (French). */
  description: string;
  /** When the payout was approved (the sandbox pays out relative to it). */
  approvedAt: Date;
}

/** What the provider says of a transfer. */
export interface ProviderTransfer {
  reference: string;
  providerReference: string | null;
  /** `pending`, `sent`, `complete`, `failed`, `rejected`, `expired`, or a word we do not know. */
  status: string;
  amount: number;
  currency: string;
}

/** A payment as we stored it before calling the provider. */
export interface PaymentToStart {
  /** Ours, unique; the provider keys the payment on it. */
  reference: string;
  /** Whole XAF. */
  amount: number;
  currency: 'XAF';
  /** E.164. */
  payerPhone: string;
  channel: PaymentChannel;
  /** Shown to the payer by the provider (French). */
  description: string;
  /** When we stored it (the sandbox settles relative to it). */
  createdAt: Date;
}

/** What the provider says of a payment. */
export interface ProviderPayment {
  /** Our reference, as the provider echoes it. */
  reference: string;
  /** The provider's own id, when it has one. */
  providerReference: string | null;
  status: ProviderPaymentStatus | string;
  amount: number;
  currency: string;
  /** A hosted page where the payer confirms, when the provider gives one. */
  paymentUrl: string | null;
}

/** An authentic webhook's content; never trusted beyond "look at this payment again". */
export interface WebhookEvent {
  id: string | null;
  /** e.g. `payment.complete`, `transfer.failed`. */
  type: string;
  /** Our reference of the payment or transfer it is about, when the body names one. */
  reference: string | null;
}

export interface PaymentsDriver {
  readonly name: PaymentProvider;
  /**
   * Creates the payment at the provider and asks for the mobile-money charge. Retried safely: a
   * provider that already knows the reference (409) or a timeout is answered by fetching it.
   */
  start(payment: PaymentToStart, signal?: AbortSignal): Promise<ProviderPayment>;
  /** The provider's current word on a payment we started. */
  fetch(payment: PaymentToStart, signal?: AbortSignal): Promise<ProviderPayment>;
  /**
   * The event of a webhook whose signature over the raw body is valid (constant-time compare), or
   * null for a missing or wrong signature.
   */
  verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>): WebhookEvent | null;
  /**
   * Sends a payout. Never twice: an uncertain create (timeout, 409, 5xx) is answered by fetching the
   * reference; a 404 there means nothing was created (a PaymentProviderError with status 404).
   */
  sendTransfer(transfer: TransferToSend, signal?: AbortSignal): Promise<ProviderTransfer>;
  /** The provider's current word on a transfer we sent; a 404 PaymentProviderError when it never heard of it. */
  fetchTransfer(transfer: TransferToSend, signal?: AbortSignal): Promise<ProviderTransfer>;
}

/** The provider could not be reached or refused the call; `retryable` says whether to try later. */
export class PaymentProviderError extends Error {
  override name = 'PaymentProviderError';
  readonly provider: PaymentProvider;
  readonly status: number | undefined;
  readonly retryable: boolean;

  constructor(
    message: string,
    details: { provider: PaymentProvider; status?: number; retryable: boolean; cause?: unknown },
  ) {
    super(message, { cause: details.cause });
    this.provider = details.provider;
    this.status = details.status;
    this.retryable = details.retryable;
  }
}

/**
 * The drivers this process can speak: `current` for new payments and payouts, and, by name, the
 * one an older row was made with (a payment is always followed through its own provider).
 */
export interface PaymentDrivers {
  readonly current: PaymentsDriver;
  /** The driver of that name, or undefined when it is not configured here. */
  byName(name: string): PaymentsDriver | undefined;
}
