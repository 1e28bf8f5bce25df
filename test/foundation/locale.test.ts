// Issue 40: the caller's language. `Accept-Language` picks French or English (French whenever it
// names neither, or cannot be read: never an error), every envelope says its language and that it
// varies with the header, served files do not, and the framework's own errors speak English too.
// A request without the header answers byte for byte what it answered before English existed.
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { negotiateLocale } from '../../src/lib/locale.js';
import { withVary } from '../../src/plugins/app/locale.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';

const FRENCH = 'Le service fonctionne.';
const ENGLISH = 'The service is running.';

describe('negotiateLocale', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['en-GB', 'en'],
    ['en-CM;q=0.9, fr;q=0.8', 'en'],
    ['fr;q=0.9, en;q=0.8', 'fr'],
    ['fr-CM', 'fr'],
    ['de, en;q=0.5', 'en'],
    ['en;q=0.5, fr;q=0.5', 'en'],
    ['en;q=0, fr;q=0.1', 'fr'],
  ])('%s → %s', (header, locale) => {
    expect(negotiateLocale(header)).toBe(locale);
  });

  it.each([
    [undefined],
    [''],
    ['*'],
    ['de'],
    ['de-DE, es;q=0.9'],
    ['en;q=1.5'],
    ['en;q=-0.1'],
    ['en;q=abc'],
    ['en;q=0.0001'],
    ['en;level=1'],
    ['en,,,'],
    ['<script>'],
    ['en_GB'],
    ['\u00e9n'],
    [`en, ${'de, '.repeat(40)}fr`],
    ['x'.repeat(9)],
    [`en-${'a'.repeat(5000)}`],
  ])('case %# names neither French nor English', (header) => {
    expect(negotiateLocale(header)).toBeUndefined();
  });
});

describe('withVary', () => {
  it('adds Accept-Language once, keeping what is there', () => {
    expect(withVary(undefined, 'Accept-Language')).toBe('Accept-Language');
    expect(withVary('Origin', 'Accept-Language')).toBe('Origin, Accept-Language');
    expect(withVary('Origin, accept-language', 'Accept-Language')).toBe('Origin, accept-language');
    expect(withVary(['Origin', 'Accept-Encoding'], 'Accept-Language')).toBe(
      'Origin, Accept-Encoding, Accept-Language',
    );
    expect(withVary('*', 'Accept-Language')).toBe('*');
  });
});

