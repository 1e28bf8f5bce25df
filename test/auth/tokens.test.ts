import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessTokens, users } from '../../src/db/schema/index.js';
import { currentUser } from '../../src/plugins/app/auth.js';
import { signIn } from '../helpers.js';
import { createOtpApp, mobilePhone, type OtpTestApp, requestCode, verify } from './helpers.js';

let t: OtpTestApp;

beforeAll(async () => {
  t = await createOtpApp({
    beforeReady(app) {
      // Probes under the guarded prefixes: they answer with the signed-in user's id.
      app.get('/api/user/probe', async (request) => ({
        user: { id: currentUser(request).id },
        message: 'OK.',
        data: [],
        errors: [],
      }));
      app.get('/api/admin/probe', async (request) => ({
        user: { id: currentUser(request).id },
        message: 'OK.',
        data: [],
        errors: [],
      }));
    },
  });
});
afterAll(() => t.close());

const UNAUTHENTICATED = { user: null, message: 'Non authentifié.', data: [], errors: [] };

function probe(authorization?: string, area: 'user' | 'admin' = 'user') {
  return t.app.inject({
    method: 'GET',
    url: `/api/${area}/probe`,
    ...(authorization === undefined ? {} : { headers: { authorization } }),
  });
}

async function tokenThroughApi(): Promise<{ token: string; id: number }> {
  const phone = mobilePhone();
  const code = await requestCode(t, phone, { ip: `192.0.2.${Math.floor(Math.random() * 250) + 1}` });
  const body = (await verify(t, { phone, code })).json();
  return { token: body.data.token, id: body.user.id };
}

describe('bearer tokens', () => {
  it('a token from /api/otp/verify opens /api/user/*', async () => {
    const { token, id } = await tokenThroughApi();
    const response = await probe(`Bearer ${token}`);
    expect(response.statusCode).toBe(200);
    expect(response.json().user).toEqual({ id });
  });

  it('stores only the token hash', async () => {
    const { token, id } = await tokenThroughApi();
    const rows = await t.app.db.select().from(accessTokens).where(eq(accessTokens.userId, id));
    expect(rows).toHaveLength(1);
    expect(JSON.stringify(rows)).not.toContain(token);
  });

  it('slides: used every 5 minutes, it lives well past one window', async () => {
    const { headers } = await signIn(t);
    for (let minute = 0; minute < 60; minute += 5) {
      t.clock.advanceSeconds(300);
      expect((await probe(headers.authorization)).statusCode, `after ${minute + 5} min`).toBe(200);
    }
  });

  it('idle for the whole window (10 min): 401, and it stays dead', async () => {
    const { headers } = await signIn(t);
    t.clock.advanceSeconds(600);
    const response = await probe(headers.authorization);
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual(UNAUTHENTICATED);
    t.clock.advanceSeconds(1);
    expect((await probe(headers.authorization)).statusCode).toBe(401);
  });

  it('expires early by at most the touch interval (15 s), never late', async () => {
    const a = await signIn(t);
    t.clock.advanceSeconds(584);
    expect((await probe(a.headers.authorization)).statusCode).toBe(200);
    const b = await signIn(t);
    t.clock.advanceSeconds(585);
    expect((await probe(b.headers.authorization)).statusCode).toBe(401);
  });

  it('does not write last_used_at on every request', async () => {
    const { headers, id } = await signIn(t);
    const lastUsed = async () =>
      (await t.app.db.select().from(accessTokens).where(eq(accessTokens.userId, id)))[0]?.lastUsedAt;
    const issued = await lastUsed();
    t.clock.advanceSeconds(5);
    await probe(headers.authorization);
    await t.app.services.tokens.writeTouches();
    expect(await lastUsed()).toBe(issued);
    t.clock.advanceSeconds(10);
    await probe(headers.authorization);
    await t.app.services.tokens.writeTouches();
    expect(new Date(String(await lastUsed())).getTime()).toBe(t.clock.now().getTime());
  });

  describe('401 with the envelope', () => {
    it.each([
      ['missing', undefined],
      ['empty', ''],
      ['another scheme', 'Basic dXNlcjpwYXNz'],
      ['Bearer alone', 'Bearer'],
      ['too short', 'Bearer abc'],
      ['characters outside base64url', `Bearer ${'a'.repeat(40)}!`],
      ['unknown', `Bearer ${'A'.repeat(43)}`],
    ])('%s', async (_name, authorization) => {
      const response = await probe(authorization);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHENTICATED);
    });

    it('revoked (after logout)', async () => {
      const { headers } = await signIn(t);
      await t.app.inject({ method: 'POST', url: '/api/user/logout', headers });
      const response = await probe(headers.authorization);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHENTICATED);
    });

    it('a blocked account', async () => {
      const { headers, id } = await signIn(t);
      await t.app.db.update(users).set({ status: 'blocked' }).where(eq(users.id, id));
      expect((await probe(headers.authorization)).statusCode).toBe(401);
    });
  });

  describe('POST /api/user/logout', () => {
    it('200 with user {id} and data [], revokes only that token', async () => {
      const phone = mobilePhone();
      const first = await signIn(t, { phone });
      // A second code for the same phone once the resend cooldown is over.
      t.clock.advanceSeconds(t.config.otpResendCooldownSeconds);
      const second = await signIn(t, { phone });
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/logout',
        headers: first.headers,
      });
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: { id: first.id },
        message: 'Vous êtes déconnecté.',
        data: [],
        errors: [],
      });
      expect((await probe(first.headers.authorization)).statusCode).toBe(401);
      expect((await probe(second.headers.authorization)).statusCode).toBe(200);
    });

    it('401 without a token', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/api/user/logout' });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toEqual(UNAUTHENTICATED);
    });
  });

  describe('/api/admin/*', () => {
    it('401 without a token', async () => {
      expect((await probe(undefined, 'admin')).statusCode).toBe(401);
    });

    it('403 for a user', async () => {
      const { headers, id } = await signIn(t);
      const response = await probe(headers.authorization, 'admin');
      expect(response.statusCode).toBe(403);
      const { user, ...rest } = response.json();
      expect(rest).toEqual({ message: 'Accès réservé aux administrateurs.', data: [], errors: [] });
      // The caller is signed in: `user` may name them (DESIGN: at least {id}) or be null.
      expect([null, { id }]).toContainEqual(user);
    });

    it('200 for an admin', async () => {
      const admin = await signIn(t, { role: 'admin' });
      const response = await probe(admin.headers.authorization, 'admin');
      expect(response.statusCode).toBe(200);
      expect(response.json().user).toEqual({ id: admin.id });
    });

    it('a demotion applies to the tokens already issued', async () => {
      const admin = await signIn(t, { role: 'admin' });
      expect((await probe(admin.headers.authorization, 'admin')).statusCode).toBe(200);
      await t.app.db.update(users).set({ role: 'user' }).where(eq(users.id, admin.id));
      expect((await probe(admin.headers.authorization, 'admin')).statusCode).toBe(403);
    });
  });
});

