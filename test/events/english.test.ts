// English cases (issue 40) for the event log and streams. A stream's events carry no sentence (a
// type and data); its refusals before it starts are envelopes, in English when asked.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
  admin = await signIn(t, { role: 'admin' });
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/events', async () => {
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/events',
      headers: { ...user.headers, 'last-event-id': 'yesterday' },
    });
    expectEnglish(invalid, 422, invalid.json().message);
    expect(JSON.stringify(invalid.json().errors)).toContain(en.messages.lastEventIdInvalid);
    const anonymous = await inEnglish(t.app, { method: 'GET', url: '/api/user/events' });
    expectEnglish(anonymous, 401, en.messages.unauthenticated);
  });

  it('GET /api/admin/events', async () => {
    const forbidden = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/events',
      headers: user.headers,
    });
    expectEnglish(forbidden, 403, en.messages.adminOnly);
  });

  it('POST /api/user/events/key', async () => {
    const issued = await inEnglish(t.app, {
      method: 'POST',
      url: '/api/user/events/key',
      headers: user.headers,
    });
    expectEnglish(issued, 200, en.messages.streamKeyIssued);
  });

  it('GET /api/user/events/history', async () => {
    const history = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/events/history',
      headers: user.headers,
    });
    expectEnglish(history, 200, en.messages.eventHistory);
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/events/history?per_page=0',
      headers: user.headers,
    });
    expectEnglish422(invalid, 'per_page', en.validationMessages.minimum('per_page', 1));
  });

  it('GET /api/admin/events/history', async () => {
    const history = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/events/history',
      headers: admin.headers,
    });
    expectEnglish(history, 200, en.messages.adminEventHistory);
  });
});
