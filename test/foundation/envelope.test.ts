import { Type } from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  InsufficientCredits,
  NotFound,
  NotOwner,
  RateLimited,
  Unauthenticated,
} from '../../src/lib/errors.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ config: { bodyLimitBytes: 2048 } });
});
afterAll(() => t.close());

describe('envelope on errors', () => {
  let p: TestApp;
  beforeAll(async () => {
    // Probe routes registered by the test on the production app: they throw domain errors or validate bodies.
    p = await createTestApp({
      config: { bodyLimitBytes: 2048 },
      beforeReady(app) {
        app.get('/api/probe/401', async () => {
          throw new Unauthenticated();
        });
        app.get('/api/probe/403', async () => {
          throw new NotOwner();
        });
        app.get('/api/probe/404', async () => {
          throw new NotFound();
        });
        app.get('/api/probe/402', async () => {
          throw new InsufficientCredits(7, 0, 2);
        });
        app.get('/api/probe/429', async () => {
          throw new RateLimited(42.2);
        });
        app.get('/api/probe/500', async () => {
          throw new Error('SELECT secret FROM users /home/app/src/db.ts');
        });
        app.post(
          '/api/probe/body',
          {
            schema: {
              body: Type.Object({
                type_id: Type.Integer({ minimum: 1 }),
                teams_details: Type.Object({
                  home: Type.String({ minLength: 1 }),
                  away: Type.String({ minLength: 1 }),
                }),
                operator: Type.Optional(
                  Type.Object({ name: Type.String(), icon: Type.String({ format: 'uri' }) }),
                ),
              }),
            },
          },
          async (request) => ({ user: null, message: 'OK.', data: request.body, errors: [] }),
        );
      },
    });
  });
  afterAll(() => p.close());

  it.each([
    [401, 'Non authentifié.'],
    [403, 'Accès refusé.'],
    [404, 'Ressource introuvable.'],
  ])('maps the domain error to %i with the envelope', async (status, message) => {
    const response = await p.app.inject({ method: 'GET', url: `/api/probe/${status}` });
    expect(response.statusCode).toBe(status);
    expect(response.json()).toEqual({ user: null, message, data: [], errors: [] });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('402 carries the balances and the user', async () => {
    const response = await p.app.inject({ method: 'GET', url: '/api/probe/402' });
    expect(response.statusCode).toBe(402);
    expect(response.json()).toEqual({
      user: { id: 7, credits_balance: 0 },
      message: 'Crédits insuffisants pour ce type de pronostic.',
      data: { credits_balance: 0, required: 2 },
      errors: [],
    });
  });

  it('429 has retry_after and a Retry-After header', async () => {
    const response = await p.app.inject({ method: 'GET', url: '/api/probe/429' });
    expect(response.statusCode).toBe(429);
    expect(response.headers['retry-after']).toBe('43');
    expect(response.json()).toMatchObject({ user: null, data: { retry_after: 43 }, errors: [] });
  });

  it('500 hides the cause', async () => {
    const response = await p.app.inject({ method: 'GET', url: '/api/probe/500' });
    expect(response.statusCode).toBe(500);
    const body = response.json();
    expect(body).toEqual({ user: null, message: expect.any(String), data: [], errors: [] });
    expect(response.body).not.toMatch(/SELECT|secret|\/home|\.ts|stack/);
  });

  it('422 maps every field, nested ones with dots, in French', async () => {
    const response = await p.app.inject({
      method: 'POST',
      url: '/api/probe/body',
      payload: { type_id: 'abc', teams_details: { home: '' }, operator: { name: 'MTN', icon: 'not a url' } },
    });
    expect(response.statusCode).toBe(422);
    const body = response.json();
    expect(body.user).toBeNull();
    expect(body.data).toEqual([]);
    expect(Object.keys(body.errors).sort()).toEqual(
      ['operator.icon', 'teams_details.away', 'teams_details.home', 'type_id'].sort(),
    );
    expect(body.errors['teams_details.away']).toEqual(['Le champ teams_details.away est obligatoire.']);
    expect(body.errors.type_id).toEqual(['Le champ type_id doit être un nombre entier.']);
    expect(body.message).toBe(Object.values(body.errors as Record<string, string[]>)[0]?.[0]);
  });

  it('accepts a numeric string for an integer field, and nothing else', async () => {
    const ok = await p.app.inject({
      method: 'POST',
      url: '/api/probe/body',
      payload: { type_id: '3', teams_details: { home: 'A', away: 'B' } },
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().data.type_id).toBe(3);
    for (const bad of [true, [3], null, '3.5', ' ']) {
      const response = await p.app.inject({
        method: 'POST',
        url: '/api/probe/body',
        payload: { type_id: bad, teams_details: { home: 'A', away: 'B' } },
      });
      expect(response.statusCode, JSON.stringify(bad)).toBe(422);
      expect(Object.keys(response.json().errors)).toEqual(['type_id']);
    }
  });

  it('malformed JSON is a 422 on body', async () => {
    const response = await p.app.inject({
      method: 'POST',
      url: '/api/probe/body',
      headers: { 'content-type': 'application/json' },
      payload: '{"type_id": 1,',
    });
    expect(response.statusCode).toBe(422);
    expect(response.json()).toMatchObject({ user: null, data: [], errors: { body: [expect.any(String)] } });
  });

  it('a body that is not an object is a 422 on body', async () => {
    const response = await p.app.inject({
      method: 'POST',
      url: '/api/probe/body',
      headers: { 'content-type': 'application/json' },
      payload: '[1,2]',
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['body']);
  });

  it('413 for a body over the limit', async () => {
    const response = await p.app.inject({
      method: 'POST',
      url: '/api/probe/body',
      payload: { type_id: 1, teams_details: { home: 'x'.repeat(5000), away: 'B' } },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: [], errors: [] });
  });

  it('415 for a content type other than JSON', async () => {
    const response = await p.app.inject({
      method: 'POST',
      url: '/api/probe/body',
      headers: { 'content-type': 'text/plain' },
      payload: 'hello',
    });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: [], errors: [] });
  });
});

describe('415 on the real routes', () => {
  const textBody = { 'content-type': 'text/plain' };

  it('a user route answers all four keys, errors an empty array, and names the caller', async () => {
    const user = await signIn(t);
    for (const headers of [textBody, { 'content-type': 'application/x-www-form-urlencoded' }]) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/user/pronostic/create',
        headers: { ...user.headers, ...headers },
        payload: 'type_id=1',
      });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        user: { id: user.id },
        message: 'Type de contenu non pris en charge.',
        data: [],
        errors: [],
      });
    }
  });

  it('the OTP routes leave errors out, as on their other answers but 422', async () => {
    for (const url of ['/api/otp/generate', '/api/otp/verify']) {
      const response = await t.app.inject({ method: 'POST', url, headers: textBody, payload: 'hello' });
      expect(response.statusCode).toBe(415);
      expect(response.json()).toEqual({
        user: null,
        message: 'Type de contenu non pris en charge.',
        data: [],
      });
    }
  });
});

