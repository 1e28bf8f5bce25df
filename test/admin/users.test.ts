// The back office's users: list and search, detail, ledger and pronostics of one user, credit
// adjustments (an `admin_adjustment` row with the reason, never below zero), block / unblock (the
// blocked user's token fails on its next request) and role changes (never one's own). Every route:
// 401 without a token, 403 with a user's (never data), 404 for an unknown id, 422 naming the field.
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { auditLog, users, walletOperations } from '../../src/db/schema/index.js';
import {
  createTestApp,
  createTestDatabase,
  expectLedgerConsistent,
  nextPhone,
  type SignedIn,
  signIn,
  type TestApp,
} from '../helpers.js';

let t: TestApp;
let admin: SignedIn;
let user: SignedIn;

beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { role: 'admin' });
  user = await signIn(t);
});
afterAll(() => t.close());
afterEach(() => expectLedgerConsistent(t));

const UNKNOWN = 999_999;

async function call(
  method: 'GET' | 'POST',
  url: string,
  options: { headers?: Record<string, string>; payload?: unknown } = {},
) {
  return t.app.inject({
    method,
    url,
    headers: options.headers ?? admin.headers,
    ...(options.payload !== undefined ? { payload: options.payload as object } : {}),
  });
}

async function auditRowsFor(action: string, targetId: number) {
  const rows = await t.app.db.select().from(auditLog).where(eq(auditLog.action, action));
  return rows.filter((row) => row.targetId === String(targetId));
}

describe('the guard', () => {
  const routes: ['GET' | 'POST', string, unknown?][] = [
    ['GET', '/api/admin/users'],
    ['GET', '/api/admin/users/1'],
    ['GET', '/api/admin/users/1/operations'],
    ['GET', '/api/admin/users/1/pronostics'],
    ['POST', '/api/admin/users/1/credits', { amount: 5, reason: 'Geste commercial' }],
    ['POST', '/api/admin/users/1/block'],
    ['POST', '/api/admin/users/1/unblock'],
    ['POST', '/api/admin/users/1/role', { role: 'admin' }],
  ];

  it('answers 401 without a token and 403 with a user token, never data', async () => {
    for (const [method, url, payload] of routes) {
      const anonymous = await call(method, url, { headers: {}, payload });
      expect(anonymous.statusCode, `${method} ${url}`).toBe(401);
      const refused = await call(method, url, { headers: user.headers, payload });
      expect(refused.statusCode, `${method} ${url}`).toBe(403);
      expect(refused.json().data).toEqual([]);
    }
    // Nothing happened to the account.
    const [row] = await t.app.db.select().from(users).where(eq(users.id, 1));
    expect(row?.status).toBe('active');
  });

  it('answers 404 for an unknown user on every per-user route', async () => {
    for (const [method, url, payload] of routes.slice(1)) {
      const response = await call(method, url.replace('/1', `/${UNKNOWN}`), { payload });
      expect(response.statusCode, `${method} ${url}`).toBe(404);
    }
  });
});

