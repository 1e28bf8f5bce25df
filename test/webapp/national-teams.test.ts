// The national teams on the web app's home screen (issue 52), in Debian's Chromium in French and in
// English: for a Cameroonian account (+237), the Lions' next match, then the Africa Cup of Nations'
// upcoming matches, come first, before the credits and the other fixtures; national teams named in
// the screens' language ("Cameroun – Nigéria", "Cameroon – Nigeria"). Who is Cameroonian, and the
// list without the matches shown first, are checked without a browser too.
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../webapp/src/i18n/en.js';
import { fr } from '../../webapp/src/i18n/fr.js';
import { isCameroonian, withoutShown } from '../../webapp/src/lions.js';
import { launchChromium, runBrowserTests, warnWithoutChromium } from '../browser/page-checks.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, nextPhone, type TestApp } from '../helpers.js';
import { buildWebapp, signInThroughUi } from './setup.js';

warnWithoutChromium('national teams home screen browser tests');

describe('the Lions first', () => {
  it('reads a Cameroonian account from its phone, and leaves out the fixtures shown first', () => {
    expect(isCameroonian('+237690000000')).toBe(true);
    expect(isCameroonian('+33612345678')).toBe(false);
    expect(isCameroonian(null)).toBe(false);
    expect(withoutShown([{ id: 1 }, { id: 2 }, { id: 3 }], [{ id: 2 }])).toEqual([{ id: 1 }, { id: 3 }]);
  });
});

describe.runIf(runBrowserTests)('the home screen of a Cameroonian account', { timeout: 180_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let buildDir: string;

  beforeAll(async () => {
    buildDir = await buildWebapp('webapp-lions-');
    t = await createTestApp({ config: { webappDir: buildDir, rateLimit: false } });
    const inDays = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();
    await seedFixture(t, { home: 'Arsenal', away: 'Chelsea', kickoffAt: inDays(1) });
    await seedFixture(t, { league: 'INT-AFCON', home: 'Ghana', away: 'Mali', kickoffAt: inDays(2) });
    await seedFixture(t, { league: 'INT-AFCON', home: 'Cameroon', away: 'Nigeria', kickoffAt: inDays(3) });
    await seedFixture(t, { league: 'INT-FRIENDLY', home: 'Cameroon', away: 'Gabon', kickoffAt: inDays(40) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    const { rm } = await import('node:fs/promises');
    await rm(buildDir, { recursive: true, force: true });
  });

  it.each([
    ['fr', fr, 'fr-FR', 'Cameroun – Nigéria'],
    ['en', en, 'en-GB', 'Cameroon – Nigeria'],
  ] as const)(
    'shows the Lions’ next match and the tournament first (%s)',
    async (language, L, locale, lions) => {
      const context = await browser.newContext({
        bypassCSP: true,
        locale,
        viewport: { width: 390, height: 844 },
      });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${base}/app/?lang=${language}`);
      const phone = nextPhone();
      expect(phone.startsWith('+237')).toBe(true);
      await signInThroughUi(page, t, phone, L);
      const first = page.locator('section[data-section="lions"]');
      await first.getByRole('heading', { name: L.lionsNextMatch }).waitFor();
      expect(await first.locator('li').count()).toBe(1);
      expect(await first.textContent()).toContain(lions);
      const tournament = page.locator('section[data-section="tournament"]');
      expect(await tournament.textContent()).toContain('Ghana – Mali');
      expect(await tournament.textContent()).not.toContain(lions);
      // Both come before the credits and the other fixtures, which no longer repeat them.
      const order = (await page.evaluate(
        `[...document.querySelectorAll('section[data-section], p.credits')].map((node) => node.getAttribute('data-section') ?? node.className)`,
      )) as string[];
      expect(order.slice(0, 3)).toEqual(['lions', 'tournament', 'credits']);
      const others = (await page.locator('section[aria-labelledby="fixtures-title"]').textContent()) ?? '';
      expect(others).toContain('Arsenal – Chelsea');
      expect(others).not.toContain('Ghana – Mali');
      expect(errors).toEqual([]);
      await context.close();
    },
  );
});
