// The console's index.html in its reader's language (src/modules/console/routes.ts): the same rule
// as the public pages (?lang, the `lang` cookie the console's FR / EN switch sets, Accept-Language,
// French), said by `<html lang>` in the HTML as sent, with Content-Language and
// `Vary: Accept-Language, Cookie`; the console reads its language from there. On a small build
// folder the test writes itself, as serving.test.ts does.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getPage, ONE_YEAR } from '../browser/page-language.js';
import { createTestApp, type TestApp } from '../helpers.js';

const INDEX =
  '<!doctype html>\n<html lang="fr">\n<head><title>Pronostics – Administration</title></head><body><div id="app"></div><script type="module" src="/admin/assets/index-abc123.js"></script></body></html>';

describe('the console’s index.html in its reader’s language', () => {
  let t: TestApp;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'console-language-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), INDEX);
    await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log("console");');
    t = await createTestApp({ config: { consoleDir: dir } });
  });
  afterAll(async () => {
    await t?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('is the build’s own French index when nothing asks for English', async () => {
    for (const sent of [{}, { accept: 'fr-CM, en;q=0.5' }, { accept: 'de' }, { cookie: 'lang=xx' }]) {
      const page = await getPage(t, '/admin/retraits', sent);
      expect(page.body, JSON.stringify(sent)).toBe(INDEX);
      expect(page.headers['content-language']).toBe('fr');
      expect(page.headers.vary).toBe('Accept-Language, Cookie');
      expect(page.headers['cache-control']).toBe('no-cache');
    }
  });

  it('is served in English to Accept-Language: en, to the lang=en cookie, and to ?lang=en', async () => {
    for (const [url, sent] of [
      ['/admin', { accept: 'en-GB' }],
      ['/admin/utilisateurs/12', { accept: 'fr', cookie: 'lang=en' }],
      ['/admin/?lang=en', { accept: 'fr', cookie: 'lang=fr' }],
    ] as const) {
      const page = await getPage(t, url, sent);
      expect(page.status).toBe(200);
      expect(page.lang, url).toBe('en');
      expect(page.body).toBe(INDEX.replace('<html lang="fr">', '<html lang="en">'));
      expect(page.headers['content-language']).toBe('en');
      expect(page.headers.vary).toBe('Accept-Language, Cookie');
    }
  });

  it('follows ?lang before the cookie, and the switch’s answer sets the cookie for a year', async () => {
    const page = await getPage(t, '/admin/journal?lang=fr', { accept: 'en', cookie: 'lang=en' });
    expect(page.lang).toBe('fr');
    expect(page.headers['set-cookie']).toBe(`lang=fr; Path=/; SameSite=Lax; Max-Age=${ONE_YEAR}`);
    expect(page.headers['cache-control']).toBe('private, no-cache');
    const invalid = await getPage(t, '/admin/journal?lang=de', { cookie: 'lang=en' });
    expect(invalid.lang).toBe('en');
    expect(invalid.headers['set-cookie']).toBeUndefined();
  });

  it('leaves the assets alone: no language on a hashed file', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/admin/assets/index-abc123.js',
      headers: { 'accept-language': 'en' },
    });
    expect(response.headers['content-language']).toBeUndefined();
    expect(response.body).toBe('console.log("console");');
  });
});
