// English cases (issue 40) for the back office's user, audit, statistics, flags and approvals routes.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en, expectEnglish, expectEnglish422, inEnglish } from '../english.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

let t: TestApp;
let admin: SignedIn;
let target: SignedIn;
beforeAll(async () => {
  t = await createTestApp();
  admin = await signIn(t, { role: 'admin' });
  target = await signIn(t, { credits: 3 });
});
afterAll(() => t.close());

const get = (url: string) => inEnglish(t.app, { method: 'GET', url, headers: admin.headers });
const post = (url: string, payload?: object) =>
  inEnglish(t.app, { method: 'POST', url, headers: admin.headers, ...(payload ? { payload } : {}) });

describe('English', () => {
  it('GET /api/admin/audit', async () => {
    expectEnglish(await get('/api/admin/audit'), 200, en.messages.auditList);
  });

  it('GET /api/admin/users', async () => {
    expectEnglish(await get('/api/admin/users'), 200, en.messages.adminUserList);
    const invalid = await get('/api/admin/users?role=king');
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.role[0]).toMatch(/^The role field must be one of: /);
  });

  it('GET /api/admin/users/:id', async () => {
    expectEnglish(await get(`/api/admin/users/${target.id}`), 200, en.messages.adminUserDetail);
    expectEnglish(await get('/api/admin/users/999999'), 404, en.messages.userNotFound);
  });

  it('GET /api/admin/users/:id/operations', async () => {
    expectEnglish(
      await get(`/api/admin/users/${target.id}/operations`),
      200,
      en.messages.adminUserOperations,
    );
  });

  it('GET /api/admin/users/:id/pronostics', async () => {
    expectEnglish(
      await get(`/api/admin/users/${target.id}/pronostics`),
      200,
      en.messages.adminUserPronostics,
    );
  });

  it('POST /api/admin/users/:id/credits', async () => {
    const adjusted = await post(`/api/admin/users/${target.id}/credits`, { amount: 2, reason: 'Goodwill' });
    expectEnglish(adjusted, 200, en.messages.userCreditsAdjusted);
    const zero = await post(`/api/admin/users/${target.id}/credits`, { amount: 0, reason: 'Nothing' });
    expectEnglish422(zero, 'amount', en.messages.adjustAmountZero);
    const below = await post(`/api/admin/users/${target.id}/credits`, { amount: -99, reason: 'Too much' });
    expectEnglish422(below, 'amount', en.adminTexts.adjustBelowZero(5));
  });

  it('POST /api/admin/users/:id/block', async () => {
    expectEnglish(await post(`/api/admin/users/${target.id}/block`), 200, en.messages.userBlocked);
    expectEnglish422(await post(`/api/admin/users/${admin.id}/block`), 'id', en.messages.cannotBlockSelf);
  });

  it('POST /api/admin/users/:id/unblock', async () => {
    expectEnglish(await post(`/api/admin/users/${target.id}/unblock`), 200, en.messages.userUnblocked);
  });

  it('POST /api/admin/users/:id/role', async () => {
    expectEnglish(
      await post(`/api/admin/users/${target.id}/role`, { role: 'user' }),
      200,
      en.messages.userRoleChanged,
    );
    const invalid = await post(`/api/admin/users/${target.id}/role`, { role: 'king' });
    expect(invalid.statusCode).toBe(422);
    expect(invalid.json().errors.role[0]).toMatch(/^The role field must be one of: /);
  });

  it('GET /api/admin/approvals', async () => {
    expectEnglish(await get('/api/admin/approvals?status=pending'), 200, en.messages.approvalList);
  });

  it('POST /api/admin/approvals/:id/confirm', async () => {
    const promoted = await signIn(t);
    const asked = await post(`/api/admin/users/${promoted.id}/role`, { role: 'admin' });
    expectEnglish(asked, 202, en.messages.approvalRequested);
    const id = asked.json().data.approval.id;
    expectEnglish(await post(`/api/admin/approvals/${id}/confirm`), 403, en.messages.approvalOwnDecision);
    const second = await signIn(t, { role: 'admin' });
    const confirmed = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/approvals/${id}/confirm`,
      headers: second.headers,
    });
    expectEnglish(confirmed, 200, en.messages.approvalConfirmed);
    expectEnglish(await post(`/api/admin/approvals/${id}/confirm`), 409, en.messages.approvalAlreadyDecided);
    expectEnglish(await post('/api/admin/approvals/999999/confirm'), 404, en.messages.approvalNotFound);
  });

  it('POST /api/admin/approvals/:id/reject', async () => {
    const other = await signIn(t);
    const asked = await post(`/api/admin/users/${other.id}/role`, { role: 'admin' });
    const id = asked.json().data.approval.id;
    expectEnglish(
      await post(`/api/admin/users/${other.id}/role`, { role: 'admin' }),
      409,
      en.messages.approvalPending,
    );
    const second = await signIn(t, { role: 'admin' });
    const rejected = await inEnglish(t.app, {
      method: 'POST',
      url: `/api/admin/approvals/${id}/reject`,
      headers: second.headers,
    });
    expectEnglish(rejected, 200, en.messages.approvalRejected);
  });

  it('GET /api/admin/stats', async () => {
    expectEnglish(await get('/api/admin/stats'), 200, en.messages.adminStats);
  });

  it('GET /api/admin/flags', async () => {
    expectEnglish(await get('/api/admin/flags'), 200, en.messages.adminFlags);
  });

  it('POST /api/admin/flags/:id/resolve', async () => {
    expectEnglish(
      await post('/api/admin/flags/999999/resolve', { message: 'Nothing' }),
      404,
      en.messages.flagNotFound,
    );
    const invalid = await post('/api/admin/flags/999999/resolve', {});
    expectEnglish422(invalid, 'message', en.validationMessages.required('message'));
  });
});
