// The public pages and the admin console in French and in English, in Debian's Chromium
// (playwright-core), at 390 and 1280 px. One browser context per language: the French one asks
// for French (Accept-Language), the English one starts French too and clicks the EN switch on the
// track-record page, so the cookie it sets carries English to the deletion page and the console.
// Each screen's `<html lang>` is checked in the HTML as sent and its heading in the page; the
// console's own calls to the service name its language. The screenshots are written to
// .ci/out/languages/, or to docs/img/languages/ with `npm run docs:screenshots` (SCREENSHOTS_DIR).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleFixture, startConsole } from '../admin-console/setup.js';
import { OUT, runBrowserTests, WIDTHS, warnWithoutChromium } from './page-checks.js';

warnWithoutChromium('pages and console languages test');

const DIR = process.env.SCREENSHOTS_DIR ?? join(OUT, 'languages');

const HEADINGS = {
  fr: {
    'track-record': 'Bilan de nos pronostics',
    'account-delete': 'Supprimer mon compte',
    console: 'Tableau de bord',
  },
  en: {
    'track-record': 'Track record of our predictions',
    'account-delete': 'Delete my account',
    console: 'Dashboard',
  },
} as const;

describe.skipIf(!runBrowserTests)('the pages and the console in French and English', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
    await mkdir(DIR, { recursive: true });
  }, 180_000);
  afterAll(async () => {
    await f?.close();
  });

  /** Opens `path`, checks `<html lang>` as sent and once drawn, and the page's `<h1>`. */
  async function open(page: Page, path: string, lang: 'fr' | 'en', ready: string, heading: string) {
    const response = await page.goto(`${f.base}${path}`);
    expect(response?.status(), path).toBe(200);
    expect(await response?.text(), path).toMatch(new RegExp(`^<!doctype html>\\s*<html lang="${lang}"`, 'i'));
    expect(response?.headers()['content-language'], path).toBe(lang);
    await page.waitForSelector(ready, { timeout: 15_000 });
    expect(await page.evaluate('document.documentElement.lang'), path).toBe(lang);
    expect((await page.textContent('h1'))?.trim(), path).toBe(heading);
  }

  async function shoot(page: Page, name: string, width: number) {
    await page.setViewportSize({ width, height: 900 });
    // Charts and tables redraw at the new width before the picture.
    await page.waitForTimeout(300);
    const file = join(DIR, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    expect(existsSync(file)).toBe(true);
  }

  for (const lang of ['fr', 'en'] as const) {
    it(`shows the track record, the deletion page and the console in ${lang === 'fr' ? 'French' : 'English'}`, async () => {
      const context: BrowserContext = await f.browser.newContext({
        locale: 'fr-FR',
        viewport: { width: WIDTHS[1], height: 900 },
      });
      const page = await f.newPage(context);
      const headings = HEADINGS[lang];
      // The track record; the English reader gets there with the page's own switch.
      await open(page, '/track-record', 'fr', '#status[data-ready="true"]', HEADINGS.fr['track-record']);
      if (lang === 'en') {
        await Promise.all([page.waitForURL(/\?lang=en$/), page.click('nav.lang a[hreflang="en"]')]);
        await page.waitForSelector('#status[data-ready="true"]');
        expect((await context.cookies()).find((c) => c.name === 'lang')?.value).toBe('en');
        expect((await page.textContent('h1'))?.trim()).toBe(headings['track-record']);
        expect(await page.evaluate('document.documentElement.lang')).toBe('en');
      }
      for (const width of WIDTHS) await shoot(page, `track-record-${lang}`, width);

      await page.setViewportSize({ width: WIDTHS[1], height: 900 });
      await open(
        page,
        '/account/delete',
        lang,
        '#status[data-step="phone-form"]',
        headings['account-delete'],
      );
      for (const width of WIDTHS) await shoot(page, `account-delete-${lang}`, width);

      // The console, signed in with an admin's token; every call it makes names its language.
      const asked = new Set<string>();
      page.on('request', (request) => {
        if (new URL(request.url()).pathname.startsWith('/api/')) {
          asked.add(request.headers()['accept-language'] ?? '(none)');
        }
      });
      await page.setViewportSize({ width: WIDTHS[1], height: 900 });
      await page.goto(`${f.base}/admin`);
      await page.evaluate(
        `sessionStorage.setItem('pronostics.admin.token', ${JSON.stringify(f.admin.token)})`,
      );
      await open(page, '/admin', lang, '[data-cell="today:signups"]', headings.console);
      expect(await page.getAttribute('nav.lang a[aria-current="true"]', 'hreflang')).toBe(lang);
      for (const width of WIDTHS) await shoot(page, `console-${lang}`, width);
      expect([...asked]).toEqual([lang]);
      await context.close();
    }, 120_000);
  }

  it('made no page error', () => {
    expect(f.pageErrors).toEqual([]);
  });
});
