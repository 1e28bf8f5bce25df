// The admin audit log: `record` writes inside the caller's transaction (and goes when it rolls
// back), and GET /api/admin/audit lists the rows newest first, paginated and filtered, to admins only.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog } from '../../src/db/schema/index.js';
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

/** Writes `count` audit rows under an action no other test uses, one transaction each. */
async function recordMany(action: string, count: number, targetType = 'probe') {
  for (let i = 1; i <= count; i++) {
    await t.app.db.transaction((tx) =>
      t.app.services.admin.record(tx, {
        adminId: admin.id,
        action,
        targetType,
        targetId: i,
        details: { n: i },
      }),
    );
  }
}

async function listAudit(query: string, headers = admin.headers) {
  return t.app.inject({ method: 'GET', url: `/api/admin/audit?${query}`, headers });
}

describe('record', () => {
  it('writes nothing when the action’s transaction rolls back', async () => {
    const before = (await t.app.db.select().from(auditLog)).length;
    await expect(
      t.app.db.transaction(async (tx) => {
        await t.app.services.admin.record(tx, {
          adminId: admin.id,
          action: 'probe.rollback',
          targetType: 'probe',
          targetId: null,
          details: {},
        });
        throw new Error('the action failed after its audit row');
      }),
    ).rejects.toThrow('the action failed');
    expect(await t.app.db.select().from(auditLog)).toHaveLength(before);
  });
});

describe('GET /api/admin/audit', () => {
  it('lists rows newest first with the DESIGN fields, paginated', async () => {
    await recordMany('probe.page', 12);
    const first = await listAudit('action=probe.page&per_page=5');
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body.user).toEqual({ id: admin.id });
    expect(body.errors).toEqual([]);
    expect(body.data.meta).toEqual({ current_page: 1, last_page: 3, per_page: 5, total: 12, has_more: true });
    expect(body.data.entries.map((entry: { target_id: string }) => entry.target_id)).toEqual([
      '12',
      '11',
      '10',
      '9',
      '8',
    ]);
    expect(body.data.entries[0]).toEqual({
      id: expect.any(Number),
      admin_id: admin.id,
      action: 'probe.page',
      target_type: 'probe',
      target_id: '12',
      details: { n: 12 },
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/),
    });

    const last = (await listAudit('action=probe.page&per_page=5&page=3')).json();
    expect(last.data.entries.map((entry: { target_id: string }) => entry.target_id)).toEqual(['2', '1']);
    expect(last.data.meta.has_more).toBe(false);
    const past = (await listAudit('action=probe.page&per_page=5&page=4')).json();
    expect(past.data.entries).toEqual([]);
    expect(past.data.meta).toMatchObject({ total: 12, last_page: 3, has_more: false });
  });

  it('filters by action and by target_type', async () => {
    await recordMany('probe.filter', 2, 'probe-a');
    await recordMany('probe.filter', 3, 'probe-b');
    const both = (await listAudit('action=probe.filter')).json();
    expect(both.data.meta.total).toBe(5);
    const onlyB = (await listAudit('action=probe.filter&target_type=probe-b')).json();
    expect(onlyB.data.meta.total).toBe(3);
    expect(
      onlyB.data.entries.every((entry: { target_type: string }) => entry.target_type === 'probe-b'),
    ).toBe(true);
    const none = (await listAudit('action=no.such.action')).json();
    expect(none.data).toEqual({
      entries: [],
      meta: { current_page: 1, last_page: 1, per_page: 10, total: 0, has_more: false },
    });
  });

  it('shows the audit rows of admin actions made through the API', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/admin/packs',
      headers: admin.headers,
      payload: { name: 'Audité', credits: 7, price: 650 },
    });
    const packId = created.json().data.pack.id;
    const listed = (await listAudit('action=pack.create&target_type=pack')).json();
    expect(listed.data.entries[0]).toMatchObject({
      admin_id: admin.id,
      action: 'pack.create',
      target_type: 'pack',
      target_id: String(packId),
      details: { name: 'Audité', credits: 7, price: 650 },
    });
  });

  it('answers 422 naming a bad page, per_page or filter', async () => {
    for (const [query, field] of [
      ['page=0', 'page'],
      ['per_page=51', 'per_page'],
      ['per_page=x', 'per_page'],
      ['action=', 'action'],
      [`target_type=${'x'.repeat(101)}`, 'target_type'],
    ] as const) {
      const response = await listAudit(query);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json().errors), query).toEqual([field]);
    }
  });

  it('is refused without a token (401) and with a user token (403), never with data', async () => {
    await recordMany('probe.guard', 1);
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/audit' });
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
    const forbidden = await listAudit('', user.headers);
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().data).toEqual([]);
    expect(forbidden.body).not.toContain('probe.guard');
  });
});
