// The typed client against the running service: sign in through it, read a paginated list, and a
// refused request surfaces as an ApiError with the envelope's message and field errors.
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiError, createPronosticsClient, dataOf, envelopeOf } from '../../clients/typescript/index.js';
import { createTestApp, nextPhone, signIn, type TestApp } from '../helpers.js';

describe('the typed client', () => {
  let t: TestApp;
  let baseUrl: string;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}/`;
  });
  afterAll(() => t?.close());

  it('signs in and reads a page of a list with the token', async () => {
    let token: string | null = null;
    const api = createPronosticsClient({ baseUrl, token: () => token });
    const phone = nextPhone();
    const generated = await envelopeOf(
      api.POST('/api/otp/generate', { body: { phone, country: 'CM', method: 'sms' } }),
    );
    expect(generated.data.phone).toBe(phone);
    token = (await dataOf(api.POST('/api/otp/verify', { body: { phone, code: t.outbox!.lastCode(phone) } })))
      .token;
    const page = await dataOf(api.GET('/api/user/wallet/operations', { params: { query: { per_page: 1 } } }));
    expect(page.meta).toMatchObject({ current_page: 1, per_page: 1 });
    const direct = await t.app.inject({
      method: 'GET',
      url: '/api/user/wallet/operations?per_page=1',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(page).toEqual(direct.json().data);
  });

  it('throws an ApiError with the status, the French message and the field errors', async () => {
    const anonymous = createPronosticsClient({ baseUrl });
    const denied = await dataOf(anonymous.GET('/api/user/profile')).catch((error: unknown) => error);
    expect(denied).toBeInstanceOf(ApiError);
    expect((denied as ApiError).status).toBe(401);

    const user = await signIn(t);
    const api = createPronosticsClient({ baseUrl, token: user.token });
    const refused = await dataOf(api.GET('/api/admin/audit')).catch((error: unknown) => error);
    expect((refused as ApiError).status).toBe(403);
    const invalid = await dataOf(
      api.POST('/api/otp/generate', { body: { phone: 'abc', country: 'CM', method: 'sms' } }),
    ).catch((error: unknown) => error);
    expect((invalid as ApiError).status).toBe(422);
    expect((invalid as ApiError).message).not.toBe('HTTP 422');
    expect(Object.keys((invalid as ApiError).fieldErrors)).toContain('phone');
  });
});
