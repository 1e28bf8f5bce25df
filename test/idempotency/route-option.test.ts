// The Idempotency-Key helper as any new route uses it: one route option and one service function
// that runs its change and `commit.store` in one transaction. Also the takeover guarantees: a claim
// whose request seemed dead can no longer settle, and one key can never create two rows.
import { sql } from 'drizzle-orm';
import { Type } from 'typebox';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pronostics } from '../../src/db/schema/index.js';
import { envelope } from '../../src/lib/envelope.js';
import { RequestInFlight } from '../../src/lib/errors.js';
import { commitOf } from '../../src/modules/idempotency/commit.js';
import { currentUser } from '../../src/plugins/app/auth.js';
import type { AuthUser } from '../../src/types/auth.js';
import type { IdempotentCommit } from '../../src/types/idempotency.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import { createTestApp, expectLedgerConsistent, grantCredits, signIn, type TestApp } from '../helpers.js';

let t: TestApp;

/** A service function as a new money route would write it: the change and the stored answer, one transaction. */
async function spend(user: { id: number }, credits: number, commit: IdempotentCommit<{ balance: number }>) {
  return t.app.db.transaction(async (tx) => {
    const posted = await t.app.services.ledger.spendCredits(tx, {
      userId: user.id,
      credits,
      type: 'admin_adjustment',
      description: 'Essai',
      reference: `probe:${Math.random()}`,
    });
    const result = { balance: posted.balanceAfter };
    await commit.store(tx, result);
    return result;
  });
}

beforeAll(async () => {
  t = await createTestApp({
    analyst: fixedAnalyst('dixon-coles-test'),
    beforeReady(app) {
      app.post(
        '/api/user/probe/spend',
        {
          config: { idempotency: 'probe.spend' },
          schema: { body: Type.Object({ credits: Type.Integer({ minimum: 1 }) }) },
        },
        async (request, reply) => {
          const user = currentUser(request);
          const answer = (result: { balance: number }) =>
            envelope({ user: { id: user.id }, message: 'Dépensé.', data: result });
          const result = await spend(user, request.body.credits, request.idempotent(201, answer));
          return reply.code(201).send(answer(result));
        },
      );
    },
  });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

async function balanceOf(userId: number): Promise<number> {
  return (await t.app.services.users.findById(userId))?.creditsBalance ?? -1;
}

describe('a route that opts in with config.idempotency', () => {
  const post = (headers: Record<string, string>, credits: number, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/user/probe/spend',
      headers: { ...headers, ...(key ? { 'idempotency-key': key } : {}) },
      payload: { credits },
    });

  it('replays the 201 without a second debit', async () => {
    const user = await signIn(t, { credits: 5 });
    const first = await post(user.headers, 2, 'spend-1');
    const again = await post(user.headers, 2, 'spend-1');
    expect(first.statusCode).toBe(201);
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(user.id)).toBe(3);
  });

  it('stores the 402 the error mapper answers, and replays it even once credits arrive', async () => {
    const user = await signIn(t, { credits: 1 });
    const first = await post(user.headers, 2, 'spend-402');
    expect(first.statusCode).toBe(402);
    expect(first.json()).toMatchObject({ data: { credits_balance: 1, required: 2 } });
    await grantCredits(t, user.id, 5);
    const again = await post(user.headers, 2, 'spend-402');
    expect(again.statusCode).toBe(402);
    expect(again.json()).toEqual(first.json());
    expect(await balanceOf(user.id)).toBe(6);
  });

  it('twenty simultaneous requests with one key debit once', async () => {
    const user = await signIn(t, { credits: 50 });
    const answers = await Promise.all(Array.from({ length: 20 }, () => post(user.headers, 1, 'spend-race')));
    const statuses = answers.map((answer) => answer.statusCode);
    expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
    expect(statuses.filter((status) => status === 201).length).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(user.id)).toBe(49);
  });

  it('without a key, each request is its own', async () => {
    const user = await signIn(t, { credits: 5 });
    await post(user.headers, 1);
    await post(user.headers, 1);
    expect(await balanceOf(user.id)).toBe(3);
  });
});

describe('a claim taken over after 120 s', () => {
  const match = { home: 'Canon Yaoundé', away: 'Coton Sport' };

  it('cannot settle any more: the first request’s change rolls back, one debit for the key', async () => {
    const signed = await signIn(t, { credits: 5 });
    const user: AuthUser = {
      id: signed.id,
      phone: signed.phone,
      country: 'CM',
      role: 'user',
      tokenId: 0,
      tokenIssuedAtMs: 0,
    };
    const body = { type_id: 1, teams_details: match };
    // The first request claims the key, then stalls (a slow database, a paused process)…
    const stalled = await t.app.services.idempotency.begin({
      userId: user.id,
      scope: 'pronostic.create',
      key: 'k-takeover',
      body,
    });
    if (!('claim' in stalled)) throw new Error('expected a claim');
    // …long enough for a retry to take the key over and create the pronostic.
    t.clock.advanceSeconds(121);
    const retry = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: { ...signed.headers, 'idempotency-key': 'k-takeover' },
      payload: body,
    });
    expect(retry.statusCode).toBe(201);
    // The first request wakes up and tries to commit its own creation under its old claim.
    await expect(
      t.app.services.pronostics.create(
        user,
        body,
        commitOf(stalled.claim, 201, (created) => created),
      ),
    ).rejects.toBeInstanceOf(RequestInFlight);
    expect(await balanceOf(user.id)).toBe(4);
    const rows = await t.app.db.execute(
      sql`SELECT count(*)::int AS n FROM pronostics WHERE user_id = ${user.id}`,
    );
    expect((rows as unknown as { rows: { n: number }[] }).rows[0]?.n).toBe(1);
  });

  it('one key can never create two rows: the database refuses a second row with its id', async () => {
    const signed = await signIn(t, { credits: 5 });
    const body = { type_id: 1, teams_details: match };
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: { ...signed.headers, 'idempotency-key': 'k-unique' },
      payload: body,
    });
    expect(created.statusCode).toBe(201);
    const [row] = await t.app.db
      .select({ keyId: pronostics.idempotencyKeyId })
      .from(pronostics)
      .where(sql`${pronostics.id} = ${created.json().data.pronostic.id}`);
    expect(row?.keyId).toEqual(expect.any(Number));
    await expect(
      t.app.db.insert(pronostics).values({
        userId: signed.id,
        typeId: 1,
        creditsCost: 1,
        teamsDetails: match,
        aiModel: 'x',
        searchText: 'x',
        runAfter: new Date().toISOString(),
        deadlineAt: new Date().toISOString(),
        idempotencyKeyId: row!.keyId,
      }),
    ).rejects.toThrow();
  });
});
