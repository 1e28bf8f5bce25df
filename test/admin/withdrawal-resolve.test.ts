// An escalated payout closed by hand: `paid` makes the withdrawal `success`; `failed` makes it
// `cancelled` and refunds it in the same transaction, once, but only on a provider read made now
// that shows a final failure, or with `override: true`. Only a pending, escalated payout (409
// otherwise, and on a second resolve), never one's own (403); audited in the same transaction; a
// provider event arriving after that changes nothing in the books, and is flagged when it
// contradicts the resolution. The sandbox pays out an hour after approval, the payout is escalated
// after a minute: approve, let a minute pass, look once (the poller's step) — escalated.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, withdrawals } from '../../src/db/schema/index.js';
import { createWithdrawalService } from '../../src/money/cash-out/withdrawals.js';
import { giveMoney, ledgerRows, moneyOf, withdrawalRow, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { flagsOf } from '../payments/helpers.js';

const HOUR_MS = 3_600_000;
let t: TestApp;
let admin: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: HOUR_MS, payoutStuckSeconds: 60 } });
});
// Tests move the clock by an hour, past a token's idle window: each test signs its admin in.
beforeEach(async () => {
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const sandbox = () => t.app.runtime.sandboxWebhooks!;
/** A look at the withdrawal's payout now (what the poller or a `transfer.*` webhook does). */
const followPayout = (id: number) => t.app.services.payouts.onTransferEvent(`wd-${id}`);

const resolve = (id: number, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/resolve`,
    headers,
    payload: payload as object,
  });

/** A withdrawal approved through the API, its payout still `sent` past the deadline: escalated. */
async function escalatedWithdrawal(amount = 5000, body: Record<string, unknown> = {}) {
  const user = await signIn(t);
  await giveMoney(t, user.id, amount);
  const id = await withdrawn(t, user, { amount, ...body });
  const approved = await t.app.inject({
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    headers: admin.headers,
    payload: {},
  });
  expect(approved.statusCode, approved.body).toBe(200);
  t.clock.advance(61_000);
  expect(await followPayout(id)).toBe('escalated');
  expect(await withdrawalRow(t, id)).toMatchObject({ status: 'pending', escalationReason: 'stuck_sent' });
  return { user, id, amount };
}

describe('POST /api/admin/withdrawals/:id/resolve', () => {
  it('paid: success, no refund, audited; a late provider event changes nothing', async () => {
    const { user, id, amount } = await escalatedWithdrawal();
    const response = await resolve(id, { outcome: 'paid', message: 'Confirmé par l’opérateur' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.withdrawal).toMatchObject({
      id,
      status: 'success',
      escalated: true,
      user: { id: user.id },
    });
    expect(await moneyOf(t, user.id)).toBe(0);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toEqual([]);
    const audit = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(id)));
    expect(audit.map((row) => row.action)).toEqual(['withdrawal.approve', 'withdrawal.resolve']);
    expect(audit[1]?.details).toMatchObject({ outcome: 'paid', amount, refunded: 0 });

    // The sandbox's word comes in late (the transfer of a 0000-less number completes): nothing moves.
    t.clock.advance(HOUR_MS);
    await sandbox().deliverDue();
    expect(await followPayout(id)).toBe('unchanged');
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'success' });
  });

  it('failed needs a provider read showing a final failure, or override with the reason', async () => {
    const { user, id, amount } = await escalatedWithdrawal(7000);
    // The sandbox still says `sent`: not a final failure, so no refund on an admin's word alone.
    const unconfirmed = await resolve(id, { outcome: 'failed', message: 'Transfert jamais arrivé' });
    expect(unconfirmed.statusCode).toBe(422);
    expect(Object.keys(unconfirmed.json().errors)).toEqual(['override']);
    expect(await moneyOf(t, user.id)).toBe(0);

    const response = await resolve(id, {
      outcome: 'failed',
      message: 'Transfert jamais arrivé',
      override: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.withdrawal).toMatchObject({
      status: 'cancelled',
      message: 'Transfert jamais arrivé',
      payout: { status: 'failed' },
    });
    expect(await moneyOf(t, user.id)).toBe(amount);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toHaveLength(1);
    const [audit] = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, 'withdrawal.resolve'))
      .orderBy(auditLog.id)
      .then((rows) => rows.filter((row) => row.targetId === String(id)));
    expect(audit?.details).toMatchObject({ outcome: 'failed', override: true, refunded: amount });

    // The transfer completes after all: the books do not move, and an admin sees the contradiction.
    t.clock.advance(HOUR_MS);
    await sandbox().deliverDue();
    expect(await followPayout(id)).toBe('flagged');
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'cancelled' });
    expect(await moneyOf(t, user.id)).toBe(amount);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toHaveLength(1);
    expect((await flagsOf(t, id, 'withdrawal')).map((flag) => flag.kind)).toEqual(['contradicts_final']);
    admin = await signIn(t, { role: 'admin' });
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/flags?target_type=withdrawal&status=open',
      headers: admin.headers,
    });
    expect(listed.json().data.flags.map((flag: { target_id: number }) => flag.target_id)).toContain(id);
  });

  it('failed without override when the provider, read now, shows a final failure', async () => {
    // A number ending in 0000: the sandbox fails the transfer once its hour has passed.
    const { user, id, amount } = await escalatedWithdrawal(6000, { phone: '+237670000000' });
    t.clock.advance(HOUR_MS);
    admin = await signIn(t, { role: 'admin' });
    const response = await resolve(id, { outcome: 'failed', message: 'L’opérateur a refusé' });
    expect(response.statusCode, response.body).toBe(200);
    expect(await moneyOf(t, user.id)).toBe(amount);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toHaveLength(1);
  });

  it('403 for an admin resolving, approving or rejecting their own withdrawal', async () => {
    const other = await signIn(t, { role: 'admin' });
    await giveMoney(t, other.id, 10_000);
    const own = await withdrawn(t, other, { amount: 5000 });
    for (const verb of ['approve', 'reject']) {
      const response = await t.app.inject({
        method: 'POST',
        url: `/api/admin/withdrawals/${own}/${verb}`,
        headers: other.headers,
        payload: { message: 'Moi-même' },
      });
      expect(response.statusCode, verb).toBe(403);
      expect(response.json()).toMatchObject({ data: [], errors: [] });
      expect(response.json().message).toMatch(/propre retrait/);
    }
    expect(await withdrawalRow(t, own)).toMatchObject({ status: 'pending', decision: null });
    const { id } = await escalatedWithdrawal();
    const [row] = await t.app.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    const owner = await t.app.services.users.findById(row!.userId);
    await t.app.services.users.changeRole(owner!.id, 'admin');
    const ownerAdmin = await signIn(t, { phone: owner!.phone! });
    const self = await resolve(id, { outcome: 'paid', message: 'Payé à moi' }, ownerAdmin.headers);
    expect(self.statusCode).toBe(403);
    expect((await withdrawalRow(t, id)).status).toBe('pending');
  });

  it('409 on a second resolve, on a pending payout not escalated, and on an undecided withdrawal', async () => {
    const { id } = await escalatedWithdrawal();
    expect(
      (await resolve(id, { outcome: 'failed', message: 'Première fois', override: true })).statusCode,
    ).toBe(200);
    const again = await resolve(id, { outcome: 'failed', message: 'Deuxième fois', override: true });
    expect(again.statusCode).toBe(409);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toHaveLength(1);

    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const undecided = await withdrawn(t, user, { amount: 5000 });
    expect((await resolve(undecided, { outcome: 'paid', message: 'Trop tôt' })).statusCode).toBe(409);
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${undecided}/approve`,
      headers: admin.headers,
      payload: {},
    });
    const notEscalated = await resolve(undecided, {
      outcome: 'failed',
      message: 'Pas signalé',
      override: true,
    });
    expect(notEscalated.statusCode).toBe(409);
    expect(await withdrawalRow(t, undecided)).toMatchObject({ status: 'pending' });
    expect(await ledgerRows(t, `withdrawal:${undecided}:refund`)).toEqual([]);
  });

  it('rolls the resolution and its refund back with the audit row', async () => {
    const { user, id } = await escalatedWithdrawal();
    const failing = createWithdrawalService({
      ledger: t.app.services.ledger,
      events: t.app.services.events,
      db: t.app.db,
      clock: t.clock,
      logger: t.app.log,
      config: t.config,
      payouts: t.app.services.payouts,
      accounts: t.app.services.users,
      approvals: t.app.services.approvals,
      audit: {
        record: async () => {
          throw new Error('audit failed');
        },
      },
    });
    await expect(
      failing.resolveEscalated(admin, id, { outcome: 'failed', message: 'Annulé', override: true }),
    ).rejects.toThrow('audit failed');
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'pending' });
    expect(await moneyOf(t, user.id)).toBe(0);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toEqual([]);
  });

  it('guards: 401, 403 (nothing changes), 404 unknown, 422 naming the field', async () => {
    const { user, id } = await escalatedWithdrawal();
    const body = { outcome: 'paid', message: 'Payé' };
    expect((await resolve(id, body, {})).statusCode).toBe(401);
    const refused = await resolve(id, body, user.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual([]);
    expect((await withdrawalRow(t, id)).status).toBe('pending');
    expect((await resolve(999_999, body)).statusCode).toBe(404);
    for (const [payload, field] of [
      [{ message: 'Sans issue' }, 'outcome'],
      [{ outcome: 'maybe', message: 'Autre issue' }, 'outcome'],
      [{ outcome: 'paid' }, 'message'],
      [{ outcome: 'paid', message: 'ok' }, 'message'],
      [{ outcome: 'paid', message: '      ' }, 'message'],
    ] as const) {
      const response = await resolve(id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toContain(field);
    }
    const [row] = await t.app.db.select().from(withdrawals).where(eq(withdrawals.id, id));
    expect(row?.status).toBe('pending');
  });
});
