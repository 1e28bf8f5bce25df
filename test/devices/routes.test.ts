// Push devices through HTTP: registration (201, the token never echoed), the per-user cap (the 6th
// forgets the least recently registered), a token moving between users without a duplicate, only
// the owner's devices (404 for another's), bad input as 422 naming the field, 401, and logout
// forgetting every device of the user.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushDevices } from '../../src/db/schema/index.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let tokenCounter = 0;
/** A token shaped like FCM's (about 160 characters of [A-Za-z0-9_:-]). */
function fcmToken(): string {
  tokenCounter += 1;
  return `d${tokenCounter}Xk9:APA91bH${'a1B2c3_D4-'.repeat(14)}${String(tokenCounter).padStart(6, '0')}`;
}

async function register(user: SignedIn, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/devices',
    headers: user.headers,
    payload: payload as object,
  });
}

async function list(user: SignedIn) {
  const response = await t.app.inject({ method: 'GET', url: '/api/user/devices', headers: user.headers });
  expect(response.statusCode, response.body).toBe(200);
  return response.json().data.devices as { id: number; platform: string; token_ending: string }[];
}

async function tokensInTable(): Promise<string[]> {
  return (await t.app.db.select({ token: pushDevices.token }).from(pushDevices)).map((row) => row.token);
}

describe('POST /api/user/devices', () => {
  it('registers a device: 201 data.device {id, platform, created_at}, never the token', async () => {
    const user = await signIn(t);
    const token = fcmToken();
    const response = await register(user, { token, platform: 'android' });
    expect(response.statusCode, response.body).toBe(201);
    const body = response.json();
    expect(body.user).toEqual({ id: user.id });
    expect(body.message).toBe('Appareil enregistré : il recevra vos notifications.');
    expect(body.data.device).toEqual({
      id: expect.any(Number),
      platform: 'android',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
    });
    expect(response.body).not.toContain(token);
    const listed = await list(user);
    expect(listed).toEqual([
      expect.objectContaining({ id: body.data.device.id, token_ending: token.slice(-6) }),
    ]);
    expect(JSON.stringify(listed)).not.toContain(token.slice(0, 20));
  });

  it('registering the same token again keeps one device (same id), its platform updated', async () => {
    const user = await signIn(t);
    const token = fcmToken();
    const first = (await register(user, { token, platform: 'android' })).json().data.device;
    const again = await register(user, { token, platform: 'web' });
    expect(again.statusCode).toBe(201);
    expect(again.json().data.device).toMatchObject({ id: first.id, platform: 'web' });
    expect(await list(user)).toHaveLength(1);
  });

  it('a token registered by another user moves to the new one: no duplicate, gone from the first', async () => {
    const seller = await signIn(t);
    const buyer = await signIn(t);
    const token = fcmToken();
    await register(seller, { token, platform: 'android' });
    const moved = await register(buyer, { token, platform: 'android' });
    expect(moved.statusCode).toBe(201);
    expect(await list(seller)).toEqual([]);
    expect((await list(buyer)).map((device) => device.token_ending)).toEqual([token.slice(-6)]);
    expect((await tokensInTable()).filter((stored) => stored === token)).toHaveLength(1);
  });

  it('keeps at most 5 devices: the 6th forgets the least recently registered one', async () => {
    const user = await signIn(t);
    const tokens = Array.from({ length: 6 }, fcmToken);
    const ids: number[] = [];
    for (const token of tokens) {
      t.clock.advance(1000);
      ids.push((await register(user, { token, platform: 'ios' })).json().data.device.id);
    }
    const listed = await list(user);
    expect(listed.map((device) => device.id)).toEqual(ids.slice(1).reverse());
    // Registering the oldest again makes it the newest: the next one forgets the second oldest.
    t.clock.advance(1000);
    await register(user, { token: tokens[1], platform: 'ios' });
    t.clock.advance(1000);
    await register(user, { token: fcmToken(), platform: 'ios' });
    const after = (await list(user)).map((device) => device.id);
    expect(after).toHaveLength(5);
    expect(after).toContain(ids[1]);
    expect(after).not.toContain(ids[2]);
  });

  it('concurrent registrations of one user never exceed 5 devices', async () => {
    const user = await signIn(t);
    const responses = await Promise.all(
      Array.from({ length: 8 }, () => register(user, { token: fcmToken(), platform: 'android' })),
    );
    expect(responses.map((response) => response.statusCode)).toEqual(Array(8).fill(201));
    expect(await list(user)).toHaveLength(5);
  });

  it.each([
    [{ platform: 'android' }, 'token', 'Le champ token est obligatoire.'],
    [
      { token: 'x'.repeat(19), platform: 'android' },
      'token',
      'Le champ token doit contenir au moins 20 caractères.',
    ],
    [
      { token: 'x'.repeat(513), platform: 'android' },
      'token',
      'Le champ token ne doit pas dépasser 512 caractères.',
    ],
    [
      { token: `${'x'.repeat(30)} <script>`, platform: 'android' },
      'token',
      'Le format du champ token est invalide.',
    ],
    [{ token: 'x'.repeat(30), platform: 'windows' }, 'platform', undefined],
    [{ token: 'x'.repeat(30) }, 'platform', 'Le champ platform est obligatoire.'],
    [{ token: 1234567890123456, platform: 'android' }, 'token', undefined],
  ])('refuses %j: 422 on %s', async (payload, field, message) => {
    const user = await signIn(t);
    const response = await register(user, payload);
    expect(response.statusCode, response.body).toBe(422);
    const { errors } = response.json();
    expect(Object.keys(errors)).toContain(field);
    if (message) expect(errors[field]).toContain(message);
    expect(await list(user)).toEqual([]);
  });

  it('needs a token: 401', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/devices',
      payload: { token: fcmToken(), platform: 'android' },
    });
    expect(response.statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url: '/api/user/devices' })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'DELETE', url: '/api/user/devices/1' })).statusCode).toBe(401);
  });
});

