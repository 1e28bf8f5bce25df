// The new-analysis screen's competition picker in Debian's Chromium (issue 50), in French and in
// English at 390 and 1280 px: every fixture named with its competition and country, the picker
// grouping the catalogue by country (the competitions of no country last) with a search that
// ignores accents, choosing a competition loads its fixtures, an analysis made from it puts it
// first among the recent ones (on this device, per account), a cup fixture's stage after its
// competition (decision 0161), names (the types' too) in the screens'
// language; no overflow (200 % zoom too), axe clean, and usable with the keyboard alone.
// `GET /api/competitions` is the service's own route over its catalogue (every division and extra
// league, most with nothing scheduled here).
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pronostics } from '../../src/db/schema/index.js';
import { competitionName } from '../../src/lib/competitions.js';
import { en } from '../../webapp/src/i18n/en.js';
import { fr } from '../../webapp/src/i18n/fr.js';
import {
  FIND_OVERFLOW,
  launchChromium,
  OUT,
  runBrowserTests,
  seriousAxeViolations,
  WIDTHS,
  warnWithoutChromium,
} from '../browser/page-checks.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, grantCredits, nextPhone, type TestApp } from '../helpers.js';
import { buildWebapp, signInThroughUi, type Texts } from './setup.js';

warnWithoutChromium('competition picker browser tests');

const LANGUAGES = [
  ['fr', fr, 'fr-FR', { spain: 'Espagne', germany: 'Allemagne', england: 'Angleterre', brazil: 'Brésil' }],
  ['en', en, 'en-GB', { spain: 'Spain', germany: 'Germany', england: 'England', brazil: 'Brazil' }],
] as const;

