// The crash test's checker (scripts/reliability/chaos-invariants.ts) on a small database with
// planted violations: a pronostic left processing, one analysed twice, one refunded after its
// success, a payment the provider took but we never credited, a payout sent twice. A checker that
// cannot fail proves nothing; `npm run chaos` itself is not part of `npm test`.
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ANALYSIS_LOG_SQL,
  checkInvariants,
  type ProviderRecords,
  type Query,
} from '../../scripts/reliability/chaos-invariants.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
let query: Query;
const nothingAtTheProvider: ProviderRecords = { payments: [], transfers: [] };

beforeEach(async () => {
  t = await createTestApp();
  user = await signIn(t, { credits: 20 });
  query = async (text) =>
    ((await t.app.db.execute(sql.raw(text))) as unknown as { rows: Record<string, unknown>[] }).rows;
  for (const statement of ANALYSIS_LOG_SQL) await query(statement);
});
afterEach(() => t.close());

async function createPronostic(): Promise<number> {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload: { type_id: 1, teams_details: { home: 'Coton Sport', away: 'Canon Yaoundé' } },
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.pronostic.id as number;
}

const analyse = (id: number, score: string) =>
  query(
    `UPDATE pronostics SET status = 'success', result = '{"score": "${score}"}'::jsonb,
       attempts = attempts + 1 WHERE id = ${id}`,
  );

describe('the chaos run checker', () => {
  it('is clean on a pronostic analysed once, and names one left processing', async () => {
    const id = await createPronostic();
    const before = await checkInvariants(query, nothingAtTheProvider);
    expect(before.violations).toEqual([expect.stringContaining('pronostic not final after the drain')]);

    await analyse(id, '2-1');
    const after = await checkInvariants(query, nothingAtTheProvider);
    expect(after.violations).toEqual([]);
    expect(after.figures).toMatchObject({ pronostics: 1, analysed: 1 });
  });

  it('sees an analysis committed twice, and a refund of a successful pronostic', async () => {
    const twice = await createPronostic();
    const refunded = await createPronostic();
    await analyse(twice, '2-1');
    await analyse(twice, '0-0');
    await analyse(refunded, '1-1');
    await query(
      `INSERT INTO wallet_operations (user_id, type, currency, amount, balance_after, reference, description)
       VALUES (${user.id}, 'pronostic_refund', 'credits', 1, 0, 'pronostic:${refunded}:refund', 'planted')`,
    );
    const { violations } = await checkInvariants(query, nothingAtTheProvider);
    expect(violations).toEqual([
      expect.stringMatching(new RegExp(`refunded wrongly.*"id":${refunded}`)),
      expect.stringMatching(
        new RegExp(`analysed or ended more than once.*"id":${twice},.*"changes_after_end":1`),
      ),
    ]);
  });

  it("compares with the provider's records: a payment taken but not credited, a payout sent twice", async () => {
    const { violations } = await checkInvariants(query, {
      payments: [{ reference: 'PAY-LOST', status: 'complete', amount: 1000 }],
      transfers: [
        { reference: 'wd-999', status: 'complete', amount: 1000 },
        { reference: 'wd-999', status: 'complete', amount: 1000 },
      ],
    });
    expect(violations).toEqual([
      'payment paid at the provider but not credited nor flagged: PAY-LOST (ours: unknown)',
      'withdrawal wd-999: 2 transfers at the provider',
      'transfer wd-999 at the provider matches no withdrawal',
    ]);
  });

  it('accepts a payment the provider took after saying it failed only when it is flagged late_complete', async () => {
    for (const [reference, flagged] of [
      ['PAY-LATE-FLAGGED', true],
      ['PAY-LATE-SILENT', false],
    ] as const) {
      const [row] = await query(
        `INSERT INTO payments (user_id, pack_id, reference, provider, status, amount, credits, payer_phone, channel, expires_at)
         VALUES (${user.id}, 1, '${reference}', 'notchpay', 'failed', 500, 5, '${user.phone}', 'cm.mtn', now()) RETURNING id`,
      );
      if (flagged) {
        await query(
          `INSERT INTO flags (kind, target_type, target_id, details) VALUES ('late_complete', 'payment', ${row!.id}, '{}')`,
        );
      }
    }
    const { violations } = await checkInvariants(query, {
      payments: [
        { reference: 'PAY-LATE-FLAGGED', status: 'complete', amount: 500 },
        { reference: 'PAY-LATE-SILENT', status: 'complete', amount: 500 },
      ],
      transfers: [],
    });
    expect(violations).toEqual([
      'payment paid at the provider but not credited nor flagged: PAY-LATE-SILENT (ours: failed)',
    ]);
  });
});
