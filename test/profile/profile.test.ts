// The profile through HTTP: reading it, changing the name and the username (unique, even when two
// accounts race for one), and the dashboard showing what changed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { temporaryDataDir } from './forms.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { dataDir: temporaryDataDir() } });
});
afterAll(() => t.close());

function update(user: SignedIn | undefined, payload: unknown) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/profile/update',
    ...(user ? { headers: user.headers } : {}),
    payload: payload as Record<string, unknown>,
  });
}

let counter = 0;
const freshUsername = () => `joueur_${process.pid % 1000}.${++counter}`;

describe('GET /api/user/profile', () => {
  it('answers 401 without a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/profile' });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ user: null, message: 'Non authentifié.', data: [], errors: [] });
  });

  it('returns the full user, with the default avatar before any upload', async () => {
    const user = await signIn(t);
    const response = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toEqual({
      user: {
        id: user.id,
        phone: user.phone,
        country: 'CM',
        name: null,
        username: null,
        avatar: '/avatars/default.png',
        affiliation_code: expect.stringMatching(/^[A-Z0-9]{8}$/),
        credits_balance: 0,
        money_balance: 0,
        locale: 'fr',
        birth_date: null,
        self_excluded_until: null,
      },
      message: 'Votre profil.',
      data: [],
      errors: [],
    });
  });
});

describe('POST /api/user/profile/update', () => {
  it('changes the name and the username and answers the full user; the dashboard shows them', async () => {
    const user = await signIn(t);
    const username = freshUsername();
    const response = await update(user, { name: '  Jean Dupont ', username });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      user: { id: user.id, phone: user.phone, name: 'Jean Dupont', username, avatar: '/avatars/default.png' },
      message: 'Profil mis à jour.',
      data: [],
      errors: [],
    });

    const onlyName = await update(user, { name: 'Jean D.' });
    expect(onlyName.json().user).toMatchObject({ name: 'Jean D.', username });

    const dashboard = await t.app.inject({
      method: 'GET',
      url: '/api/user/dashboard',
      headers: user.headers,
    });
    expect(dashboard.json().user).toMatchObject({
      name: 'Jean D.',
      username,
      avatar: '/avatars/default.png',
    });
    const profile = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
    expect(profile.json().user).toEqual(dashboard.json().user);
  });

  it('answers 401 without a token', async () => {
    expect((await update(undefined, { name: 'Jean' })).statusCode).toBe(401);
  });

  it('refuses an empty change, a malformed username and a short name with a 422 naming the field', async () => {
    const user = await signIn(t);
    const empty = await update(user, {});
    expect(empty.statusCode).toBe(422);
    expect(empty.json().errors).toEqual({
      body: ['Indiquez au moins un champ à modifier : name, username ou locale.'],
    });

    for (const username of ['ab', 'Jean', 'jean dupont', 'jean-dupont', 'é_accent', 'a'.repeat(31), 12345]) {
      const response = await update(user, { username });
      expect(response.statusCode, String(username)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['username']);
      expect(response.json().user).toBeNull();
    }
    for (const name of ['J', '   x   ', 'n'.repeat(61)]) {
      const response = await update(user, { name });
      expect(response.statusCode, name).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['name']);
    }
    const unchanged = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers });
    expect(unchanged.json().user).toMatchObject({ name: null, username: null });
  });

  it('answers 422 on a username another account holds; keeping one’s own is fine', async () => {
    const first = await signIn(t);
    const second = await signIn(t);
    const username = freshUsername();
    expect((await update(first, { username })).statusCode).toBe(200);
    const taken = await update(second, { username, name: 'Paul' });
    expect(taken.statusCode).toBe(422);
    expect(taken.json()).toMatchObject({
      user: null,
      message: 'Ce nom d’utilisateur est déjà pris.',
      errors: { username: ['Ce nom d’utilisateur est déjà pris.'] },
    });
    // Nothing of the refused change was written, the name included.
    const profile = await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: second.headers });
    expect(profile.json().user).toMatchObject({ name: null, username: null });
    expect((await update(first, { username })).statusCode).toBe(200);
  });

  it('lets one of several accounts racing for a username have it, the others get a 422, never a 500', async () => {
    const racers = await Promise.all([signIn(t), signIn(t), signIn(t), signIn(t)]);
    const username = freshUsername();
    const answers = await Promise.all(racers.map((user) => update(user, { username })));
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 422, 422, 422]);
  });
});
