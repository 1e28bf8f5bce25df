// Applying a referral code: once, not one's own, no cycles of any length (also when two applies
// race), a blocked or unknown godfather refused; then the overview and the godchildren list.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { maskPhone } from '../../src/lib/phone.js';
import { createTestApp, expectLedgerConsistent, signIn, type TestApp } from '../helpers.js';
import { applyCode, codeOf, giveMoney, refer, setStatus } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

async function godfatherOf(userId: number): Promise<number | null> {
  const [row] = await t.app.db.select({ id: users.godfatherId }).from(users).where(eq(users.id, userId));
  return row!.id;
}

describe('POST /api/user/profile/apply-affiliation', () => {
  it('links the godfather and answers 200 with his public name; the code is case-insensitive', async () => {
    const godfather = await signIn(t);
    const godchild = await signIn(t);
    await t.app.db.update(users).set({ name: 'Awa Mballa' }).where(eq(users.id, godfather.id));
    const code = await codeOf(t, godfather.id);
    const response = await applyCode(t, godchild, ` ${code.toLowerCase()} `);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: godchild.id },
      message: 'Code de parrainage appliqué.',
      data: { godfather: { name: 'Awa Mballa' } },
      errors: [],
    });
    expect(await godfatherOf(godchild.id)).toBe(godfather.id);
  });

  it('names a godfather without a name by his username, else by his masked phone', async () => {
    const named = await signIn(t);
    await t.app.db.update(users).set({ username: 'le_parrain' }).where(eq(users.id, named.id));
    const first = await signIn(t);
    expect((await applyCode(t, first, await codeOf(t, named.id))).json().data.godfather.name).toBe(
      'le_parrain',
    );
    const anonymous = await signIn(t);
    const second = await signIn(t);
    const name = (await applyCode(t, second, await codeOf(t, anonymous.id))).json().data.godfather.name;
    expect(name).toBe(`${anonymous.phone.slice(0, 4)}******${anonymous.phone.slice(-2)}`);
    expect(maskPhone('+237670000012')).toBe('+237******12');
  });

  it('refuses a second code with 422 on affiliation_code, and keeps the first godfather', async () => {
    const first = await signIn(t);
    const second = await signIn(t);
    const godchild = await signIn(t);
    await refer(t, godchild, first);
    const response = await applyCode(t, godchild, await codeOf(t, second.id));
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({
      user: null,
      data: [],
      errors: { affiliation_code: [expect.any(String)] },
    });
    expect(await godfatherOf(godchild.id)).toBe(first.id);
  });

  it('refuses one’s own code', async () => {
    const user = await signIn(t);
    const response = await applyCode(t, user, await codeOf(t, user.id));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.affiliation_code[0]).toMatch(/propre code/);
    expect(await godfatherOf(user.id)).toBeNull();
  });

  it('refuses an unknown code and a malformed one', async () => {
    const user = await signIn(t);
    const unknown = await applyCode(t, user, 'ZZZZZZZ9');
    expect(unknown.statusCode).toBe(422);
    expect(unknown.json().errors.affiliation_code[0]).toMatch(/n’existe pas/);
    for (const code of ['ABC', 'ABCDEFGH1', 'ABCD-EFG', '']) {
      const response = await applyCode(t, user, code);
      expect(response.statusCode, code).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['affiliation_code']);
    }
    const missing = await t.app.inject({
      method: 'POST',
      url: '/api/user/profile/apply-affiliation',
      headers: user.headers,
      payload: {},
    });
    expect(missing.statusCode).toBe(422);
    expect(missing.json().errors).toHaveProperty('affiliation_code');
    expect(await godfatherOf(user.id)).toBeNull();
  });

  it('refuses a blocked godfather', async () => {
    const godfather = await signIn(t);
    const user = await signIn(t);
    await setStatus(t, godfather.id, 'blocked');
    const response = await applyCode(t, user, await codeOf(t, godfather.id));
    expect(response.statusCode).toBe(422);
    expect(await godfatherOf(user.id)).toBeNull();
  });

  it('refuses A→B→A', async () => {
    const a = await signIn(t);
    const b = await signIn(t);
    await refer(t, b, a);
    const response = await applyCode(t, a, await codeOf(t, b.id));
    expect(response.statusCode).toBe(422);
    expect(response.json().errors.affiliation_code[0]).toMatch(/boucler/);
    expect(await godfatherOf(a.id)).toBeNull();
  });

  it('refuses A→B→C→A and longer chains', async () => {
    const chain = [];
    for (let i = 0; i < 6; i++) chain.push(await signIn(t));
    // chain[i+1] is the godchild of chain[i].
    for (let i = 0; i + 1 < chain.length; i++) await refer(t, chain[i + 1]!, chain[i]!);
    const c = chain[2]!;
    expect((await applyCode(t, chain[0]!, await codeOf(t, c.id))).statusCode).toBe(422);
    expect((await applyCode(t, chain[0]!, await codeOf(t, chain[5]!.id))).statusCode).toBe(422);
    expect(await godfatherOf(chain[0]!.id)).toBeNull();
    // Outside the chain is fine.
    const outsider = await signIn(t);
    await refer(t, chain[0]!, outsider);
  });

  it('two applies that would close a cycle together cannot both pass', async () => {
    for (let round = 0; round < 3; round++) {
      const a = await signIn(t);
      const b = await signIn(t);
      const [first, second] = await Promise.all([
        applyCode(t, a, await codeOf(t, b.id)),
        applyCode(t, b, await codeOf(t, a.id)),
      ]);
      expect([first.statusCode, second.statusCode].sort()).toEqual([200, 422]);
      const links = [await godfatherOf(a.id), await godfatherOf(b.id)];
      expect(links.filter((link) => link !== null)).toHaveLength(1);
    }
  });

  it('needs a token', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/profile/apply-affiliation',
      payload: { affiliation_code: 'ABCDEFGH' },
    });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/user/affiliation/overview and /godchildren', () => {
  it('answers the balance, total earned, active godchildren and the minimum', async () => {
    const godfather = await signIn(t);
    const active = await signIn(t);
    const blocked = await signIn(t);
    await refer(t, active, godfather);
    await refer(t, blocked, godfather);
    await setStatus(t, blocked.id, 'blocked');
    await giveMoney(t, godfather.id, 7000);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/overview',
      headers: godfather.headers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      user: { id: godfather.id },
      message: expect.any(String),
      data: { wallet: { balance: 7000, total_earned: 7000 }, godchildren_count: 1, withdraw_min: 5000 },
      errors: [],
    });
  });

  it('lists the active godchildren with name fallbacks, phone, avatar and created_at', async () => {
    const godfather = await signIn(t);
    const named = await signIn(t);
    const plain = await signIn(t);
    const blocked = await signIn(t);
    await t.app.db
      .update(users)
      .set({ name: 'Jean', avatarPath: '/avatars/u/jean.webp' })
      .where(eq(users.id, named.id));
    await refer(t, named, godfather);
    await refer(t, plain, godfather);
    await refer(t, blocked, godfather);
    await setStatus(t, blocked.id, 'blocked');
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/godchildren',
      headers: godfather.headers,
    });
    expect(response.statusCode).toBe(200);
    const { godchildren } = response.json().data;
    expect(godchildren).toHaveLength(2);
    const byId = new Map(godchildren.map((g: { id: number }) => [g.id, g]));
    expect(byId.get(named.id)).toEqual({
      id: named.id,
      name: 'Jean',
      phone: named.phone,
      avatar: '/avatars/u/jean.webp',
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });
    expect(byId.get(plain.id)).toMatchObject({
      name: maskPhone(plain.phone),
      phone: plain.phone,
      avatar: '/avatars/default.png',
    });
    // Another user sees none of them.
    const stranger = await signIn(t);
    const theirs = await t.app.inject({
      method: 'GET',
      url: '/api/user/affiliation/godchildren',
      headers: stranger.headers,
    });
    expect(theirs.json().data.godchildren).toEqual([]);
  });

  it('needs a token', async () => {
    for (const url of ['/api/user/affiliation/overview', '/api/user/affiliation/godchildren']) {
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
});
