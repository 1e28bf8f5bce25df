import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { accessTokens, idempotencyKeys, otpCodes, users } from '../../src/db/schema/index.js';
import { DEFAULT_HOUSEKEEPING_INTERVAL_MS } from '../../src/runtime/housekeeping-loop.js';
import { signIn } from '../helpers.js';
import { codeRows, createOtpApp, mobilePhone, type OtpTestApp, requestCode, verify } from './helpers.js';

let t: OtpTestApp;

beforeAll(async () => {
  t = await createOtpApp({
    beforeReady(app) {
      app.get('/api/admin/probe', async () => ({ user: null, message: 'OK.', data: [], errors: [] }));
    },
  });
});
afterAll(() => t.close());
afterEach(() => vi.restoreAllMocks());

/** Runs one CLI command on the test database and clock; returns its exit code and output. */
async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
  // Commander writes its own usage errors to stderr.
  vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => {
    errors.push(String(chunk));
    return true;
  });
  const code = await runCli(
    argv,
    createCliContext(t.config, { database: t.database, clock: t.clock, out: (line) => out.push(line) }),
  );
  vi.restoreAllMocks();
  return { code, out, err: errors.join('\n') };
}

describe('npm run cli -- user:role <phone> admin|user', () => {
  it('promotes, and the admin area opens to the tokens already issued; then demotes', async () => {
    const user = await signIn(t, { phone: mobilePhone() });
    const admin = () => t.app.inject({ method: 'GET', url: '/api/admin/probe', headers: user.headers });
    expect((await admin()).statusCode).toBe(403);

    const promoted = await cli('user:role', user.phone, 'admin');
    expect(promoted).toMatchObject({ code: 0, out: [`User ${user.id} (${user.phone}) is now admin.`] });
    expect((await admin()).statusCode).toBe(200);

    expect((await cli('user:role', user.phone, 'user')).code).toBe(0);
    expect((await admin()).statusCode).toBe(403);
  });

  it('normalizes the phone it is given', async () => {
    const user = await signIn(t, { phone: '+237699554433' });
    expect((await cli('user:role', '+237 699 55 44 33', 'admin')).code).toBe(0);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.role).toBe('admin');
  });

  it('fails clearly for an unknown phone', async () => {
    const result = await cli('user:role', '+237699000999', 'admin');
    expect(result.code).toBe(1);
    expect(result.err).toContain('no account has the phone +237699000999');
  });

  it('fails clearly for a phone that is not one', async () => {
    const result = await cli('user:role', '699000999', 'admin');
    expect(result.code).toBe(1);
    expect(result.err).toContain('not a valid international phone number');
  });

  it('refuses a role other than admin or user', async () => {
    const user = await signIn(t, { phone: mobilePhone() });
    const result = await cli('user:role', user.phone, 'root');
    expect(result.code).not.toBe(0);
    expect(result.err).toMatch(/Allowed choices are user, admin/);
    const [row] = await t.app.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.role).toBe('user');
  });
});

describe('purge', () => {
  it('deletes codes past 24 h and dead tokens, keeps the rest (CLI and the app timer alike)', async () => {
    // Old: a code and a used token, 25 h ago.
    const oldPhone = mobilePhone();
    await requestCode(t, oldPhone);
    const old = await signIn(t);
    t.clock.advanceSeconds(25 * 3600);
    // Recent: a code 2 h old (still counted by nobody, but kept) and a live token.
    const recentPhone = mobilePhone();
    await requestCode(t, recentPhone);
    t.clock.advanceSeconds(2 * 3600);
    const live = await signIn(t);
    const phones = async () =>
      (await t.app.db.select({ phone: otpCodes.phone }).from(otpCodes)).map((r) => r.phone);
    const tokenUsers = async () =>
      (await t.app.db.select({ userId: accessTokens.userId }).from(accessTokens)).map((r) => r.userId);

    const result = await cli('purge');
    expect(result.code).toBe(0);
    expect(result.out[0]).toMatch(
      /^Purged [1-9]\d* code\(s\), [1-9]\d* token\(s\) and 0 idempotency key\(s\)\.$/,
    );
    expect(await phones()).not.toContain(oldPhone);
    expect(await phones()).toContain(recentPhone);
    expect(await tokenUsers()).not.toContain(old.id);
    expect(await tokenUsers()).toContain(live.id);
    expect((await cli('purge')).out).toEqual(['Purged 0 code(s), 0 token(s) and 0 idempotency key(s).']);
  });

  it('deletes idempotent answers past their 24 hours, and only those', async () => {
    const user = await signIn(t);
    const begin = (key: string) =>
      t.app.services.idempotency.begin({ userId: user.id, scope: 'test', key, body: { n: 1 } });
    const old = await begin('old');
    if (!('claim' in old)) throw new Error('expected a new key');
    await old.claim.record(t.app.db, { statusCode: 201, body: { ok: true } });
    t.clock.advanceSeconds(24 * 3600 + 1);
    const fresh = await begin('fresh');
    if (!('claim' in fresh)) throw new Error('expected a new key');
    await fresh.claim.record(t.app.db, { statusCode: 201, body: { ok: true } });

    const purged = await t.app.runtime.housekeeping.runOnce();
    expect(purged.idempotencyKeys).toBe(1);
    const keys = await t.app.db.select({ key: idempotencyKeys.key }).from(idempotencyKeys);
    expect(keys.map((row) => row.key)).toEqual(['fresh']);
  });

  it('a revoked token is gone once its window has passed', async () => {
    const user = await signIn(t);
    await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    t.clock.advanceSeconds(601);
    await t.app.runtime.housekeeping.runOnce();
    const rows = await t.app.db.select().from(accessTokens).where(eq(accessTokens.userId, user.id));
    expect(rows).toEqual([]);
  });

  it('a purge keeps the last hour of codes, so the hourly limits still count them', async () => {
    const phone = mobilePhone();
    for (let i = 0; i < 5; i++) {
      await requestCode(t, phone);
      t.clock.advanceSeconds(61);
    }
    await t.app.runtime.housekeeping.runOnce();
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/otp/generate',
      payload: { phone, country: 'CM', method: 'sms' },
    });
    expect(again.statusCode).toBe(429);
    // And a code in use survives it.
    t.clock.advanceSeconds(3600);
    const code = await requestCode(t, phone);
    await t.app.runtime.housekeeping.runOnce();
    expect((await verify(t, { phone, code })).statusCode).toBe(200);
  });

  it('runs on the runtime timer (15 min by default) with the background loops, and stops with the app', async () => {
    // Only the interval timers are fake: the database and the HTTP layer keep their real timers.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const timed = await createOtpApp({ runLoops: true });
      const phone = mobilePhone();
      await requestCode(timed, phone);
      timed.clock.advanceSeconds(25 * 3600);
      // The other loops' intervals (analysis poll, payment tick, settlement, sandbox webhooks) run too.
      expect(vi.getTimerCount()).toBeGreaterThan(1);
      vi.advanceTimersByTime(DEFAULT_HOUSEKEEPING_INTERVAL_MS);
      // The run is a few queries under way; yield until they are done.
      for (let i = 0; i < 100 && (await codeRows(timed, phone)).length > 0; i++) {
        await new Promise((resolve) => setImmediate(resolve));
      }
      expect(await codeRows(timed, phone)).toEqual([]);
      await timed.close();
      expect(vi.getTimerCount()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
    // Builds an app with every background loop (the analyst's fit thread included) and closes it.
  }, 30_000);
});
