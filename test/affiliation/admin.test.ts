// The back office's withdrawals with the sandbox driver: the list and its filters, approve (payout
// after the sandbox's delay by its own signed webhook, or by the poller; a 0000 number fails and is
// refunded) and reject (refund in the same transaction), one decision ever (sequential and
// concurrent), an audit row per decision, and the admin guard on every route.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { auditLog, withdrawals } from '../../src/db/schema/index.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import {
  auditRowsOf,
  decide,
  giveMoney,
  ledgerRows,
  moneyOf,
  payoutRow,
  withdrawalRow,
  withdrawn,
} from './helpers.js';

let t: TestApp;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp({ config: { paymentSandboxDelayMs: 2000 } });
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const sandbox = () => t.app.runtime.sandboxWebhooks!;

async function userWithWithdrawal(amount = 5000, phone?: string) {
  const user = await signIn(t, phone ? { phone } : {});
  await giveMoney(t, user.id, amount);
  const id = await withdrawn(t, user, { amount, ...(phone ? { phone } : {}) });
  return { user, id };
}

async function ownView(user: SignedIn, id: number) {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/user/affiliation/withdrawals',
    headers: user.headers,
  });
  return response.json().data.withdrawals.find((w: { id: number }) => w.id === id);
}

describe('POST /api/admin/withdrawals/{id}/approve with the sandbox', () => {
  it('records the decision, keeps the withdrawal pending while the payout runs, then success by webhook', async () => {
    const { user, id } = await userWithWithdrawal(6000);
    const response = await decide(t, admin, id, 'approve', { message: 'Vérifié' });
    expect(response.statusCode).toBe(200);
    const { withdrawal } = response.json().data;
    expect(response.json().user).toEqual({ id: admin.id });
    expect(withdrawal).toMatchObject({
      id,
      amount: 6000,
      status: 'pending',
      message: expect.stringMatching(/transfert .* en cours/),
      user: { id: user.id, phone: user.phone },
      decision: {
        status: 'approved',
        admin_id: admin.id,
        message: 'Vérifié',
        decided_at: expect.any(String),
      },
      payout: { provider: 'sandbox', reference: `wd-${id}`, provider_status: 'sent' },
      escalated: false,
    });
    expect(await ownView(user, id)).toMatchObject({ status: 'pending' });
    t.clock.advance(2000);
    expect(await sandbox().deliverDue()).toBeGreaterThanOrEqual(1);
    const row = await withdrawalRow(t, id);
    expect(row).toMatchObject({ status: 'success', decision: 'approved' });
    expect(await payoutRow(t, id)).toMatchObject({ status: 'paid', providerStatus: 'complete' });
    expect(await ownView(user, id)).toMatchObject({
      status: 'success',
      message: expect.stringMatching(/effectué/),
    });
    expect(await moneyOf(t, user.id)).toBe(0);
    const overview = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/overview',
      headers: user.headers,
    });
    expect(overview.json().data.wallet).toEqual({ balance: 0, total_earned: 6000 });
    const audit = await auditRowsOf(t, id);
    expect(audit).toMatchObject([
      {
        adminId: admin.id,
        action: 'withdrawal.approve',
        targetType: 'withdrawal',
        details: { user_id: user.id, amount: 6000, message: 'Vérifié' },
      },
    ]);
  });

  it('is settled by the poller without a webhook', async () => {
    const { id } = await userWithWithdrawal();
    expect((await decide(t, admin, id, 'approve')).statusCode).toBe(200);
    t.clock.advance(3000);
    await t.app.runtime.paymentPoller.drain();
    expect((await withdrawalRow(t, id)).status).toBe('success');
  });

  it('a number ending in 0000 fails at the sandbox: cancelled, refunded once, the user told why', async () => {
    const { user, id } = await userWithWithdrawal(5000, '+237690000000');
    expect(await moneyOf(t, user.id)).toBe(0);
    expect((await decide(t, admin, id, 'approve')).statusCode).toBe(200);
    t.clock.advance(2000);
    await sandbox().deliverDue();
    await t.app.runtime.paymentPoller.drain();
    const row = await withdrawalRow(t, id);
    expect(row).toMatchObject({ status: 'cancelled', decision: 'approved' });
    expect(await payoutRow(t, id)).toMatchObject({ status: 'failed', providerStatus: 'failed' });
    expect(row.message).toMatch(/échoué.*recrédité/);
    expect(await moneyOf(t, user.id)).toBe(5000);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toMatchObject([
      { type: 'withdrawal_refund', currency: 'XAF', amount: 5000 },
    ]);
  });

  it('answers 404 for an unknown withdrawal and a bad id', async () => {
    expect((await decide(t, admin, 999_999, 'approve')).statusCode).toBe(404);
    expect((await decide(t, admin, 999_999, 'reject', { message: 'Non' })).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/admin/withdrawals/abc/approve',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(404);
  });
});

