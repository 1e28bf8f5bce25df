import { sql } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { users } from '../../src/db/schema/index.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import { seedOperations } from '../wallet/helpers.js';

/** Runs one CLI command on the app's database; returns its exit code, output and error lines. */
async function cli(t: TestApp, ...argv: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
  const code = await runCli(
    argv,
    createCliContext(t.config, { database: t.database, clock: t.clock, out: (line) => out.push(line) }),
  );
  vi.restoreAllMocks();
  return { code, out, err: errors.join('\n') };
}

describe('npm run cli -- ledger:verify', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { welcomeCredits: 2 } });
  });
  afterAll(() => t.close());
  afterEach(() => expectLedgerConsistent(t));

  it('exits 0 on a consistent database and says how many users it checked', async () => {
    const user = await signIn(t, { credits: 5 });
    await seedOperations(t, user.id, [
      {
        type: 'pack_purchase',
        currency: 'credits',
        amount: 12,
        at: '2026-03-10T00:00:00Z',
        reference: 'pay-ok-1',
      },
      { type: 'referral_commission', currency: 'XAF', amount: 100, at: '2026-03-11T00:00:00Z' },
    ]);
    const { code, out } = await cli(t, 'ledger:verify');
    expect(code).toBe(0);
    const userCount = (await t.app.db.select({ id: users.id }).from(users)).length;
    expect(out.at(-2)).toBe(
      `Checked ${userCount} users: 0 balance mismatch(es), 0 reference(s) credited twice, 0 purchase(s) without a reference.`,
    );
    expect(out.at(-1)).toBe('Ledger OK.');
  });

  it('exits non-zero naming the user whose balance was tampered with', async () => {
    const honest = await signIn(t);
    const tampered = await signIn(t);
    await t.app.db.execute(
      sql`UPDATE users SET credits_balance = credits_balance + 7 WHERE id = ${tampered.id}`,
    );
    try {
      const { code, out, err } = await cli(t, 'ledger:verify');
      expect(code).not.toBe(0);
      expect(out).toContain(
        `MISMATCH user ${tampered.id} (${tampered.phone}): balances 9 credits / 0 XAF, ledger 2 credits / 0 XAF`,
      );
      expect(out.join('\n')).not.toContain(`user ${honest.id} `);
      expect(out.at(-1)).toMatch(/1 balance mismatch\(es\)/);
      expect(err).toMatch(/the ledger is inconsistent/);
    } finally {
      await t.app.db.execute(
        sql`UPDATE users SET credits_balance = credits_balance - 7 WHERE id = ${tampered.id}`,
      );
    }
  });

  it('finds every mismatch whatever batch it falls in', async () => {
    const accounts = [];
    for (let i = 0; i < 5; i++) accounts.push(await signIn(t));
    const first = accounts[0]!;
    const last = accounts[4]!;
    await t.app.db.execute(sql`UPDATE users SET money_balance = 50 WHERE id IN (${first.id}, ${last.id})`);
    try {
      const progress: [number, number][] = [];
      const report = await t.app.services.wallet.verifyLedger({
        batchSize: 2,
        progress: (done, total) => progress.push([done, total]),
      });
      expect(report.mismatches.map((user) => user.id)).toEqual([first.id, last.id]);
      expect(report.mismatches[0]).toMatchObject({ money: 50, ledgerMoney: 0 });
      expect(progress.at(-1)).toEqual([last.id, last.id]);
      expect(progress.length).toBe(Math.ceil(last.id / 2));
    } finally {
      await t.app.db.execute(sql`UPDATE users SET money_balance = 0 WHERE id IN (${first.id}, ${last.id})`);
    }
  });
});

describe('ledger:verify on a provider reference credited twice', () => {
  // Its own database: the unique index is dropped to plant what the index normally forbids.
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('exits non-zero and names the reference', async () => {
    const user = await signIn(t);
    await t.app.db.execute(sql`DROP INDEX wallet_operations_reference_unique`);
    await seedOperations(
      t,
      user.id,
      [1, 2].map(() => ({
        type: 'pack_purchase' as const,
        currency: 'credits' as const,
        amount: 5,
        at: '2026-03-10T00:00:00Z',
        reference: 'pay-twice',
      })),
    );
    const { code, out } = await cli(t, 'ledger:verify');
    expect(code).not.toBe(0);
    expect(out).toContain('DUPLICATE reference pay-twice: credited 2 times');
    expect(out.some((line) => line.startsWith('MISMATCH'))).toBe(false);
    await expectLedgerConsistent(t);
  });
});