describe('DELETE /api/user/devices/{id}', () => {
  it('forgets the owner’s device; another user’s device is a 404 and stays', async () => {
    const owner = await signIn(t);
    const other = await signIn(t);
    const id = (await register(owner, { token: fcmToken(), platform: 'android' })).json().data.device.id;
    const stranger = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/devices/${id}`,
      headers: other.headers,
    });
    expect(stranger.statusCode).toBe(404);
    expect(stranger.json().message).toBe('Appareil introuvable.');
    expect(await list(owner)).toHaveLength(1);

    const own = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/devices/${id}`,
      headers: owner.headers,
    });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toMatchObject({ user: { id: owner.id }, data: [] });
    expect(await list(owner)).toEqual([]);
    const again = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/devices/${id}`,
      headers: owner.headers,
    });
    expect(again.statusCode).toBe(404);
  });

  it('an id that is not a positive integer is a 404', async () => {
    const user = await signIn(t);
    for (const id of ['abc', '0', '-1', '99999999999']) {
      const response = await t.app.inject({
        method: 'DELETE',
        url: `/api/user/devices/${id}`,
        headers: user.headers,
      });
      expect(response.statusCode, id).toBe(404);
    }
  });
});

describe('logout', () => {
  it('forgets every device of the user (and only theirs)', async () => {
    const user = await signIn(t);
    const other = await signIn(t);
    await register(user, { token: fcmToken(), platform: 'android' });
    await register(user, { token: fcmToken(), platform: 'web' });
    await register(other, { token: fcmToken(), platform: 'ios' });
    const response = await t.app.inject({ method: 'POST', url: '/api/user/logout', headers: user.headers });
    expect(response.statusCode).toBe(200);
    const rows = await t.app.db.select({ userId: pushDevices.userId }).from(pushDevices);
    expect(rows.filter((row) => row.userId === user.id)).toEqual([]);
    expect(await list(other)).toHaveLength(1);
  });

  it('forgetAll runs in the caller’s transaction: a rolled-back change keeps the devices', async () => {
    const user = await signIn(t);
    await register(user, { token: fcmToken(), platform: 'android' });
    await expect(
      t.app.db.transaction(async (tx) => {
        expect(await t.app.services.devices.forgetAll(tx, user.id)).toBe(1);
        throw new Error('the account deletion failed later');
      }),
    ).rejects.toThrow('the account deletion failed later');
    expect(await list(user)).toHaveLength(1);
  });
});
