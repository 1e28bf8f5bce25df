// The credit packs through HTTP: the user's list (active ones by price), the back office's list,
// creation, edit and (de)activation, each with its audit row in the same transaction, and the admin
// guard on every admin route.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, packs } from '../../src/db/schema/index.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { role: 'admin' });
  user = await signIn(t);
});
afterAll(() => t.close());

let nameCounter = 0;
/** A pack name no other test uses. */
function uniqueName(prefix = 'Pack'): string {
  nameCounter += 1;
  return `${prefix} ${nameCounter}`;
}

async function createPack(body: Record<string, unknown>) {
  return t.app.inject({ method: 'POST', url: '/api/admin/packs', headers: admin.headers, payload: body });
}

async function newPack(values: { credits?: number; price?: number } = {}) {
  const response = await createPack({
    name: uniqueName(),
    credits: values.credits ?? 10,
    price: values.price ?? 900,
  });
  expect(response.statusCode).toBe(201);
  return response.json().data.pack as {
    id: number;
    name: string;
    credits: number;
    price: number;
    active: boolean;
  };
}

async function userPacks(): Promise<{ id: number; name: string; price: number }[]> {
  const response = await t.app.inject({
    method: 'GET',
    url: '/api/user/wallet/packs',
    headers: user.headers,
  });
  expect(response.statusCode).toBe(200);
  return response.json().data.packs;
}

async function auditOf(packId: number) {
  return t.app.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.targetId, String(packId)))
    .orderBy(auditLog.id);
}

