// Affiliation test pieces: money on the affiliation wallet (as a ledger row, the way commissions
// arrive), the withdraw request, the rows behind the answers, and the admin's decisions.
import { randomBytes } from 'node:crypto';
import { desc, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { auditLog, payouts, users, walletOperations, withdrawals } from '../../src/db/schema/index.js';
import type { SignedIn, TestApp } from '../helpers.js';

export const ICON = 'https://cdn.example.com/operators/mtn.png';

/** XAF on the user's affiliation wallet: a `referral_commission` ledger row, as a commission arrives. */
export async function giveMoney(t: TestApp, userId: number, amount: number): Promise<void> {
  await t.app.db.transaction((tx) =>
    t.app.services.ledger.post(tx, {
      userId,
      type: 'referral_commission',
      currency: 'XAF',
      amount,
      description: 'Commission de test',
      reference: `test-commission:${randomBytes(6).toString('hex')}`,
    }),
  );
}

export async function moneyOf(t: TestApp, userId: number): Promise<number> {
  const [row] = await t.app.db.select({ money: users.moneyBalance }).from(users).where(eq(users.id, userId));
  return row!.money;
}

export function withdraw(
  t: TestApp,
  user: SignedIn,
  body: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/affiliation/withdraw',
    headers: { ...user.headers, ...headers },
    payload: { amount: 5000, phone: user.phone, operator: { name: 'MTN', icon: ICON }, ...body },
  });
}

/** A withdrawal made through the API; returns its id. */
export async function withdrawn(
  t: TestApp,
  user: SignedIn,
  body: Record<string, unknown> = {},
): Promise<number> {
  const response = await withdraw(t, user, body);
  expect(response.statusCode, response.body).toBe(201);
  const [row] = await t.app.db
    .select({ id: withdrawals.id })
    .from(withdrawals)
    .where(eq(withdrawals.userId, user.id))
    .orderBy(desc(withdrawals.id))
    .limit(1);
  return row!.id;
}

/** The payout of a withdrawal (the transfer's state), or undefined before its approval. */
export async function payoutRow(t: TestApp, withdrawalId: number) {
  const [row] = await t.app.db.select().from(payouts).where(eq(payouts.withdrawalId, withdrawalId));
  return row;
}

export async function withdrawalRow(t: TestApp, id: number) {
  const [row] = await t.app.db.select().from(withdrawals).where(eq(withdrawals.id, id));
  return row!;
}

export async function ledgerRows(t: TestApp, reference: string) {
  return t.app.db.select().from(walletOperations).where(eq(walletOperations.reference, reference));
}

export async function auditRowsOf(t: TestApp, id: number) {
  return t.app.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.targetId, String(id)));
}

export function decide(
  t: TestApp,
  admin: SignedIn,
  id: number,
  verb: 'approve' | 'reject',
  body?: Record<string, unknown>,
) {
  return t.app.inject({
    method: 'POST',
    url: `/api/admin/withdrawals/${id}/${verb}`,
    headers: admin.headers,
    ...(body === undefined ? {} : { payload: body }),
  });
}

export async function codeOf(t: TestApp, userId: number): Promise<string> {
  return (await t.app.services.users.findById(userId))!.affiliationCode;
}

export function applyCode(t: TestApp, user: SignedIn, code: string) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/profile/apply-affiliation',
    headers: user.headers,
    payload: { affiliation_code: code },
  });
}

/** Makes `godchild` the godchild of `godfather` through the API. */
export async function refer(t: TestApp, godchild: SignedIn, godfather: SignedIn): Promise<void> {
  const response = await applyCode(t, godchild, await codeOf(t, godfather.id));
  expect(response.statusCode, response.body).toBe(200);
}

export async function setStatus(t: TestApp, userId: number, status: 'active' | 'blocked'): Promise<void> {
  await t.app.db.update(users).set({ status }).where(eq(users.id, userId));
}
