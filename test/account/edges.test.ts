// Account deletion's edges (issue 42), on both databases: welcome credits once per phone (a keyed
// hash on the tombstone, never the phone); one admin always left when deletions, role changes and
// blocks race (on PostgreSQL a trigger holds each transaction open after its last-admin count, so
// the race happens every run; PGlite runs one transaction at a time by nature).
import { createHmac } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { keyedHash } from '../../src/lib/crypto.js';
import { NoAdminLeft } from '../../src/lib/errors.js';
import {
  createTestApp,
  expectLedgerConsistent,
  nextPhone,
  type SignedIn,
  signIn,
  type TestApp,
  usingPostgres,
} from '../helpers.js';
import { deleteAccount, deletionCode } from './helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { welcomeCredits: 3 } });
});
afterAll(() => t.close());

const creditsOf = async (id: number) => (await t.app.services.users.findById(id))!.creditsBalance;

describe('welcome credits once per phone', () => {
  it('a number whose account was deleted signs in again without a second welcome', async () => {
    const phone = nextPhone();
    const first = await signIn(t, { phone });
    expect(await creditsOf(first.id)).toBe(3);
    const deleted = await deleteAccount(t, first, { code: await deletionCode(t, first) });
    expect(deleted.statusCode, deleted.body).toBe(200);

    // The tombstone keeps a keyed hash of the number, not the number.
    const [tombstone] = await t.app.db.select().from(users).where(eq(users.id, first.id));
    expect(tombstone!.phone).toBeNull();
    // HMAC(TOMBSTONE_KEY, HMAC(APP_SECRET, …)) (issue 55): not what APP_SECRET alone gives.
    expect(tombstone!.welcomedPhoneHash).toBe(
      createHmac('sha256', t.config.tombstoneKey)
        .update(keyedHash(t.config.appSecret, 'welcomed_phone', phone))
        .digest('hex'),
    );
    expect(tombstone!.welcomedPhoneHash).not.toContain(phone.slice(1));

    const again = await signIn(t, { phone });
    expect(again.id).not.toBe(first.id);
    expect(await creditsOf(again.id)).toBe(0);
    // Another number still gets its welcome.
    const stranger = await signIn(t);
    expect(await creditsOf(stranger.id)).toBe(3);
    await expectLedgerConsistent(t);
  });
});

describe('one admin always left', () => {
  let app: TestApp;
  beforeAll(async () => {
    // A database of its own: the only admins are the ones each case makes.
    app = await createTestApp();
    if (usingPostgres()) {
      // Every admin action and deletion ends with its audit row: a pause there keeps each
      // transaction open after its count, until the other one has counted too.
      await app.app.db.execute(sql`
        CREATE FUNCTION slow_audit() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN PERFORM pg_sleep(0.4); RETURN NEW; END $$`);
      await app.app.db.execute(sql`
        CREATE TRIGGER slow_audit BEFORE INSERT ON audit_log FOR EACH ROW EXECUTE FUNCTION slow_audit()`);
    }
  });
  afterAll(() => app.close());

  async function twoAdmins(): Promise<[SignedIn, SignedIn]> {
    // The admins of an earlier case step down first (through the service: no audit, no pause).
    for (const row of await app.app.db.select().from(users).where(eq(users.role, 'admin'))) {
      await app.app.services.users.changeRole(row.id, 'user');
    }
    return [await signIn(app, { role: 'admin' }), await signIn(app, { role: 'admin' })];
  }

  async function activeAdmins(): Promise<number> {
    const rows = await app.app.db.select().from(users).where(eq(users.role, 'admin'));
    return rows.filter((row) => row.status === 'active').length;
  }

  it('two admins deleting themselves at once: one is deleted, the other is told it is the last', async () => {
    const [a, b] = await twoAdmins();
    const codes = [await deletionCode(app, a), await deletionCode(app, b)];
    const answers = await Promise.all([
      deleteAccount(app, a, { code: codes[0] }),
      deleteAccount(app, b, { code: codes[1] }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 403]);
    expect(await activeAdmins()).toBe(1);
  });

  it('an admin demoting the other while deleting themselves: one of the two is refused', async () => {
    const [a, b] = await twoAdmins();
    const code = await deletionCode(app, a);
    const [deleted, demoted] = await Promise.all([
      deleteAccount(app, a, { code }),
      app.app.inject({
        method: 'POST',
        url: `/api/admin/users/${b.id}/role`,
        headers: a.headers,
        payload: { role: 'user' },
      }),
    ]);
    // Whichever went first, the second found no other admin: 403 for the deletion, 409 for the
    // demotion (or 401 once the deletion revoked the token it came with).
    expect([deleted.statusCode, demoted.statusCode]).not.toEqual([200, 200]);
    expect(await activeAdmins()).toBe(1);
  });

  it('an admin blocking the other while deleting themselves: one of the two is refused', async () => {
    const [a, b] = await twoAdmins();
    const code = await deletionCode(app, a);
    const [deleted, blocked] = await Promise.all([
      deleteAccount(app, a, { code }),
      app.app.inject({ method: 'POST', url: `/api/admin/users/${b.id}/block`, headers: a.headers }),
    ]);
    expect([deleted.statusCode, blocked.statusCode]).not.toEqual([200, 200]);
    expect(await activeAdmins()).toBe(1);
  });

  it('demoting or blocking the only active admin is refused (409), whoever asks', async () => {
    const [a, b] = await twoAdmins();
    await app.app.services.users.changeRole(a.id, 'user');
    // A's request passed authentication as an admin, then A stepped down (or was deleted) before it
    // ran: the roster check, not the caller's role, keeps B.
    await expect(app.app.services.users.setRoleAsAdmin({ id: a.id }, b.id, 'user')).rejects.toBeInstanceOf(
      NoAdminLeft,
    );
    await expect(app.app.services.users.setStatus({ id: a.id }, b.id, 'blocked')).rejects.toBeInstanceOf(
      NoAdminLeft,
    );
    expect(await activeAdmins()).toBe(1);
  });
});
