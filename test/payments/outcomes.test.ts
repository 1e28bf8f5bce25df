// The rules that decide a payment's outcome with a programmable provider: amount mismatch, contradicting news, a start
// that fails after the commit, expiry, and twenty concurrent webhooks for one payment.
import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import {
  balanceOf,
  checkedOut,
  checkout,
  creditsOf,
  flagsOf,
  paymentRow,
  programmableDriver,
  signedTestWebhook,
} from './helpers.js';

const driver = programmableDriver();
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ paymentsDriver: driver, config: { paymentMaxPending: 50 } });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

describe('payment outcomes', () => {
  it('gives the provider’s hosted page and settles on a `complete` webhook after re-fetching', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 2 });
    expect(payment).toMatchObject({
      provider: 'notchpay',
      payment_url: `https://pay.example/${payment.reference}`,
    });
    // The webhook body is only a hint: the provider still says pending, so nothing moves.
    expect((await signedTestWebhook(t, 'payment.complete', payment.reference)).statusCode).toBe(200);
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
    driver.answer(payment.reference, { status: 'complete' });
    expect((await signedTestWebhook(t, 'payment.complete', payment.reference)).statusCode).toBe(200);
    expect(await paymentRow(t, payment.id)).toMatchObject({
      status: 'success',
      providerStatus: 'complete',
      providerReference: `np-${payment.reference}`,
    });
    expect(await balanceOf(t, user.id)).toBe(before + 12);
  });

  it('fails and flags a `complete` with another amount or currency', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const cheap = await checkedOut(t, user, { pack_id: 3 });
    const euros = await checkedOut(t, user, { pack_id: 3 });
    driver.answer(cheap.reference, { status: 'complete', amount: 100 });
    driver.answer(euros.reference, { status: 'complete', currency: 'EUR' });
    await signedTestWebhook(t, 'payment.complete', cheap.reference);
    await signedTestWebhook(t, 'payment.complete', euros.reference);
    for (const [payment, kind] of [
      [cheap, 'amount_mismatch'],
      [euros, 'currency_mismatch'],
    ] as const) {
      expect((await paymentRow(t, payment.id)).status).toBe('failed');
      expect((await flagsOf(t, payment.id)).map((flag) => flag.kind)).toEqual([kind]);
    }
    expect(await balanceOf(t, user.id)).toBe(before);
  });

  it('leaves a payment whose driver is not configured alone, flagged driver_missing once', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user);
    driver.answer(payment.reference, { status: 'complete' });
    // A row written by a driver this deployment no longer configures.
    await t.app.db.execute(sql`UPDATE payments SET provider = 'ghost' WHERE id = ${payment.id}`);
    await signedTestWebhook(t, 'payment.complete', payment.reference);
    await signedTestWebhook(t, 'payment.complete', payment.reference);
    t.clock.advanceSeconds(3600);
    await t.app.runtime.paymentPoller.drain();
    expect(await paymentRow(t, payment.id)).toMatchObject({ status: 'pending', nextCheckAt: null });
    expect((await flagsOf(t, payment.id)).map((flag) => flag.kind)).toEqual(['driver_missing']);
    expect(await balanceOf(t, user.id)).toBe(before);
  });

  it('flags news that contradicts a final state and changes nothing', async () => {
    const user = await signIn(t);
    const failed = await checkedOut(t, user);
    driver.answer(failed.reference, { status: 'canceled' });
    await signedTestWebhook(t, 'payment.canceled', failed.reference);
    expect((await paymentRow(t, failed.id)).status).toBe('failed');
    driver.answer(failed.reference, { status: 'complete' });
    await signedTestWebhook(t, 'payment.complete', failed.reference);
    await signedTestWebhook(t, 'payment.complete', failed.reference);
    expect((await paymentRow(t, failed.id)).status).toBe('failed');
    expect((await flagsOf(t, failed.id)).map((flag) => flag.kind)).toEqual(['late_complete']);
    expect(await creditsOf(t, failed.id)).toHaveLength(0);

    const succeeded = await checkedOut(t, user);
    driver.answer(succeeded.reference, { status: 'complete' });
    await signedTestWebhook(t, 'payment.complete', succeeded.reference);
    driver.answer(succeeded.reference, { status: 'refunded' });
    await signedTestWebhook(t, 'payment.refunded', succeeded.reference);
    expect((await paymentRow(t, succeeded.id)).status).toBe('success');
    expect((await flagsOf(t, succeeded.id)).map((flag) => flag.kind)).toEqual(['refund_after_success']);
    expect(await creditsOf(t, succeeded.id)).toHaveLength(1);
  });

  it('answers 201 when the provider fails at start; the poller resumes and settles the payment', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    driver.failStart();
    const response = await checkout(t, user, { pack_id: 1 });
    expect(response.statusCode).toBe(201);
    const payment = response.json().data.payment;
    expect(payment).toMatchObject({ status: 'pending', payment_url: null });
    t.clock.advance(5000);
    await t.app.runtime.paymentPoller.drain();
    // The provider never heard of it: the poller started it (same reference, no second payment).
    expect(await paymentRow(t, payment.id)).toMatchObject({
      status: 'pending',
      providerReference: `np-${payment.reference}`,
      checks: 1,
    });
    driver.answer(payment.reference, { status: 'complete' });
    t.clock.advance(5000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await balanceOf(t, user.id)).toBe(before + 5);
  });

  it('backs off while pending; past the expiry it stays pending, read hourly, flagged after a day, credited when paid', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user);
    const created = new Date((await paymentRow(t, payment.id)).createdAt).getTime();
    t.clock.advance(5000);
    await t.app.runtime.paymentPoller.drain();
    const second = await paymentRow(t, payment.id);
    expect(second.checks).toBe(1);
    expect(new Date(second.nextCheckAt!).getTime() - t.clock.now().getTime()).toBe(5000);
    for (let i = 0; i < 40; i += 1) {
      t.clock.advance(300_000);
      if (t.clock.now().getTime() >= created + 3 * 3600_000) break;
      await t.app.runtime.paymentPoller.drain();
    }
    const beforeExpiry = await paymentRow(t, payment.id);
    expect(beforeExpiry.status).toBe('pending');
    expect(new Date(beforeExpiry.nextCheckAt!).getTime()).toBeLessThanOrEqual(created + 3 * 3600_000);
    // The look at the expiry still says pending: our clock never fails it; the next look is an hour on.
    t.clock.set(new Date(created + 3 * 3600_000));
    const fetches = driver.fetches;
    await t.app.runtime.paymentPoller.drain();
    expect(driver.fetches).toBeGreaterThan(fetches);
    const afterExpiry = await paymentRow(t, payment.id);
    expect(afterExpiry.status).toBe('pending');
    expect(new Date(afterExpiry.nextCheckAt!).getTime() - t.clock.now().getTime()).toBe(3600_000);
    expect(await flagsOf(t, payment.id)).toEqual([]);
    // A day on, still pending at the provider: flagged once for an admin, still pending.
    t.clock.set(new Date(created + 24 * 3600_000));
    await t.app.runtime.paymentPoller.drain();
    t.clock.advance(3600_000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('pending');
    expect((await flagsOf(t, payment.id)).map((flag) => flag.kind)).toEqual(['stuck_pending']);
    // The payer confirms late: the provider's word credits it once.
    driver.answer(payment.reference, { status: 'complete' });
    t.clock.advance(3600_000);
    await t.app.runtime.paymentPoller.drain();
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await balanceOf(t, user.id)).toBe(before + 5);
  });

  it('credits once when twenty identical webhooks arrive at the same time', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 4 });
    driver.answer(payment.reference, { status: 'complete' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => signedTestWebhook(t, 'payment.complete', payment.reference)),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(20).fill(200));
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
    expect(await balanceOf(t, user.id)).toBe(before + 80);
  });

  it('credits once when webhooks and the poller race', async () => {
    const user = await signIn(t);
    const before = await balanceOf(t, user.id);
    const payment = await checkedOut(t, user, { pack_id: 2 });
    driver.answer(payment.reference, { status: 'complete' });
    t.clock.advance(5000);
    await Promise.all([
      t.app.runtime.paymentPoller.drain(),
      t.app.runtime.paymentPoller.drain(),
      ...Array.from({ length: 5 }, () => signedTestWebhook(t, 'payment.complete', payment.reference)),
    ]);
    expect(await creditsOf(t, payment.id)).toHaveLength(1);
    expect(await balanceOf(t, user.id)).toBe(before + 12);
  });
});
