// Payments test pieces: a checkout through the API, signed sandbox webhooks, and a programmable
// driver (named `notchpay`) for the cases the sandbox never produces.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { and, asc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { flags, payments, walletOperations } from '../../src/db/schema/index.js';
import {
  PaymentProviderError,
  type PaymentsDriver,
  type PaymentToStart,
  type ProviderPayment,
  type TransferToSend,
} from '../../src/providers/payments/index.js';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../src/providers/payments/sandbox.js';
import type { SignedIn, TestApp } from '../helpers.js';

export interface PaymentData {
  id: number;
  reference: string;
  status: string;
  amount: number;
  currency: string;
  credits: number;
  pack_id: number;
  provider: string;
  payment_url: string | null;
  created_at: string;
}

export async function checkout(
  t: TestApp,
  user: SignedIn,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/wallet/checkout',
    headers: { ...user.headers, ...headers },
    payload: { pack_id: 1, phone: user.phone, ...body },
  });
}

export async function checkedOut(t: TestApp, user: SignedIn, body: Record<string, unknown> = {}) {
  const response = await checkout(t, user, body);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { data: { payment: PaymentData } }).data.payment;
}

export async function paymentRow(t: TestApp, id: number) {
  const [row] = await t.app.db.select().from(payments).where(eq(payments.id, id));
  return row!;
}

/** The flags raised on a payment (or, with `withdrawal`, on a withdrawal), oldest first. */
export async function flagsOf(t: TestApp, id: number, targetType: 'payment' | 'withdrawal' = 'payment') {
  return t.app.db
    .select()
    .from(flags)
    .where(and(eq(flags.targetType, targetType), eq(flags.targetId, id)))
    .orderBy(asc(flags.id));
}

/** The ledger rows of a payment's credit (one at most, ever). */
export async function creditsOf(t: TestApp, id: number) {
  return t.app.db
    .select()
    .from(walletOperations)
    .where(eq(walletOperations.reference, `payment:${id}`));
}

export async function balanceOf(t: TestApp, userId: number): Promise<number> {
  return (await t.app.services.users.findById(userId))!.creditsBalance;
}

export function sandboxWebhook(
  t: TestApp,
  body: unknown,
  options: { signature?: string | null; provider?: string } = {},
) {
  const raw = JSON.stringify(body);
  const signature =
    options.signature === undefined ? signSandboxWebhook(t.config.appSecret, raw) : options.signature;
  return t.app.inject({
    method: 'POST',
    url: `/api/webhooks/payments/${options.provider ?? 'sandbox'}`,
    headers: {
      'content-type': 'application/json',
      ...(signature === null ? {} : { [SANDBOX_SIGNATURE_HEADER]: signature }),
    },
    payload: raw,
  });
}

const TEST_KEY = 'programmable-driver-key';
const TEST_HEADER = 'x-test-signature';

/**
 * A driver whose provider says what the test sets (`answer(reference, …)`); by default a payment is
 * `pending` with its own amount. `failStart` makes the next starts throw; `fetches` counts re-fetches.
 */
export function programmableDriver() {
  const answers = new Map<string, Partial<ProviderPayment>>();
  let startFailures = 0;
  const known = new Set<string>();
  const word = (payment: PaymentToStart): ProviderPayment => ({
    reference: payment.reference,
    providerReference: `np-${payment.reference}`,
    status: 'pending',
    amount: payment.amount,
    currency: payment.currency,
    paymentUrl: `https://pay.example/${payment.reference}`,
    ...answers.get(payment.reference),
  });
  const driver = {
    name: 'notchpay' as const,
    fetches: 0,
    async start(payment: PaymentToStart) {
      if (startFailures > 0) {
        startFailures -= 1;
        throw new PaymentProviderError('provider down', {
          provider: 'notchpay',
          status: 503,
          retryable: true,
        });
      }
      known.add(payment.reference);
      return word(payment);
    },
    async fetch(payment: PaymentToStart) {
      driver.fetches += 1;
      if (!known.has(payment.reference)) {
        throw new PaymentProviderError('unknown payment', {
          provider: 'notchpay',
          status: 404,
          retryable: false,
        });
      }
      return word(payment);
    },
    // Payouts are not this driver's subject (test/affiliation drives them): every transfer stays sent.
    async sendTransfer(transfer: TransferToSend) {
      return {
        reference: transfer.reference,
        providerReference: null,
        status: 'sent',
        amount: transfer.amount,
        currency: 'XAF',
      };
    },
    async fetchTransfer(transfer: TransferToSend) {
      return {
        reference: transfer.reference,
        providerReference: null,
        status: 'sent',
        amount: transfer.amount,
        currency: 'XAF',
      };
    },
    verifyWebhook(rawBody: Buffer, headers: Record<string, string | string[] | undefined>) {
      const given = headers[TEST_HEADER];
      const expected = createHmac('sha256', TEST_KEY).update(rawBody).digest();
      if (typeof given !== 'string' || given.length !== 64) return null;
      if (!timingSafeEqual(expected, Buffer.from(given, 'hex'))) return null;
      const body = JSON.parse(rawBody.toString()) as { event: string; reference: string };
      return { id: null, type: body.event, reference: body.reference };
    },
    answer(reference: string, answer: Partial<ProviderPayment>) {
      answers.set(reference, answer);
    },
    failStart(times = 1) {
      startFailures = times;
    },
  } satisfies PaymentsDriver & Record<string, unknown>;
  return driver;
}

export function signedTestWebhook(t: TestApp, event: string, reference: string) {
  const raw = JSON.stringify({ event, reference });
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments/notchpay',
    headers: {
      'content-type': 'application/json',
      [TEST_HEADER]: createHmac('sha256', TEST_KEY).update(raw).digest('hex'),
    },
    payload: raw,
  });
}
