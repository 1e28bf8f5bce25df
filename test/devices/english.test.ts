// English cases (issue 40) for the push devices' routes (the push texts themselves are tested with
// the sender, in the account's language).
import { afterAll, beforeAll, describe, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

const TOKEN = `d1Xk9:APA91bH${'a1B2c3_D4-'.repeat(14)}000001`;
let t: TestApp;
let user: SignedIn;
let deviceId: number;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
});
afterAll(() => t.close());

describe('English', () => {
  it('POST /api/user/devices', async () => {
    const registered = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/devices',
      headers: user.headers,
      payload: { token: TOKEN, platform: 'android' },
    });
    expectEnglish(registered, registered.statusCode === 201 ? 201 : 200, en.messages.deviceRegistered);
    deviceId = registered.json().data.device.id;
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/devices',
      headers: user.headers,
      payload: { token: TOKEN },
    });
    expectEnglish422(invalid, 'platform', en.validationMessages.required('platform'));
  });

  it('GET /api/user/devices', async () => {
    const list = await inEnglish(t.app, { method: 'GET', url: '/api/user/devices', headers: user.headers });
    expectEnglish(list, 200, en.messages.deviceList);
  });

  it('GET /api/push/webpush-key', async () => {
    const key = await inEnglish(t.app, { method: 'GET', url: '/api/push/webpush-key' });
    expectEnglish(key, 200, en.messages.webpushKey);
    const browser = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/devices',
      headers: user.headers,
      payload: { token: '{"endpoint":"https://push.evil.example/x"}', platform: 'webpush' },
    });
    expectEnglish422(browser, 'token', en.messages.webpushSubscriptionMalformed);
  });

  it('DELETE /api/user/devices/:id', async () => {
    const forgotten = await inEnglish(t.app, {
      method: 'DELETE',
      url: `/api/user/devices/${deviceId}`,
      headers: user.headers,
    });
    expectEnglish(forgotten, 200, en.messages.deviceForgotten);
    const again = await inEnglish(t.app, {
      method: 'DELETE',
      url: `/api/user/devices/${deviceId}`,
      headers: user.headers,
    });
    expectEnglish(again, 404, en.messages.deviceNotFound);
  });
});
