// Flags, issue 42 round two, through the real NotchPay driver against the local fake: an admin never
// resolves a flag about their own payment or withdrawal (403, as for deciding their own
// withdrawal), and a flag is unique among open ones per kind and target and deduplicated by the
// provider's event: news after a resolution opens one new flag, a replayed webhook none.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { adminEvents } from '../../src/db/schema/index.js';
import { messages } from '../../src/lib/messages.js';
import { decide, giveMoney, withdrawalRow, withdrawn } from '../affiliation/helpers.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PRIVATE_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  signedNotchPayWebhook,
  startNotchPayFake,
} from '../fakes/notchpay.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkedOut, flagsOf, paymentRow } from './helpers.js';

let fake: NotchPayFake;
let t: TestApp;
let admin: SignedIn;
let other: SignedIn;

beforeAll(async () => {
  fake = await startNotchPayFake();
  const base = testConfig();
  t = await createTestApp({
    config: {
      paymentsDriver: 'notchpay',
      notchpay: {
        ...base.notchpay,
        baseUrl: fake.baseUrl,
        publicKey: NOTCHPAY_PUBLIC_KEY,
        privateKey: NOTCHPAY_PRIVATE_KEY,
        webhookSecret: NOTCHPAY_HASH_KEY,
        timeoutMs: 300,
      },
    },
  });
  admin = await signIn(t, { role: 'admin' });
  other = await signIn(t, { role: 'admin' });
});
afterAll(async () => {
  await t.close();
  await fake.close();
});

/** A NotchPay webhook with the event id given (a replay sends the same id again). */
const webhook = (event: string, reference: string, id: string) => {
  const signed = signedNotchPayWebhook({ event, data: { reference }, id });
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/payments/notchpay',
    payload: signed.rawBody,
    headers: signed.headers,
  });
};