describe.runIf(runBrowserTests)('the competition picker in a browser', { timeout: 180_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let buildDir: string;

  beforeAll(async () => {
    buildDir = await buildWebapp('webapp-picker-');
    t = await createTestApp({
      config: { webappDir: buildDir, rateLimit: false },
    });
    const inDays = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();
    await seedFixture(t, { home: 'Arsenal', away: 'Chelsea', kickoffAt: inDays(2) });
    await seedFixture(t, { league: 'SP1', home: 'Barcelona', away: 'Girona', kickoffAt: inDays(3) });
    await seedFixture(t, { league: 'SP2', home: 'Málaga', away: 'Cádiz', kickoffAt: inDays(3) });
    await seedFixture(t, { league: 'D1', home: 'Bayern Munich', away: 'Dortmund', kickoffAt: inDays(4) });
    // A cup fixture names its stage (decision 0161), translated for French readers.
    await seedFixture(t, {
      league: 'UCL',
      home: 'Real Madrid',
      away: 'Arsenal',
      kickoffAt: inDays(5),
      stage: 'Round of 16, Leg 2',
    });
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

  function watch(page: Page): string[] {
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    return problems;
  }

  /** The legends of the picker's groups, in their order on the screen. */
  const legends = (page: Page) => page.locator('.competition-picker legend').allInnerTexts();

  it.each(LANGUAGES)(
    'groups by country, searches, loads a competition’s fixtures and keeps it first among the recent (%s)',
    async (language, L: Texts, locale, countries) => {
      const context = await browser.newContext({
        bypassCSP: true,
        locale,
        viewport: { width: 390, height: 844 },
      });
      const page = await context.newPage();
      const problems = watch(page);
      await page.goto(`${base}/app/?lang=${language}`);
      const phone = nextPhone();
      await signInThroughUi(page, t, phone, L);
      const account = await t.app.services.users.findByPhone(phone);
      await grantCredits(t, account!.id, 10);
      await page.getByRole('link', { name: L.navNew }).click();
      const summary = page.locator('.competition-picker summary');
      await summary.getByText(L.competitionChosen.replace('{name}', L.allLeagues)).waitFor();
      const laLiga = competitionName('SP1', language);
      // Every fixture named with its competition and its country, in the screens' language.
      const barcelona = page.locator('label.choice', { hasText: 'Barcelona – Girona' });
      await barcelona.getByText(`${countries.spain} · ${laLiga} ·`).waitFor();
      await page
        .locator('label.choice', { hasText: 'Arsenal – Chelsea' })
        .getByText(`${countries.england} · Premier League ·`)
        .waitFor();
      // A cup fixture: its competition, then its stage in the screens' language.
      const stage = language === 'fr' ? 'Huitièmes de finale, match retour' : 'Round of 16, Leg 2';
      await page
        .locator('label.choice', { hasText: 'Real Madrid – Arsenal' })
        .getByText(`${competitionName('UCL', language)} · ${stage} ·`)
        .waitFor();
      // Open: the national teams first, every country of the catalogue alphabetical, the European
      // cups (no country) last (decision 0158).
      await summary.click();
      const shown = await legends(page);
      expect(shown[0]).toBe(L.nationalTeamCompetitions);
      expect(shown.at(-1)).toBe(L.noCountryCompetitions);
      const countriesShown = shown.slice(1, -1);
      expect(countriesShown).toEqual([...countriesShown].sort((a, b) => a.localeCompare(b, language)));
      expect(countriesShown).toEqual(expect.arrayContaining(Object.values(countries)));
      for (const width of [...WIDTHS, 195]) {
        await page.setViewportSize({ width, height: 844 });
        expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
        if (width === 195) continue; // 200 % zoom: laid out, not kept
        await page.screenshot({ path: join(OUT, `webapp-picker-${language}-${width}.png`), fullPage: true });
      }
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousAxeViolations(page)).toEqual([]);

      // The search ignores accents and finds a country by its name: Spain's two divisions only.
      await page.getByLabel(L.searchCompetition).fill(language === 'fr' ? 'ESPAGNE' : 'spain');
      expect(await legends(page)).toEqual([countries.spain]);
      await page.getByLabel(L.searchCompetition).fill('segunda division');
      // "Every competition" and the Spanish second division.
      expect(await page.locator('.competition-picker input[name="competition"]').count()).toBe(2);
      await page.getByLabel(L.searchCompetition).fill('zzz');
      await page.getByText(L.noCompetitionFound).waitFor();
      await page.getByLabel(L.searchCompetition).fill('');

      // A competition: its fixtures only; an extra league with nothing scheduled says so.
      await page.getByLabel(/^Brasileir|^Brésil – Série A|^Brazil – Serie A/).check();
      await page.getByText(L.noFixturesInCompetition).waitFor();
      await page.locator('.competition-picker input[value="SP1"]').check();
      await summary
        .getByText(L.competitionChosen.replace('{name}', `${countries.spain} · ${laLiga}`))
        .waitFor();
      await page.locator('label.choice', { hasText: 'Arsenal – Chelsea' }).waitFor({ state: 'detached' });
      await barcelona.locator('input').check();
      // The type's name in the screens' language too (issue 50: the English app showed the French).
      const typeName = language === 'fr' ? 'Résultat du match (1X2)' : 'Match result (1X2)';
      await page.getByText(`${typeName} — ${L.cost.one.replace('{count}', '1')}`).waitFor();
      await page.getByRole('button', { name: L.create }).click();
      await page.getByText(L.inProgress).waitFor();
      await page.getByText(`${typeName} ·`).waitFor();

      // Back on the screen: SP1 is first, under "recent", and no longer in its country's group.
      await page.getByRole('link', { name: L.navNew }).click();
      await summary.click();
      // The groups come with the competitions' answer: read them once it has drawn them.
      await page.locator('.competition-picker legend', { hasText: L.recentCompetitions }).waitFor();
      expect((await legends(page))[0]).toBe(L.recentCompetitions);
      const recent = page.locator('.competition-group', { hasText: L.recentCompetitions });
      expect(await recent.locator('input').count()).toBe(1);
      expect(await recent.locator('input').getAttribute('value')).toBe('SP1');
      const spain = page.locator('.competition-group', { hasText: countries.spain }).last();
      expect(await spain.locator('input[value="SP1"]').count()).toBe(0);
      expect(await seriousAxeViolations(page)).toEqual([]);
      for (const width of [...WIDTHS, 195]) {
        await page.setViewportSize({ width, height: 844 });
        expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
        if (width === 195) continue; // 200 % zoom: laid out, not kept
        await page.screenshot({
          path: join(OUT, `webapp-picker-recent-${language}-${width}.png`),
          fullPage: true,
        });
      }
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('sends the chosen competition with typed-in teams, and remembers it', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    const phone = nextPhone();
    await signInThroughUi(page, t, phone);
    const account = await t.app.services.users.findByPhone(phone);
    await grantCredits(t, account!.id, 5);
    await page.getByRole('link', { name: fr.navNew }).click();
    await page.locator('.competition-picker summary').click();
    await page.locator('.competition-picker input[value="D1"]').check();
    await page.getByLabel(fr.homeTeam).fill('Union Berlin');
    await page.getByLabel(fr.awayTeam).fill('Mainz');
    await page.getByRole('button', { name: fr.create }).click();
    await page.getByText(fr.inProgress).waitFor();
    const [made] = await t.app.db.select().from(pronostics).where(eq(pronostics.userId, account!.id));
    expect(made!.teamsDetails).toEqual({ home: 'Union Berlin', away: 'Mainz', league: 'D1' });
    await page.getByRole('link', { name: fr.navNew }).click();
    await page.locator('.competition-picker summary').click();
    expect((await legends(page))[0]).toBe(fr.recentCompetitions);
    await page
      .locator('.competition-group', { hasText: fr.recentCompetitions })
      .getByText('Bundesliga')
      .waitFor();
    await context.close();
  });

  it('turns its names into English with the switch, without leaving the screen', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await signInThroughUi(page, t, nextPhone());
    await page.getByRole('link', { name: fr.navNew }).click();
    await page.locator('.competition-picker summary').click();
    await page.locator('legend', { hasText: 'Allemagne' }).waitFor();
    await page.getByRole('button', { name: 'English' }).click();
    await page.locator('legend', { hasText: 'Germany' }).waitFor();
    await page.locator('legend', { hasText: 'Netherlands' }).waitFor();
    await page.getByText('Scottish Premiership').waitFor();
    await context.close();
  });

  it('is usable with the keyboard alone', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await signInThroughUi(page, t, nextPhone());
    await page.getByRole('link', { name: fr.navNew }).click();
    await page.getByLabel(fr.searchTeam).waitFor();
    const focused = () =>
      page.evaluate(
        '(() => { const el = document.activeElement; return el ? el.tagName + ":" + (el.getAttribute("name") || el.getAttribute("type") || "") : ""; })()',
      ) as Promise<string>;
    const tabTo = async (wanted: string) => {
      for (let presses = 0; presses < 30; presses++) {
        await page.keyboard.press('Tab');
        if ((await focused()) === wanted) return;
      }
      throw new Error(`${wanted} is not reachable with Tab`);
    };
    await tabTo('SUMMARY:');
    await page.keyboard.press('Enter');
    await tabTo('INPUT:search');
    expect(await page.evaluate('document.activeElement.closest(".competition-picker") !== null')).toBe(true);
    await page.keyboard.type('allemagne');
    await tabTo('INPUT:competition');
    // "Every competition" first, then the arrows walk into Germany's division.
    await page.keyboard.press('ArrowDown');
    await page.locator('.competition-picker summary', { hasText: 'Allemagne · Bundesliga' }).waitFor();
    await page.locator('label.choice', { hasText: 'Bayern Munich – Dortmund' }).waitFor();
    await page.locator('label.choice', { hasText: 'Barcelona – Girona' }).waitFor({ state: 'detached' });
    // The summary closes the picker again from the keyboard.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Shift+Tab');
    expect(await focused()).toBe('SUMMARY:');
    await page.keyboard.press('Enter');
    expect(await page.evaluate('document.querySelector(".competition-picker").open')).toBe(false);
    await context.close();
  });
});