describe('POST /api/admin/withdrawals/{id}/reject', () => {
  it('cancels and refunds in one go, with the admin’s reason as the message, and an audit row', async () => {
    const { user, id } = await userWithWithdrawal(7000);
    const response = await decide(t, admin, id, 'reject', { message: 'Numéro non vérifié' });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.withdrawal).toMatchObject({
      id,
      status: 'cancelled',
      message: 'Numéro non vérifié',
      decision: { status: 'rejected', admin_id: admin.id, message: 'Numéro non vérifié' },
      payout: null,
    });
    expect(await moneyOf(t, user.id)).toBe(7000);
    expect(await ledgerRows(t, `withdrawal:${id}:refund`)).toMatchObject([
      { type: 'withdrawal_refund', amount: 7000 },
    ]);
    expect(await auditRowsOf(t, id)).toMatchObject([
      {
        adminId: admin.id,
        action: 'withdrawal.reject',
        details: { message: 'Numéro non vérifié', refunded: 7000 },
      },
    ]);
  });

  it('needs a message: 422 on message, nothing changed', async () => {
    const { id } = await userWithWithdrawal();
    for (const body of [{}, { message: '' }, { message: '  ' }, { message: 'x'.repeat(501) }]) {
      const response = await decide(t, admin, id, 'reject', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().errors).toHaveProperty('message');
    }
    expect((await withdrawalRow(t, id)).decision).toBeNull();
    expect(await auditRowsOf(t, id)).toEqual([]);
  });
});

describe('one decision per withdrawal', () => {
  it('refuses any second decision with 409, even while the approved payout is under way', async () => {
    const approved = await userWithWithdrawal();
    expect((await decide(t, admin, approved.id, 'approve')).statusCode).toBe(200);
    expect((await withdrawalRow(t, approved.id)).status).toBe('pending');
    const again = await decide(t, admin, approved.id, 'approve');
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ user: { id: admin.id }, data: [], errors: [] });
    expect((await decide(t, admin, approved.id, 'reject', { message: 'Trop tard' })).statusCode).toBe(409);

    const rejected = await userWithWithdrawal();
    expect((await decide(t, admin, rejected.id, 'reject', { message: 'Non' })).statusCode).toBe(200);
    expect((await decide(t, admin, rejected.id, 'approve')).statusCode).toBe(409);
    expect((await decide(t, admin, rejected.id, 'reject', { message: 'Non' })).statusCode).toBe(409);
    expect(await moneyOf(t, rejected.user.id)).toBe(5000);
    expect(await auditRowsOf(t, approved.id)).toHaveLength(1);
    expect(await auditRowsOf(t, rejected.id)).toHaveLength(1);
  });

  it('two concurrent decisions: one 200, one 409, one audit row, at most one refund', async () => {
    for (const [first, second] of [
      ['approve', 'approve'],
      ['reject', 'reject'],
      ['approve', 'reject'],
    ] as const) {
      const { user, id } = await userWithWithdrawal();
      const responses = await Promise.all([
        decide(t, admin, id, first, first === 'reject' ? { message: 'Refus A' } : undefined),
        decide(t, admin, id, second, second === 'reject' ? { message: 'Refus B' } : undefined),
      ]);
      expect(responses.map((r) => r.statusCode).sort(), `${first}/${second}`).toEqual([200, 409]);
      expect(await auditRowsOf(t, id)).toHaveLength(1);
      expect((await ledgerRows(t, `withdrawal:${id}:refund`)).length).toBeLessThanOrEqual(1);
      const row = await withdrawalRow(t, id);
      expect(await moneyOf(t, user.id)).toBe(row.decision === 'rejected' ? 5000 : 0);
    }
  });
});