describe('GET /api/admin/users', () => {
  it('lists accounts newest first with the back office’s fields, paginated', async () => {
    const response = await call('GET', '/api/admin/users?per_page=2');
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: admin.id });
    expect(body.data.meta).toMatchObject({ current_page: 1, per_page: 2 });
    expect(body.data.meta.total).toBeGreaterThanOrEqual(2);
    const [first] = body.data.users;
    expect(Object.keys(first).sort()).toEqual(
      [
        'id',
        'phone',
        'country',
        'name',
        'username',
        'role',
        'status',
        'credits_balance',
        'money_balance',
        'created_at',
      ].sort(),
    );
    const ids = body.data.users.map((u: { id: number }) => u.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
  });

  it('searches phone digits (partial, with or without +), username and name, case-insensitively', async () => {
    const phone = nextPhone();
    const found = await signIn(t, { phone });
    await t.app.inject({
      method: 'POST',
      url: '/api/user/profile/update',
      headers: found.headers,
      payload: { name: 'Aïcha Mbarga', username: 'aicha.zeta' },
    });
    const ids = async (search: string) =>
      (await call('GET', `/api/admin/users?search=${encodeURIComponent(search)}`))
        .json()
        .data.users.map((u: { id: number }) => u.id);
    expect(await ids(phone)).toEqual([found.id]);
    expect(await ids(phone.slice(1))).toEqual([found.id]);
    expect(await ids(phone.slice(-7))).toEqual([found.id]);
    expect(await ids('ICHA.ZE')).toEqual([found.id]);
    expect(await ids('mbarga')).toEqual([found.id]);
    expect(await ids('nobody-has-this')).toEqual([]);
  });

  it('filters by role and status', async () => {
    const admins = (await call('GET', '/api/admin/users?role=admin&per_page=50')).json().data.users;
    expect(admins.map((u: { id: number }) => u.id)).toContain(admin.id);
    expect(admins.every((u: { role: string }) => u.role === 'admin')).toBe(true);
    const blocked = (await call('GET', '/api/admin/users?status=blocked')).json().data.users;
    expect(blocked.every((u: { status: string }) => u.status === 'blocked')).toBe(true);
  });

  it('answers 422 naming the field for a bad query', async () => {
    for (const [query, field] of [
      ['role=king', 'role'],
      ['status=gone', 'status'],
      ['per_page=500', 'per_page'],
      [`search=${'x'.repeat(101)}`, 'search'],
    ]) {
      const response = await call('GET', `/api/admin/users?${query}`);
      expect(response.statusCode, query).toBe(422);
      expect(Object.keys(response.json().errors), query).toContain(field);
    }
  });
});

describe('GET /api/admin/users/:id and its lists', () => {
  it('shows the account with its counts, its operations and its pronostics (deleted ones flagged)', async () => {
    const owner = await signIn(t, { credits: 20 });
    const types = (
      await t.app.inject({ method: 'GET', url: '/api/user/pronostic/types', headers: owner.headers })
    ).json().data.types;
    const created: number[] = [];
    for (const home of ['Canon', 'Coton']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/pronostic/create',
        headers: owner.headers,
        payload: { type_id: types[0].id, teams_details: { home, away: 'Union' } },
      });
      expect(response.statusCode).toBe(201);
      created.push(response.json().data.pronostic.id);
    }
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${created[0]}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode).toBe(200);

    const detail = await call('GET', `/api/admin/users/${owner.id}`);
    expect(detail.statusCode).toBe(200);
    const data = detail.json().data;
    expect(data.user).toMatchObject({ id: owner.id, phone: owner.phone, role: 'user', status: 'active' });
    expect(data.user.godfather_id).toBeNull();
    expect(data.pronostics).toEqual({ total: 1, processing: 1, success: 0, cancelled: 0 });
    expect(data.payments).toEqual({ success_count: 0, success_amount: 0 });
    expect(data.withdrawals).toEqual({ pending_count: 0, pending_amount: 0 });
    expect(data.godchildren_count).toBe(0);

    const operations = (await call('GET', `/api/admin/users/${owner.id}/operations`)).json().data;
    const own = (
      await t.app.inject({ method: 'GET', url: '/api/user/wallet/operations', headers: owner.headers })
    ).json().data;
    expect(operations).toEqual(own);
    const filtered = (
      await call('GET', `/api/admin/users/${owner.id}/operations?type=pronostic_debit&per_page=1`)
    ).json().data;
    expect(filtered.meta).toMatchObject({ total: 2, per_page: 1 });
    expect(filtered.operations[0]).toMatchObject({ type: 'pronostic_debit' });

    const listed = (await call('GET', `/api/admin/users/${owner.id}/pronostics`)).json().data;
    expect(listed.meta.total).toBe(2);
    expect(listed.pronostics.map((p: { id: number }) => p.id)).toEqual([created[1], created[0]]);
    expect(listed.pronostics[0]).toMatchObject({
      deleted: false,
      deleted_at: null,
      ai_model: expect.any(String),
    });
    expect(listed.pronostics[1]).toMatchObject({ deleted: true, deleted_at: expect.any(String) });
  });

  it('answers 422 naming the field for a bad query on the per-user lists', async () => {
    for (const [path, query, field] of [
      ['operations', 'type=gift', 'type'],
      ['operations', 'from=2026-02-30', 'from'],
      ['operations', 'per_page=51', 'per_page'],
      ['pronostics', 'page=0', 'page'],
      ['pronostics', 'per_page=51', 'per_page'],
    ]) {
      const response = await call('GET', `/api/admin/users/${user.id}/${path}?${query}`);
      expect(response.statusCode, `${path}?${query}`).toBe(422);
      expect(Object.keys(response.json().errors), `${path}?${query}`).toContain(field);
    }
  });
});

