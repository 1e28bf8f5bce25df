// Helmet's headers are recorded once and handed to Fastify on every request: every kind of answer
// (a 200, an unknown route, a refused token, a bad body) carries exactly the
// headers helmet's own middleware sets on a real response, and nothing sets headers on the raw
// response, so Node writes Fastify's header object as it is.
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import helmet from 'helmet';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { helmetOptions } from '../../src/plugins/external/security.js';
import { createTestApp, type TestApp } from '../helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** What helmet's middleware sets on a real Node response. */
function helmetOnARealResponse(): Record<string, unknown> {
  const response = new ServerResponse(new IncomingMessage(new Socket()));
  helmet(helmetOptions)(response.req, response, (error?: unknown) => {
    if (error) throw error;
  });
  return response.getHeaders();
}

describe('security headers', () => {
  it('are helmet’s own, on every kind of answer', async () => {
    const expected = helmetOnARealResponse();
    expect(Object.keys(expected).length).toBeGreaterThan(10);
    const answers = [
      { method: 'GET' as const, url: '/api/', status: 200 },
      { method: 'GET' as const, url: '/api/no-such-route', status: 404 },
      { method: 'GET' as const, url: '/api/user/pronostics', status: 401 },
      { method: 'POST' as const, url: '/api/otp/generate', payload: { phone: 'x' }, status: 422 },
    ];
    for (const { status, ...request } of answers) {
      const response = await t.app.inject(request);
      expect(response.statusCode, request.url).toBe(status);
      for (const [name, value] of Object.entries(expected)) {
        expect(response.headers[name], `${request.url} ${name}`).toBe(value);
      }
    }
  });

  it('leave the raw response untouched, so Node takes its fast path', async () => {
    let rawHeadersSet = 0;
    const probe = await createTestApp({
      beforeReady: (app) => {
        app.addHook('onSend', async (_request, reply) => {
          rawHeadersSet = reply.raw.getHeaderNames().length;
        });
      },
    });
    try {
      expect((await probe.app.inject({ method: 'GET', url: '/api/' })).statusCode).toBe(200);
      expect(rawHeadersSet).toBe(0);
    } finally {
      await probe.close();
    }
  });
});
