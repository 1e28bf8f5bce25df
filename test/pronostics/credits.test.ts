import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { walletOperations } from '../../src/db/schema/index.js';
import { fixedAnalyst } from '../fakes/analysts.js';
import { createTestApp, expectLedgerConsistent, nextPhone, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ analyst: fixedAnalyst(), config: { welcomeCredits: 3 } });
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

describe('credits', () => {
  it('a user with 3 credits firing 20 concurrent 1-credit creates gets exactly 3', async () => {
    const user = await signIn(t);
    expect((await t.app.services.users.findById(user.id))?.creditsBalance).toBe(3);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/user/pronostic/create',
          headers: user.headers,
          payload: { type_id: 1, teams_details: { home: `Home ${i}`, away: `Away ${i}` } },
        }),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 201)).toHaveLength(3);
    expect(statuses.filter((status) => status === 402)).toHaveLength(17);
    expect((await t.app.services.users.findById(user.id))?.creditsBalance).toBe(0);
    const operations = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.userId, user.id));
    expect(operations.map((operation) => operation.type).sort()).toEqual(
      ['pronostic_debit', 'pronostic_debit', 'pronostic_debit', 'welcome_bonus'].sort(),
    );
    const list = await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: user.headers });
    expect(list.json().data.meta.total).toBe(3);
  });

  it('gives WELCOME_CREDITS once, with a welcome_bonus ledger row', async () => {
    const phone = nextPhone();
    const first = await t.app.services.users.findOrCreate(phone, 'CM');
    const second = await t.app.services.users.findOrCreate(phone, 'CM');
    expect(first.created).toBe(true);
    expect(second.created).toBe(false);
    expect(second.user.creditsBalance).toBe(3);
    const operations = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.userId, first.user.id));
    expect(operations.map((operation) => [operation.type, operation.amount, operation.balanceAfter])).toEqual(
      [['welcome_bonus', 3, 3]],
    );
  });

  it('creates one account when two first requests for a phone race', async () => {
    const phone = nextPhone();
    const [a, b] = await Promise.all([
      t.app.services.users.findOrCreate(phone, 'CM'),
      t.app.services.users.findOrCreate(phone, 'CM'),
    ]);
    expect(a.user.id).toBe(b.user.id);
    const operations = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.userId, a.user.id));
    expect(operations).toHaveLength(1);
  });

  describe('credits:grant', () => {
    const run = async (...args: string[]) => {
      const lines: string[] = [];
      const code = await runCli(
        args,
        createCliContext(t.config, { database: t.database, clock: t.clock, out: (line) => lines.push(line) }),
      );
      return { code, lines };
    };

    it('grants credits with an admin_adjustment row', async () => {
      const user = await signIn(t);
      const { code, lines } = await run('credits:grant', user.phone, '10', 'Geste commercial');
      expect(code).toBe(0);
      expect(lines).toEqual([`User ${user.id} (${user.phone}) now has 13 credits.`]);
      const [operation] = await t.app.db
        .select()
        .from(walletOperations)
        .where(eq(walletOperations.type, 'admin_adjustment'));
      expect(operation).toMatchObject({
        userId: user.id,
        amount: 10,
        balanceAfter: 13,
        description: 'Geste commercial',
      });
    });

    it('refuses to go below zero, an unknown phone, and a bad amount', async () => {
      const user = await signIn(t);
      expect((await run('credits:grant', user.phone, '-4', 'Correction')).code).toBe(1);
      expect((await t.app.services.users.findById(user.id))?.creditsBalance).toBe(3);
      expect((await run('credits:grant', '+237670000999', '5', 'Bonus')).code).toBe(1);
      expect((await run('credits:grant', user.phone, 'five', 'Bonus')).code).not.toBe(0);
      expect((await run('credits:grant', user.phone, '0', 'Bonus')).code).toBe(1);
    });
  });
});
