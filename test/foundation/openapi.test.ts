import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';

describe('OpenAPI', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('serves an OpenAPI 3.1 document', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json();
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toBe('1.5.0');
  });

  it('lists every API route the app serves', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const documented = new Set<string>();
    for (const [path, operations] of Object.entries(document.paths as Record<string, object>)) {
      for (const method of Object.keys(operations)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    // Every route the app serves, bar the docs page's own assets and HEAD twins, is in the document.
    const served = t.app.routeCatalog.filter(
      (route) =>
        !route.hidden &&
        route.method !== 'HEAD' &&
        route.url.startsWith('/api') &&
        !route.url.startsWith('/api/docs'),
    );
    expect(served.length).toBeGreaterThan(0);
    for (const route of served) {
      const path = route.url.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(documented, `${route.method} ${route.url}`).toContain(`${route.method} ${path}`);
    }
  });

  it('serves the interactive reference from local assets', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api/docs/' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).not.toMatch(/https?:\/\/(?:cdn|unpkg|fonts)\./);
    const scripts = [...page.body.matchAll(/src="([^"]+)"/g)].map((match) => match[1] as string);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^https?:/);
      const asset = await t.app.inject({ method: 'GET', url: new URL(src, 'http://x/api/docs/').pathname });
      expect(asset.statusCode, src).toBe(200);
    }
  });
});

describe('operation ids and security', () => {
  it('every operation has a unique operationId and says its security (public ones with [])', async () => {
    const { createTestApp } = await import('../helpers.js');
    const { operationIdOf } = await import('../../src/plugins/external/openapi.js');
    expect(operationIdOf('GET', '/api/user/pronostic/{id}')).toBe('getUserPronosticById');
    expect(operationIdOf('POST', '/api/admin/withdrawals/{id}/resolve')).toBe(
      'postAdminWithdrawalsByIdResolve',
    );
    expect(operationIdOf('GET', '/api/')).toBe('getIndex');
    const t = await createTestApp();
    try {
      const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json() as {
        paths: Record<
          string,
          Record<string, { operationId?: string; security?: unknown[]; responses: object }>
        >;
      };
      const ids: string[] = [];
      for (const [path, operations] of Object.entries(document.paths)) {
        for (const [method, operation] of Object.entries(operations)) {
          expect(operation.operationId, `${method} ${path}`).toBeTruthy();
          expect(Array.isArray(operation.security), `${method} ${path}: security`).toBe(true);
          expect(
            Object.keys(operation.responses).some((status) => status.startsWith('4')),
            `${method} ${path}: a 4xx`,
          ).toBe(true);
          ids.push(operation.operationId!);
        }
      }
      expect(new Set(ids).size).toBe(ids.length);
      expect(document.paths['/api/']?.get?.security).toEqual([]);
      const avatar = document.paths['/avatars/{file}']?.get?.responses as Record<
        string,
        { content?: object }
      >;
      expect(Object.keys(avatar['200']?.content ?? {})).toEqual(['image/webp']);
    } finally {
      await t.close();
    }
  });
});
