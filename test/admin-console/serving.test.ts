// How the service serves the console's build at /admin (src/modules/console/routes.ts), on a
// small build folder the test writes itself: index.html for /admin and every deep link (no-cache),
// hashed assets cached for good, nothing outside assets/, the CSP on every answer, and a clear 503
// while the console is not built.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';

const INDEX =
  '<!doctype html><html lang="fr"><script type="module" src="/admin/assets/index-abc123.js"></script></html>';
const SCRIPT = 'console.log("console");';

describe('the console at /admin', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'console-build-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'assets', 'index-abc123.js'), SCRIPT);
    await writeFile(join(dir, 'secret.txt'), 'not an asset');
    t = await createTestApp({ config: { consoleDir: dir } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers index.html for /admin and for any deep link, not cached, under the CSP', async () => {
    for (const url of [
      '/admin',
      '/admin/',
      '/admin/retraits',
      '/admin/utilisateurs/12',
      '/admin/support/3',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.body).toBe(INDEX);
    }
  });

  it('serves a hashed asset with its type, cached for a year', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/admin/assets/index-abc123.js' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(response.body).toBe(SCRIPT);
  });

  it('answers 404 for a missing asset and never serves a file outside assets/', async () => {
    for (const url of [
      '/admin/assets/nope-123.js',
      '/admin/assets/../secret.txt',
      '/admin/assets/%2e%2e/secret.txt',
      '/admin/assets/..%2fsecret.txt',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body, url).not.toContain('not an asset');
      if (response.statusCode !== 200) expect(response.statusCode, url).toBe(404);
      else expect(response.body, url).toBe(INDEX);
    }
  });

  it('says the console is not built, in a 503, when the folder has no build', async () => {
    const bare = await createTestApp({ config: { consoleDir: join(dir, 'missing') } });
    try {
      for (const url of ['/admin', '/admin/retraits']) {
        const response = await bare.app.inject({ method: 'GET', url });
        expect(response.statusCode).toBe(503);
        expect(response.headers['content-type']).toBe('text/plain; charset=utf-8');
        expect(response.body).toContain('npm run build');
      }
    } finally {
      await bare.close();
    }
  });
});