const resolve = (by: SignedIn, flagId: number, body: object = { message: 'Vu chez NotchPay' }) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/flags/${flagId}/resolve`,
    headers: by.headers,
    payload: body,
  });

/** A payment of `payer` failed by the provider, then completed: one late_complete flag (event `evt.<tag>.1`). */
async function lateCompletePayment(payer: SignedIn, tag: string) {
  const payment = await checkedOut(t, payer, { pack_id: 2 });
  fake.setPayment(payment.reference, { status: 'failed' });
  expect((await webhook('payment.failed', payment.reference, `evt.${tag}.0`)).statusCode).toBe(200);
  expect((await paymentRow(t, payment.id)).status).toBe('failed');
  fake.setPayment(payment.reference, { status: 'complete' });
  expect((await webhook('payment.complete', payment.reference, `evt.${tag}.1`)).statusCode).toBe(200);
  const raised = await flagsOf(t, payment.id);
  expect(raised.map((flag) => flag.kind)).toEqual(['late_complete']);
  return { payment, flag: raised[0]! };
}

describe('separation of duties: a flag about one’s own payment or withdrawal', () => {
  it('an admin cannot resolve (nor credit) a flag about their own payment: 403, nothing written; another admin can', async () => {
    const { payment, flag } = await lateCompletePayment(admin, 'own-pay');
    const before = (await t.app.services.users.findById(admin.id))!.creditsBalance;
    const refused = await resolve(admin, flag.id, { message: 'Payé : je me crédite', credit: true });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(messages.flagOwnResolution);
    expect((await flagsOf(t, payment.id))[0]).toMatchObject({ status: 'open', resolvedBy: null });
    expect((await t.app.services.users.findById(admin.id))!.creditsBalance).toBe(before);
    const english = await t.app.inject({
      method: 'POST',
      url: `/api/admin/flags/${flag.id}/resolve`,
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { message: 'Paid: crediting myself' },
    });
    expect(english.statusCode).toBe(403);
    expect(english.json().message).toMatch(/your own payment or withdrawal/);

    const done = await resolve(other, flag.id, { message: 'Payé chez NotchPay', credit: true });
    expect(done.statusCode, done.body).toBe(200);
    expect((await t.app.services.users.findById(admin.id))!.creditsBalance).toBe(before + 12);
  });

  it('an admin cannot resolve a flag about their own withdrawal: 403; another admin can', async () => {
    await giveMoney(t, admin.id, 5000);
    const id = await withdrawn(t, admin, { amount: 5000 });
    expect((await decide(t, other, id, 'approve')).statusCode).toBe(200);
    const reference = `wd-${id}`;
    fake.setTransfer(reference, { status: 'complete' });
    await webhook('transfer.complete', reference, 'evt.own-wd.0');
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
    fake.setTransfer(reference, { status: 'failed' });
    await webhook('transfer.failed', reference, 'evt.own-wd.1');
    const [flag] = await flagsOf(t, id, 'withdrawal');
    expect(flag).toMatchObject({ kind: 'contradicts_final', status: 'open' });
    expect((await resolve(admin, flag!.id)).statusCode).toBe(403);
    expect((await resolve(other, flag!.id)).statusCode).toBe(200);
  });
});

describe('a flag raised again', () => {
  it('a payment: a replayed webhook opens none; new news after the resolution opens one; none while it is open', async () => {
    const user = await signIn(t);
    const { payment, flag } = await lateCompletePayment(user, 'again-pay');
    expect(flag.providerEvent).toBe('evt.again-pay.1');
    expect((await resolve(admin, flag.id)).statusCode).toBe(200);

    // The same event delivered again (NotchPay retries): nothing new.
    await webhook('payment.complete', payment.reference, 'evt.again-pay.1');
    expect(await flagsOf(t, payment.id)).toHaveLength(1);
    // A read with no event that says what was already flagged: nothing new either.
    await t.app.services.payments.follow(payment.id, 'admin');
    expect(await flagsOf(t, payment.id)).toHaveLength(1);

    // New news of the same kind after the resolution: one new flag, logged for the back office.
    await webhook('payment.complete', payment.reference, 'evt.again-pay.2');
    const raised = await flagsOf(t, payment.id);
    expect(raised.map((row) => [row.kind, row.status, row.providerEvent])).toEqual([
      ['late_complete', 'resolved', 'evt.again-pay.1'],
      ['late_complete', 'open', 'evt.again-pay.2'],
    ]);
    const raisedEvents = await t.app.db
      .select()
      .from(adminEvents)
      .where(
        and(
          eq(adminEvents.type, 'flag.raised'),
          sql`${adminEvents.data} ->> 'target_id' = ${String(payment.id)}`,
        ),
      );
    expect(raisedEvents).toHaveLength(2);

    // While it is open, more news (a replay or a new event) opens nothing.
    await webhook('payment.complete', payment.reference, 'evt.again-pay.2');
    await webhook('payment.complete', payment.reference, 'evt.again-pay.3');
    expect(await flagsOf(t, payment.id)).toHaveLength(2);
    // The replays at once, after the second resolution: still two.
    expect((await resolve(admin, raised[1]!.id)).statusCode).toBe(200);
    await Promise.all(
      ['evt.again-pay.1', 'evt.again-pay.2', 'evt.again-pay.1'].map((id) =>
        webhook('payment.complete', payment.reference, id),
      ),
    );
    expect(await flagsOf(t, payment.id)).toHaveLength(2);
  });

  it('a withdrawal: news against a final payout after its flag was resolved opens one new flag; its replay none', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const id = await withdrawn(t, user, { amount: 5000 });
    expect((await decide(t, admin, id, 'approve')).statusCode).toBe(200);
    const reference = `wd-${id}`;
    fake.setTransfer(reference, { status: 'complete' });
    await webhook('transfer.complete', reference, 'evt.again-wd.0');
    fake.setTransfer(reference, { status: 'failed' });
    await webhook('transfer.failed', reference, 'evt.again-wd.1');
    const [first] = await flagsOf(t, id, 'withdrawal');
    expect((await resolve(admin, first!.id)).statusCode).toBe(200);
    await webhook('transfer.failed', reference, 'evt.again-wd.1');
    expect(await flagsOf(t, id, 'withdrawal')).toHaveLength(1);
    fake.setTransfer(reference, { status: 'rejected' });
    await webhook('transfer.rejected', reference, 'evt.again-wd.2');
    await webhook('transfer.rejected', reference, 'evt.again-wd.2');
    expect((await flagsOf(t, id, 'withdrawal')).map((row) => [row.kind, row.status])).toEqual([
      ['contradicts_final', 'resolved'],
      ['contradicts_final', 'open'],
    ]);
  });
});

describe('a late completion of a payment that failed on a mismatch (issue 55)', () => {
  /** A payment the provider took for another amount or currency (failed, flagged), then said complete again. */
  async function mismatchedThenComplete(
    payer: SignedIn,
    tag: string,
    change: { amount?: number; currency?: string },
  ) {
    const payment = await checkedOut(t, payer, { pack_id: 2 });
    fake.setPayment(payment.reference, { status: 'complete', ...change });
    expect((await webhook('payment.complete', payment.reference, `evt.${tag}.0`)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('failed');
    expect((await webhook('payment.complete', payment.reference, `evt.${tag}.1`)).statusCode).toBe(200);
    const raised = await flagsOf(t, payment.id);
    const kinds = raised.map((flag) => flag.kind);
    expect(kinds).toContain('late_complete');
    return { payment, late: raised.find((flag) => flag.kind === 'late_complete')!, kinds };
  }

  it('is never credited by the resolution: 409 naming the mismatch, in either language; nothing written', async () => {
    const payer = await signIn(t);
    const { payment, late, kinds } = await mismatchedThenComplete(payer, 'cheap', { amount: 100 });
    expect(kinds).toContain('amount_mismatch');
    const before = (await t.app.services.users.findById(payer.id))!.creditsBalance;

    const refused = await resolve(admin, late.id, { message: 'Payé chez NotchPay', credit: true });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(messages.flagCreditAmountMismatch);
    const english = await t.app.inject({
      method: 'POST',
      url: `/api/admin/flags/${late.id}/resolve`,
      headers: { ...admin.headers, 'accept-language': 'en' },
      payload: { message: 'Paid at NotchPay', credit: true },
    });
    expect(english.statusCode).toBe(409);
    expect(english.json().message).toMatch(/amount paid did not match the pack \(amount_mismatch\)/);
    expect((await t.app.services.users.findById(payer.id))!.creditsBalance).toBe(before);
    expect((await flagsOf(t, payment.id)).find((flag) => flag.id === late.id)).toMatchObject({
      status: 'open',
    });

    // Resolved without a credit, it closes as any flag does.
    const closed = await resolve(admin, late.id, { message: 'Remboursé hors service' });
    expect(closed.statusCode, closed.body).toBe(200);
    expect((await t.app.services.users.findById(payer.id))!.creditsBalance).toBe(before);
  });

  it('names a currency mismatch too', async () => {
    const payer = await signIn(t);
    const { late, kinds } = await mismatchedThenComplete(payer, 'euros', { currency: 'EUR' });
    expect(kinds).toContain('currency_mismatch');
    const refused = await resolve(admin, late.id, { message: 'Payé chez NotchPay', credit: true });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toBe(messages.flagCreditCurrencyMismatch);
  });
});
