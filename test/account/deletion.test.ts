// Account deletion (issue 30) through HTTP, on both databases: the whole deletion (personal rows
// gone or cut down, files gone from storage, the ledger intact and verified, the phone free for a
// new account, tokens dead in another app on the same database), and every refusal.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  accessTokens,
  accountFileDeletions,
  auditLog,
  idempotencyKeys,
  otpCodes,
  pronosticCounters,
  pronostics,
  pushDevices,
  supportTickets,
  userEvents,
  users,
  walletOperations,
  withdrawals,
} from '../../src/db/schema/index.js';
import { createLocalStorage } from '../../src/providers/storage/local.js';
import type { StorageDriver } from '../../src/providers/storage/types.js';
import { withdraw, withdrawn } from '../affiliation/helpers.js';
import { createTestApp, expectLedgerConsistent, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { checkout } from '../payments/helpers.js';
import { filesUnder, temporaryDataDir } from '../profile/forms.js';
import {
  askCode,
  deleteAccount,
  deletionCode,
  giveMoney,
  nextAddress,
  secondApp,
  seededUser,
} from './helpers.js';

let t: TestApp;
let other: TestApp;
let dataDir: string;
const CACHE = { tokenCacheSeconds: 10 };

async function soon(check: () => Promise<void>, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  for (;;) {
    try {
      return await check();
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
}

const profileOf = (app: TestApp, user: SignedIn) =>
  app.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });

beforeAll(async () => {
  dataDir = temporaryDataDir();
  t = await createTestApp({ config: { dataDir, ...CACHE } });
  other = await secondApp(t, { config: { dataDir, ...CACHE } });
});
afterAll(async () => {
  await other?.close();
  await t?.close();
});
afterEach(() => expectLedgerConsistent(t));

describe('deleting one’s account', () => {
  it('erases the person, keeps the financial records on a tombstone, and frees the phone', async () => {
    const { user, godchild } = await seededUser(t);
    await giveMoney(t, user.id, 2500);
    const before = await t.app.db.select().from(walletOperations).where(eq(walletOperations.userId, user.id));
    // The other process has the token cached.
    expect((await profileOf(other, user)).statusCode).toBe(200);
    expect(await filesUnder(join(dataDir, 'files'))).toHaveLength(2);
    const device = await t.app.inject({
      method: 'POST',
      url: '/api/user/devices',
      headers: user.headers,
      payload: { token: `fcm-token-of-${user.id}-to-forget`, platform: 'ios' },
    });
    expect(device.statusCode, device.body).toBe(201);

    const code = await deletionCode(t, user);
    // A balance is stated, and refused without forfeit_balance (the code is not used up by it).
    const refused = await deleteAccount(t, user, { code });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('2 500 XAF');
    expect(refused.json().data).toEqual({ reason: 'balance', money_balance: 2500 });

    const deleted = await deleteAccount(t, user, { code, forfeit_balance: true });
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(deleted.json()).toMatchObject({ user: { id: user.id }, data: [] });
    expect(deleted.json().message).toMatch(/supprimé/);

    // Tokens: dead here at once, and in the other process on its next requests.
    expect((await profileOf(t, user)).statusCode).toBe(401);
    await soon(async () => expect((await profileOf(other, user)).statusCode).toBe(401));
    const tokens = await t.app.db.select().from(accessTokens).where(eq(accessTokens.userId, user.id));
    expect(tokens.every((row) => row.revokedAt !== null)).toBe(true);

    // The user row is a tombstone.
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({
      phone: null,
      name: null,
      username: null,
      avatarPath: null,
      status: 'deleted',
      moneyBalance: 0,
      godfatherId: null,
    });
    // Personal rows gone.
    expect(await t.app.db.select().from(otpCodes).where(eq(otpCodes.userId, user.id))).toEqual([]);
    expect(await t.app.db.select().from(supportTickets).where(eq(supportTickets.userId, user.id))).toEqual(
      [],
    );
    expect(await t.app.db.select().from(userEvents).where(eq(userEvents.userId, user.id))).toEqual([]);
    expect(await t.app.db.select().from(pushDevices).where(eq(pushDevices.userId, user.id))).toEqual([]);
    expect(await t.app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.userId, user.id))).toEqual(
      [],
    );
    // Files gone from storage, none left to retry.
    expect(await filesUnder(join(dataDir, 'files'))).toEqual([]);
    expect(await t.app.db.select().from(accountFileDeletions)).toEqual([]);
    // Pronostics soft-deleted, cut to what the track record reads.
    const kept = await t.app.db.select().from(pronostics).where(eq(pronostics.userId, user.id));
    expect(kept).toHaveLength(1);
    expect(kept[0]!.deletedAt).not.toBeNull();
    expect(kept[0]!.teamsDetails).toEqual({ home: 'Arsenal', away: 'Chelsea', date: '2026-03-01' });
    expect(kept[0]!.searchText).toBe('');
    const [counter] = await t.app.db
      .select()
      .from(pronosticCounters)
      .where(eq(pronosticCounters.userId, user.id));
    expect(counter?.live ?? 0).toBe(0);
    // The godchild keeps their account, without a godfather.
    const [child] = await t.app.db.select().from(users).where(eq(users.id, godchild.id));
    expect(child).toMatchObject({ status: 'active', godfatherId: null });

    // The ledger: history untouched, one forfeit row, and verified clean.
    const after = await t.app.db.select().from(walletOperations).where(eq(walletOperations.userId, user.id));
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toMatchObject([
      { type: 'balance_forfeit', currency: 'XAF', amount: -2500, balanceAfter: 0 },
    ]);
    const report = await t.app.services.wallet.verifyLedger();
    expect(report.mismatches).toEqual([]);
    expect(report.duplicateReferences).toEqual([]);

    // The audit row: who, when, what was kept.
    const [audit] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'user.delete'), eq(auditLog.targetId, String(user.id))));
    expect(audit).toMatchObject({ adminId: user.id, targetType: 'user' });
    expect(audit!.details).toMatchObject({
      by: 'owner',
      kept: { money_forfeited: 2500, pronostics_anonymised: 1 },
      removed: { tickets: 1, files: 2 },
    });

    // The phone is free: a new sign-in creates a new, empty account; the tombstone is never found by it.
    const again = await signIn(t, { phone: user.phone });
    expect(again.id).not.toBe(user.id);
    expect((await t.app.services.users.findByPhone(user.phone))?.id).toBe(again.id);
    const fresh = await profileOf(t, again);
    expect(fresh.json().user).toMatchObject({ name: null, username: null, money_balance: 0 });
  });

  it('shows deleted accounts in the back office, and refuses to change them', async () => {
    const admin = await signIn(t, { role: 'admin' });
    const user = await signIn(t);
    const deleted = await deleteAccount(t, user, { code: await deletionCode(t, user) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/users?status=deleted&per_page=50',
      headers: admin.headers,
    });
    expect(listed.statusCode, listed.body).toBe(200);
    const found = listed.json().data.users.find((u: { id: number }) => u.id === user.id);
    expect(found).toMatchObject({ status: 'deleted', phone: null, name: null });
    for (const verb of ['unblock', 'block']) {
      const answer = await t.app.inject({
        method: 'POST',
        url: `/api/admin/users/${user.id}/${verb}`,
        headers: admin.headers,
      });
      expect(answer.statusCode, answer.body).toBe(409);
    }
    const [row] = await t.app.db.select({ status: users.status }).from(users).where(eq(users.id, user.id));
    expect(row!.status).toBe('deleted');
  });
});

