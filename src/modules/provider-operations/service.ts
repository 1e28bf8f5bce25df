// The providers' webhooks, dispatched by what they are about: a `payment.*` event to the payments
// module, a `transfer.*` event to the payouts module, each straight to its owner. The signature is
// checked here, once, by the driver the URL names; after that an event is only a hint to read the
// operation again (duplicates, unknown references and late news included), so the body is never
// trusted. The webhook route and the sandbox's webhook loop both call `receiveWebhook`.
import { Unauthenticated } from '../../lib/errors.js';
import type { PaymentDrivers } from '../../providers/payments/types.js';

/**
 * Who follows the provider's payments (pack purchases): a `payment.*` webhook's reference, and the
 * event's id (flags raised by the read it asks for dedupe on it).
 */
export interface PaymentEvents {
  onPaymentEvent(reference: string, eventId: string | null): Promise<string | undefined>;
}

/** Who follows the provider's transfers (withdrawal payouts): a `transfer.*` webhook's reference and id. */
export interface TransferEvents {
  onTransferEvent(reference: string, eventId: string | null): Promise<string | undefined>;
}

export interface WebhookDispatchDeps {
  drivers: Pick<PaymentDrivers, 'byName'>;
  payments: PaymentEvents;
  transfers: TransferEvents;
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
