// English cases (issue 40) for the packs routes, the user's list and the back office's.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
let admin: SignedIn;
let packId: number;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
  admin = await signIn(t, { role: 'admin' });
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/admin/packs',
    headers: admin.headers,
    payload: { name: 'Starter', credits: 10, price: 500 },
  });
  packId = created.json().data.pack.id;
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/wallet/packs', async () => {
    const list = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/wallet/packs',
      headers: user.headers,
    });
    expectEnglish(list, 200, en.messages.packList);
  });

  it('GET /api/admin/packs', async () => {
    const list = await inEnglish(t.app, { method: 'GET', url: '/api/admin/packs', headers: admin.headers });
    expectEnglish(list, 200, en.messages.adminPackList);
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/packs?page=0',
      headers: admin.headers,
    });
    expectEnglish422(invalid, 'page', en.validationMessages.minimum('page', 1));
  });

  it('POST /api/admin/packs', async () => {
    const created = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/admin/packs',
      headers: admin.headers,
      payload: { name: 'Gold', credits: 50, price: 2000 },
    });
    expectEnglish(created, 201, en.messages.packCreated);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/admin/packs',
      headers: admin.headers,
      payload: { name: 'Gold', credits: 50 },
    });
    expectEnglish422(invalid, 'price', en.validationMessages.required('price'));
  });

  it('PATCH /api/admin/packs/:id', async () => {
    const updated = await inEnglish(t.app, {
      method: 'PATCH',
      url: `/api/admin/packs/${packId}`,
      headers: admin.headers,
      payload: { price: 600 },
    });
    expectEnglish(updated, 200, en.messages.packUpdated);
    const nothing = await inEnglish(t.app, {
      method: 'PATCH',
      url: `/api/admin/packs/${packId}`,
      headers: admin.headers,
      payload: {},
    });
    expectEnglish(nothing, 422, en.messages.packNothingToChange);
  });

  it('POST /api/admin/packs/:id/deactivate', async () => {
    const off = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/packs/${packId}/deactivate`,
      headers: admin.headers,
    });
    expectEnglish(off, 200, en.messages.packDeactivated);
  });

  it('POST /api/admin/packs/:id/activate', async () => {
    const on = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/packs/${packId}/activate`,
      headers: admin.headers,
    });
    expectEnglish(on, 200, en.messages.packActivated);
    const missing = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/admin/packs/999999/activate',
      headers: admin.headers,
    });
    expectEnglish(missing, 404, en.messages.packNotFound);
  });
});
