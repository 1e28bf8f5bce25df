// The back office's pronostic types: the whole list (inactive ones too), edits (name, description,
// difficulty 1..5, activation) that the users' list and new pronostics follow at once, and creation
// only for a market the engine answers (`pronosticTypeSlugs`; else 422 on slug), one type per market
// (409). Each change and its audit row are one transaction.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, pronosticTypes } from '../../src/db/schema/index.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { createPronosticService } from '../../src/modules/pronostics/service.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { role: 'admin' });
  user = await signIn(t, { credits: 50 });
});
afterAll(() => t.close());

const patch = (id: number, payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({
    method: 'PATCH',
    url: `/api/admin/pronostic-types/${id}`,
    headers,
    payload: payload as object,
  });
const create = (payload: unknown, headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'POST', url: '/api/admin/pronostic-types', headers, payload: payload as object });
const listAll = (headers: Record<string, string> = admin.headers) =>
  t.app.inject({ method: 'GET', url: '/api/admin/pronostic-types', headers });
const userTypes = async () =>
  (await t.app.inject({ method: 'GET', url: '/api/user/pronostic/types', headers: user.headers })).json().data
    .types as { id: number; name: string; difficulty: number }[];

async function typeOf(slug: string) {
  const [row] = await t.app.db
    .select()
    .from(pronosticTypes)
    .where(eq(pronosticTypes.slug, slug as never));
  return row!;
}

describe('the guard', () => {
  it('answers 401 without a token and 403 with a user token, never data', async () => {
    const btts = await typeOf('btts');
    const calls = [
      (h: Record<string, string>) => listAll(h),
      (h: Record<string, string>) => patch(btts.id, { name: 'Piraté' }, h),
      (h: Record<string, string>) =>
        create({ slug: 'btts', name: 'Piraté', description: 'Piraté', difficulty: 1 }, h),
    ];
    for (const call of calls) {
      expect((await call({})).statusCode).toBe(401);
      const refused = await call(user.headers);
      expect(refused.statusCode).toBe(403);
      expect(refused.json().data).toEqual([]);
    }
    expect((await typeOf('btts')).name).toBe(btts.name);
  });
});

describe('GET /api/admin/pronostic-types', () => {
  it('lists every type, inactive ones included', async () => {
    const exact = await typeOf('exact-score');
    await t.app.db.update(pronosticTypes).set({ active: false }).where(eq(pronosticTypes.id, exact.id));
    const types = (await listAll()).json().data.types;
    expect(types.map((type: { slug: string }) => type.slug).sort()).toEqual([...pronosticTypeSlugs].sort());
    expect(types.find((type: { id: number }) => type.id === exact.id)).toMatchObject({
      active: false,
      created_at: expect.any(String),
    });
    expect((await userTypes()).map((type) => type.id)).not.toContain(exact.id);
    await t.app.db.update(pronosticTypes).set({ active: true }).where(eq(pronosticTypes.id, exact.id));
  });
});