describe('GET /api/user/wallet/packs', () => {
  it('lists the five seeded packs, cheapest first, in the envelope', async () => {
    // A database of its own: other tests here add and deactivate packs.
    const fresh = await createTestApp();
    try {
      const someone = await signIn(fresh);
      const response = await fresh.app.inject({
        method: 'GET',
        url: '/api/user/wallet/packs',
        headers: someone.headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: { id: someone.id },
        message: 'Packs de crédits disponibles.',
        data: {
          packs: [
            { id: 1, name: 'Découverte', credits: 5, price: 500, currency: 'XAF' },
            { id: 2, name: 'Standard', credits: 12, price: 1000, currency: 'XAF' },
            { id: 3, name: 'Premium', credits: 35, price: 2500, currency: 'XAF' },
            { id: 4, name: 'VIP', credits: 80, price: 5000, currency: 'XAF' },
            { id: 5, name: 'Champion', credits: 175, price: 10000, currency: 'XAF' },
          ],
        },
        errors: [],
      });
    } finally {
      await fresh.close();
    }
  });

  it('orders by price, not by creation, and hides inactive packs from users', async () => {
    const cheap = await newPack({ price: 700 });
    const hidden = await newPack({ price: 800 });
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/packs/${hidden.id}/deactivate`,
      headers: admin.headers,
    });

    const listed = await userPacks();
    const prices = listed.map((pack) => pack.price);
    expect(prices).toEqual([...prices].sort((a, b) => a - b));
    const ids = listed.map((pack) => pack.id);
    // 700 XAF sits between the seeded 500 and 1000, though created last.
    expect(ids.indexOf(cheap.id)).toBe(ids.indexOf(1) + 1);
    expect(ids).not.toContain(hidden.id);
    expect(await t.app.services.packs.findActive(hidden.id)).toBeUndefined();
    expect(await t.app.services.packs.findActive(cheap.id)).toEqual({
      id: cheap.id,
      name: cheap.name,
      credits: 10,
      price: 700,
      currency: 'XAF',
    });
    expect(await t.app.services.packs.findActive(999_999)).toBeUndefined();
  });

  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/wallet/packs' });
    expect(response.statusCode).toBe(401);
    expect(response.json().data).toEqual([]);
  });
});

describe('the admin pack routes', () => {
  it('creates a pack on sale at once, with its audit row', async () => {
    const name = uniqueName('Mega');
    const response = await createPack({ name: `  ${name}  `, credits: '40', price: 3000 });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.user).toEqual({ id: admin.id });
    expect(body.message).toBe('Pack créé.');
    expect(body.data.pack).toMatchObject({ name, credits: 40, price: 3000, currency: 'XAF', active: true });
    expect(body.data.pack.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);

    const rows = await auditOf(body.data.pack.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      adminId: admin.id,
      action: 'pack.create',
      targetType: 'pack',
      details: { name, credits: 40, price: 3000 },
    });
    expect((await userPacks()).map((pack) => pack.id)).toContain(body.data.pack.id);
  });

  it('answers 422 naming each bad field, and creates nothing', async () => {
    const before = await t.app.db.select().from(packs);
    const auditBefore = await t.app.db.select().from(auditLog);
    const cases: [Record<string, unknown>, string[]][] = [
      [{}, ['credits', 'name', 'price']],
      [{ name: 'X', credits: 0, price: 10_000_001 }, ['credits', 'name', 'price']],
      [{ name: 'x'.repeat(61), credits: 100_001, price: 0 }, ['credits', 'name', 'price']],
      [{ name: 'Pack', credits: 1.5, price: '12.5' }, ['credits', 'price']],
      [{ name: '    ', credits: 5, price: 500 }, ['name']],
    ];
    for (const [payload, fields] of cases) {
      const response = await createPack(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors).sort(), JSON.stringify(payload)).toEqual(fields);
    }
    expect(await t.app.db.select().from(packs)).toHaveLength(before.length);
    expect(await t.app.db.select().from(auditLog)).toHaveLength(auditBefore.length);
  });

  it('edits with PATCH: only the fields sent, the changes in the audit row', async () => {
    const pack = await newPack({ credits: 10, price: 900 });
    const response = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/packs/${pack.id}`,
      headers: admin.headers,
      payload: { price: 950, credits: 10 },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe('Pack modifié.');
    expect(response.json().data.pack).toMatchObject({
      id: pack.id,
      name: pack.name,
      credits: 10,
      price: 950,
    });

    const rows = await auditOf(pack.id);
    expect(rows.map((row) => row.action)).toEqual(['pack.create', 'pack.update']);
    // Credits were sent unchanged: only the price is a change.
    expect(rows[1]!.details).toEqual({ before: { price: 900 }, after: { price: 950 } });

    const same = await t.app.inject({
      method: 'PATCH',
      url: `/api/admin/packs/${pack.id}`,
      headers: admin.headers,
      payload: { price: 950 },
    });
    expect(same.statusCode).toBe(200);
    expect(await auditOf(pack.id)).toHaveLength(2);
  });

  it('refuses an empty or invalid edit with a 422, an unknown pack with a 404, and audits neither', async () => {
    const pack = await newPack();
    for (const [payload, field] of [
      [{}, 'body'],
      [{ name: 'A' }, 'name'],
      [{ price: -1 }, 'price'],
      // (De)activation has its own routes: `active` is not a field of the edit.
      [{ active: false }, 'body'],
    ] as const) {
      const response = await t.app.inject({
        method: 'PATCH',
        url: `/api/admin/packs/${pack.id}`,
        headers: admin.headers,
        payload,
      });
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual([field]);
    }
    for (const [method, url] of [
      ['PATCH', '/api/admin/packs/999999'],
      ['POST', '/api/admin/packs/999999/activate'],
      ['POST', '/api/admin/packs/999999/deactivate'],
      ['PATCH', '/api/admin/packs/abc'],
    ] as const) {
      const response = await t.app.inject({ method, url, headers: admin.headers, payload: { price: 5 } });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
    expect(await auditOf(999_999)).toHaveLength(0);
    expect((await auditOf(pack.id)).map((row) => row.action)).toEqual(['pack.create']);
  });

  it('deactivates and activates, auditing each change once', async () => {
    const pack = await newPack();
    const deactivate = () =>
      t.app.inject({ method: 'POST', url: `/api/admin/packs/${pack.id}/deactivate`, headers: admin.headers });
    const off = await deactivate();
    expect(off.statusCode).toBe(200);
    expect(off.json().message).toBe('Pack désactivé.');
    expect(off.json().data.pack.active).toBe(false);
    // Already off: the same answer, nothing to audit.
    expect((await deactivate()).json().data.pack.active).toBe(false);
    expect((await userPacks()).map((p) => p.id)).not.toContain(pack.id);

    const on = await t.app.inject({
      method: 'POST',
      url: `/api/admin/packs/${pack.id}/activate`,
      headers: admin.headers,
    });
    expect(on.statusCode).toBe(200);
    expect(on.json().data.pack.active).toBe(true);
    expect((await userPacks()).map((p) => p.id)).toContain(pack.id);

    const rows = await auditOf(pack.id);
    expect(rows.map((row) => [row.action, row.details])).toEqual([
      ['pack.create', expect.anything()],
      ['pack.deactivate', { before: { active: true }, after: { active: false } }],
      ['pack.activate', { before: { active: false }, after: { active: true } }],
    ]);
  });

  it('lists every pack, inactive ones too, newest first and paginated', async () => {
    const older = await newPack();
    const newer = await newPack();
    await t.app.inject({
      method: 'POST',
      url: `/api/admin/packs/${older.id}/deactivate`,
      headers: admin.headers,
    });
    const total = (await t.app.db.select().from(packs)).length;

    const first = await t.app.inject({
      method: 'GET',
      url: '/api/admin/packs?per_page=2',
      headers: admin.headers,
    });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.data.meta).toEqual({
      current_page: 1,
      last_page: Math.ceil(total / 2),
      per_page: 2,
      total,
      has_more: total > 2,
    });
    const all = await t.app.inject({
      method: 'GET',
      url: '/api/admin/packs?per_page=50',
      headers: admin.headers,
    });
    const ids = all.json().data.packs.map((pack: { id: number }) => pack.id);
    expect(ids).toHaveLength(total);
    expect(ids.indexOf(newer.id)).toBeLessThan(ids.indexOf(older.id));
    expect(all.json().data.packs.find((pack: { id: number }) => pack.id === older.id).active).toBe(false);

    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/admin/packs?per_page=51',
      headers: admin.headers,
    });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['per_page']);
  });

  it('rolls the change back when its audit row cannot be written', async () => {
    const before = await t.app.db.select().from(packs);
    // No such admin: the audit row's foreign key fails inside the transaction.
    await expect(
      t.app.services.packs.create({ id: 999_999 }, { name: uniqueName(), credits: 3, price: 300 }),
    ).rejects.toThrow();
    expect(await t.app.db.select().from(packs)).toHaveLength(before.length);

    const pack = await newPack({ price: 1200 });
    await expect(t.app.services.packs.update({ id: 999_999 }, pack.id, { price: 1300 })).rejects.toThrow();
    await expect(t.app.services.packs.setActive({ id: 999_999 }, pack.id, false)).rejects.toThrow();
    const [row] = await t.app.db.select().from(packs).where(eq(packs.id, pack.id));
    expect(row).toMatchObject({ price: 1200, active: true });
  });
});

describe('the admin pack routes refused to a non-admin', () => {
  const routes = [
    ['GET', '/api/admin/packs'],
    ['POST', '/api/admin/packs'],
    ['PATCH', '/api/admin/packs/1'],
    ['POST', '/api/admin/packs/1/activate'],
    ['POST', '/api/admin/packs/1/deactivate'],
  ] as const;
  const payload = { name: 'Intrus', credits: 1, price: 1 };

  it.each(routes)('%s %s: 401 without a token, never data', async (method, url) => {
    const response = await t.app.inject({ method, url, payload });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  });

  it.each(routes)('%s %s: 403 with a user token, never data, nothing changed', async (method, url) => {
    const before = await t.app.db.select().from(packs).orderBy(packs.id);
    const response = await t.app.inject({ method, url, headers: user.headers, payload });
    expect(response.statusCode).toBe(403);
    expect(response.json().data).toEqual([]);
    expect(response.json().message).toBe('Accès réservé aux administrateurs.');
    expect(await t.app.db.select().from(packs).orderBy(packs.id)).toEqual(before);
  });
});
