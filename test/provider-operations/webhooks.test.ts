// The webhook dispatch (provider-operations/service.ts): a signed event goes straight to the owner of
// its kind, `transfer.*` to the payouts side and `payment.*` to the payments side, and neither passes
// through the other. Then the same seam in the built app: a sandbox transfer webhook posted to the
// webhook route pays the withdrawal out, with no payments service in its way.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Unauthenticated } from '../../src/lib/errors.js';
import { createWebhookDispatch } from '../../src/money/provider/webhooks.js';
import { isSandboxDriver } from '../../src/providers/payments/sandbox.js';
import type { PaymentsDriver, WebhookEvent } from '../../src/providers/payments/types.js';
import { decide, giveMoney, moneyOf, payoutRow, withdrawalRow, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';

/** A driver whose every webhook is authentic and says `event`; none for a body reading `forged`. */
function driverSaying(event: WebhookEvent) {
  return {
    byName: (name: string) =>
      name === 'sandbox'
        ? ({
            verifyWebhook: (rawBody: Buffer) => (rawBody.toString() === 'forged' ? null : event),
          } as unknown as PaymentsDriver)
        : undefined,
  };
}

function dispatchFor(event: WebhookEvent) {
  const calls: string[] = [];
  const dispatch = createWebhookDispatch({
    drivers: driverSaying(event),
    payments: {
      async onPaymentEvent(reference) {
        calls.push(`payment ${reference}`);
        return 'success';
      },
    },
    transfers: {
      async onTransferEvent(reference) {
        calls.push(`transfer ${reference}`);
        return 'cancelled';
      },
    },
  });
  return { dispatch, calls };
}

describe('createWebhookDispatch', () => {
  it('a transfer.* event goes to the payouts side only', async () => {
    const { dispatch, calls } = dispatchFor({ id: 'e1', type: 'transfer.failed', reference: 'wd-4' });
    expect(await dispatch.receiveWebhook('sandbox', Buffer.from('{}'), {})).toEqual({
      event: 'transfer.failed',
      outcome: 'cancelled',
    });
    expect(calls).toEqual(['transfer wd-4']);
  });

  it('a payment.* event goes to the payments side only', async () => {
    const { dispatch, calls } = dispatchFor({ id: 'e2', type: 'payment.complete', reference: 'PAY-1' });
    expect(await dispatch.receiveWebhook('sandbox', Buffer.from('{}'), {})).toEqual({
      event: 'payment.complete',
      outcome: 'success',
    });
    expect(calls).toEqual(['payment PAY-1']);
  });

  it('an event of another kind, or without a reference, reaches no one', async () => {
    for (const event of [
      { id: 'e3', type: 'customer.created', reference: 'x' },
      { id: 'e4', type: 'transfer.complete', reference: null },
    ]) {
      const { dispatch, calls } = dispatchFor(event);
      expect(await dispatch.receiveWebhook('sandbox', Buffer.from('{}'), {})).toEqual({ event: event.type });
      expect(calls).toEqual([]);
    }
  });

  it('a bad signature or an unknown provider is Unauthenticated, and reaches no one', async () => {
    const { dispatch, calls } = dispatchFor({ id: 'e5', type: 'transfer.complete', reference: 'wd-1' });
    await expect(dispatch.receiveWebhook('sandbox', Buffer.from('forged'), {})).rejects.toBeInstanceOf(
      Unauthenticated,
    );
    await expect(dispatch.receiveWebhook('notchpay', Buffer.from('{}'), {})).rejects.toBeInstanceOf(
      Unauthenticated,
    );
    expect(calls).toEqual([]);
  });
});

describe('POST /api/webhooks/payments/sandbox with a transfer event', () => {
  const DELAY_MS = 60_000;
  let t: TestApp;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp({ config: { paymentSandboxDelayMs: DELAY_MS } });
    admin = await signIn(t, { role: 'admin' });
  });
  afterAll(() => t.close());
  afterEach(() => expectLedgerConsistent(t));

  it('reaches the payouts side: the payout is paid and its withdrawal succeeds', async () => {
    // The payments service no longer takes webhooks: the route's dispatch is the only way in.
    expect('receiveWebhook' in t.app.services.payments).toBe(false);
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const id = await withdrawn(t, user);
    expect((await decide(t, admin, id, 'approve')).statusCode).toBe(200);
    expect(await payoutRow(t, id)).toMatchObject({ status: 'pending' });

    t.clock.advance(DELAY_MS + 1000);
    const driver = t.app.services.paymentsDriver;
    if (!isSandboxDriver(driver)) throw new Error('the tests run the sandbox driver');
    const due = driver.takeDueWebhooks();
    expect(due).toHaveLength(1);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/payments/sandbox',
      payload: due[0]!.rawBody,
      headers: due[0]!.headers,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(await payoutRow(t, id)).toMatchObject({ status: 'paid' });
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
    expect(await moneyOf(t, user.id)).toBe(0);
  });
});
