// The web app's money and account screens in Chromium, on the service with its sandbox payments:
// buying a pack by mobile money (the waiting screen turns into "credited" when the sandbox's
// webhook settles it, without a reload), the operations; referrals (the code to share, a sponsor's
// code applied, a withdrawal to Orange Money and its status); the profile (name, language, avatar),
// a support request with an attachment and its thread; the data export; the account's deletion by
// its code, which signs out. Screens in .ci/out at 390 and 1280 px.
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import sharp from 'sharp';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { giveMoney } from '../affiliation/helpers.js';
import {
  FIND_OVERFLOW,
  launchChromium,
  OUT,
  runBrowserTests,
  WIDTHS,
  warnWithoutChromium,
} from '../browser/page-checks.js';
import { createTestApp, nextPhone, type TestApp } from '../helpers.js';

warnWithoutChromium('web app flow tests');

describe.runIf(runBrowserTests)('the web app’s money and account screens', { timeout: 240_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let buildDir: string;

  beforeAll(async () => {
    buildDir = await mkdtemp(join(tmpdir(), 'webapp-flows-'));
    await build({
      configFile: join(process.cwd(), 'webapp', 'vite.config.ts'),
      build: { outDir: buildDir, emptyOutDir: true },
      logLevel: 'warn',
    });
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
  async function signedIn(locale = 'fr-FR') {
    const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page: ${error.message}`));
    page.on('response', (response) => {
      if (response.status() >= 500) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(`${base}/app/`);
    const phone = nextPhone();
    await page.getByLabel('Numéro de téléphone').fill(phone.slice(4));
    await page.getByRole('button', { name: 'Recevoir le code' }).click();
    await page.getByLabel('Code à 6 chiffres').waitFor();
    await page.getByLabel('Code à 6 chiffres').fill(t.outbox!.lastCode(phone));
    await page.getByRole('button', { name: 'Se connecter' }).click();
    await page.getByRole('heading', { name: 'Accueil' }).waitFor();
    const account = await t.app.services.users.findByPhone(phone);
    return { context, page, phone, userId: account!.id, problems };
  }

  async function shoot(page: Page, name: string) {
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
      await page.screenshot({ path: join(OUT, `webapp-${name}-${width}.png`), fullPage: true });
    }
    await page.setViewportSize({ width: 390, height: 844 });
  }

  it('buys a pack by mobile money: the waiting screen turns into "credited" without a reload', async () => {
    const { context, page, problems } = await signedIn();
    await page.getByRole('link', { name: 'Portefeuille' }).click();
    await page.getByRole('heading', { name: 'Packs de crédits' }).waitFor();
    await page.getByRole('radio').first().check();
    await page.getByLabel('MTN Mobile Money').check();
    await page.getByRole('button', { name: 'Acheter' }).click();
    await page.getByText('Confirmez le paiement sur votre téléphone.', { exact: false }).waitFor();
    t.clock.advance(2000);
    await t.app.runtime.sandboxWebhooks!.deliverDue();
    await page.getByText(/Paiement confirmé : \d+ crédits? ajoutés/).waitFor({ timeout: 15_000 });
    await page.locator('.amount.credit').first().waitFor();
    await shoot(page, 'wallet-fr');
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
    await page.getByRole('link', { name: 'Parrainage' }).click();
    const own = (await t.app.services.users.findByPhone(phone))!.affiliationCode;
    await page.locator('.code', { hasText: own }).waitFor();
    expect(await page.getByRole('link', { name: 'Partager sur WhatsApp' }).getAttribute('href')).toMatch(
      /^https:\/\/wa\.me\/\?text=/,
    );
    await page.getByRole('button', { name: 'Copier' }).click();
    await page.getByText('Copié.').waitFor();
    await page.getByLabel('Code de votre parrain').fill(sponsorCode);
    await page.getByRole('button', { name: 'Appliquer le code' }).click();
    await page.getByText('Code appliqué : votre parrain est', { exact: false }).waitFor();
    await page.getByLabel(/Montant \(XAF\)/).fill('6000');
    await page.getByLabel('Orange Money').check();
    await page.getByRole('button', { name: 'Demander le retrait' }).click();
    await page
      .locator('.cards li', { hasText: 'Orange Money' })
      .getByText('En attente', { exact: true })
      .waitFor();
    await shoot(page, 'referrals-fr');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('edits the profile, switches the account to English, uploads an avatar, writes to support', async () => {
    const { context, page, phone, problems } = await signedIn();
    await page.getByRole('link', { name: 'Profil' }).click();
    await page.getByLabel('Nom', { exact: true }).fill('Awa Ngono');
    await page.getByRole('button', { name: 'Enregistrer' }).click();
    await page.getByText('Enregistré.').waitFor();
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0b6e4f' } })
      .png()
      .toBuffer();
    await page
      .getByLabel('Photo de profil (JPEG, PNG ou WebP)')
      .setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: png });
    await page.locator('img.avatar[src^="/avatars/"]').waitFor();
    await page.getByLabel('Langue').selectOption('en');
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await page.getByText('Saved.').waitFor();
    expect(await t.app.services.users.findByPhone(phone)).toMatchObject({ name: 'Awa Ngono', locale: 'en' });
    await shoot(page, 'profile-en');

    await page.getByRole('link', { name: 'Support' }).click();
    await page.getByLabel('Subject').fill('Payment not received');
    await page.getByLabel('Message').fill('Hello, my payment did not arrive.');
    await page
      .getByLabel('Attachment (image or PDF, optional)')
      .setInputFiles({ name: 'receipt.png', mimeType: 'image/png', buffer: png });
    await page.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('heading', { name: 'Payment not received' }).waitFor();
    await page.getByText('receipt.png').waitFor();
    await page.getByLabel('Message').fill('Any news?');
    await page.getByRole('button', { name: 'Reply' }).click();
    await page.getByText('Any news?').waitFor();
    await shoot(page, 'support-en');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('downloads the data export, then deletes the account with its code and is signed out', async () => {
    const { context, page, phone, problems } = await signedIn();
    await page.getByRole('link', { name: 'Profil' }).click();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Télécharger mes données' }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('pronostics-export.json');
    const exported = JSON.parse(await readFile((await file.path())!, 'utf8'));
    expect(exported.user.phone).toBe(phone);
    await page.getByRole('button', { name: 'Recevoir le code de suppression' }).click();
    await page.getByLabel('Code à 6 chiffres').waitFor();
    await page.getByLabel('Code à 6 chiffres').fill(t.outbox!.lastCode(phone));
    await page.getByRole('button', { name: 'Supprimer définitivement' }).click();
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await t.app.services.users.findByPhone(phone)).toBeUndefined();
    expect(problems).toEqual([]);
    await context.close();
  });
});
