// How the service serves the web app's build at /app/ (src/modules/webapp/routes.ts), on a small
// build folder the test writes itself: `/` and `/app` send the browser to /app/; index.html for
// /app/ and every deep link, and sw.js, revalidated (no-cache); hashed assets immutable; each file
// precompressed by Accept-Encoding (br, then gzip, else as is) with `Vary: Accept-Encoding`;
// nothing outside the build; a 503 that says so while the app is not built.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers.js';

const INDEX =
  '<!doctype html><html lang="fr"><script type="module" src="/app/assets/index-abc123.js"></script></html>';
const SCRIPT = 'console.log("app");';
const WORKER = 'self.addEventListener("fetch", () => {});';

async function writeWithCopies(file: string, text: string) {
  await writeFile(file, text);
  await writeFile(`${file}.br`, brotliCompressSync(Buffer.from(text)));
  await writeFile(`${file}.gz`, gzipSync(Buffer.from(text)));
}

describe('the web app at /app/', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'webapp-build-'));
    const build = join(dir, 'build');
    await mkdir(join(build, 'assets'), { recursive: true });
    await mkdir(join(build, 'icons'));
    await writeWithCopies(join(build, 'index.html'), INDEX);
    await writeWithCopies(join(build, 'assets', 'index-abc123.js'), SCRIPT);
    await writeWithCopies(join(build, 'sw.js'), WORKER);
    await writeFile(join(build, 'manifest.webmanifest'), '{"name":"Pronostics"}');
    await writeFile(join(build, 'icons', 'icon-192.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    // A file beside the build (the folder is a subfolder here), which no URL may reach.
    await writeFile(join(dir, 'outside.txt'), 'not a build file');
    t = await createTestApp({ config: { webappDir: join(dir, 'build') } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('sends / and /app to /app/ (302)', async () => {
    for (const url of ['/', '/app']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(302);
      expect(response.headers.location).toBe('/app/');
    }
  });

  it('answers index.html for /app/ and every deep link, revalidated, under the CSP', async () => {
    for (const url of ['/app/', '/app/analyses/12', '/app/wallet', '/app/referrals/withdraw']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(response.headers['cache-control']).toBe('no-cache');
      expect(response.headers['content-security-policy']).toContain("script-src 'self'");
      expect(response.body).toBe(INDEX);
    }
  });

  it('sends the brotli copy when accepted, else the gzip one, else the file, always with Vary', async () => {
    const url = '/app/assets/index-abc123.js';
    const br = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip, deflate, br' },
    });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const gzip = await t.app.inject({
      method: 'GET',
      url,
      headers: { 'accept-encoding': 'gzip;q=1, br;q=0' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe(SCRIPT);
    const plain = await t.app.inject({ method: 'GET', url });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
    for (const response of [br, gzip, plain]) {
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(response.headers.vary).toContain('Accept-Encoding');
    }
  });

  it('revalidates the service worker’s script, and serves the manifest and icons with their types', async () => {
    const worker = await t.app.inject({
      method: 'GET',
      url: '/app/sw.js',
      headers: { 'accept-encoding': 'br' },
    });
    expect(worker.headers['cache-control']).toBe('no-cache');
    expect(brotliDecompressSync(worker.rawPayload).toString()).toBe(WORKER);
    const manifest = await t.app.inject({ method: 'GET', url: '/app/manifest.webmanifest' });
    expect(manifest.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    const icon = await t.app.inject({
      method: 'GET',
      url: '/app/icons/icon-192.png',
      headers: { 'accept-encoding': 'br' },
    });
    expect(icon.headers['content-type']).toBe('image/png');
    expect(icon.headers['content-encoding']).toBeUndefined();
  });

  it('answers 404 for a missing file and never a file outside the build', async () => {
    for (const url of [
      '/app/assets/nope-123.js',
      '/app/../outside.txt',
      '/app/%2e%2e/outside.txt',
      '/app/assets/..%2f..%2foutside.txt',
      '/app/index.html.br',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.body, url).not.toContain('not a build file');
      expect([404, 200], url).toContain(response.statusCode);
      if (response.statusCode === 200) expect(response.body, url).toBe(INDEX);
    }
  });

  it('says the app is not built, in a 503, when the folder has no build', async () => {
    const bare = await createTestApp({ config: { webappDir: join(dir, 'missing') } });
    try {
      const response = await bare.app.inject({ method: 'GET', url: '/app/' });
      expect(response.statusCode).toBe(503);
      expect(response.body).toBe(
        'Application web non construite : lancez `npm run build` (ou `npm start`, qui la construit).\n',
      );
      const english = await bare.app.inject({
        method: 'GET',
        url: '/app/',
        headers: { 'accept-language': 'en' },
      });
      expect(english.body).toBe(
        'The web app is not built: run `npm run build` (or `npm start`, which builds it).\n',
      );
    } finally {
      await bare.close();
    }
  });
});
