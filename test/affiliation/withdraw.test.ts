// Withdrawal requests: the 201/402/422 bodies, the immediate debit and its ledger row, parallel
// requests that cannot overdraw, Idempotency-Key replays and conflicts, and the owner's list.
import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { withdrawals } from '../../src/db/schema/index.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import { giveMoney, ICON, ledgerRows, moneyOf, withdraw, withdrawalRow, withdrawn } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

describe('POST /api/user/affiliation/withdraw', () => {
  it('debits at once and answers 201 with user {id, money_balance} and data.balance', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 12_000);
    const response = await withdraw(t, user, {
      amount: 5000,
      phone: '+237 690 00 00 12',
      operator: { name: 'Orange', icon: ICON },
    });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      user: { id: user.id, money_balance: 7000 },
      message: expect.any(String),
      data: { balance: 7000 },
      errors: [],
    });
    expect(await moneyOf(t, user.id)).toBe(7000);
    const [row] = await t.app.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id));
    expect(row).toMatchObject({
      amount: 5000,
      status: 'pending',
      phone: '+237690000012',
      // The channel comes from the number, whatever operator the client showed.
      channel: 'cm.orange',
      operator: { name: 'Orange', icon: ICON },
      decision: null,
    });
    const [debit] = await ledgerRows(t, `withdrawal:${row!.id}`);
    expect(debit).toMatchObject({ type: 'withdrawal', currency: 'XAF', amount: -5000, balanceAfter: 7000 });
  });

  it('never rejects an operator name that does not match the number', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 5000);
    // An MTN number with "Orange" shown: accepted, the channel stays MTN's.
    const id = await withdrawn(t, user, {
      phone: '+237670000044',
      operator: { name: 'Orange Money', icon: ICON },
    });
    expect((await withdrawalRow(t, id)).channel).toBe('cm.mtn');
  });

  it('answers 402 with data {balance, required} and changes nothing when the balance is short', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 4000);
    const response = await withdraw(t, user, { amount: 6000 });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({
      user: { id: user.id, money_balance: 4000 },
      data: { balance: 4000, required: 6000 },
      errors: [],
    });
    expect(await moneyOf(t, user.id)).toBe(4000);
    expect(await t.app.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id))).toEqual([]);
  });

  it('answers 422 naming each field', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 50_000);
    const cases: [Record<string, unknown>, string][] = [
      [{ amount: 4999 }, 'amount'],
      [{ amount: 0 }, 'amount'],
      [{ amount: -5000 }, 'amount'],
      [{ amount: 5000.5 }, 'amount'],
      [{ amount: 'cinq mille' }, 'amount'],
      [{ amount: 2_000_000 }, 'amount'],
      [{ phone: '+33612345678' }, 'phone'],
      [{ phone: '+237222123456' }, 'phone'],
      [{ phone: 'abc' }, 'phone'],
      [{ operator: { name: 'MTN', icon: 'javascript:alert(1)' } }, 'operator.icon'],
      [{ operator: { name: 'MTN', icon: 'not a url' } }, 'operator.icon'],
      [{ operator: { name: 'MTN', icon: `https://x.example/${'a'.repeat(600)}` } }, 'operator.icon'],
      [{ operator: { name: '', icon: ICON } }, 'operator.name'],
      [{ operator: { name: 'MTN' } }, 'operator.icon'],
      [{ operator: 'MTN' }, 'operator'],
    ];
    for (const [body, field] of cases) {
      const response = await withdraw(t, user, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(422);
      expect(response.json().user).toBeNull();
      expect(response.json().errors, JSON.stringify(body)).toHaveProperty([field]);
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/user/affiliation/withdraw',
      headers: user.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['amount', 'operator', 'phone']);
    expect((await withdraw(t, user, { amount: 4999 })).json().errors.amount[0]).toMatch(/5000 XAF/);
    expect(await moneyOf(t, user.id)).toBe(50_000);
  });

  it('accepts the national form of a number and any valid Cameroon mobile', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 10_000);
    const id = await withdrawn(t, user, { phone: '655 12 34 56' });
    expect((await withdrawalRow(t, id)).phone).toBe('+237655123456');
    expect((await withdrawalRow(t, id)).channel).toBe('cm.orange');
  });

  it('20 parallel withdrawals cannot overdraw', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 52_000);
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => withdraw(t, user, { amount: 5000 })),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((s) => s === 201)).toHaveLength(10);
    expect(statuses.filter((s) => s === 402)).toHaveLength(10);
    expect(await moneyOf(t, user.id)).toBe(2000);
    const rows = await t.app.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id));
    expect(rows).toHaveLength(10);
    const balances = responses.filter((r) => r.statusCode === 201).map((r) => r.json().data.balance);
    expect(new Set(balances).size).toBe(10);
  });

  it('replays the first answer for the same Idempotency-Key and body, once debited', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 20_000);
    const key = { 'idempotency-key': `wd-${user.id}-1` };
    const first = await withdraw(t, user, { amount: 6000 }, key);
    const again = await withdraw(t, user, { amount: 6000 }, key);
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await moneyOf(t, user.id)).toBe(14_000);
    expect(await t.app.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id))).toHaveLength(1);
    // The same key with another body is a 422 on Idempotency-Key.
    const other = await withdraw(t, user, { amount: 7000 }, key);
    expect(other.statusCode).toBe(422);
    expect(other.json().errors).toHaveProperty(['Idempotency-Key']);
    // A 402 is stored and replayed too, even once the balance would allow it.
    const poorKey = { 'idempotency-key': `wd-${user.id}-2` };
    const refused = await withdraw(t, user, { amount: 15_000 }, poorKey);
    expect(refused.statusCode).toBe(402);
    await giveMoney(t, user.id, 5000);
    const replayed = await withdraw(t, user, { amount: 15_000 }, poorKey);
    expect(replayed.statusCode).toBe(402);
    expect(replayed.json()).toEqual(refused.json());
    // A 422 claims nothing: the key is free for a corrected request.
    const badKey = { 'idempotency-key': `wd-${user.id}-3` };
    expect((await withdraw(t, user, { amount: 10 }, badKey)).statusCode).toBe(422);
    expect((await withdraw(t, user, { amount: 5000 }, badKey)).statusCode).toBe(201);
  });

  it('answers 409 while the first request with the key is still running', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 10_000);
    const key = { 'idempotency-key': `wd-${user.id}-inflight` };
    const responses = await Promise.all([
      withdraw(t, user, {}, key),
      withdraw(t, user, {}, key),
      withdraw(t, user, {}, key),
    ]);
    const statuses = responses.map((r) => r.statusCode).sort();
    expect(statuses.filter((s) => s === 201).length).toBeGreaterThanOrEqual(1);
    expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
    expect(await moneyOf(t, user.id)).toBe(5000);
  });

  it('needs a token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/affiliation/withdraw',
      payload: { amount: 5000, phone: '+237670000000', operator: { name: 'MTN', icon: ICON } },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/user/affiliation/withdrawals', () => {
  it('lists the owner’s withdrawals newest first, in the spec’s shape, filtered and paginated', async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    await giveMoney(t, user.id, 30_000);
    await giveMoney(t, other.id, 5000);
    await withdrawn(t, other);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) ids.push(await withdrawn(t, user, { amount: 5000 + i }));
    await t.app.db
      .update(withdrawals)
      .set({ status: 'cancelled', decision: 'rejected', decidedBy: user.id, decidedAt: sql`now()` })
      .where(eq(withdrawals.id, ids[0]!));
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/withdrawals?per_page=2',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: user.id });
    expect(body.data.meta).toEqual({ current_page: 1, last_page: 2, per_page: 2, total: 3, has_more: true });
    expect(body.data.withdrawals.map((w: { id: number }) => w.id)).toEqual([ids[2], ids[1]]);
    expect(body.data.withdrawals[0]).toEqual({
      id: ids[2],
      amount: 5002,
      status: 'pending',
      message: expect.any(String),
      meta: { phone: user.phone, operator: { name: 'MTN', icon: ICON } },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    const page2 = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/withdrawals?per_page=2&page=2',
      headers: user.headers,
    });
    expect(page2.json().data.withdrawals.map((w: { id: number }) => w.id)).toEqual([ids[0]]);
    const cancelled = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/withdrawals?status=cancelled',
      headers: user.headers,
    });
    expect(cancelled.json().data.withdrawals.map((w: { id: number }) => w.id)).toEqual([ids[0]]);
    const past = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/withdrawals?page=9',
      headers: user.headers,
    });
    expect(past.json().data).toEqual({
      withdrawals: [],
      meta: { current_page: 9, last_page: 1, per_page: 10, total: 3, has_more: false },
    });
  });

  it('answers 422 on a bad per_page, page or status, and 401 without a token', async () => {
    const user = await signIn(t);
    for (const [query, field] of [
      ['per_page=0', 'per_page'],
      ['per_page=51', 'per_page'],
      ['per_page=x', 'per_page'],
      ['page=0', 'page'],
      ['status=paid', 'status'],
    ]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/user/affiliation/withdrawals?${query}`,
        headers: user.headers,
      });
      expect(response.statusCode, query).toBe(422);
      expect(response.json().errors).toHaveProperty([field as string]);
    }
    expect((await t.app.inject({ method: 'GET', url: '/api/user/affiliation/withdrawals' })).statusCode).toBe(
      401,
    );
  });
});
