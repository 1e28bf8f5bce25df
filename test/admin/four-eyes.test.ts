// Four eyes (DESIGN, "Admin routes and the back office"; issue 55, decision 0126), through HTTP on
// both databases: promoting an account to admin, and approving a withdrawal that (with the user's
// others approved in the last 24 h) reaches WITHDRAWAL_SECOND_APPROVAL_XAF, take two different
// admins: the first call answers 202 with a pending approval (an admin event, an audit row), a
// second admin confirms (the effect happens then) or rejects; the requester deciding is 403,
// deciding twice 409, asking twice 409; rejecting the withdrawal itself cancels its approval; two
// admins approving two halves of a split withdrawal at once cannot both get past the threshold.
// The CLI (an operator at the machine) stays one person.
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { adminEvents, auditLog, payouts, withdrawals } from '../../src/db/schema/index.js';
import { decide, giveMoney, moneyOf, withdrawalRow, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';

const THRESHOLD = 50_000;
let t: TestApp;
let first: SignedIn;
let second: SignedIn;

beforeAll(async () => {
  t = await createTestApp({
    config: { withdrawalSecondApprovalXaf: THRESHOLD, paymentSandboxDelayMs: 60_000 },
  });
  first = await signIn(t, { role: 'admin' });
  second = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

function post(admin: SignedIn, url: string, payload?: Record<string, unknown>) {
  return t.app.inject({
    method: 'POST',
    url,
    headers: admin.headers,
    ...(payload === undefined ? {} : { payload }),
  });
}
const confirm = (admin: SignedIn, id: number) => post(admin, `/api/admin/approvals/${id}/confirm`);
const reject = (admin: SignedIn, id: number) => post(admin, `/api/admin/approvals/${id}/reject`);

async function withdrawalOf(amount: number, user?: SignedIn) {
  const owner = user ?? (await signIn(t));
  await giveMoney(t, owner.id, amount);
  return { user: owner, id: await withdrawn(t, owner, { amount }) };
}

async function auditActions(targetType: string, targetId: number) {
  const rows = await t.app.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.targetType, targetType), eq(auditLog.targetId, String(targetId))));
  return rows.map((row) => row.action);
}

const payoutsOf = (withdrawalId: number) =>
  t.app.db.select().from(payouts).where(eq(payouts.withdrawalId, withdrawalId));

describe('promotion to admin', () => {
  it('202 with a pending approval (event, audit), 403 for the same admin, a second admin confirms', async () => {
    const target = await signIn(t);
    const asked = await post(first, `/api/admin/users/${target.id}/role`, { role: 'admin' });
    expect(asked.statusCode, asked.body).toBe(202);
    const { approval } = asked.json().data;
    expect(approval).toEqual({
      id: expect.any(Number),
      action: 'user.promote',
      target: { type: 'user', id: target.id },
      requested_by: first.id,
      status: 'pending',
      decided_by: null,
      decided_at: null,
      created_at: expect.any(String),
    });
    expect(asked.json().message).toMatch(/second administrateur/);
    // Nothing happened yet.
    expect((await t.app.services.users.findById(target.id))!.role).toBe('user');
    const [event] = await t.app.db
      .select()
      .from(adminEvents)
      .where(eq(adminEvents.type, 'approval.requested'))
      .orderBy(adminEvents.seq);
    expect(event).toBeDefined();
    expect(await auditActions('approval', approval.id)).toEqual(['approval.request']);

    // Asking again while it is pending: 409.
    const twice = await post(second, `/api/admin/users/${target.id}/role`, { role: 'admin' });
    expect(twice.statusCode).toBe(409);
    // The admin who asked cannot confirm nor reject it.
    expect((await confirm(first, approval.id)).statusCode).toBe(403);
    expect((await reject(first, approval.id)).statusCode).toBe(403);
    expect((await t.app.services.users.findById(target.id))!.role).toBe('user');

    const confirmed = await confirm(second, approval.id);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.approval).toMatchObject({
      status: 'confirmed',
      decided_by: second.id,
      decided_at: expect.any(String),
    });
    expect(confirmed.json().data.user).toMatchObject({ id: target.id, role: 'admin' });
    // The new admin reaches the back office at once.
    const reach = await t.app.inject({ method: 'GET', url: '/api/admin/approvals', headers: target.headers });
    expect(reach.statusCode).toBe(200);
    expect(await auditActions('approval', approval.id)).toEqual(['approval.request', 'approval.confirm']);
    expect(await auditActions('user', target.id)).toEqual(['user.role']);
    // Deciding twice: 409.
    expect((await confirm(second, approval.id)).statusCode).toBe(409);
    expect((await reject(target, approval.id)).statusCode).toBe(409);
  });

  it('a rejected promotion changes nothing; demotion is one admin’s; the CLI is one person', async () => {
    const target = await signIn(t);
    const asked = await post(first, `/api/admin/users/${target.id}/role`, { role: 'admin' });
    const rejected = await reject(second, asked.json().data.approval.id);
    expect(rejected.statusCode).toBe(200);
    expect(rejected.json().data.approval).toMatchObject({ status: 'rejected', decided_by: second.id });
    expect((await t.app.services.users.findById(target.id))!.role).toBe('user');

    const out: string[] = [];
    const code = await runCli(
      ['user:role', target.phone, 'admin'],
      createCliContext(t.config, { database: t.database, clock: t.clock, out: (line) => out.push(line) }),
    );
    expect(code).toBe(0);
    expect((await t.app.services.users.findById(target.id))!.role).toBe('admin');
    const demoted = await post(first, `/api/admin/users/${target.id}/role`, { role: 'user' });
    expect(demoted.statusCode).toBe(200);
    expect(demoted.json().data.user.role).toBe('user');
  });

  it('lists approvals by status, newest first; unknown ids 404; a user token 403', async () => {
    const pending = await t.app.inject({
      method: 'GET',
      url: '/api/admin/approvals?status=pending&per_page=50',
      headers: second.headers,
    });
    expect(pending.statusCode).toBe(200);
    for (const approval of pending.json().data.approvals) expect(approval.status).toBe('pending');
    const all = await t.app.inject({ method: 'GET', url: '/api/admin/approvals', headers: second.headers });
    const ids = all.json().data.approvals.map((approval: { id: number }) => approval.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(all.json().data.meta).toMatchObject({ current_page: 1 });
    expect((await confirm(second, 999_999)).statusCode).toBe(404);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/approvals?status=maybe',
      headers: second.headers,
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['status']);
    const user = await signIn(t);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/approvals', headers: user.headers })).statusCode,
    ).toBe(403);
  });
});