describe('absolute lifetime (TOKEN_MAX_AGE_SECONDS)', () => {
  let short: OtpTestApp;
  beforeAll(async () => {
    short = await createOtpApp({
      config: { tokenMaxAgeSeconds: 3600 },
      beforeReady(app) {
        app.get('/api/user/probe', async (request) => ({
          user: { id: currentUser(request).id },
          message: 'OK.',
          data: [],
          errors: [],
        }));
      },
    });
  });
  afterAll(() => short.close());

  const use = (headers: { authorization: string }) =>
    short.app.inject({ method: 'GET', url: '/api/user/probe', headers });

  it('used every 5 minutes, a token is refused once its age reaches the limit, and purged', async () => {
    const { headers, id } = await signIn(short);
    for (let minute = 5; minute < 60; minute += 5) {
      short.clock.advanceSeconds(300);
      expect((await use(headers)).statusCode, `after ${minute} min`).toBe(200);
    }
    short.clock.advanceSeconds(299);
    expect((await use(headers)).statusCode).toBe(200);
    short.clock.advanceSeconds(1);
    const refused = await use(headers);
    expect(refused.statusCode).toBe(401);
    expect(refused.json()).toEqual(UNAUTHENTICATED);
    // Used 5 minutes ago, so not idle: only its age makes it dead, and the purge removes it.
    await short.app.runtime.housekeeping.runOnce();
    expect(await short.app.db.select().from(accessTokens).where(eq(accessTokens.userId, id))).toEqual([]);
  });

  it('the purge keeps a younger token', async () => {
    const { headers, id } = await signIn(short);
    for (let minute = 5; minute < 60; minute += 5) {
      short.clock.advanceSeconds(300);
      expect((await use(headers)).statusCode).toBe(200);
    }
    await short.app.runtime.housekeeping.runOnce();
    expect(await short.app.db.select().from(accessTokens).where(eq(accessTokens.userId, id))).toHaveLength(1);
  });

  it('defaults to 30 days', async () => {
    const long = await createOtpApp({
      config: { tokenIdleTtlSeconds: 30 * 24 * 3600 },
      beforeReady(app) {
        app.get('/api/user/probe', async () => ({ user: null, message: 'OK.', data: [], errors: [] }));
      },
    });
    try {
      expect(long.config.tokenMaxAgeSeconds).toBe(2_592_000);
      const { headers } = await signIn(long);
      const probeLong = () => long.app.inject({ method: 'GET', url: '/api/user/probe', headers });
      long.clock.advanceSeconds(15 * 24 * 3600);
      expect((await probeLong()).statusCode).toBe(200);
      long.clock.advanceSeconds(15 * 24 * 3600 - 1);
      expect((await probeLong()).statusCode).toBe(200);
      long.clock.advanceSeconds(1);
      expect((await probeLong()).statusCode).toBe(401);
    } finally {
      await long.close();
    }
  });
});
