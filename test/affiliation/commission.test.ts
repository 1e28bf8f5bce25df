// The godfather's commission on a godchild's pack payment: REFERRAL_COMMISSION_PERCENT of the price
// recorded on the payment, rounded down, once per payment whoever delivers the news (webhook and
// poller), to the godfather the godchild has when the payment succeeds, never to a blocked one.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { packs, walletOperations } from '../../src/db/schema/index.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import { checkedOut, paymentRow } from '../payments/helpers.js';
import { ledgerRows, moneyOf, refer, setStatus } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: 2000, referralCommissionPercent: 10 } });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const sandbox = () => t.app.runtime.sandboxWebhooks!;

/** Lets the sandbox's delay pass, then delivers its webhooks and runs the poller: both bring the news. */
async function settleEverything(): Promise<void> {
  t.clock.advance(5000);
  await sandbox().deliverDue();
  await t.app.runtime.paymentPoller.drain();
  await sandbox().deliverDue();
}

async function commissionsOf(paymentId: number) {
  return ledgerRows(t, `payment:${paymentId}:commission`);
}

describe('referral commission', () => {
  it('credits the godfather 10 % of the price in XAF, once, though webhook and poller both deliver', async () => {
    const godfather = await signIn(t);
    const godchild = await signIn(t);
    await refer(t, godchild, godfather);
    const payment = await checkedOut(t, godchild, { pack_id: 3 });
    // A second delivery of the same news after settlement: nothing more.
    await settleEverything();
    await t.app.services.payments.follow(payment.id, 'test');
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    const rows = await commissionsOf(payment.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      userId: godfather.id,
      type: 'referral_commission',
      currency: 'XAF',
      amount: 250,
      balanceAfter: 250,
    });
    expect(await moneyOf(t, godfather.id)).toBe(250);
    // The godchild's own money is untouched; their credits arrived.
    expect(await moneyOf(t, godchild.id)).toBe(0);
  });

  it('rounds down, on the price recorded on the payment (not the pack’s later price)', async () => {
    const godfather = await signIn(t);
    const godchild = await signIn(t);
    await refer(t, godchild, godfather);
    await t.app.db.update(packs).set({ price: 999 }).where(eq(packs.id, 1));
    let paymentId: number;
    try {
      paymentId = (await checkedOut(t, godchild, { pack_id: 1 })).id;
    } finally {
      await t.app.db.update(packs).set({ price: 500 }).where(eq(packs.id, 1));
    }
    await settleEverything();
    const [row] = await commissionsOf(paymentId);
    expect(row?.amount).toBe(99);
  });

  it('goes to the godfather the godchild has when the payment succeeds', async () => {
    const godfather = await signIn(t);
    const godchild = await signIn(t);
    const payment = await checkedOut(t, godchild, { pack_id: 2 });
    // No godfather at checkout; one by the time the payment succeeds.
    await refer(t, godchild, godfather);
    await settleEverything();
    expect(await commissionsOf(payment.id)).toMatchObject([{ userId: godfather.id, amount: 100 }]);
  });

  it('earns a blocked godfather nothing, and a user without godfather pays no one', async () => {
    const godfather = await signIn(t);
    const godchild = await signIn(t);
    await refer(t, godchild, godfather);
    await setStatus(t, godfather.id, 'blocked');
    const payment = await checkedOut(t, godchild, { pack_id: 2 });
    const lonely = await signIn(t);
    const other = await checkedOut(t, lonely, { pack_id: 2 });
    await settleEverything();
    expect((await paymentRow(t, payment.id)).status).toBe('success');
    expect(await commissionsOf(payment.id)).toEqual([]);
    expect(await commissionsOf(other.id)).toEqual([]);
    expect(await moneyOf(t, godfather.id)).toBe(0);
  });

  it('posts nothing for a failed payment, nor for a commission that rounds to 0 XAF', async () => {
    const godfather = await signIn(t);
    const godchild = await signIn(t, { phone: '+237670000000' });
    await refer(t, godchild, godfather);
    const failed = await checkedOut(t, godchild, { pack_id: 2 });
    await settleEverything();
    expect((await paymentRow(t, failed.id)).status).toBe('failed');
    expect(await commissionsOf(failed.id)).toEqual([]);

    // 1 % of 99 XAF is 0.99: rounded down to nothing, so no row at all.
    const tiny = await createTestApp({ config: { referralCommissionPercent: 1 } });
    try {
      const a = await signIn(tiny);
      const b = await signIn(tiny);
      await refer(tiny, b, a);
      await tiny.app.db.update(packs).set({ price: 99 }).where(eq(packs.id, 1));
      const payment = await checkedOut(tiny, b, { pack_id: 1 });
      tiny.clock.advance(5000);
      await tiny.app.runtime.paymentPoller.drain();
      expect((await paymentRow(tiny, payment.id)).status).toBe('success');
      const rows = await tiny.app.db
        .select()
        .from(walletOperations)
        .where(eq(walletOperations.type, 'referral_commission'));
      expect(rows).toEqual([]);
      await expectLedgerConsistent(tiny);
    } finally {
      await tiny.close();
    }
  });
});

describe('a withheld commission', () => {
  it('is logged with the payment and the godfather', async () => {
    const lines: string[] = [];
    const logged = await createTestApp({
      logger: { level: 'info', stream: { write: (line: string) => void lines.push(line) } },
    });
    try {
      const godfather = await signIn(logged);
      const godchild = await signIn(logged);
      await refer(logged, godchild, godfather);
      await setStatus(logged, godfather.id, 'blocked');
      const payment = await checkedOut(logged, godchild, { pack_id: 2 });
      logged.clock.advance(5000);
      await logged.app.runtime.paymentPoller.drain();
      const withheld = lines.map((line) => JSON.parse(line)).filter((entry) => /withheld/.test(entry.msg));
      expect(withheld).toEqual([
        expect.objectContaining({ payment_id: payment.id, godfather_id: godfather.id }),
      ]);
      await expectLedgerConsistent(logged);
    } finally {
      await logged.close();
    }
  });
});
