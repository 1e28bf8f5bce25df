// English cases (issue 40) for the wallet's history routes.
import { afterAll, beforeAll, describe, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let user: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t, { credits: 5 });
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/wallet/transactions/latest', async () => {
    const latest = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/wallet/transactions/latest',
      headers: user.headers,
    });
    expectEnglish(latest, 200, en.messages.walletLatestTransactions);
  });

  it('GET /api/user/wallet/operations', async () => {
    const operations = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/wallet/operations',
      headers: user.headers,
    });
    expectEnglish(operations, 200, en.messages.walletOperations);
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/wallet/operations?from=2026-02-30',
      headers: user.headers,
    });
    expectEnglish422(invalid, 'from', en.messages.invalidFromDate);
  });
});
