// How many statements a checkout costs (issue 57), recorded one by one on either database: the
// pack, the transaction (the user's checkout lock; the account held active and read with its limits
// and language in one statement; the spending windows raised and the pending payments counted in
// one; the payment row), then the provider's start recorded, whose RETURNING row is the answer.
// Fourteen statements with limits, thirteen without, before; eight either way now. A checkout
// refused by a limit stops after the raise and rolls it back. Counted, not timed
// (`npm run bench:http -- --workloads checkout` times it).
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { spendingTotals } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { setLimits } from '../play/helpers.js';
import { recordStatements, type StatementRecorder } from './statements.js';

let t: TestApp;
let recorder: StatementRecorder;

beforeAll(async () => {
  t = await createTestApp({
    clock: new ManualClock('2026-03-10T12:00:00Z'),
    config: { tokenCacheSeconds: 10 },
  });
  recorder = recordStatements(t.database);
});
afterAll(async () => {
  recorder.stop();
  await t.close();
});
afterEach(() => expectLedgerConsistent(t));

/** A signed-in user, with `limits` set when given, and its token cached by a first read. */
async function payer(limits?: Record<string, number>): Promise<SignedIn> {
  const user = await signIn(t);
  if (limits) expect((await setLimits(t, user, limits)).statusCode).toBe(200);
  await t.app.inject({ method: 'GET', url: '/api/user/wallet/limits', headers: user.headers });
  return user;
}

/** The statements of one checkout of `packId` (500 XAF for pack 1, 1,000 for pack 2), and its status. */
async function recorded(user: SignedIn, packId: number, headers: Record<string, string> = {}) {
  recorder.take();
  const response = await checkout(t, user, { pack_id: packId }, headers);
  // The wake-up's NOTIFY (PostgreSQL) is sent without waiting for it: not the request's statement.
  await new Promise((resolve) => setTimeout(resolve, 20));
  const statements = recorder.take().filter((run) => !/pg_notify|^NOTIFY/i.test(run));
  return { status: response.statusCode, body: response.body, statements };
}

const kinds = (statements: string[]) =>
  statements.map((run) => {
    const [first, second] = run.trim().split(/\s+/);
    return `${first} ${second ?? ''}`.trim().toLowerCase();
  });

const dailyTotal = async (userId: number) => {
  const [row] = await t.app.db
    .select({ amount: spendingTotals.amount })
    .from(spendingTotals)
    .where(and(eq(spendingTotals.userId, userId), eq(spendingTotals.period, 'daily')));
  return row?.amount;
};

describe('statements per checkout', () => {
  it('costs eight with a daily, weekly and monthly limit set, as without any', async () => {
    const limited = await payer({ daily: 100000, weekly: 200000, monthly: 300000 });
    const free = await payer();
    for (const user of [limited, free]) {
      const run = await recorded(user, 1);
      expect(run.status, run.body).toBe(201);
      expect(kinds(run.statements)).toEqual([
        'select "id",', // the pack
        'begin',
        'select pg_advisory_xact_lock($1,', // the user's checkouts, one at a time
        'select u.status,', // the account held active, its play facts and language
        'with raised', // the windows raised, the pending payments counted
        'insert into', // the payment
        'commit',
        'update "payments"', // the provider's start: its row is the answer
      ]);
      expect(await dailyTotal(user.id)).toBe(500);
    }
  });

  it('answers the payment as the provider left it, without reading it again', async () => {
    const user = await payer({ daily: 100000 });
    const run = await recorded(user, 1);
    const payment = JSON.parse(run.body).data.payment;
    expect(payment.status).toBe('pending');
    const stored = await t.app.inject({
      method: 'GET',
      url: `/api/user/wallet/payments/${payment.id}`,
      headers: user.headers,
    });
    expect(stored.json().data.payment).toEqual(payment);
  });

  it('with an Idempotency-Key, adds only the key’s claim, its stored answer and its amendment', async () => {
    const user = await payer({ daily: 100000 });
    const run = await recorded(user, 1, { 'idempotency-key': 'statements-1' });
    expect(run.status, run.body).toBe(201);
    expect(run.statements).toHaveLength(11);
    const [keyed, rest] = [
      run.statements.filter((text) => text.includes('"idempotency_keys"')),
      run.statements.filter((text) => !text.includes('"idempotency_keys"')),
    ];
    expect(kinds(keyed)).toEqual(['insert into', 'update "idempotency_keys"', 'update "idempotency_keys"']);
    expect(rest).toHaveLength(8);
  });

  it('refused by a limit, stops after the raise and rolls it back: nothing counted, nothing written', async () => {
    const user = await payer({ daily: 1000 });
    expect((await recorded(user, 2)).status).toBe(201);
    const refused = await recorded(user, 1);
    expect(refused.status, refused.body).toBe(403);
    expect(JSON.parse(refused.body).data.reason).toBe('limit_reached');
    expect(kinds(refused.statements)).toEqual([
      'select "id",',
      'begin',
      'select pg_advisory_xact_lock($1,',
      'select u.status,',
      'with raised',
      'rollback',
    ]);
    expect(await dailyTotal(user.id)).toBe(1000);
    // Exactly at the limit is allowed, as before.
    const other = await payer({ daily: 1500 });
    expect((await recorded(other, 2)).status).toBe(201);
    expect((await recorded(other, 1)).status).toBe(201);
    expect(await dailyTotal(other.id)).toBe(1500);
  });
});
