// The /account/delete page in French and English, through HTTP: the language rule (?lang, the
// `lang` cookie the switch sets, Accept-Language, French), `<html lang>` and the headers as sent;
// what the page says is kept (issue 42: the phone on financial records for 10 years, the OHADA
// retention, erased afterwards; gone everywhere else at deletion), in both languages; the French
// page as before otherwise; and the script in the page's language, asking the API in it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectLanguageRule, expectSwitch, getPage } from '../browser/page-language.js';
import { createTestApp, type TestApp } from '../helpers.js';

/** The French page as it was sent before English and before issue 42's wording. */
const PAGE_BEFORE = readFileSync(join(import.meta.dirname, 'fixtures', 'page-fr-before.html.txt'), 'utf8');

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

const listItems = (body: string) => [...body.matchAll(/<li>(.*?)<\/li>/g)].map((m) => m[1]!);

describe('GET /account/delete in its reader’s language', () => {
  it('follows ?lang, then the lang cookie, then Accept-Language, then French', async () => {
    await expectLanguageRule(t, '/account/delete', { fr: 'Supprimer mon compte', en: 'Delete my account' });
  });

  it('carries a FR / EN switch whose links set the cookie a later visit is rendered with', async () => {
    await expectSwitch(t, '/account/delete');
  });

  it('says what is kept, and for how long, in French: the phone on financial records for 10 years', async () => {
    const page = await getPage(t, '/account/delete');
    const items = listItems(page.body);
    const kept = items.find((item) => item.startsWith('Conservés'));
    expect(kept).toBe(
      'Conservés 10 ans avec le numéro de téléphone qui a payé ou reçu l’argent : les paiements, les retraits, les versements et les mouvements du solde. C’est la durée de conservation des pièces comptables fixée par le droit comptable OHADA ; passé ce délai, le numéro en est effacé automatiquement.',
    );
    const deleted = items.find((item) => item.startsWith('Supprimés'));
    expect(deleted).toContain(
      'votre numéro de téléphone (partout, journal d’audit compris, sauf dans les opérations financières ci-dessous)',
    );
    // The old promise, untrue since the phone stays on those records, is gone.
    expect(page.body).not.toContain('sans votre identité');
  });

  it('says the same in English', async () => {
    const page = await getPage(t, '/account/delete', { accept: 'en' });
    const items = listItems(page.body);
    expect(items.find((item) => item.startsWith('Kept'))).toBe(
      'Kept for 10 years with the phone number that paid or received the money: payments, withdrawals, payouts and balance movements. This is the retention period for accounting records set by OHADA accounting law; after it, the number is erased from them automatically.',
    );
    expect(items.find((item) => item.startsWith('Deleted'))).toContain(
      'your phone number (everywhere, the audit log included, except in the financial records below)',
    );
    expect(page.body).toContain('<label>Phone number');
    expect(page.body).toContain('<option value="CM" selected>Cameroon (+237)</option>');
    expect(page.body).toContain('<script src="/account/delete/app.js?lang=en" defer></script>');
  });

  it('sends the French page as before but for the switch, the 18+ mark and those two sentences', async () => {
    const page = await getPage(t, '/account/delete');
    const now = page.body
      .replace(/<nav class="lang"[^\n]*<\/nav>\n/, '')
      .replace(/ {2}nav\.lang \{[^\n]*\n/, '')
      .replace(/<p class="adults">[^\n]*<\/p>\n/, '')
      .replace(/ {2}p\.adults \{[^\n]*\n/, '')
      .split('\n');
    const before = PAGE_BEFORE.split('\n');
    expect(now.length).toBe(before.length);
    const changed = now.filter((line, index) => line !== before[index]);
    expect(changed.map((line) => line.slice(0, 16))).toEqual(['  <li>Supprimés ', '  <li>Conservés ']);
  });
});

describe('GET /account/delete/app.js', () => {
  it('asks the API in the page’s language and speaks it', async () => {
    const french = (await t.app.inject({ method: 'GET', url: '/account/delete/app.js' })).body;
    expect(french).toContain("'accept-language': 'fr'");
    expect(french).toContain(
      "show('ok', 'Saisissez le numéro de téléphone de votre compte pour commencer.');",
    );
    const english = (await t.app.inject({ method: 'GET', url: '/account/delete/app.js?lang=en' })).body;
    expect(english).toContain("'accept-language': 'en'");
    expect(english).toContain("show('ok', 'Enter your account’s phone number to start.');");
    expect(english).toContain("'A sign-in code has been sent to ' + phone + '.'");
    expect(english).not.toMatch(/Réessayez|Saisissez|envoyé/);
    expect(() => new Function(english)).not.toThrow();
  });
});
