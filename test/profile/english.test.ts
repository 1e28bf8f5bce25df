// English cases (issue 40) for the profile routes: messages and 422s (the account's `locale` itself
// is tested with the profile by helper en-account).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { codeOf } from '../affiliation/helpers.js';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { multipart, photo } from './forms.js';

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/profile', async () => {
    const profile = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/profile',
      headers: user.headers,
    });
    expectEnglish(profile, 200, en.messages.profile);
  });

  it('POST /api/user/profile/update', async () => {
    const updated = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/profile/update',
      headers: user.headers,
      payload: { name: 'Ngozi Eko' },
    });
    expectEnglish(updated, 200, en.messages.profileUpdated);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/profile/update',
      headers: user.headers,
      payload: { username: 'No Spaces Allowed' },
    });
    expectEnglish422(invalid, 'username', en.validationMessages.pattern('username'));
  });

  it('POST /api/user/profile/avatar', async () => {
    const form = await multipart([['avatar', await photo(300, 300, 'png'), 'me.png', 'image/png']]);
    const uploaded = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/profile/avatar',
      headers: { ...form.headers, ...user.headers },
      payload: form.payload,
    });
    expectEnglish(uploaded, 200, en.messages.avatarUpdated);
    const empty = await multipart([['name', 'no file']]);
    const missing = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/profile/avatar',
      headers: { ...empty.headers, ...user.headers },
      payload: empty.payload,
    });
    expectEnglish422(missing, 'avatar', en.messages.avatarRequired);
  });

  it('POST /api/user/profile/apply-affiliation', async () => {
    const godfather = await signIn(t);
    const code = await codeOf(t, godfather.id);
    const applied = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/profile/apply-affiliation',
      headers: user.headers,
      payload: { affiliation_code: code },
    });
    expectEnglish(applied, 200, en.messages.affiliationApplied);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/profile/apply-affiliation',
      headers: user.headers,
      payload: {},
    });
    expectEnglish422(invalid, 'affiliation_code', en.validationMessages.required('affiliation_code'));
  });
});
