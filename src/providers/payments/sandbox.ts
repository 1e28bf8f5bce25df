// The development payments driver: no money moves. A payment settles PAYMENT_SANDBOX_DELAY_MS after
// it was stored — `complete` with the right amount, or `failed` when the payer's number ends in 0000 —
// and `fetch` computes that from the payment alone (stateless, like asking a real provider). Right
// after the delay it signs a webhook, as a real provider would; the runtime's sandbox-webhooks loop
// takes it (`takeDueWebhooks`) and hands it to the webhook dispatch, the one the webhook route
// calls, so the sandbox exercises the same path as NotchPay. Payouts
// work the same way: a transfer is `sent` until the delay has passed since its approval, then
// `complete`, or `failed` when the receiving number ends in 0000, announced by a `transfer.*` webhook.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Clock } from '../../lib/clock.js';
import type {
  PaymentsDriver,
  PaymentToStart,
  ProviderPayment,
  ProviderTransfer,
  TransferToSend,
  WebhookEvent,
} from './types.js';

export const SANDBOX_SIGNATURE_HEADER = 'x-sandbox-signature';

/** A webhook as the provider would send it: the raw body its signature covers, and the headers. */
export interface SignedWebhook {
  rawBody: Buffer;
  headers: Record<string, string>;
}

export interface SandboxOptions {
  /** APP_SECRET: the webhook key is derived from it, so no one outside the service can sign. */
  appSecret: string;
  delayMs: number;
  clock: Clock;
}

export interface SandboxDriver extends PaymentsDriver {
  readonly name: 'sandbox';
  /** The signed webhooks whose time has come (on the clock), each handed out once. */
  takeDueWebhooks(): SignedWebhook[];
}

export function isSandboxDriver(driver: PaymentsDriver): driver is SandboxDriver {
  return driver.name === 'sandbox' && 'takeDueWebhooks' in driver;
}

/** The webhook key: derived from APP_SECRET for this one purpose. */
function webhookKey(appSecret: string): Buffer {
  return createHmac('sha256', appSecret).update('payments:sandbox:webhook').digest();
}

export function signSandboxWebhook(appSecret: string, rawBody: string | Buffer): string {
  return createHmac('sha256', webhookKey(appSecret)).update(rawBody).digest('hex');
}

export function createSandboxDriver(options: SandboxOptions): SandboxDriver {
  const { appSecret, delayMs, clock } = options;
  type Scheduled = { at: number; payment: PaymentToStart } | { at: number; transfer: TransferToSend };
  const scheduled = new Map<string, Scheduled>();

  function settlesAt(payment: PaymentToStart): number {
    return payment.createdAt.getTime() + delayMs;
  }

  function current(payment: PaymentToStart): ProviderPayment {
    const settled = clock.now().getTime() >= settlesAt(payment);
    const fails = payment.payerPhone.endsWith('0000');
    return {
      reference: payment.reference,
      providerReference: `sandbox-${payment.reference}`,
      status: settled ? (fails ? 'failed' : 'complete') : 'pending',
      amount: payment.amount,
      currency: payment.currency,
      paymentUrl: null,
    };
  }

  function transferState(transfer: TransferToSend): ProviderTransfer {
    const paid = clock.now().getTime() >= transfer.approvedAt.getTime() + delayMs;
    return {
      reference: transfer.reference,
      providerReference: `sandbox-${transfer.reference}`,
      status: paid ? (transfer.phone.endsWith('0000') ? 'failed' : 'complete') : 'sent',
      amount: transfer.amount,
      currency: transfer.currency,
    };
  }

  function schedule(reference: string, entry: Scheduled): void {
    scheduled.set(reference, entry);
  }

  function signed(entry: Scheduled): SignedWebhook {
    const [kind, reference, status] =
      'payment' in entry
        ? ['payment', entry.payment.reference, current(entry.payment).status]
        : ['transfer', entry.transfer.reference, transferState(entry.transfer).status];
    const rawBody = Buffer.from(
      JSON.stringify({
        id: `sandbox-event-${reference}`,
        event: `${kind}.${status}`,
        data: { reference, status },
      }),
    );
    return {
      rawBody,
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(appSecret, rawBody),
      },
    };
  }

  const driver: SandboxDriver = {
    name: 'sandbox',

    async start(payment) {
      schedule(payment.reference, { at: settlesAt(payment), payment });
      return current(payment);
    },

    async fetch(payment) {
      return current(payment);
    },

    async sendTransfer(transfer) {
      schedule(transfer.reference, { at: transfer.approvedAt.getTime() + delayMs, transfer });
      return transferState(transfer);
    },

    async fetchTransfer(transfer) {
      return transferState(transfer);
    },

    verifyWebhook(rawBody, headers) {
      const given = headers[SANDBOX_SIGNATURE_HEADER];
      if (typeof given !== 'string' || !/^[0-9a-f]{64}$/i.test(given)) return null;
      const expected = Buffer.from(signSandboxWebhook(appSecret, rawBody), 'hex');
      if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return null;
      try {
        const body = JSON.parse(rawBody.toString('utf8')) as {
          id?: unknown;
          event?: unknown;
          data?: { reference?: unknown };
        };
        return {
          id: typeof body.id === 'string' ? body.id : null,
          type: typeof body.event === 'string' ? body.event : '',
          reference: typeof body.data?.reference === 'string' ? body.data.reference : null,
        } satisfies WebhookEvent;
      } catch {
        return null;
      }
    },

    takeDueWebhooks() {
      const now = clock.now().getTime();
      const due = [...scheduled.values()].filter((entry) => entry.at <= now);
      for (const entry of due) {
        scheduled.delete('payment' in entry ? entry.payment.reference : entry.transfer.reference);
      }
      return due.map(signed);
    },
  };
  return driver;
}