describe('withdrawals at WITHDRAWAL_SECOND_APPROVAL_XAF', () => {
  it('below it: one admin approves (200)', async () => {
    const { id } = await withdrawalOf(THRESHOLD - 1);
    const approved = await decide(t, first, id, 'approve');
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json().data.withdrawal.decision.status).toBe('approved');
  });

  it('at it: 202, no payout; the same admin 403; a second admin confirms, the payout is sent once', async () => {
    const { user, id } = await withdrawalOf(THRESHOLD);
    const asked = await decide(t, first, id, 'approve', { message: 'Pièces vérifiées' });
    expect(asked.statusCode, asked.body).toBe(202);
    const { approval } = asked.json().data;
    expect(approval).toMatchObject({
      action: 'withdrawal.approve',
      target: { type: 'withdrawal', id },
      requested_by: first.id,
      status: 'pending',
    });
    expect(await withdrawalRow(t, id)).toMatchObject({ status: 'pending', decision: null });
    expect(await payoutsOf(id)).toEqual([]);
    // A direct approval while it is pending: 409, by either admin.
    expect((await decide(t, first, id, 'approve')).statusCode).toBe(409);
    expect((await decide(t, second, id, 'approve')).statusCode).toBe(409);
    expect((await confirm(first, approval.id)).statusCode).toBe(403);

    const confirmed = await confirm(second, approval.id);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json().data.approval).toMatchObject({ status: 'confirmed', decided_by: second.id });
    expect(confirmed.json().data.withdrawal).toMatchObject({
      id,
      status: 'pending',
      decision: { status: 'approved', admin_id: second.id, message: 'Pièces vérifiées' },
      payout: { provider: 'sandbox' },
    });
    expect(await payoutsOf(id)).toHaveLength(1);
    expect(await moneyOf(t, user.id)).toBe(0);
    expect(await auditActions('withdrawal', id)).toEqual(['withdrawal.approve']);
    expect((await confirm(second, approval.id)).statusCode).toBe(409);
  });

  it('split withdrawals count together over 24 h; after 24 h they no longer do', async () => {
    const user = await signIn(t);
    const a = await withdrawalOf(30_000, user);
    expect((await decide(t, first, a.id, 'approve')).statusCode).toBe(200);
    const b = await withdrawalOf(20_000, user);
    const asked = await decide(t, first, b.id, 'approve');
    expect(asked.statusCode, asked.body).toBe(202);
    expect((await reject(second, asked.json().data.approval.id)).statusCode).toBe(200);
    // A day later, the first no longer counts: one admin approves (its decision moved back a day).
    const dayAgo = new Date(t.clock.now().getTime() - 24 * 3600 * 1000 - 1000).toISOString();
    await t.app.db.update(withdrawals).set({ decidedAt: dayAgo }).where(eq(withdrawals.id, a.id));
    const later = await decide(t, first, b.id, 'approve');
    expect(later.statusCode, later.body).toBe(200);
  });

  it('rejecting the withdrawal itself cancels its pending approval', async () => {
    const { user, id } = await withdrawalOf(THRESHOLD + 5000);
    const asked = await decide(t, first, id, 'approve');
    expect(asked.statusCode).toBe(202);
    const rejected = await decide(t, second, id, 'reject', { message: 'Numéro douteux' });
    expect(rejected.statusCode).toBe(200);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/approvals?status=rejected&per_page=50',
      headers: second.headers,
    });
    expect(listed.json().data.approvals).toContainEqual(
      expect.objectContaining({
        id: asked.json().data.approval.id,
        status: 'rejected',
        decided_by: second.id,
      }),
    );
    expect((await confirm(second, asked.json().data.approval.id)).statusCode).toBe(409);
    expect(await moneyOf(t, user.id)).toBe(THRESHOLD + 5000);
    expect(await payoutsOf(id)).toEqual([]);
  });

  it('two admins approving the two halves of a split at once: at most one passes alone', async () => {
    const user = await signIn(t);
    const a = await withdrawalOf(30_000, user);
    const b = await withdrawalOf(30_000, user);
    const [one, two] = await Promise.all([
      decide(t, first, a.id, 'approve'),
      decide(t, second, b.id, 'approve'),
    ]);
    expect([one.statusCode, two.statusCode].sort()).toEqual([200, 202]);
    const sent = (await payoutsOf(a.id)).length + (await payoutsOf(b.id)).length;
    expect(sent).toBe(1);
  });
});
