// The detail and the wallet history gathered (issue 57, src/db/batched.ts): what one round of the
// event loop asks of the same statement runs as one, and every caller gets exactly the answer it
// gets alone: its own rows, its own 403 or 404, its own page and count. A batch the database
// refuses is run call by call, so one caller's values never fail another's. Counted, not timed.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { batchedQuery, batchedStatement } from '../../src/db/batched.js';
import { createTestApp, grantCredits, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { matrixAnalyst } from '../slips/analyst.js';
import { recordStatements, type StatementRecorder } from './statements.js';

let t: TestApp;
let users: SignedIn[];
/** Each user's pronostic ids, in the order inserted. */
const owned = new Map<number, number[]>();
let recorder: StatementRecorder;

beforeAll(async () => {
  t = await createTestApp({ analyst: matrixAnalyst, config: { tokenCacheSeconds: 60 } });
  users = [];
  for (let i = 0; i < 4; i++) users.push(await signIn(t, { credits: 10 + i }));
  for (const [i, user] of users.entries()) {
    // Two more grants each (the history's rows), and three pronostics, one of them deleted.
    await grantCredits(t, user.id, 100 + i);
    await grantCredits(t, user.id, 200 + i);
    const inserted = await t.app.db.execute(sql`
      INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                              search_text, run_after, deadline_at, deleted_at)
      SELECT ${user.id}, 1 + n % 3, 'success', 1,
             jsonb_build_object('home', 'Home ' || ${user.id}::text || '-' || n, 'away', 'Away'),
             jsonb_build_object('n', n), 'dixon-coles-7', 'home', now(), now(),
             CASE WHEN n = 2 THEN now() END
      FROM generate_series(0, 2) AS n
      RETURNING id`);
    const { rows } = inserted as unknown as { rows: { id: number }[] };
    owned.set(
      user.id,
      rows.map((row) => Number(row.id)),
    );
  }
  recorder = recordStatements(t.database);
});
afterAll(async () => {
  recorder.stop();
  await t.close();
});

const get = (user: SignedIn, url: string) => t.app.inject({ method: 'GET', url, headers: user.headers });
const answerOf = (response: { statusCode: number; body: string }) => ({
  status: response.statusCode,
  body: response.body,
});

/** The same requests one at a time, then all at once: the answers, and the statements run at once. */
async function aloneAndTogether(requests: [SignedIn, string][]) {
  const alone = [];
  for (const [user, url] of requests) alone.push(answerOf(await get(user, url)));
  recorder.take();
  const together = (await Promise.all(requests.map(([user, url]) => get(user, url)))).map(answerOf);
  return { alone, together, runs: recorder.take() };
}

describe('details asked together', () => {
  it('are one statement, each caller with its own answer, 403 and 404 included', async () => {
    const [a, b, c, d] = users as [SignedIn, SignedIn, SignedIn, SignedIn];
    const requests: [SignedIn, string][] = [
      [a, `/api/user/pronostic/${owned.get(a.id)![0]}`],
      [b, `/api/user/pronostic/${owned.get(b.id)![1]}`],
      [c, `/api/user/pronostic/${owned.get(c.id)![0]}`],
      // Another's pronostic, a deleted one, one that never was, and the same one twice.
      [d, `/api/user/pronostic/${owned.get(a.id)![1]}`],
      [d, `/api/user/pronostic/${owned.get(d.id)![2]}`],
      [d, '/api/user/pronostic/999999'],
      [a, `/api/user/pronostic/${owned.get(a.id)![0]}`],
    ];
    const { alone, together, runs } = await aloneAndTogether(requests);
    expect(alone.map((answer) => answer.status)).toEqual([200, 200, 200, 403, 404, 404, 200]);
    expect(together).toEqual(alone);
    const details = runs.filter((run) => /pronostic_detail|FROM pronostics p JOIN/.test(run));
    expect(details).toHaveLength(1);
    expect(details[0]).toMatch(/pronostic_detail_batched|unnest\(/);
  });

  it('alone, a detail runs the plain statement', async () => {
    const [a] = users as [SignedIn];
    recorder.take();
    expect((await get(a, `/api/user/pronostic/${owned.get(a.id)![0]}`)).statusCode).toBe(200);
    const runs = recorder.take().filter((run) => /pronostic_detail|FROM pronostics p JOIN/.test(run));
    expect(runs).toHaveLength(1);
    expect(runs[0]).not.toMatch(/batched|unnest\(/);
  });
});

describe('history pages asked together', () => {
  it('are one statement per filter shape, each with its own rows in order and its own count', async () => {
    const requests: [SignedIn, string][] = [
      ...users.map((user): [SignedIn, string] => [
        user,
        '/api/user/wallet/operations?page=1&type=admin_adjustment',
      ]),
      [users[0]!, '/api/user/wallet/operations?page=1&type=admin_adjustment&per_page=2'],
      [users[0]!, '/api/user/wallet/operations?page=2&type=admin_adjustment&per_page=2'],
      [users[1]!, '/api/user/wallet/operations?page=1&type=pack_purchase'],
      [users[2]!, '/api/user/wallet/operations?page=1&currency=credits'],
    ];
    const { alone, together, runs } = await aloneAndTogether(requests);
    for (const [i, answer] of alone.entries()) expect(answer.status, requests[i]![1]).toBe(200);
    const first = JSON.parse(alone[0]!.body) as {
      data: { operations: { amount: number }[]; meta: { total: number } };
    };
    expect(first.data.operations.map((operation) => operation.amount)).toEqual([200, 100, 10]);
    expect(first.data.meta.total).toBe(3);
    expect(together).toEqual(alone);
    const pages = runs.filter((run) => /wallet_history_page|FROM wallet_operations/.test(run));
    // The type pages (six calls) in one; a page past the end counted alone; the currency page alone.
    expect(
      pages.filter((run) => /_type_batched|unnest\(\$1::int4\[\], \$2::text\[\], \$3::int8/.test(run)),
    ).toHaveLength(1);
    expect(pages.length).toBeLessThan(requests.length);
  });
});

describe('slip checks asked together', () => {
  it('read their legs in one statement, each with its own verdict or refusal', async () => {
    const [a, b] = users as [SignedIn, SignedIn];
    // An analysed pronostic each, on two matches for a (a two-match slip).
    const analysed = new Map<number, number[]>();
    for (const [user, matches] of [
      [a, ['Coton Sport', 'Union Douala']],
      [b, ['Canon Yaoundé']],
    ] as const)
      for (const home of matches) {
        const created = await t.app.inject({
          method: 'POST',
          url: '/api/user/pronostic/create',
          headers: user.headers,
          payload: { type_id: 1, teams_details: { home, away: 'Fovu Baham' } },
        });
        expect(created.statusCode, created.body).toBe(201);
        expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
        analysed.set(user.id, [...(analysed.get(user.id) ?? []), created.json().data.pronostic.id]);
      }
    const leg = (id: number, pick: string, odds: number) => ({ pronostic_id: id, market: '1x2', pick, odds });
    const [a1, a2] = analysed.get(a.id)! as [number, number];
    const [b1] = analysed.get(b.id)! as [number];
    const slips: [SignedIn, object][] = [
      [a, { legs: [leg(a1, 'home', 2.1), leg(a2, 'draw', 3.4)] }],
      [b, { legs: [leg(b1, 'away', 4)] }],
      // Another's pronostic is not a leg of yours.
      [b, { legs: [leg(a1, 'home', 2.1)] }],
      [a, { legs: [leg(a2, 'away', 2.6)] }],
    ];
    const post = ([user, payload]: [SignedIn, object]) =>
      t.app.inject({ method: 'POST', url: '/api/user/slips/check', headers: user.headers, payload });
    const alone = [];
    for (const slip of slips) alone.push(answerOf(await post(slip)));
    expect(alone.map((answer) => answer.status)).toEqual([200, 200, 422, 200]);
    recorder.take();
    const together = (await Promise.all(slips.map(post))).map(answerOf);
    expect(together).toEqual(alone);
    const legReads = recorder
      .take()
      .filter((run) => /pronostic_leg_sources|LEFT JOIN pronostic_matrices/.test(run));
    expect(legReads).toHaveLength(1);
    expect(legReads[0]).toMatch(/pronostic_leg_sources_batched|unnest\(\$1::int4\[\], \$2::text\[\]\)/);
  });
});

describe('a gathered statement', () => {
  const ratio = {
    name: 'batched_test_ratio',
    text: 'SELECT $1::int / $2::int AS ratio',
    types: ['int4', 'int4'],
  };

  it('reads each call’s parameters from its own row', () => {
    const batched = batchedStatement(ratio);
    expect(batched.name).toBe('batched_test_ratio_batched');
    expect(batched.text).toContain('unnest($1::int4[], $2::int4[]) WITH ORDINALITY AS q(p1, p2, ordinal)');
    expect(batched.text).toContain('SELECT q.p1::int / q.p2::int AS ratio');
  });

  it('that the database refuses runs call by call: one caller’s error is its own', async () => {
    const calls = [
      [6, 3],
      [1, 0],
      [9, 3],
    ].map((values) => batchedQuery<{ ratio: number }>(t.app.db, ratio, values));
    const settled = await Promise.allSettled(calls);
    expect(settled[0]).toEqual({ status: 'fulfilled', value: [{ ratio: 2 }] });
    expect(settled[1]!.status).toBe('rejected');
    expect(String((settled[1] as PromiseRejectedResult).reason)).toMatch(/division by zero/);
    expect(settled[2]).toEqual({ status: 'fulfilled', value: [{ ratio: 3 }] });
  });

  it('inside a transaction runs alone, on the transaction’s connection', async () => {
    recorder.take();
    const rows = await t.app.db.transaction(async (tx) =>
      Promise.all([
        batchedQuery<{ ratio: number }>(tx, ratio, [8, 2]),
        batchedQuery<{ ratio: number }>(tx, ratio, [8, 4]),
      ]),
    );
    expect(rows).toEqual([[{ ratio: 4 }], [{ ratio: 2 }]]);
    expect(recorder.take().filter((run) => /unnest/.test(run))).toHaveLength(0);
  });
});