describe('the language of an answer', () => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp({ config: { metricsToken: 'metrics-token-0123456789abcdef' } });
    user = await signIn(t);
  });
  afterAll(() => t.close());

  const health = (acceptLanguage?: string) =>
    t.app.inject({
      method: 'GET',
      url: '/api/',
      headers: acceptLanguage === undefined ? {} : { 'accept-language': acceptLanguage },
    });

  it.each([
    ['en', ENGLISH, 'en'],
    ['en-GB', ENGLISH, 'en'],
    ['en-CM;q=0.9, fr;q=0.8', ENGLISH, 'en'],
    ['fr;q=0.9, en;q=0.8', FRENCH, 'fr'],
    ['fr', FRENCH, 'fr'],
    ['*', FRENCH, 'fr'],
    ['de', FRENCH, 'fr'],
    ['en;q=2', FRENCH, 'fr'],
    ['en;q=-1', FRENCH, 'fr'],
    ['%%% ;;; ===', FRENCH, 'fr'],
    [`en-${'x'.repeat(7000)}`, FRENCH, 'fr'],
    [`${'en;q=0.1, '.repeat(200)}en`, FRENCH, 'fr'],
  ])('Accept-Language case %# answers %s', async (header, message, language) => {
    const response = await health(header);
    expect(response.statusCode).toBe(200);
    expect(response.json().message).toBe(message);
    expect(response.headers['content-language']).toBe(language);
    expect(response.headers.vary).toBe('Accept-Language');
  });

  it('without the header, answers the bytes it answered before English existed (plus the two headers)', async () => {
    const response = await health();
    expect(response.body).toBe(
      `{"user":null,"message":"${FRENCH}","data":{"status":"ok","version":"1.5.0","database":"ok","time":"2026-03-10T12:00:00.000000Z"},"errors":[]}`,
    );
    const { 'content-language': language, vary, ...before } = response.headers;
    expect(language).toBe('fr');
    expect(vary).toBe('Accept-Language');
    // The headers of GET /api/ before issue 40, names in order, values but the per-request ones.
    expect(Object.keys(before)).toEqual([
      'x-request-id',
      'content-security-policy',
      'cross-origin-opener-policy',
      'cross-origin-resource-policy',
      'origin-agent-cluster',
      'referrer-policy',
      'strict-transport-security',
      'x-content-type-options',
      'x-dns-prefetch-control',
      'x-download-options',
      'x-frame-options',
      'x-permitted-cross-domain-policies',
      'x-xss-protection',
      'x-ratelimit-limit',
      'x-ratelimit-remaining',
      'x-ratelimit-reset',
      'content-type',
      'content-length',
      'date',
      'connection',
    ]);
    expect(before['content-type']).toBe('application/json; charset=utf-8');
    expect(before['content-length']).toBe('154');
    expect(before['x-frame-options']).toBe('SAMEORIGIN');
    expect(before['cross-origin-resource-policy']).toBe('same-site');
  });

  it('merges Vary with the one CORS sets, never twice', async () => {
    const cors = await createTestApp({ config: { corsOrigins: ['https://web.example'] } });
    const response = await cors.app.inject({
      method: 'GET',
      url: '/api/',
      headers: { origin: 'https://web.example', 'accept-language': 'en' },
    });
    const vary = String(response.headers.vary)
      .split(',')
      .map((token) => token.trim().toLowerCase());
    expect(vary).toContain('origin');
    expect(vary.filter((token) => token === 'accept-language')).toHaveLength(1);
    expect(response.headers['content-language']).toBe('en');
    await cors.close();
  });

  it('the framework’s own errors speak English when asked, with the headers', async () => {
    const en = { 'accept-language': 'en' };
    const cases: [string, InjectOptions, number, string][] = [
      ['404', { method: 'GET', url: '/api/nowhere', headers: en }, 404, 'This route does not exist.'],
      ['405', { method: 'DELETE', url: '/api/', headers: en }, 405, 'Method not allowed for this route.'],
      [
        'malformed JSON',
        {
          method: 'POST',
          url: '/api/otp/generate',
          headers: { ...en, 'content-type': 'application/json' },
          payload: '{"phone":',
        },
        422,
        'The request body is not valid JSON.',
      ],
      [
        'empty body',
        {
          method: 'POST',
          url: '/api/otp/generate',
          headers: { ...en, 'content-type': 'application/json' },
          payload: '',
        },
        422,
        'The request body is empty.',
      ],
      [
        '415',
        {
          method: 'POST',
          url: '/api/otp/generate',
          headers: { ...en, 'content-type': 'text/plain' },
          payload: 'hello',
        },
        415,
        'Unsupported content type.',
      ],
      [
        '413',
        {
          method: 'POST',
          url: '/api/otp/generate',
          headers: { ...en, 'content-type': 'application/json' },
          payload: JSON.stringify({ phone: 'x'.repeat(t.config.bodyLimitBytes) }),
        },
        413,
        'The request body is too large.',
      ],
      ['malformed URL', { method: 'GET', url: '/api/%zz', headers: en }, 400, 'Invalid request.'],
      ['401', { method: 'GET', url: '/api/user/pronostics', headers: en }, 401, 'Not authenticated.'],
      [
        '422 validation',
        { method: 'POST', url: '/api/otp/generate', headers: en, payload: { country: 'CM', method: 'sms' } },
        422,
        'The phone field is required.',
      ],
    ];
    for (const [label, request, status, message] of cases) {
      const response = await t.app.inject(request);
      expect(response.statusCode, label).toBe(status);
      expect(response.json().message, label).toBe(message);
      expect(response.headers['content-language'], label).toBe('en');
      expect(response.headers.vary, label).toBe('Accept-Language');
    }
  });

  it('a 422 names the fields as they are and explains them in English', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/otp/generate',
      headers: { 'accept-language': 'en-GB' },
      payload: { phone: 5, country: 'CM', method: 'pigeon' },
    });
    expect(response.statusCode).toBe(422);
    expect(response.json().errors).toEqual({
      phone: ['The phone field must be a string.'],
      method: [expect.stringMatching(/^The method field must be one of: /)],
    });
  });

  it('served files and the metrics text carry neither header', async () => {
    for (const url of ['/avatars/default.png']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { 'accept-language': 'en' } });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-language'], url).toBeUndefined();
      expect(response.headers.vary, url).toBeUndefined();
    }
    const metrics = await t.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { 'accept-language': 'en', authorization: 'Bearer metrics-token-0123456789abcdef' },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.headers['content-language']).toBeUndefined();
    expect(metrics.headers.vary).toBeUndefined();
  });

  it('a signed-in answer is English too, its data unchanged', async () => {
    const french = await t.app.inject({ method: 'GET', url: '/api/user/pronostics', headers: user.headers });
    const english = await t.app.inject({
      method: 'GET',
      url: '/api/user/pronostics',
      headers: { ...user.headers, 'accept-language': 'en' },
    });
    expect(french.json().message).toBe('Vos pronostics.');
    expect(english.json().message).toBe('Your predictions.');
    expect(english.json().data).toEqual(french.json().data);
    expect(french.headers['content-language']).toBe('fr');
  });
});