describe('open event streams', () => {
  it('end when their account is deleted', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    const user = await signIn(t);
    let text = '';
    const ended = new Promise<void>((resolve, reject) => {
      http
        .get(`${base}/api/user/events`, { headers: user.headers }, (response) => {
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => {
            text += chunk;
          });
          response.on('close', resolve);
        })
        .on('error', reject);
    });
    await soon(async () => expect(text).toContain(': connected'));
    const deleted = await deleteAccount(t, user, { code: await deletionCode(t, user) });
    expect(deleted.statusCode, deleted.body).toBe(200);
    await ended;
  });
});

describe('refusals', () => {
  it('400 on a wrong code, and the code dies after the attempt limit like a sign-in code', async () => {
    const user = await signIn(t);
    const code = await deletionCode(t, user);
    const wrong = code === '000000' ? '111111' : '000000';
    const network = nextAddress();
    for (let i = 0; i < t.config.otpMaxAttempts; i++) {
      const answer = await deleteAccount(t, user, { code: wrong }, network);
      expect(answer.statusCode).toBe(400);
    }
    expect((await deleteAccount(t, user, { code }, network)).statusCode).toBe(400);
    // A sign-in code is no deletion code.
    expect((await deleteAccount(t, user, { code: 'abc' })).statusCode).toBe(422);
    const [row] = await t.app.db.select({ status: users.status }).from(users).where(eq(users.id, user.id));
    expect(row!.status).toBe('active');
    expect((await profileOf(t, user)).statusCode).toBe(200);
  });

  it('409 while a payment is pending', async () => {
    const user = await signIn(t);
    const started = await checkout(t, user);
    expect(started.statusCode, started.body).toBe(201);
    const answer = await deleteAccount(t, user, { code: await deletionCode(t, user) });
    expect(answer.statusCode).toBe(409);
    expect(answer.json()).toMatchObject({ data: { reason: 'pending_payment' } });
    expect(answer.json().message).toMatch(/paiement est en cours/);
  });

  it('409 while a withdrawal is pending, and while its payout is escalated', async () => {
    const user = await signIn(t);
    await giveMoney(t, user.id, 6000);
    const id = await withdrawn(t, user, { amount: 5000 });
    const code = await deletionCode(t, user);
    const pending = await deleteAccount(t, user, { code, forfeit_balance: true });
    expect(pending.statusCode).toBe(409);
    expect(pending.json()).toMatchObject({ data: { reason: 'pending_withdrawal' } });
    await t.app.db
      .update(withdrawals)
      .set({ escalatedAt: new Date().toISOString(), escalationReason: 'test' })
      .where(eq(withdrawals.id, id));
    const escalated = await deleteAccount(t, user, { code, forfeit_balance: true });
    expect(escalated.statusCode).toBe(409);
    expect(escalated.json()).toMatchObject({ data: { reason: 'escalated_payout' } });
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row).toMatchObject({ status: 'active', moneyBalance: 1000 });
  });

  it('403 for the last admin; allowed once another admin exists', async () => {
    // The only admin left active: every other admin of this file is demoted first.
    await t.app.db.update(users).set({ role: 'user' }).where(eq(users.role, 'admin'));
    const admin = await signIn(t, { role: 'admin' });
    const code = await deletionCode(t, admin);
    const refused = await deleteAccount(t, admin, { code });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/dernier administrateur/);
    await signIn(t, { role: 'admin' });
    const deleted = await deleteAccount(t, admin, { code });
    expect(deleted.statusCode, deleted.body).toBe(200);
  });

  it('sends deletion codes with the sign-in code’s cooldown (per purpose) and needs a token', async () => {
    const user = await signIn(t);
    expect((await askCode(t, user)).statusCode).toBe(200);
    const again = await askCode(t, user);
    expect(again.statusCode).toBe(429);
    expect(Number(again.headers['retry-after'])).toBeGreaterThan(0);
    const anonymous = await t.app.inject({
      method: 'POST',
      url: '/api/user/account/delete/code',
      payload: {},
    });
    expect(anonymous.statusCode).toBe(401);
  });
});

