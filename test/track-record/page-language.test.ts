// The /track-record page in French and English, through HTTP: the language rule (?lang, the `lang`
// cookie the switch sets, Accept-Language, French), `<html lang>` and the headers as sent, the
// French page byte for byte as it was before English (the switch aside), and the page's script in
// the page's language, asking the API in it too.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/lib/catalogues/en.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import { expectLanguageRule, expectSwitch, getPage } from '../browser/page-language.js';
import { createTestApp, type TestApp } from '../helpers.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
/** The page and its script as they were sent before English existed. */
const PAGE_BEFORE = readFileSync(join(FIXTURES, 'page-fr-before.html.txt'), 'utf8');
const SCRIPT_BEFORE = readFileSync(join(FIXTURES, 'app-fr-before.js.txt'), 'utf8');

/** Every text of a catalogue part, functions called with markers, arrays and objects walked. */
function textsOf(part: unknown): string[] {
  if (typeof part === 'string') return [part];
  if (typeof part === 'function') return (part as (...a: string[]) => string)('¤', '¤', '¤', '¤').split('¤');
  if (part && typeof part === 'object') return Object.values(part).flatMap(textsOf);
  return [];
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('GET /track-record in its reader’s language', () => {
  it('follows ?lang, then the lang cookie, then Accept-Language, then French', async () => {
    await expectLanguageRule(t, '/track-record', {
      fr: 'Bilan de nos pronostics',
      en: 'Track record of our predictions',
    });
  });

  it('carries a FR / EN switch whose links set the cookie a later visit is rendered with', async () => {
    await expectSwitch(t, '/track-record');
  });

  it('sends the French page as before, the switch and the 18+ mark aside, with its script at the same address', async () => {
    const page = await getPage(t, '/track-record');
    const withoutSwitch = page.body
      .replace(/<nav class="lang"[^\n]*<\/nav>\n/, '')
      .replace(/ {2}nav\.lang \{[^\n]*\n/, '')
      .replace(/<p class="adults">[^\n]*<\/p>\n/, '')
      .replace(/ {2}p\.adults \{[^\n]*\n/, '');
    expect(withoutSwitch).toBe(PAGE_BEFORE);
    expect(page.body).toContain('<script src="/track-record/app.js" defer></script>');
  });

  it('writes the English page with no French text left in it', async () => {
    const page = await getPage(t, '/track-record?lang=en');
    expect(page.body).toContain('<title>Track record of our predictions</title>');
    expect(page.body).toContain('<h2>How we settle</h2>');
    expect(page.body).toContain('<script src="/track-record/app.js?lang=en" defer></script>');
    const english = new Set(textsOf(en.pages.trackRecord));
    const french = textsOf(fr.pages.trackRecord).filter(
      (text) => text.trim().length > 3 && !english.has(text),
    );
    for (const text of french) expect(page.body, text).not.toContain(text);
  });
});

describe('GET /track-record/app.js', () => {
  it('is the French script as before, asking the API in French', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/track-record/app.js' });
    expect(response.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(response.body).toBe(
      SCRIPT_BEFORE.replace(
        "{ headers: { accept: 'application/json' } }",
        "{ headers: { accept: 'application/json', 'accept-language': 'fr' } }",
      ),
    );
  });

  it('is English for ?lang=en: English labels, English numbers, and the API asked in English', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/track-record/app.js?lang=en' });
    const script = response.body;
    expect(script).toContain(
      "['Period', 'Settled', 'Won', 'Lost', 'Cancelled', 'Hit rate', 'Mean confidence']",
    );
    expect(script).toContain("toLocaleString('en-GB'");
    expect(script).toContain("'accept-language': 'en'");
    expect(script).not.toContain('fr-FR');
    for (const word of ['Réglées', 'Période', 'Mis à jour', 'bookmakers apparaîtront', "+ ' %'"]) {
      expect(script, word).not.toContain(word);
    }
    // Still a script the browser parses (the texts are quoted, apostrophes included).
    expect(() => new Function(script)).not.toThrow();
  });
});