describe('POST /api/admin/users/:id/credits', () => {
  it('posts an admin_adjustment row with the reason, answers the new balance, and audits it', async () => {
    const target = await signIn(t);
    const before = (await t.app.services.users.findById(target.id))!.creditsBalance;
    const response = await call('POST', `/api/admin/users/${target.id}/credits`, {
      payload: { amount: 25, reason: '  Geste commercial  ' },
    });
    expect(response.statusCode).toBe(200);
    const data = response.json().data;
    expect(data.credits_balance).toBe(before + 25);
    expect(data.user).toMatchObject({ id: target.id, credits_balance: before + 25 });
    expect(data.operation).toMatchObject({
      type: 'admin_adjustment',
      currency: 'credits',
      amount: 25,
      balance_after: before + 25,
      description: 'Geste commercial',
    });
    const [row] = await t.app.db
      .select()
      .from(walletOperations)
      .where(eq(walletOperations.id, data.operation.id));
    expect(row).toMatchObject({ userId: target.id, type: 'admin_adjustment', amount: 25 });
    const audit = await auditRowsFor('user.credits', target.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]?.details).toMatchObject({
      amount: 25,
      reason: 'Geste commercial',
      operation_id: row?.id,
    });

    // The user sees the row in their own history.
    const own = (
      await t.app.inject({ method: 'GET', url: '/api/user/wallet/operations', headers: target.headers })
    ).json().data.operations;
    expect(own[0]).toEqual(data.operation);

    const debit = await call('POST', `/api/admin/users/${target.id}/credits`, {
      payload: { amount: -(before + 25), reason: 'Correction' },
    });
    expect(debit.statusCode).toBe(200);
    expect(debit.json().data.credits_balance).toBe(0);
  });

  it('refuses a debit below zero with a 422 on amount, changing nothing', async () => {
    const target = await signIn(t);
    const balance = (await t.app.services.users.findById(target.id))!.creditsBalance;
    const response = await call('POST', `/api/admin/users/${target.id}/credits`, {
      payload: { amount: -(balance + 1), reason: 'Trop retirer' },
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['amount']);
    expect((await t.app.services.users.findById(target.id))!.creditsBalance).toBe(balance);
    expect(await auditRowsFor('user.credits', target.id)).toEqual([]);
  });

  it('refuses an admin’s own account with a 403, in both directions, changing nothing', async () => {
    const before = (await t.app.services.users.findById(admin.id))!.creditsBalance;
    for (const amount of [50, -1]) {
      const response = await call('POST', `/api/admin/users/${admin.id}/credits`, {
        payload: { amount, reason: 'Pour moi-même' },
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().message).toBe(
        'Vous ne pouvez pas ajuster votre propre solde de crédits : un autre administrateur doit le faire.',
      );
    }
    expect((await t.app.services.users.findById(admin.id))!.creditsBalance).toBe(before);
    expect(await auditRowsFor('user.credits', admin.id)).toEqual([]);
    // Another admin may; the CLI's credits:grant (an operator at the machine) is not this route.
    const other = await signIn(t, { role: 'admin' });
    const granted = await call('POST', `/api/admin/users/${admin.id}/credits`, {
      headers: other.headers,
      payload: { amount: 50, reason: 'Geste commercial' },
    });
    expect(granted.statusCode).toBe(200);
    expect((await t.app.services.users.findById(admin.id))!.creditsBalance).toBe(before + 50);
  });

  it('answers 422 naming the field for a bad body', async () => {
    for (const [payload, field] of [
      [{ amount: 0, reason: 'Rien du tout' }, 'amount'],
      [{ amount: 100_001, reason: 'Beaucoup trop' }, 'amount'],
      [{ amount: 1.5, reason: 'Une fraction' }, 'amount'],
      [{ reason: 'Sans montant' }, 'amount'],
      [{ amount: 5, reason: 'ab' }, 'reason'],
      [{ amount: 5, reason: '      ' }, 'reason'],
      [{ amount: 5, reason: 'x'.repeat(201) }, 'reason'],
    ] as const) {
      const response = await call('POST', `/api/admin/users/${user.id}/credits`, { payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(422);
      expect(Object.keys(response.json().errors), JSON.stringify(payload)).toContain(field);
    }
  });

  it('applies an Idempotency-Key once and replays its answer', async () => {
    const target = await signIn(t);
    const headers = { ...admin.headers, 'idempotency-key': `adjust-${target.id}` };
    const payload = { amount: 7, reason: 'Une seule fois' };
    const first = await call('POST', `/api/admin/users/${target.id}/credits`, { headers, payload });
    const second = await call('POST', `/api/admin/users/${target.id}/credits`, { headers, payload });
    expect(first.statusCode).toBe(200);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const rows = await t.app.db.select().from(walletOperations).where(eq(walletOperations.userId, target.id));
    expect(rows.filter((row) => row.type === 'admin_adjustment')).toHaveLength(1);
  });

  it('refuses the same Idempotency-Key for another user (422 on the key), adjusting no one', async () => {
    const [first, other] = [await signIn(t), await signIn(t)];
    const headers = { ...admin.headers, 'idempotency-key': `adjust-two-${first.id}` };
    const payload = { amount: 4, reason: 'Même clé, autre compte' };
    expect(
      (await call('POST', `/api/admin/users/${first.id}/credits`, { headers, payload })).statusCode,
    ).toBe(200);
    const again = await call('POST', `/api/admin/users/${other.id}/credits`, { headers, payload });
    expect(again.statusCode).toBe(422);
    expect(Object.keys(again.json().errors)).toEqual(['Idempotency-Key']);
    const rows = await t.app.db.select().from(walletOperations).where(eq(walletOperations.userId, other.id));
    expect(rows.filter((row) => row.type === 'admin_adjustment')).toEqual([]);
  });

  it('writes neither the row nor the audit when the transaction rolls back', async () => {
    const target = await signIn(t);
    const balance = (await t.app.services.users.findById(target.id))!.creditsBalance;
    const failing = {
      ...t.app.services.admin,
      record: async () => {
        throw new Error('audit failed');
      },
    };
    // The same service, its audit recorder failing after the ledger row was written.
    const { createUserService } = await import('../../src/modules/users/service.js');
    const service = createUserService({
      db: t.app.db,
      clock: t.clock,
      config: t.config,
      audit: failing,
      ledger: t.app.services.ledger,
      events: t.app.services.events,
      approvals: t.app.services.approvals,
    });
    await expect(service.adjustCredits(admin, target.id, { amount: 9, reason: 'Annulé' })).rejects.toThrow(
      'audit failed',
    );
    expect((await t.app.services.users.findById(target.id))!.creditsBalance).toBe(balance);
    const rows = await t.app.db.select().from(walletOperations).where(eq(walletOperations.userId, target.id));
    expect(rows.filter((row) => row.type === 'admin_adjustment')).toEqual([]);
  });
});

describe('block, unblock and role', () => {
  it('blocks an account: its token gets 401 on the next request; unblocking lets it sign in again', async () => {
    const target = await signIn(t);
    const before = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: target.headers });
    expect(before.statusCode).toBe(200);

    const blocked = await call('POST', `/api/admin/users/${target.id}/block`);
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().data.user).toMatchObject({ id: target.id, status: 'blocked' });
    const after = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: target.headers });
    expect(after.statusCode).toBe(401);
    expect(await auditRowsFor('user.block', target.id)).toHaveLength(1);

    // Blocking again changes nothing and writes no second audit row.
    expect((await call('POST', `/api/admin/users/${target.id}/block`)).statusCode).toBe(200);
    expect(await auditRowsFor('user.block', target.id)).toHaveLength(1);

    const unblocked = await call('POST', `/api/admin/users/${target.id}/unblock`);
    expect(unblocked.json().data.user.status).toBe('active');
    expect(await auditRowsFor('user.unblock', target.id)).toHaveLength(1);
    t.clock.advance(61_000); // past the resend cooldown of the first sign-in's code
    const again = await signIn(t, { phone: target.phone });
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: again.headers })).statusCode,
    ).toBe(200);
  });

  it('refuses to block oneself (422 on id)', async () => {
    const response = await call('POST', `/api/admin/users/${admin.id}/block`);
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['id']);
    expect((await t.app.services.users.findById(admin.id))!.status).toBe('active');
  });

  it('changes a role (the new admin reaches /api/admin at once) but never one’s own', async () => {
    const target = await signIn(t);
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: target.headers })).statusCode,
    ).toBe(403);
    // Four eyes: the promotion waits for a second admin, who confirms it.
    const asked = await call('POST', `/api/admin/users/${target.id}/role`, { payload: { role: 'admin' } });
    expect(asked.statusCode).toBe(202);
    const second = await signIn(t, { role: 'admin' });
    const promoted = await t.app.inject({
      method: 'POST',
      url: `/api/admin/approvals/${asked.json().data.approval.id}/confirm`,
      headers: second.headers,
    });
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json().data.user.role).toBe('admin');
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/users', headers: target.headers })).statusCode,
    ).toBe(200);
    expect(await auditRowsFor('user.role', target.id)).toHaveLength(1);

    const self = await call('POST', `/api/admin/users/${admin.id}/role`, { payload: { role: 'user' } });
    expect(self.statusCode).toBe(422);
    expect(Object.keys(self.json().errors)).toEqual(['role']);
    expect((await t.app.services.users.findById(admin.id))!.role).toBe('admin');

    const bad = await call('POST', `/api/admin/users/${target.id}/role`, { payload: { role: 'owner' } });
    expect(bad.statusCode).toBe(422);
    expect(Object.keys(bad.json().errors)).toEqual(['role']);
  });
});