describe('envelope on routing errors', () => {
  it('404 for an unknown route', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(response.statusCode).toBe(404);
    expect(response.json()).toEqual({
      user: null,
      message: 'Cette route n’existe pas.',
      data: [],
      errors: [],
    });
  });

  it('405 for a known route with another method, with Allow', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/' });
    expect(response.statusCode).toBe(405);
    expect(response.headers.allow).toContain('GET');
    expect(response.json()).toEqual({ user: null, message: expect.any(String), data: [], errors: [] });
  });

  it('a malformed percent-encoding in the path gets the envelope', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/%E0%A4%A' });
    expect(response.statusCode).toBeGreaterThanOrEqual(400);
    expect(response.statusCode).toBeLessThan(500);
    expect(response.json()).toMatchObject({ user: null, data: [], errors: [] });
    expect(response.headers['x-request-id']).toBeTruthy();
  });

  it('keeps a sane X-Request-Id and replaces an insane one', async () => {
    const kept = await t.app.inject({ method: 'GET', url: '/api/', headers: { 'x-request-id': 'abc-123' } });
    expect(kept.headers['x-request-id']).toBe('abc-123');
    const replaced = await t.app.inject({
      method: 'GET',
      url: '/api/',
      headers: { 'x-request-id': 'a b<script>' },
    });
    expect(replaced.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/' });
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-security-policy']).toBeTruthy();
  });

  it('sets the same security headers on every answer, a 404 included (built once, applied per request)', async () => {
    for (const url of ['/api/', '/api/no-such-route', '/api/']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.headers['content-security-policy']).toBe(
        "default-src 'self';base-uri 'self';font-src 'self' https: data:;form-action 'self';" +
          "frame-ancestors 'none';img-src 'self' data:;object-src 'none';script-src 'self';" +
          "script-src-attr 'none';style-src 'self' 'unsafe-inline';upgrade-insecure-requests;connect-src 'self'",
      );
      expect(response.headers['cross-origin-resource-policy']).toBe('same-site');
      expect(response.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(response.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    }
  });
});