describe('PATCH /api/admin/pronostic-types/:id', () => {
  it('edits a type; the users’ list and the next pronostic’s cost follow; audited with before/after', async () => {
    const type = await typeOf('over-under-2-5');
    const response = await patch(type.id, {
      name: '  Plus ou moins de 2,5 buts ',
      description: 'Trois buts ou plus, ou deux au plus.',
      difficulty: 4,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.type).toMatchObject({
      id: type.id,
      name: 'Plus ou moins de 2,5 buts',
      difficulty: 4,
      active: true,
    });
    expect((await userTypes()).find((listed) => listed.id === type.id)).toMatchObject({
      name: 'Plus ou moins de 2,5 buts',
      difficulty: 4,
    });
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: type.id, teams_details: { home: 'Astres', away: 'Fovu' } },
    });
    expect(created.json().data.pronostic.credits_cost).toBe(4);
    const audit = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'pronostic_type.update'));
    expect(audit.filter((row) => row.targetId === String(type.id))[0]?.details).toEqual({
      before: { name: type.name, description: type.description, difficulty: type.difficulty },
      after: {
        name: 'Plus ou moins de 2,5 buts',
        description: 'Trois buts ou plus, ou deux au plus.',
        difficulty: 4,
      },
    });
  });

  it('deactivates and reactivates: an inactive type leaves the users’ list and takes no pronostic', async () => {
    const type = await typeOf('double-chance');
    expect((await patch(type.id, { is_active: false })).json().data.type.active).toBe(false);
    expect((await userTypes()).map((listed) => listed.id)).not.toContain(type.id);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers: user.headers,
      payload: { type_id: type.id, teams_details: { home: 'Astres', away: 'Fovu' } },
    });
    expect(refused.statusCode).toBe(422);
    expect((await patch(type.id, { is_active: true })).json().data.type.active).toBe(true);
    expect((await userTypes()).map((listed) => listed.id)).toContain(type.id);
  });

  it('a change to the same values writes no audit row', async () => {
    const type = await typeOf('1x2');
    const before = (await t.app.db.select().from(auditLog)).length;
    const response = await patch(type.id, { difficulty: type.difficulty, is_active: type.active });
    expect(response.statusCode).toBe(200);
    expect((await t.app.db.select().from(auditLog)).length).toBe(before);
  });

  it('answers 404 for an unknown type and 422 naming the field for a bad body', async () => {
    expect((await patch(999_999, { name: 'Personne' })).statusCode).toBe(404);
    const type = await typeOf('1x2');
    for (const [payload, field] of [
      [{}, 'body'],
      [{ difficulty: 0 }, 'difficulty'],
      [{ difficulty: 6 }, 'difficulty'],
      [{ difficulty: 2.5 }, 'difficulty'],
      [{ name: 'x' }, 'name'],
      [{ name: '     ' }, 'name'],
      [{ description: 'ab' }, 'description'],
      [{ is_active: 'yes' }, 'is_active'],
      // The slug is not editable: dropped, which leaves nothing to change.
      [{ slug: 'btts' }, 'body'],
    ] as const) {
      const response = await patch(type.id, payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toContain(field);
    }
  });

  it('rolls the edit back with its audit row', async () => {
    const type = await typeOf('btts');
    const failing = createPronosticService({
      db: t.app.db,
      clock: t.clock,
      modelName: 'test',
      wakeups: { send() {} },
      ledger: t.app.services.ledger,
      accounts: t.app.services.users,
      audit: {
        record: async () => {
          throw new Error('audit failed');
        },
      },
    });
    await expect(failing.updateType(admin, type.id, { name: 'Jamais écrit' })).rejects.toThrow(
      'audit failed',
    );
    expect((await typeOf('btts')).name).toBe(type.name);
  });
});

describe('POST /api/admin/pronostic-types', () => {
  it('refuses a market the engine does not answer (422 on slug) and a market that has a type (409)', async () => {
    const unknown = await create({
      slug: 'corners',
      name: 'Corners',
      description: 'Nombre de corners',
      difficulty: 2,
    });
    expect(unknown.statusCode).toBe(422);
    expect(Object.keys(unknown.json().errors)).toEqual(['slug']);
    const taken = await create({
      slug: 'btts',
      name: 'Encore',
      description: 'Les deux marquent',
      difficulty: 2,
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().data).toEqual([]);
  });

  it('creates a type for a market without one, audited, listed to users when active', async () => {
    const removed = await typeOf('full-analysis');
    // A market with no type (its row removed here; pronostics reference none of this file's).
    await t.app.db.delete(pronosticTypes).where(eq(pronosticTypes.id, removed.id));
    const response = await create({
      slug: 'full-analysis',
      name: 'Analyse intégrale',
      description: 'Tous les marchés du match.',
      difficulty: 5,
    });
    expect(response.statusCode).toBe(201);
    const created = response.json().data.type;
    expect(created).toMatchObject({
      slug: 'full-analysis',
      name: 'Analyse intégrale',
      difficulty: 5,
      active: true,
    });
    expect((await userTypes()).map((listed) => listed.id)).toContain(created.id);
    const audit = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'pronostic_type.create'));
    expect(audit.map((row) => row.targetId)).toContain(String(created.id));
  });

  it('answers 422 naming the field for a bad body', async () => {
    for (const [payload, field] of [
      [{ name: 'Sans slug', description: 'Description', difficulty: 1 }, 'slug'],
      [{ slug: 'btts', description: 'Description', difficulty: 1 }, 'name'],
      [{ slug: 'btts', name: 'Nom', difficulty: 1 }, 'description'],
      [{ slug: 'btts', name: 'Nom', description: 'Description' }, 'difficulty'],
      [{ slug: 'btts', name: 'Nom', description: 'Description', difficulty: 9 }, 'difficulty'],
    ] as const) {
      const response = await create(payload);
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toContain(field);
    }
  });
});

