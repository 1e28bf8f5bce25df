// The web app in Debian's Chromium, built by Vite as `npm run build` builds it and served by the
// service: the signed-out first screen loads without a single failed request, the service worker
// takes the shell, sign-in goes by the national number and the code from the outbox, the home
// shows the credits and the fixtures, the FR / EN switch turns every screen (and the service's
// messages) into English and remembers it, and with the network gone the app still starts from
// the worker's cache and says it is offline, then comes back by itself. Screens are kept in
// .ci/out at 390 and 1280 px. Without Chromium the file is skipped locally and fails in CI.
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import pino from 'pino';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { pushDevices } from '../../src/db/schema/index.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createPushDriver } from '../../src/providers/push/index.js';
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
import { startWebPushFake, type WebPushFake } from '../fakes/web-push.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, grantCredits, nextPhone, type TestApp } from '../helpers.js';
import { buildWebapp, signInThroughUi, type Texts } from './setup.js';

warnWithoutChromium('web app browser tests');

/** The focused element's accessible name as the tests know it: its label's text, else its own text. */
const FOCUSED = `(() => {
  const el = document.activeElement;
  if (!el) return '';
  const label = el.labels && el.labels[0];
  const own = label ? label.childNodes[0].textContent : el.textContent;
  return (own || '').trim();
})()`;

/** Run in the page (a string: the tests compile without the DOM's types): the worker's cached paths. */
const SHELL_CACHED = `(async () => {
  await navigator.serviceWorker.ready;
  const names = await caches.keys();
  const cache = await caches.open(names[0]);
  return (await cache.keys()).map((request) => new URL(request.url).pathname).sort();
})()`;

