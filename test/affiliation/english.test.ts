// English cases (issue 40) for referrals and withdrawals, the user's side and the back office's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WITHDRAW_MAX } from '../../src/money/cash-out/withdrawals.js';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { giveMoney, withdraw, withdrawn } from './helpers.js';

const ICON = 'https://example.com/mtn.png';
let t: TestApp;
let user: SignedIn;
let admin: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  user = await signIn(t);
  admin = await signIn(t, { role: 'admin' });
  await giveMoney(t, user.id, 50_000);
});
afterAll(() => t.close());

describe('English', () => {
  it('GET /api/user/affiliation/overview', async () => {
    const overview = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/affiliation/overview',
      headers: user.headers,
    });
    expectEnglish(overview, 200, en.messages.affiliationOverview);
  });

  it('GET /api/user/affiliation/godchildren', async () => {
    const godchildren = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/affiliation/godchildren',
      headers: user.headers,
    });
    expectEnglish(godchildren, 200, en.messages.affiliationGodchildren);
  });

  it('GET /api/user/affiliation/withdrawals', async () => {
    const list = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/user/affiliation/withdrawals',
      headers: user.headers,
    });
    expectEnglish(list, 200, en.messages.withdrawalList);
  });

  it('POST /api/user/affiliation/withdraw', async () => {
    const created = await withdraw(t, user, { amount: 5000 }, { 'accept-language': 'en' });
    expectEnglish(created, 201, en.messages.withdrawalCreated);
    const tooMuch = await withdraw(t, user, { amount: WITHDRAW_MAX + 1 }, { 'accept-language': 'en' });
    expectEnglish422(
      tooMuch,
      'amount',
      `The maximum withdrawal amount is ${WITHDRAW_MAX.toLocaleString('en')} XAF.`,
    );
    // French keeps its bytes.
    const french = await withdraw(t, user, { amount: WITHDRAW_MAX + 1 });
    expect(french.json().errors.amount).toEqual([
      `Le montant maximum d’un retrait est de ${WITHDRAW_MAX} XAF.`,
    ]);
    const badIcon = await withdraw(
      t,
      user,
      { operator: { name: 'MTN', icon: 'ftp://x' } },
      { 'accept-language': 'en' },
    );
    expectEnglish422(badIcon, 'operator.icon', en.messages.withdrawalIconInvalid);
  });

  it('GET /api/admin/withdrawals', async () => {
    const list = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/withdrawals',
      headers: admin.headers,
    });
    expectEnglish(list, 200, en.messages.adminWithdrawalList);
    const invalid = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/withdrawals?phone=abc',
      headers: admin.headers,
    });
    expectEnglish422(invalid, 'phone', en.messages.invalidPhoneFilter);
  });

  it('POST /api/admin/withdrawals/:id/approve', async () => {
    const id = await withdrawn(t, user, { amount: 5000, operator: { name: 'MTN', icon: ICON } });
    const approved = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/approve`,
      headers: admin.headers,
    });
    expectEnglish(approved, 200, en.messages.withdrawalApproved);
    const again = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/approve`,
      headers: admin.headers,
    });
    expectEnglish(again, 409, en.messages.withdrawalAlreadyDecided);
  });

  it('POST /api/admin/withdrawals/:id/reject', async () => {
    const id = await withdrawn(t, user, { amount: 5000, operator: { name: 'MTN', icon: ICON } });
    const rejected = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/reject`,
      headers: admin.headers,
      payload: { message: 'Wrong number' },
    });
    expectEnglish(rejected, 200, en.messages.withdrawalRejected);
  });

  it('GET /api/admin/withdrawals/:id/provider-read', async () => {
    const missing = await inEnglish(t.app, {
      method: 'GET',
      url: '/api/admin/withdrawals/999999/provider-read',
      headers: admin.headers,
    });
    expectEnglish(missing, 404, en.messages.withdrawalNotFound);
  });

  it('POST /api/admin/withdrawals/:id/resolve', async () => {
    const id = await withdrawn(t, user, { amount: 5000, operator: { name: 'MTN', icon: ICON } });
    const notEscalated = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/resolve`,
      headers: admin.headers,
      payload: { outcome: 'paid', message: 'Confirmed by the operator' },
    });
    expectEnglish(notEscalated, 409, en.messages.withdrawalNotEscalated);
    const invalid = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/withdrawals/${id}/resolve`,
      headers: admin.headers,
      payload: { outcome: 'maybe' },
    });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.outcome[0]).toMatch(/^The outcome field must be one of: /);
  });
});