describe('block with the token cache on (TOKEN_CACHE_SECONDS), two apps on one database', () => {
  it('the blocking app refuses the cached token at once, the other one as soon as the announcement arrives', async () => {
    const database = await createTestDatabase();
    const first = await createTestApp({ database, config: { tokenCacheSeconds: 10 } });
    const second = await createTestApp({ database, config: { tokenCacheSeconds: 10 } });
    try {
      const boss = await signIn(first, { role: 'admin' });
      const target = await signIn(first);
      const profile = (app: TestApp) =>
        app.app.inject({ method: 'GET', url: '/api/user/profile', headers: target.headers });
      // Both apps now hold the token in memory.
      expect((await profile(first)).statusCode).toBe(200);
      expect((await profile(second)).statusCode).toBe(200);
      expect(first.app.services.tokens.cache.size).toBeGreaterThan(0);

      const blocked = await first.app.inject({
        method: 'POST',
        url: `/api/admin/users/${target.id}/block`,
        headers: boss.headers,
      });
      expect(blocked.statusCode).toBe(200);
      expect((await profile(first)).statusCode).toBe(401);
      // The other process hears `auth_changed` (NOTIFY on PostgreSQL, at commit on PGlite).
      await vi.waitFor(async () => expect((await profile(second)).statusCode).toBe(401), {
        timeout: 3000,
        interval: 20,
      });
    } finally {
      await second.close();
      await first.close();
      await database.drop();
    }
  });
});