describe('through a real socket', () => {
  let t: TestApp;
  let port: number;
  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(() => t.close());

  /** A request over TCP: the body arrives in chunks after the hooks ran, and the scope must hold. */
  function send(
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: string,
  ): Promise<{ status: number; headers: Record<string, unknown>; json: Record<string, unknown> }> {
    return new Promise((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({
            status: response.statusCode ?? 0,
            headers: response.headers,
            json: JSON.parse(Buffer.concat(chunks).toString('utf8')),
          }),
        );
      });
      request.on('error', reject);
      if (body !== undefined) {
        // Two writes: the body is read after the request's hooks have run.
        request.write(body.slice(0, 5));
        setTimeout(() => request.end(body.slice(5)), 20);
      } else request.end();
    });
  }

  it('a body read after the hooks still answers in the request’s language', async () => {
    const response = await send(
      'POST',
      '/api/otp/generate',
      { 'content-type': 'application/json', 'accept-language': 'en-CM;q=0.9, fr;q=0.8' },
      JSON.stringify({ phone: '+23767', country: 'CM', method: 'sms' }),
    );
    expect(response.status).toBe(422);
    expect(String(response.json.message)).toMatch(/^The /);
    expect(response.headers['content-language']).toBe('en');
  });

  it('a malformed header over the wire is French, not an error', async () => {
    const response = await send('GET', '/api/', { 'accept-language': 'en;q=9, ,;;' });
    expect(response.status).toBe(200);
    expect(response.json.message).toBe(FRENCH);
    expect(response.headers['content-language']).toBe('fr');
  });
});

describe('the OpenAPI document', () => {
  it('declares the language headers on every envelope and on no file, and says the rules', async () => {
    const t = await createTestApp();
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    await t.close();
    expect(document.info.description).toMatch(/Accept-Language/);
    expect(document.info.description).toMatch(/Content-Language/);
    expect(document.components.headers.ContentLanguage.schema.enum).toEqual(['fr', 'en']);
    let envelopes = 0;
    let files = 0;
    type Response = { content?: Record<string, { schema?: { properties?: object } }>; headers?: object };
    for (const [path, operations] of Object.entries(
      document.paths as Record<string, Record<string, { responses: Record<string, Response> }>>,
    )) {
      for (const [method, operation] of Object.entries(operations)) {
        for (const [status, response] of Object.entries(operation.responses)) {
          const where = `${method} ${path} ${status}`;
          const properties = response.content?.['application/json']?.schema?.properties;
          if (properties && 'message' in properties) {
            envelopes += 1;
            expect(response.headers, where).toEqual({
              'Content-Language': { $ref: '#/components/headers/ContentLanguage' },
              Vary: { $ref: '#/components/headers/VaryAcceptLanguage' },
            });
          } else {
            files += 1;
            expect(response.headers ?? {}, where).not.toHaveProperty('Content-Language');
          }
        }
      }
    }
    expect(envelopes).toBeGreaterThan(500);
    expect(files).toBeGreaterThan(3);
  });
});

describe('rate limits', () => {
  it('the general limit and a route’s own limit (@fastify/rate-limit) answer 429 in English', async () => {
    const t = await createTestApp({ config: { rateLimitPerMinute: 2 } });
    const en = { 'accept-language': 'en' };
    const ip = '198.51.100.77';
    for (let i = 0; i < 2; i++) await t.app.inject({ method: 'GET', url: '/api/', remoteAddress: ip });
    const general = await t.app.inject({ method: 'GET', url: '/api/', headers: en, remoteAddress: ip });
    expect(general.statusCode).toBe(429);
    expect(general.json().message).toBe('Too many requests. Try again later.');
    expect(general.headers['content-language']).toBe('en');
    await t.close();

    const r = await createTestApp({ config: { rateLimitPerMinute: 1000 } });
    let last = await r.app.inject({ method: 'POST', url: '/api/otp/verify', headers: en, payload: {} });
    for (let i = 0; i < 40 && last.statusCode !== 429; i++)
      last = await r.app.inject({ method: 'POST', url: '/api/otp/verify', headers: en, payload: {} });
    expect(last.statusCode).toBe(429);
    expect(last.json().message).toBe('Too many requests. Try again later.');
    expect(last.headers['content-language']).toBe('en');
    await r.close();
  });
});
