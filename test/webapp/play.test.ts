// Responsible play in the web app (issue 54), in Chromium, in French and in English: the 18+ mark
// and its link on the screens, the responsible-play screen (a spending limit set, shown), the date
// of birth asked at the first purchase, and the purchase refused past the limit with the service's
// words; then a break asked for with its code. Screens kept in .ci/out.
import { mkdir, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en as serviceEn } from '../../src/lib/catalogues/en.js';
import { fr as serviceFr } from '../../src/lib/catalogues/fr.js';
import { en } from '../../webapp/src/i18n/en.js';
import { fr } from '../../webapp/src/i18n/fr.js';
import {
  FIND_OVERFLOW,
  launchChromium,
  OUT,
  runBrowserTests,
  seriousAxeViolations,
  warnWithoutChromium,
} from '../browser/page-checks.js';
import { createTestApp, nextPhone, type TestApp } from '../helpers.js';
import { GATE_ON } from '../play/helpers.js';
import { buildWebapp, signInThroughUi, type Texts } from './setup.js';

warnWithoutChromium('web app responsible-play tests');

describe.runIf(runBrowserTests).each([
  ['fr', fr, serviceFr, 'fr-FR'],
  ['en', en, serviceEn, 'en-GB'],
] as const)('responsible play in the web app (%s)', { timeout: 240_000 }, (language, L: Texts, S, locale) => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let buildDir: string;

  beforeAll(async () => {
    buildDir = await buildWebapp('webapp-play-');
    t = await createTestApp({ config: { ...GATE_ON, webappDir: buildDir, rateLimit: false } });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await mkdir(OUT, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await rm(buildDir, { recursive: true, force: true });
  });

  it('sets a limit, gives the date of birth at the first purchase and sees the purchase refused', async () => {
    // axe is injected as a script: a context without the CSP (browser.test.ts checks the app under it).
    const context = await browser.newContext({
      bypassCSP: true,
      locale,
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    await page.goto(`${base}/app/?lang=${language}`);
    const phone = nextPhone();
    await signInThroughUi(page, t, phone, L);
    const account = await t.app.services.users.findByPhone(phone);

    // The 18+ mark and its link, on the screens.
    const mark = page.locator('header .adults');
    await expect(mark.locator('strong').textContent()).resolves.toBe('18+');
    expect(await mark.getByRole('link', { name: L.playLink }).getAttribute('href')).toBe('/responsible-play');

    await page.getByRole('link', { name: L.navProfile }).click();
    await page.locator('#main').getByRole('link', { name: L.playTitle }).click();
    await page.getByRole('heading', { name: L.playTitle, level: 1 }).waitFor();
    await page.getByLabel(L.limitDaily).fill('500');
    await page.getByRole('button', { name: L.limitsSave }).click();
    await page.getByText(L.limitsSaved).waitFor();
    expect((await t.app.services.users.limitsOf(account!)).limits.daily).toBe(500);
    await page.screenshot({ path: join(OUT, `webapp-play-${language}.png`), fullPage: true });
    // 200 % zoom on a 390 px phone: nothing spills out; and no serious accessibility fault.
    await page.setViewportSize({ width: 195, height: 422 });
    expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await seriousAxeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: L.navWallet }).click();
    await page.getByRole('heading', { name: L.packsTitle }).waitFor();
    // The packs' own group: before the packs arrive, the only radios on the screen are the operators'.
    const packs = page.getByRole('group', { name: L.packsTitle }).getByRole('radio');
    await packs.nth(1).check(); // 1,000 XAF, past the daily 500
    await expect(packs.nth(1).isChecked()).resolves.toBe(true);
    await page.getByLabel(L.operatorMtn).check();
    await page.getByLabel(L.birthDate).fill('1990-04-21');
    await page.getByRole('button', { name: L.buy }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe(S.playTexts.limitReached);
    const saved = await t.app.services.users.findById(account!.id);
    expect(saved?.birthDate).toBe('1990-04-21');
    await page.screenshot({ path: join(OUT, `webapp-play-refused-${language}.png`), fullPage: true });

    // A break, confirmed with its code.
    await page.getByRole('link', { name: L.navProfile }).click();
    await page.locator('#main').getByRole('link', { name: L.playTitle }).click();
    await page.getByLabel(L.pauseDays).fill('3');
    await page.getByRole('button', { name: L.pauseSendCode }).click();
    // The code is read once its field shows, i.e. once the service has sent it (not the sign-in's).
    await page.getByLabel(L.pauseCode).waitFor();
    await page.getByLabel(L.pauseCode).fill(t.outbox!.lastCode(phone));
    await page.getByRole('button', { name: L.pauseConfirm }).click();
    await page.getByText(S.playTexts.excluded).waitFor();
    expect((await t.app.services.users.findById(account!.id))?.selfExcludedUntil).not.toBeNull();
    expect(problems).toEqual([]);
    await context.close();
  });
});