describe('both languages (issue 50)', () => {
  const englishTypes = async () =>
    (
      await t.app.inject({
        method: 'GET',
        url: '/api/user/pronostic/types',
        headers: { ...user.headers, 'accept-language': 'en' },
      })
    ).json().data.types as { id: number; name: string; description: string }[];

  it('lists the English beside the French; an edit of the English reaches English readers only', async () => {
    const type = await typeOf('exact-score');
    const listed = (await listAll()).json().data.types.find((one: { id: number }) => one.id === type.id);
    expect(listed).toMatchObject({
      name: type.name,
      description: type.description,
      name_en: 'Exact score',
      description_en: 'The likeliest scores of the match.',
    });
    const response = await patch(type.id, {
      name_en: ' Correct score ',
      description_en: 'The likeliest scores.',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json().data.type).toMatchObject({
      name: type.name,
      name_en: 'Correct score',
      description_en: 'The likeliest scores.',
    });
    expect((await englishTypes()).find((one) => one.id === type.id)).toMatchObject({
      name: 'Correct score',
      description: 'The likeliest scores.',
    });
    expect((await userTypes()).find((one) => one.id === type.id)?.name).toBe(type.name);
    const audit = await t.app.db.select().from(auditLog).where(eq(auditLog.action, 'pronostic_type.update'));
    expect(audit.filter((row) => row.targetId === String(type.id)).at(-1)?.details).toEqual({
      before: { nameEn: 'Exact score', descriptionEn: 'The likeliest scores of the match.' },
      after: { nameEn: 'Correct score', descriptionEn: 'The likeliest scores.' },
    });
    for (const [payload, field] of [
      [{ name_en: 'x' }, 'name_en'],
      [{ name_en: '    ' }, 'name_en'],
      [{ description_en: 'ab' }, 'description_en'],
      [{ name_en: 'y'.repeat(61) }, 'name_en'],
    ] as const) {
      const refused = await patch(type.id, payload);
      expect(refused.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(refused.json().errors), JSON.stringify(payload)).toContain(field);
    }
  });

  it('a type created without English shows its French to English readers; created with it, its English', async () => {
    const removed = await typeOf('double-chance');
    await t.app.db.delete(pronosticTypes).where(eq(pronosticTypes.id, removed.id));
    const bare = await create({
      slug: 'double-chance',
      name: 'Deux issues',
      description: 'Deux issues sur trois.',
      difficulty: 1,
    });
    expect(bare.statusCode).toBe(201);
    expect(bare.json().data.type).toMatchObject({ name_en: null, description_en: null });
    expect((await englishTypes()).find((one) => one.id === bare.json().data.type.id)).toMatchObject({
      name: 'Deux issues',
      description: 'Deux issues sur trois.',
    });
    await t.app.db.delete(pronosticTypes).where(eq(pronosticTypes.slug, 'double-chance'));
    const full = await create({
      slug: 'double-chance',
      name: 'Deux issues',
      description: 'Deux issues sur trois.',
      name_en: 'Two outcomes',
      description_en: 'Two outcomes out of three.',
      difficulty: 1,
    });
    expect(full.statusCode).toBe(201);
    expect((await englishTypes()).find((one) => one.id === full.json().data.type.id)).toMatchObject({
      name: 'Two outcomes',
      description: 'Two outcomes out of three.',
    });
  });
});