describe('a withdrawal racing the deletion', () => {
  it('never leaves a deleted account with a withdrawal, nor money taken twice', async () => {
    for (let round = 0; round < 3; round++) {
      const user = await signIn(t);
      await giveMoney(t, user.id, 5000);
      const code = await deletionCode(t, user);
      const [asked, deleted] = await Promise.all([
        withdraw(t, user, { amount: 5000 }),
        deleteAccount(t, user, { code, forfeit_balance: true }),
      ]);
      const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
      const rows = await t.app.db.select().from(withdrawals).where(eq(withdrawals.userId, user.id));
      expect(row!.moneyBalance).toBe(0);
      if (deleted.statusCode === 200) {
        expect(row!.status).toBe('deleted');
        expect(rows).toEqual([]);
        expect(asked.statusCode).toBeGreaterThanOrEqual(400);
      } else {
        expect(deleted.statusCode, deleted.body).toBe(409);
        expect(asked.statusCode, asked.body).toBe(201);
        expect(rows).toHaveLength(1);
        expect(row!.status).toBe('active');
      }
    }
  });
});

describe('files the storage refuses to remove', () => {
  it('are recorded in the deletion and removed by the housekeeping later', async () => {
    const dir = temporaryDataDir();
    const local = createLocalStorage(join(dir, 'files'));
    let refuse = true;
    const flaky: StorageDriver = {
      name: 'local',
      put: (key, body, options) => local.put(key, body, options),
      get: (key) => local.get(key),
      async delete(key) {
        if (refuse) throw new Error('storage unavailable');
        await local.delete(key);
      },
    };
    const u = await createTestApp({ storage: flaky, database: { handle: t.database, drop: async () => {} } });
    try {
      const { user } = await seededUser(u);
      const deleted = await deleteAccount(u, user, { code: await deletionCode(u, user) });
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect(await filesUnder(join(dir, 'files'))).toHaveLength(2);
      const waiting = await u.app.db
        .select()
        .from(accountFileDeletions)
        .where(eq(accountFileDeletions.userId, user.id));
      expect(waiting).toHaveLength(2);
      expect(waiting.every((row) => row.attempts === 1 && row.lastError === 'storage unavailable')).toBe(
        true,
      );
      refuse = false;
      const purged = await u.app.services.housekeeping.purgeExpired();
      expect(purged.files).toBe(2);
      expect(await filesUnder(join(dir, 'files'))).toEqual([]);
      expect(await u.app.db.select().from(accountFileDeletions)).toEqual([]);
    } finally {
      await u.close();
    }
  });
});