describe.runIf(runBrowserTests)('the web app in a browser', { timeout: 180_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let buildDir: string;
  let pushService: WebPushFake;

  beforeAll(async () => {
    buildDir = await buildWebapp('webapp-browser-');
    // Web Push to a local push service (the browser's own, its vendor's, is not reachable here).
    pushService = await startWebPushFake();
    const base0 = testConfig();
    const webpush = {
      ...base0.webpush,
      driver: 'vapid' as const,
      subject: 'mailto:ops@example.cm',
      allowedHosts: [...base0.webpush.allowedHosts, new URL(pushService.origin).host],
    };
    const clock = new ManualClock(new Date());
    const dataDir = await mkdtemp(join(tmpdir(), 'webapp-push-'));
    const pushDriver = createPushDriver(
      { ...base0, dataDir, webpush },
      { clock, logger: pino({ level: 'silent' }), webpushCa: pushService.ca },
    );
    t = await createTestApp({
      clock,
      pushDriver,
      config: { webappDir: buildDir, rateLimit: false, webpush, dataDir },
    });
    const inDays = (days: number) => new Date(t.clock.now().getTime() + days * 86_400_000).toISOString();
    await seedFixture(t, { home: 'Canon Yaoundé', away: 'Coton Sport', kickoffAt: inDays(2) });
    await seedFixture(t, { league: 'SP1', home: 'Barcelona', away: 'Girona', kickoffAt: inDays(3) });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    await mkdir(OUT, { recursive: true });
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await pushService?.close();
    await rm(buildDir, { recursive: true, force: true });
  });

  /** Every failed request and console error of a page, to be empty. */
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

  it('starts signed out without a failed request, keeps its shell in the worker, signs in by code', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = watch(page);
    const landing = await page.goto(`${base}/`);
    expect(page.url()).toBe(`${base}/app/`);
    expect(landing?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('fr');
    expect(await page.getByLabel('Pays').inputValue()).toBe('CM');
    // The worker installs and takes the shell: index.html and every hashed asset.
    const cached = (await page.evaluate(SHELL_CACHED)) as string[];
    expect(cached[0]).toBe('/app/');
    expect(cached.some((path) => /^\/app\/assets\/index-[\w-]+\.js$/.test(path))).toBe(true);
    expect(problems).toEqual([]);

    const phone = nextPhone();
    await page.getByLabel('Numéro de téléphone').fill('12');
    await page.getByRole('button', { name: 'Recevoir le code' }).click();
    await page.getByText('Ce numéro n’est pas un numéro de mobile valide pour ce pays.').waitFor();
    await signInThroughUi(page, t, phone);
    const { users } = t.app.services;
    const account = await users.findByPhone(phone);
    await grantCredits(t, account!.id, 7);
    const balance = (await users.findByPhone(phone))!.creditsBalance;
    await page.reload();
    await page.getByText(`${balance} crédits`, { exact: true }).waitFor();
    await page.getByText('Canon Yaoundé – Coton Sport').waitFor();
    await page.getByText('Barcelona – Girona').waitFor();
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
      await page.screenshot({ path: join(OUT, `webapp-home-fr-${width}.png`), fullPage: true });
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it.each([
    ['fr', fr, 'fr-FR'],
    ['en', en, 'en-GB'],
  ] as const)(
    'creates an analysis and sees it turn into its result without a reload; history filters and deletes (%s)',
    async (language, L: Texts, locale) => {
      // axe is injected as a script: a context without the CSP (the first test keeps it).
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
      await grantCredits(t, account!.id, 20);
      const shoot = async (name: string) => {
        for (const width of [...WIDTHS, 195]) {
          await page.setViewportSize({ width, height: 844 });
          expect(await page.evaluate(FIND_OVERFLOW)).toEqual([]);
          if (width !== 195) {
            await page.screenshot({
              path: join(OUT, `webapp-${name}-${language}-${width}.png`),
              fullPage: true,
            });
          }
        }
        await page.setViewportSize({ width: 390, height: 844 });
        expect(await seriousAxeViolations(page)).toEqual([]);
      };
      await page.getByRole('link', { name: L.navNew }).click();
      await page.getByLabel(L.searchTeam).fill('coton');
      await page.getByLabel(/Canon Yaoundé – Coton Sport/).check();
      await shoot('new');
      await page.getByRole('button', { name: L.create }).click();
      await page.getByText(L.inProgress).waitFor();
      const url = page.url();
      expect(url).toMatch(/\/app\/analyses\/\d+$/);
      // The worker analyses it; the page hears it on its event stream and shows the result.
      await t.app.runtime.analysisWorker.drain();
      await page.getByRole('heading', { name: L.probabilities }).waitFor({ timeout: 15_000 });
      expect(page.url()).toBe(url);
      await page.getByText(L.notSettled).waitFor();
      expect(await page.locator('.bars li').count()).toBeGreaterThanOrEqual(2);
      // The narration is written in the account's language, which the sign-in took from the app's.
      const narration = await page.locator('.narration').innerText();
      expect(narration.length).toBeGreaterThan(40);
      await shoot('analysis');

      // Typed teams, another type: then the history filters by type and deletes.
      await page.getByRole('link', { name: L.navNew }).click();
      await page.getByLabel(L.homeTeam).fill('Union Douala');
      await page.getByLabel(L.awayTeam).fill('Fovu Baham');
      const types = page.locator('fieldset', { hasText: L.pickType }).getByRole('radio');
      await types.nth(1).check();
      await page.getByRole('button', { name: L.create }).click();
      await page.getByText(L.inProgress).waitFor();
      await page.getByRole('link', { name: L.navHistory }).click();
      await page.getByRole('link', { name: 'Union Douala – Fovu Baham' }).waitFor();
      await page.getByRole('link', { name: 'Canon Yaoundé – Coton Sport' }).waitFor();
      await shoot('history');
      const firstType = await page.getByLabel(L.filterType).locator('option').nth(1).getAttribute('value');
      await page.getByLabel(L.filterType).selectOption(firstType!);
      await page.getByRole('link', { name: 'Union Douala – Fovu Baham' }).waitFor({ state: 'detached' });
      await page.getByLabel(L.filterType).selectOption('');
      page.once('dialog', (dialog) => void dialog.accept());
      const row = page.locator('.cards li', { hasText: 'Union Douala – Fovu Baham' });
      await row.getByRole('button', { name: L.delete }).click();
      await row.waitFor({ state: 'detached' });
      expect(problems).toEqual([]);
      await context.close();
    },
  );

  it('under sign-up pressure, a new number’s 428 is solved in the browser and the code still comes', async () => {
    // An app of its own with the limits on (the others lift them): a +237 budget of 20 an hour, the
    // strangers' half already half used by five new numbers from five other networks.
    const pressed = await createTestApp({
      config: {
        webappDir: buildDir,
        otpCountryHourlyBudget: 20,
        otpGlobalHourlyBudget: 1000,
        otpReturningSharePercent: 50,
        signupChallengeCost: 10,
      },
    });
    try {
      for (let i = 1; i <= 5; i++) {
        const response = await pressed.app.inject({
          method: 'POST',
          url: '/api/otp/generate',
          payload: { phone: nextPhone(), country: 'CM', method: 'sms' },
          remoteAddress: `198.51.100.${i}`,
        });
        expect(response.statusCode).toBe(200);
      }
      await pressed.app.listen({ port: 0, host: '127.0.0.1' });
      const pressedBase = `http://127.0.0.1:${(pressed.app.server.address() as AddressInfo).port}`;
      const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
      const page = await context.newPage();
      const answers: number[] = [];
      page.on('response', (response) => {
        if (response.url().endsWith('/api/otp/generate')) answers.push(response.status());
      });
      await page.goto(`${pressedBase}/app/`);
      const phone = nextPhone();
      await page.getByLabel('Numéro de téléphone').fill(phone.slice(4));
      await page.getByRole('button', { name: 'Recevoir le code' }).click();
      await page.getByLabel('Code à 6 chiffres').waitFor();
      // The first ask is refused with its challenge; the typed client solves it and sends the proof.
      expect(answers).toEqual([428, 200]);
      await page.getByLabel('Code à 6 chiffres').fill(pressed.outbox!.lastCode(phone));
      await page.getByRole('button', { name: 'Se connecter' }).click();
      await page.getByRole('heading', { name: 'Accueil' }).waitFor();
      await context.close();
    } finally {
      await pressed.close();
    }
  });

  it('signs in and moves between screens with the keyboard alone', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    const focusedName = () => page.evaluate(FOCUSED) as Promise<string>;
    const tabTo = async (name: string) => {
      for (let presses = 0; presses < 25; presses++) {
        await page.keyboard.press('Tab');
        if ((await focusedName()) === name) return;
      }
      throw new Error(`${name} is not reachable with Tab`);
    };
    await tabTo('Numéro de téléphone');
    const phone = nextPhone();
    await page.keyboard.type(phone.slice(4));
    await page.keyboard.press('Enter');
    await page.getByLabel('Code à 6 chiffres').waitFor();
    // The code field takes the focus by itself.
    await expect.poll(focusedName).toBe('Code à 6 chiffres');
    await page.keyboard.type(t.outbox!.lastCode(phone));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Accueil' }).waitFor();
    for (const screen of ['Nouvelle analyse', 'Historique', 'Portefeuille', 'Parrainage', 'Profil']) {
      await tabTo(screen);
      await page.keyboard.press('Enter');
      await page.waitForURL(/\/app\/\w+$/);
      await page.locator('main h1').waitFor();
    }
    await context.close();
  });

  it('passes axe’s WCAG A/AA checks, signed out and signed in, in both languages', async () => {
    // axe is injected as a script: its own context without the CSP (the others keep it).
    const context = await browser.newContext({
      bypassCSP: true,
      locale: 'fr-FR',
      viewport: { width: 390, height: 844 },
    });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await signInThroughUi(page, t, nextPhone());
    await page.getByText('Canon Yaoundé – Coton Sport').waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor();
    expect(await seriousAxeViolations(page)).toEqual([]);
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: join(OUT, `webapp-home-en-${width}.png`), fullPage: true });
    }
    await context.close();
  });

  it('turns into English with its switch, the service’s messages too, and remembers it', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = watch(page);
    await page.goto(`${base}/app/`);
    await page.getByRole('button', { name: 'English' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await page.evaluate('document.documentElement.lang')).toBe('en');
    // A refusal written by the service comes in English: the app says its language.
    await page.getByLabel('Country').selectOption('FR');
    await page.getByLabel('Phone number').fill('0612345678');
    await page.getByRole('button', { name: 'Get the code' }).click();
    await page.getByLabel('6-digit code').waitFor();
    await page.getByLabel('6-digit code').fill('000000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Invalid or expired code.').waitFor();
    problems.splice(0, problems.length, ...problems.filter((line) => !line.startsWith('400 ')));
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 844 });
      await page.screenshot({ path: join(OUT, `webapp-signin-en-${width}.png`), fullPage: true });
    }
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await context.cookies()).find((cookie) => cookie.name === 'lang')?.value).toBe('en');
    expect(
      problems.filter(
        (line) => !line.includes('/api/otp/verify') && !line.startsWith('console: Failed to load resource'),
      ),
    ).toEqual([]);
    await context.close();
  });

  it('offers notifications after the first analysis, subscribes with the service’s key, and pushes reach the browser', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const problems = watch(page);
    // The browser's subscription comes from the local push service: the one a real browser asks
    // (its vendor's) is beyond this closed network. The rest is the app's and the service's own.
    const subscription = pushService.subscribe(t.config.webpush.publicKey!);
    await page.addInitScript(`
      PushManager.prototype.subscribe = async function (options) {
        const key = options.applicationServerKey;
        window.__askedKey = typeof key === 'string' ? key : null;
        const json = ${JSON.stringify(subscription.json)};
        return { endpoint: json.endpoint, toJSON: () => json };
      };
    `);
    await page.goto(`${base}/app/`);
    const phone = nextPhone();
    await signInThroughUi(page, t, phone);
    const account = await t.app.services.users.findByPhone(phone);
    await grantCredits(t, account!.id, 5);
    await page.getByRole('link', { name: 'Nouvelle analyse' }).click();
    await page.getByLabel(/Canon Yaoundé – Coton Sport/).check();
    await page.getByRole('button', { name: 'Lancer l’analyse' }).click();
    await page.getByText('Analyse en cours…', { exact: false }).waitFor();
    // Not asked before an analysis is ready.
    expect(await page.getByRole('button', { name: 'Activer les notifications' }).count()).toBe(0);
    await t.app.runtime.analysisWorker.drain();
    await page.getByRole('heading', { name: 'Probabilités' }).waitFor({ timeout: 15_000 });
    // The offer is made once the finished analysis has rendered, while the permission is still
    // "default": granted before that effect runs, the app rightly asks nothing (a flake of CI's).
    const enable = page.getByRole('button', { name: 'Activer les notifications' });
    await enable.waitFor();
    await context.grantPermissions(['notifications'], { origin: base });
    await enable.click();
    await page.getByText('Notifications activées.').waitFor();
    expect(await page.evaluate('window.__askedKey')).toBe(t.config.webpush.publicKey);
    const devices = (await t.app.db.select().from(pushDevices)).filter((row) => row.userId === account!.id);
    expect(devices.map((row) => row.platform)).toEqual(['webpush']);
    // The push loop sends the next event to the browser's push service, encrypted and signed.
    const event = await t.app.db.transaction((tx) =>
      t.app.services.events.append(tx, account!.id, 'credits.adjusted', { id: 1 }),
    );
    await t.app.runtime.pushSender.runOnce();
    expect(pushService.problems).toEqual([]);
    expect(
      pushService.delivered.filter((sent) => sent.id === subscription.id).map((sent) => sent.payload),
    ).toEqual([
      {
        title: 'Solde de crédits modifié',
        body: 'Votre solde de crédits a été ajusté. Ouvrez l’application pour le détail.',
        data: { type: 'credits.adjusted', seq: String(event.id), id: '1', created_at: event.created_at },
      },
    ]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('shows "reload" when a new version’s worker waits, and the reload brings it in', async () => {
    const context = await browser.newContext({ locale: 'fr-FR', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload(); // now controlled by the first version's worker
    await page.getByRole('heading', { name: 'Connexion' }).waitFor();
    expect(await page.evaluate('navigator.serviceWorker.controller !== null')).toBe(true);
    // A deploy: the worker's script changes (its .br and .gz copies too, as a build writes them).
    const workerFile = join(buildDir, 'sw.js');
    const released = `${await readFile(workerFile, 'utf8')}\n// release 2\n`;
    await writeFile(workerFile, released);
    await writeFile(`${workerFile}.br`, brotliCompressSync(released));
    await writeFile(`${workerFile}.gz`, gzipSync(released));
    try {
      await page.evaluate('navigator.serviceWorker.getRegistration().then((r) => r.update())');
      await page.getByRole('status').filter({ hasText: 'Une nouvelle version est prête.' }).waitFor();
      // The new worker takes over and the page reloads under it (waited for from before the click:
      // the reload can be quicker than the next line): no prompt any more.
      await Promise.all([page.waitForEvent('load'), page.getByRole('button', { name: 'Recharger' }).click()]);
      await page.getByRole('heading', { name: 'Connexion' }).waitFor();
      expect(await page.getByText('Une nouvelle version est prête.').count()).toBe(0);
      const script = (await page.evaluate('navigator.serviceWorker.controller.scriptURL')) as string;
      expect(script).toBe(`${base}/app/sw.js`);
    } finally {
      await context.close();
    }
  });

  it('starts offline from the worker’s cache, says so, and comes back by itself', async () => {
    const context = await browser.newContext({ locale: 'en-GB', viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${base}/app/`);
    await page.evaluate('navigator.serviceWorker.ready.then(() => true)');
    await page.reload(); // now controlled by the worker
    const phone = nextPhone();
    await page.getByLabel('Phone number').fill(phone.slice(4));
    await page.getByRole('button', { name: 'Get the code' }).click();
    await page.getByLabel('6-digit code').waitFor();
    await page.getByLabel('6-digit code').fill(t.outbox!.lastCode(phone));
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Home' }).waitFor();

    await context.setOffline(true);
    await page.reload();
    await page.getByRole('heading', { name: 'You are offline' }).waitFor();
    await page.screenshot({ path: join(OUT, 'webapp-offline-en-390.png') });
    await context.setOffline(false);
    await page.getByRole('heading', { name: 'Home' }).waitFor({ timeout: 15_000 });
    await context.close();
  });
});
