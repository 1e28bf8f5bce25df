// The web app's money and account screens in Chromium, on the service with its sandbox payments:
// buying a pack by mobile money (the waiting screen turns into "credited" when the sandbox's
// webhook settles it, without a reload), the operations; referrals (the code to share, a sponsor's
// code applied, a withdrawal to Orange Money and its status); the profile (name, language, avatar),
// a support request with an attachment and its thread; the data export; the account's deletion by
// its code, which signs out. The whole walk once in French and once in English (every label read
// from the web app's own catalogues), each screen at 390 px, at 1280 px, and at 200 % zoom on a
// 390 px phone (a 195 px wide viewport) with nothing spilling out. Screens kept in .ci/out.
import { mkdir, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../webapp/src/i18n/en.js';
import { fr } from '../../webapp/src/i18n/fr.js';
import { giveMoney } from '../affiliation/helpers.js';
import {
  FIND_OVERFLOW,
  launchChromium,
  OUT,
  runBrowserTests,
  seriousAxeViolations,
  WIDTHS,
  warnWithoutChromium,
} from '../browser/page-checks.js';
import { createTestApp, nextPhone, type TestApp } from '../helpers.js';
import { buildWebapp, signInThroughUi, type Texts } from './setup.js';

/** The text before a placeholder, to find a sentence whose value the test does not know. */
function before(text: string): string {
  return text.split('{')[0]!;
}

warnWithoutChromium('web app flow tests');

describe.runIf(runBrowserTests).each([
  ['fr', fr, 'fr-FR'],
  ['en', en, 'en-GB'],
] as const)(
  'the web app’s money and account screens (%s)',
  { timeout: 240_000 },
  (language, L: Texts, locale) => {
    let t: TestApp;
    let browser: Browser;
    let base: string;
    let buildDir: string;

    beforeAll(async () => {
      buildDir = await buildWebapp('webapp-flows-');
      t = await createTestApp({
        config: { webappDir: buildDir, rateLimit: false, paymentSandboxDelayMs: 1000 },
      });
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

    /** A signed-in page (through the screens) and its account's id; failed requests collected. */
    async function signedIn() {
      // axe is injected as a script: contexts without the CSP (browser.test.ts checks the app under it).
      const context = await browser.newContext({
        bypassCSP: true,
        locale,
        viewport: { width: 390, height: 844 },
      });
      const page = await context.newPage();
      const problems: string[] = [];
      page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
      page.on('response', (response) => {
        if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
      });
      await page.goto(`${base}/app/?lang=${language}`);
      const phone = nextPhone();
      await signInThroughUi(page, t, phone, L);
      const account = await t.app.services.users.findByPhone(phone);
      return { context, page, phone, userId: account!.id, problems };
    }

    async function shoot(page: Page, name: string) {
      for (const width of WIDTHS) {
        await page.setViewportSize({ width, height: 844 });
        expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
        await page.screenshot({ path: join(OUT, `webapp-${name}-${language}-${width}.png`), fullPage: true });
      }
      // 200 % zoom on a 390 px phone: the same page in half the CSS pixels.
      await page.setViewportSize({ width: 195, height: 422 });
      expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      expect(await seriousAxeViolations(page)).toEqual([]);
    }

    it('buys a pack by mobile money: the waiting screen turns into "credited" without a reload', async () => {
      const { context, page, problems } = await signedIn();
      await page.getByRole('link', { name: L.navWallet }).click();
      await page.getByRole('heading', { name: L.packsTitle }).waitFor();
      await page.getByRole('radio').first().check();
      await page.getByLabel(L.operatorMtn).check();
      await page.getByRole('button', { name: L.buy }).click();
      await page.getByText(L.payWaiting).waitFor();
      t.clock.advance(2000);
      await t.app.runtime.sandboxWebhooks!.deliverDue();
      await page.getByText(before(L.payCredited)).waitFor({ timeout: 15_000 });
      await page.locator('.amount.credit').first().waitFor();
      await shoot(page, 'wallet');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('shares the code, applies a sponsor’s, withdraws to Orange Money and shows the withdrawal', async () => {
      const sponsor = await signedIn();
      const sponsorCode = (await t.app.services.users.findByPhone(sponsor.phone))!.affiliationCode;
      await sponsor.context.close();
      const { context, page, phone, userId, problems } = await signedIn();
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: base });
      await giveMoney(t, userId, 8000);
      await page.getByRole('link', { name: L.navReferrals }).click();
      const own = (await t.app.services.users.findByPhone(phone))!.affiliationCode;
      await page.locator('.code', { hasText: own }).waitFor();
      const whatsapp = await page.getByRole('link', { name: L.shareWhatsapp }).getAttribute('href');
      expect(decodeURIComponent(whatsapp!.replace('https://wa.me/?text=', ''))).toContain(own);
      await page.getByRole('button', { name: L.copy }).click();
      await page.getByText(L.copied).waitFor();
      expect(await page.evaluate('navigator.clipboard.readText()')).toBe(own);
      await page.getByLabel(L.sponsorCode).fill(sponsorCode);
      await page.getByRole('button', { name: L.applyCode }).click();
      await page.getByText(before(L.codeApplied)).waitFor();
      await page.getByLabel(before(L.withdrawAmount)).fill('6000');
      await page.getByLabel(L.operatorOrange).check();
      await page.getByRole('button', { name: L.withdraw }).click();
      await page
        .locator('.cards li', { hasText: L.operatorOrange })
        .getByText(L.withdrawalPending, { exact: true })
        .waitFor();
      await shoot(page, 'referrals');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('edits the profile, uploads an avatar, changes the account’s language, writes to support', async () => {
      const { context, page, phone, problems } = await signedIn();
      await page.getByRole('link', { name: L.navProfile }).click();
      await page.getByLabel(L.name, { exact: true }).fill('Awa Ngono');
      await page.getByRole('button', { name: L.save }).click();
      await page.getByText(L.saved, { exact: true }).waitFor();
      const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0b6e4f' } })
        .png()
        .toBuffer();
      await page.getByLabel(L.avatar).setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
      await page.locator('img.avatar[src^="/avatars/"]').waitFor();
      await shoot(page, 'profile');
      // The account's language follows the one chosen: the other one, then back.
      const other = language === 'fr' ? en : fr;
      await page.getByLabel(L.language).selectOption(language === 'fr' ? 'en' : 'fr');
      await page.getByRole('heading', { name: other.profileTitle }).waitFor();
      await page.getByText(other.saved).waitFor();
      expect(await t.app.services.users.findByPhone(phone)).toMatchObject({
        name: 'Awa Ngono',
        locale: language === 'fr' ? 'en' : 'fr',
      });
      await page.getByLabel(other.language).selectOption(language);
      await page.getByRole('heading', { name: L.profileTitle }).waitFor();

      await page.getByRole('link', { name: L.supportTitle }).click();
      await page.getByLabel(L.subject).fill('Paiement non reçu');
      await page.getByLabel(L.message).fill('Bonjour, mon paiement n’est pas arrivé.');
      await page
        .getByLabel(L.attachment)
        .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png });
      await page.getByRole('button', { name: L.send }).click();
      await page.getByRole('heading', { name: 'Paiement non reçu' }).waitFor();
      await page.getByText('receipt.png').waitFor();
      await page.getByLabel(L.message).fill('Des nouvelles ?');
      await page.getByRole('button', { name: L.reply }).click();
      await page.getByText('Des nouvelles ?').waitFor();
      await shoot(page, 'support');
      expect(problems).toEqual([]);
      await context.close();
    });

    it('downloads the data export, then deletes the account with its code and is signed out', async () => {
      const { context, page, phone, problems } = await signedIn();
      await page.getByRole('link', { name: L.navProfile }).click();
      const download = page.waitForEvent('download');
      await page.getByRole('button', { name: L.exportData }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('pronostics-export.json');
      const exported = JSON.parse(await readFile((await file.path())!, 'utf8'));
      expect(exported.user.phone).toBe(phone);
      await page.getByRole('button', { name: L.deleteSendCode }).click();
      await page.getByLabel(L.code).waitFor();
      await page.getByLabel(L.code).fill(t.outbox!.lastCode(phone));
      await page.getByRole('button', { name: L.deleteConfirmButton }).click();
      await page.getByRole('heading', { name: L.signinTitle }).waitFor();
      expect(await t.app.services.users.findByPhone(phone)).toBeUndefined();
      expect(problems).toEqual([]);
      await context.close();
    });
  },
);
