// Account deletion's edges (issue 42), on both databases: welcome credits once per phone (a keyed
// hash on the tombstone, never the phone).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { keyedHash } from '../../src/lib/crypto.js';
import { createTestApp, expectLedgerConsistent, nextPhone, signIn, type TestApp } from '../helpers.js';
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
    expect(tombstone!.welcomedPhoneHash).toBe(keyedHash(t.config.appSecret, 'welcomed_phone', phone));
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
