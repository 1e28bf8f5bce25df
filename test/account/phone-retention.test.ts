// Where a phone stays, issue 42 (the deletion page tells the truth): payments, withdrawals and payouts
// keep the paying or receiving phone for 10 years (OHADA accounting retention), then the
// housekeeping erases it, by the clock, in bounded batches; the audit details and the back office's
// events lose it at the account's deletion, and the answer says so.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminEvents, auditLog, payments, payouts, withdrawals } from '../../src/db/schema/index.js';
import { catalogueFor } from '../../src/lib/messages.js';
import { phoneRetentionCutoff } from '../../src/modules/housekeeping/service.js';
import { decide, giveMoney, payoutRow, withdrawalRow, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkedOut, paymentRow } from '../payments/helpers.js';
import { deleteAccount, deletionCode } from './helpers.js';

const DELAY_MS = 1000;
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: DELAY_MS } });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());

/** A user with a paid payment and a paid withdrawal to another number than their own. */
async function withMoneyHistory(receiving: string) {
  const user = await signIn(t);
  const payment = await checkedOut(t, user, { pack_id: 1 });
  await giveMoney(t, user.id, 5000);
  const withdrawalId = await withdrawn(t, user, { amount: 5000, phone: receiving });
  expect((await decide(t, admin, withdrawalId, 'approve')).statusCode).toBe(200);
  t.clock.advance(DELAY_MS + 1000);
  await t.app.services.payments.follow(payment.id, 'test');
  await t.app.services.payouts.follow((await payoutRow(t, withdrawalId))!.id, 'test');
  expect((await paymentRow(t, payment.id)).status).toBe('success');
  expect(await withdrawalRow(t, withdrawalId)).toMatchObject({ status: 'success' });
  return { user, paymentId: payment.id, withdrawalId };
}

const auditMentioning = (phone: string) =>
  t.app.db
    .select()
    .from(auditLog)
    .where(sql`strpos(${auditLog.details}::text, ${phone.slice(1)}) > 0`);
const eventsMentioning = (phone: string) =>
  t.app.db
    .select()
    .from(adminEvents)
    .where(sql`strpos(${adminEvents.data}::text, ${phone.slice(1)}) > 0`);

describe('at the deletion: the phone leaves the audit and the events; the financial rows keep it', () => {
  it('the audit details and the back office’s events lose the account’s and the receiving numbers; payments, withdrawals and payouts keep them', async () => {
    const receiving = '+237650001234';
    const { user, paymentId, withdrawalId } = await withMoneyHistory(receiving);
    // An admin's note that names the number, on an action about this user.
    await t.app.db.insert(auditLog).values({
      adminId: admin.id,
      action: 'user.note',
      targetType: 'user',
      targetId: String(user.id),
      details: { message: `Rappelé au ${user.phone} puis au 237650001234`, nested: { phone: user.phone } },
    });
    expect(await auditMentioning(receiving)).not.toEqual([]); // withdrawal.approve names it
    expect(await eventsMentioning(receiving)).not.toEqual([]); // withdrawal.requested names it
    expect(await auditMentioning(user.phone)).not.toEqual([]);

    const code = await deletionCode(t, user);
    const deleted = await deleteAccount(t, user, { code });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe(catalogueFor('fr').messages.accountDeleted);
    expect(deleted.json().message).toMatch(/10 ans/);

    for (const phone of [user.phone, receiving]) {
      expect(await auditMentioning(phone), phone).toEqual([]);
      expect(await eventsMentioning(phone), phone).toEqual([]);
    }
    // The rows themselves stay, only the number is gone.
    const [approval] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'withdrawal.approve'), eq(auditLog.targetId, String(withdrawalId))));
    expect(approval?.details).toMatchObject({ user_id: user.id, amount: 5000, phone: '' });
    const [note] = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'user.note'));
    expect(note?.details).toEqual({ message: 'Rappelé au  puis au ', nested: { phone: '' } });
    // The audit list an admin reads no longer shows it either.
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/audit?per_page=50',
      headers: admin.headers,
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.body).not.toContain(receiving.slice(1));
    expect(listed.body).not.toContain(user.phone.slice(1));
    // Financial records keep the paying and receiving numbers for the retention.
    expect((await paymentRow(t, paymentId)).payerPhone).toBe(user.phone);
    expect((await withdrawalRow(t, withdrawalId)).phone).toBe(receiving);
    expect((await payoutRow(t, withdrawalId))!.phone).toBe(receiving);
    // The admin's filter by the receiving number still finds the withdrawal (a financial record).
    const filtered = await t.app.inject({
      method: 'GET',
      url: `/api/admin/withdrawals?phone=${encodeURIComponent(receiving)}`,
      headers: admin.headers,
    });
    expect(filtered.statusCode).toBe(200);
    expect(filtered.json().data.withdrawals.map((row: { id: number }) => row.id)).toContain(withdrawalId);
  });

  it('the answer says what is kept, in English too', async () => {
    const user = await signIn(t);
    const code = await deletionCode(t, user);
    const deleted = await t.app.inject({
      method: 'POST',
      url: '/api/user/account/delete',
      headers: { ...user.headers, 'accept-language': 'en' },
      payload: { code },
    });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json().message).toBe(catalogueFor('en').messages.accountDeleted);
    expect(deleted.json().message).toMatch(/10 years/);
  });
});

