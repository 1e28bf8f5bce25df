// English cases (issue 40) for an account's deletion and export (the public deletion page is
// tested with the pages).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { nextAddress } from './helpers.js';

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/account/export', async () => {
    // The export is an attachment of data (no sentence, no language); its refusal is an envelope.
    const anonymous = await inEnglish(t.app, { method: 'GET', url: '/api/user/account/export' });
    expectEnglish(anonymous, 401, en.messages.unauthenticated);
    const exported = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/account/export',
      headers: user.headers,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.headers['content-language']).toBeUndefined();
  });

  it('POST /api/user/account/delete/code', async () => {
    const sent = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/delete/code',
      headers: user.headers,
      remoteAddress: nextAddress(),
    });
    expectEnglish(sent, 200, en.messages.accountDeleteCodeSent);
  });

  it('POST /api/user/account/delete', async () => {
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/delete',
      headers: user.headers,
      payload: {},
      remoteAddress: nextAddress(),
    });
    expectEnglish422(invalid, 'code', en.validationMessages.required('code'));
    const deleted = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/account/delete',
      headers: user.headers,
      payload: { code: t.outbox!.lastCode(user.phone) },
      remoteAddress: nextAddress(),
    });
    expectEnglish(deleted, 200, en.messages.accountDeleted);
  });
});
