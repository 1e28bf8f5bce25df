// GET /api/admin/withdrawals/:id/provider-read: what the provider says now of an escalated
// withdrawal's transfer, before an admin closes it by hand — its status and whether that is a final
// failure (the condition for « failed » without override), or why it could not be read; nothing is
// written. Only for a pending, escalated payout (409 otherwise), never one's own (403), admins only.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditLog, payouts, withdrawals } from '../../src/db/schema/index.js';
import { giveMoney, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';

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

const read = (id: number, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url: `/api/admin/withdrawals/${id}/provider-read`, headers });

/** A withdrawal approved through the API, its payout still `sent` past the deadline: escalated. */
async function escalatedWithdrawal(body: Record<string, unknown> = {}) {
  const user = await signIn(t);
  await giveMoney(t, user.id, 5000);
  const id = await withdrawn(t, user, { amount: 5000, ...body });
  const approved = await t.app.inject({
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/approve`,
    headers: admin.headers,
    payload: {},
  });
  expect(approved.statusCode, approved.body).toBe(200);
  t.clock.advance(61_000);
  expect(await t.app.services.payouts.onTransferEvent(`wd-${id}`)).toBe('escalated');
  return { user, id };
}

const rowsOf = async (id: number) => ({
  withdrawal: (await t.app.db.select().from(withdrawals).where(eq(withdrawals.id, id)))[0],
  payout: (await t.app.db.select().from(payouts).where(eq(payouts.withdrawalId, id)))[0],
});

describe('GET /api/admin/withdrawals/:id/provider-read', () => {
  it('says what the provider says now, and whether it is a final failure, writing nothing', async () => {
    const { id } = await escalatedWithdrawal();
    const before = await rowsOf(id);
    const sent = await read(id);
    expect(sent.statusCode, sent.body).toBe(200);
    expect(sent.json().data.provider_read).toEqual({
      status: 'sent',
      final_failure: false,
      error: null,
      read_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(await rowsOf(id)).toEqual(before);
    const audit = await t.app.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.targetId, String(id)));
    expect(audit.map((row) => row.action)).toEqual(['withdrawal.approve']);

    // A number ending in 0000: an hour on, the sandbox fails the transfer — a final failure.
    const failing = await escalatedWithdrawal({ phone: '+237670000000' });
    t.clock.advance(HOUR_MS);
    admin = await signIn(t, { role: 'admin' });
    expect((await read(failing.id)).json().data.provider_read).toMatchObject({
      status: 'failed',
      final_failure: true,
      error: null,
    });
    expect((await read(id)).json().data.provider_read).toMatchObject({
      status: 'complete',
      final_failure: false,
    });
    expect((await rowsOf(failing.id)).withdrawal).toMatchObject({ status: 'pending' });
  });

  it('409 unless the payout is escalated and pending, 404 unknown, 403 on one’s own', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    const undecided = await withdrawn(t, user, { amount: 5000 });
    expect((await read(undecided)).statusCode).toBe(409);
    const { id } = await escalatedWithdrawal();
    const resolved = await t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/resolve`,
      headers: admin.headers,
      payload: { outcome: 'paid', message: 'Payé, vérifié' },
    });
    expect(resolved.statusCode).toBe(200);
    expect((await read(id)).statusCode).toBe(409);
    expect((await read(999_999)).statusCode).toBe(404);

    const own = await escalatedWithdrawal();
    await t.app.services.users.changeRole(own.user.id, 'admin');
    const ownerAdmin = await signIn(t, { phone: own.user.phone });
    const refused = await read(own.id, ownerAdmin.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual([]);
  });

  it('is for admins only: 401 without a token, 403 with a user’s, never data', async () => {
    const { user, id } = await escalatedWithdrawal();
    expect((await read(id, {})).statusCode).toBe(401);
    const refused = await read(id, user.headers);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().data).toEqual([]);
  });
});