describe('GET /api/admin/withdrawals', () => {
  it('lists every user’s withdrawals newest first with the user, decision and payout, filtered', async () => {
    const a = await userWithWithdrawal(5000);
    const b = await userWithWithdrawal(8000);
    await decide(t, admin, b.id, 'reject', { message: 'Refusé' });
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/admin/withdrawals?per_page=50',
      headers: admin.headers,
    });
    expect(response.statusCode).toBe(200);
    const items = response.json().data.withdrawals as { id: number }[];
    const ids = items.map((item) => item.id);
    expect(ids.indexOf(b.id)).toBeLessThan(ids.indexOf(a.id));
    expect(items.find((item) => item.id === a.id)).toMatchObject({
      status: 'pending',
      user: { id: a.user.id, phone: a.user.phone },
      decision: null,
      payout: null,
      escalated: false,
    });
    const byPhone = await t.app.inject({
      method: 'GET',
      url: `/api/admin/withdrawals?phone=${encodeURIComponent(a.user.phone)}`,
      headers: admin.headers,
    });
    expect(byPhone.json().data.withdrawals.map((w: { id: number }) => w.id)).toEqual([a.id]);
    const cancelled = await t.app.inject({
      method: 'GET',
      url: '/api/admin/withdrawals?status=cancelled&per_page=50',
      headers: admin.headers,
    });
    expect(cancelled.json().data.withdrawals.every((w: { status: string }) => w.status === 'cancelled')).toBe(
      true,
    );
    expect(cancelled.json().data.withdrawals.map((w: { id: number }) => w.id)).toContain(b.id);

    await t.app.db
      .update(withdrawals)
      .set({ createdAt: '2026-01-15T10:00:00Z' })
      .where(eq(withdrawals.id, a.id));
    const inJanuary = await t.app.inject({
      method: 'GET',
      url: '/api/admin/withdrawals?from=2026-01-15&to=2026-01-15',
      headers: admin.headers,
    });
    expect(inJanuary.json().data.withdrawals.map((w: { id: number }) => w.id)).toEqual([a.id]);
    expect(inJanuary.json().data.meta).toEqual({
      current_page: 1,
      last_page: 1,
      per_page: 10,
      total: 1,
      has_more: false,
    });
  });

  it('answers 422 on bad filters', async () => {
    for (const [query, field] of [
      ['phone=123', 'phone'],
      ['from=2026-02-30', 'from'],
      ['to=yesterday', 'to'],
      ['from=2026-03-02&to=2026-03-01', 'from'],
      ['status=paid', 'status'],
      ['per_page=51', 'per_page'],
      ['escalated=maybe', 'escalated'],
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/admin/withdrawals?${query}`,
        headers: admin.headers,
      });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().errors).toHaveProperty([field as string]);
    }
  });

  it('every admin route: 403 with a user token, 401 without one, and nothing changes', async () => {
    const { user, id } = await userWithWithdrawal();
    const routes = [
      { method: 'GET' as const, url: '/api/admin/withdrawals' },
      { method: 'POST' as const, url: `/api/admin/withdrawals/${id}/approve` },
      {
        method: 'POST' as const,
        url: `/api/admin/withdrawals/${id}/reject`,
        payload: { message: 'Non merci' },
      },
    ];
    for (const route of routes) {
      const asUser = await t.app.inject({ ...route, headers: user.headers });
      expect(asUser.statusCode, route.url).toBe(403);
      expect(asUser.json().data).toEqual([]);
      expect((await t.app.inject(route)).statusCode, route.url).toBe(401);
    }
    expect((await withdrawalRow(t, id)).decision).toBeNull();
    expect(
      await t.app.db
        .select()
        .from(auditLog)
        .where(sql`${auditLog.targetId} = ${String(id)}`),
    ).toEqual([]);
  });
});

describe('ledger:verify after withdrawals, refunds and payouts', () => {
  it('stays clean', async () => {
    // Something of every kind: a paid payout, a failed one refunded, a rejection, a pending request.
    const paid = await userWithWithdrawal();
    await decide(t, admin, paid.id, 'approve');
    const failed = await userWithWithdrawal(5000, '+237690100000');
    await decide(t, admin, failed.id, 'approve');
    const rejected = await userWithWithdrawal();
    await decide(t, admin, rejected.id, 'reject', { message: 'Refusé' });
    await userWithWithdrawal();
    t.clock.advance(5000);
    await t.app.runtime.paymentPoller.drain();
    expect((await withdrawalRow(t, paid.id)).status).toBe('success');
    expect((await withdrawalRow(t, failed.id)).status).toBe('cancelled');
    const out: string[] = [];
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const code = await runCli(
      ['ledger:verify'],
      createCliContext(t.config, { database: t.database, clock: t.clock, out: (line) => out.push(line) }),
    );
    vi.restoreAllMocks();
    expect(code).toBe(0);
    expect(out.at(-1)).toBe('Ledger OK.');
  });
});
