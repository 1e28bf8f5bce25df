// The providers' webhooks, dispatched by what they are about: a `payment.*` event to checkout, a
// `transfer.*` event to cash-out's payouts, each straight to its owner. The signature is
// checked here, once, by the driver the URL names; after that an event is only a hint to read the
// operation again (duplicates, unknown references and late news included), so the body is never
// trusted. The webhook route and the sandbox's webhook loop both call `receiveWebhook`.
import { Unauthenticated } from '../../lib/errors.js';
import type { PaymentDrivers } from '../../providers/payments/types.js';
import type { PayoutService } from '../cash-out/payouts.js';
import type { PaymentService } from '../checkout/service.js';

export interface WebhookDispatchDeps {
  drivers: Pick<PaymentDrivers, 'byName'>;
  /** Checkout: a `payment.*` event's reference, and its id (flags raised by the read dedupe on it). */
  payments: Pick<PaymentService, 'onPaymentEvent'>;
  /** Cash-out's provider step: a `transfer.*` event's reference and id. */
  transfers: Pick<PayoutService, 'onTransferEvent'>;
}

export function createWebhookDispatch(deps: WebhookDispatchDeps) {
  const { drivers, payments, transfers } = deps;
  return {
    /**
     * A webhook of `provider`: Unauthenticated when its signature is missing or wrong; otherwise
     * the event goes to the owner of its kind, which reads the operation again. `outcome` is what
     * that read did (undefined for an event about nothing we know).
     */
    async receiveWebhook(
      provider: string,
      rawBody: Buffer,
      headers: Record<string, string | string[] | undefined>,
    ): Promise<{ event: string; outcome?: string | undefined }> {
      const event = drivers.byName(provider)?.verifyWebhook(rawBody, headers) ?? null;
      if (!event) throw new Unauthenticated();
      if (!event.reference) return { event: event.type };
      if (event.type.startsWith('transfer.')) {
        return { event: event.type, outcome: await transfers.onTransferEvent(event.reference, event.id) };
      }
      if (event.type.startsWith('payment.')) {
        return { event: event.type, outcome: await payments.onPaymentEvent(event.reference, event.id) };
      }
      return { event: event.type };
    },
  };
}

export type WebhookDispatch = ReturnType<typeof createWebhookDispatch>;
