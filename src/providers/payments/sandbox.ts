// The development payments driver: no money moves. A payment settles PAYMENT_SANDBOX_DELAY_MS after
// it was stored — `complete` with the right amount, or `failed` when the payer's number ends in 0000 —
// and `fetch` computes that from the payment alone (stateless, like asking a real provider). Right
// after the delay it signs a webhook, as a real provider would, and hands it to `deliver`, which the
// app points at its own webhook route, so the sandbox exercises the same path as NotchPay. Payouts
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

/** Hands a signed webhook to the service (the app injects it into its own webhook route). */
export type WebhookDelivery = (rawBody: string, headers: Record<string, string>) => Promise<unknown>;

export interface SandboxOptions {
  /** APP_SECRET: the webhook key is derived from it, so no one outside the service can sign. */
  appSecret: string;
  delayMs: number;
  clock: Clock;
}

export interface SandboxDriver extends PaymentsDriver {
  readonly name: 'sandbox';
  /**
   * Where signed webhooks go; set by the app once its routes exist. Without it no webhook is sent.
   * With `timers`, each one is sent when its delay has passed; else only by `deliverDue()`.
   */
  attach(deliver: WebhookDelivery, options: { timers: boolean }): void;
  /** Sends the webhooks whose time has come (on the clock); the timers call it, tests may too. */
  deliverDue(): Promise<number>;
  /** Drops the pending deliveries and their timers (on close). */
  stop(): void;
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
  let deliver: WebhookDelivery | undefined;
  let useTimers = false;
  type Scheduled = { at: number; payment: PaymentToStart } | { at: number; transfer: TransferToSend };
  const scheduled = new Map<string, Scheduled>();
  const timers = new Set<NodeJS.Timeout>();

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
    if (deliver && useTimers) {
      const wait = Math.max(0, entry.at - clock.now().getTime());
      const timer = setTimeout(() => {
        timers.delete(timer);
        void driver.deliverDue();
      }, wait);
      timer.unref();
      timers.add(timer);
    }
  }

  async function send(entry: Scheduled): Promise<void> {
    if (!deliver) return;
    const [kind, reference, status] =
      'payment' in entry
        ? ['payment', entry.payment.reference, current(entry.payment).status]
        : ['transfer', entry.transfer.reference, transferState(entry.transfer).status];
    const rawBody = JSON.stringify({
      id: `sandbox-event-${reference}`,
      event: `${kind}.${status}`,
      data: { reference, status },
    });
    await deliver(rawBody, {
      'content-type': 'application/json',
      [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(appSecret, rawBody),
    });
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

    attach(target, attachOptions) {
      deliver = target;
      useTimers = attachOptions.timers;
    },

    async deliverDue() {
      const now = clock.now().getTime();
      const due = [...scheduled.values()].filter((entry) => entry.at <= now);
      for (const entry of due) {
        scheduled.delete('payment' in entry ? entry.payment.reference : entry.transfer.reference);
      }
      // A lost delivery only delays the settlement: the poller looks at every pending payment.
      await Promise.allSettled(due.map((entry) => send(entry)));
      return due.length;
    },

    stop() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      scheduled.clear();
    },
  };
  return driver;
}