describe('past 10 years: the housekeeping erases the phones of the financial rows', () => {
  it('by the clock, final rows only, in bounded batches; younger and pending rows keep theirs', async () => {
    const { user, paymentId, withdrawalId } = await withMoneyHistory('+237650005678');
    const young = await withMoneyHistory('+237650009999');
    const pending = await checkedOut(t, user, { pack_id: 1 });
    // More old rows than one batch: the erasure goes on batch after batch.
    await t.app.db.execute(sql`
      INSERT INTO payments (user_id, pack_id, reference, provider, status, amount, credits, payer_phone,
                            channel, expires_at, created_at)
      SELECT ${user.id}, 1, 'OLD-' || n, 'sandbox', 'failed', 500, 5, ${user.phone}, 'cm.mtn', now(), now()
      FROM generate_series(1, 1234) AS n`);

    // Ten years on, by the manual clock; the rows are dated around the cut-off.
    t.clock.advanceSeconds(10 * 366 * 24 * 3600);
    const cutoff = phoneRetentionCutoff(t.clock.now());
    const older = new Date(cutoff.getTime() - 24 * 3600 * 1000).toISOString();
    const younger = new Date(cutoff.getTime() + 24 * 3600 * 1000).toISOString();
    await t.app.db.update(payments).set({ createdAt: older }).where(eq(payments.userId, user.id));
    await t.app.db.update(withdrawals).set({ createdAt: older }).where(eq(withdrawals.id, withdrawalId));
    await t.app.db.update(payouts).set({ createdAt: older }).where(eq(payouts.withdrawalId, withdrawalId));
    await t.app.db.update(payments).set({ createdAt: younger }).where(eq(payments.id, young.paymentId));
    await t.app.db
      .update(withdrawals)
      .set({ createdAt: younger })
      .where(eq(withdrawals.id, young.withdrawalId));
    await t.app.db
      .update(payouts)
      .set({ createdAt: younger })
      .where(eq(payouts.withdrawalId, young.withdrawalId));

    const purged = await t.app.services.housekeeping.purgeExpired();
    expect(purged.phones).toBeGreaterThanOrEqual(1234 + 1 + 2);

    expect((await paymentRow(t, paymentId)).payerPhone).toBe('');
    expect((await withdrawalRow(t, withdrawalId)).phone).toBe('');
    expect((await payoutRow(t, withdrawalId))!.phone).toBe('');
    const kept = await t.app.db
      .select({ id: payments.id })
      .from(payments)
      .where(sql`${payments.reference} LIKE 'OLD-%' AND ${payments.payerPhone} <> ''`);
    expect(kept).toEqual([]);
    // Younger than ten years, or still pending: kept.
    expect((await paymentRow(t, young.paymentId)).payerPhone).toBe(young.user.phone);
    expect((await withdrawalRow(t, young.withdrawalId)).phone).toBe('+237650009999');
    expect((await payoutRow(t, young.withdrawalId))!.phone).toBe('+237650009999');
    expect((await paymentRow(t, pending.id)).payerPhone).toBe(user.phone);
    // The rows themselves stay.
    expect((await paymentRow(t, paymentId)).status).toBe('success');

    // Nothing left to erase: the next run changes nothing.
    expect((await t.app.services.housekeeping.purgeExpired()).phones).toBe(0);
  });
});
