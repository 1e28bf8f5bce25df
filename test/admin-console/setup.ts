// The admin console's browser-test fixture: a Vite build of console/ into a temporary folder, the
// app serving it (listening on port 0, fresh database, sign-in caps lifted since every browser
// sign-in comes from 127.0.0.1), a seeded admin, two pending withdrawals, a ticket, an open flag,
// three upcoming fixtures (one with a pronostic), and Debian's Chromium (playwright-core) with the
// launch flags of test/track-record/page.test.ts, its pages asking for French (`locale: 'fr-FR'`:
// the console speaks the language the browser asks for). The sandbox pays a payout out after an hour and a
// payout still sent after a minute is escalated, so a test can escalate one. Without Chromium the
// files are skipped locally and fail in CI (CI=true): `startConsole` throws there.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { build } from 'vite';
import { expect } from 'vitest';
import { raiseFlag } from '../../src/money/flags/raise.js';
import { giveMoney, withdrawn } from '../affiliation/helpers.js';
import { launchChromium, OUT, warnWithoutChromium } from '../browser/page-checks.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, grantCredits, nextPhone, type SignedIn, signIn, type TestApp } from '../helpers.js';

export { OUT, runBrowserTests } from '../browser/page-checks.js';

warnWithoutChromium('admin console browser tests');

export interface ConsoleFixture {
  t: TestApp;
  browser: Browser;
  base: string;
  /** An admin's number, never signed in yet (the browser signs in with it). */
  adminPhone: string;
  /** Another admin, signed in through the API (for checks and the axe pass's token). */
  admin: SignedIn;
  customer: SignedIn;
  other: SignedIn;
  toApprove: number;
  toReject: number;
  ticketId: number;
  /** An open flag (contradicts_final on the withdrawal to reject). */
  flagId: number;
  /** Upcoming fixtures: Arsenal–Chelsea (E0, one pronostic), Fulham–Everton (E0), Barcelona–Girona (SP1). */
  fixtureIds: { arsenal: number; fulham: number; barcelona: number };
  /** Errors of every page: uncaught exceptions, console errors, failed loads, 404s. */
  pageErrors: string[];
  newPage(context?: BrowserContext): Promise<Page>;
  /** Phone → code (from the test outbox) → signed in, with the mouse. */
  signInThroughUi(page: Page, phone: string): Promise<void>;
  /** Waits for `text` in the console's aria-live status region. */
  status(page: Page, text: string): Promise<void>;
  close(): Promise<void>;
}

export async function startConsole(): Promise<ConsoleFixture> {
  const buildDir = await mkdtemp(join(tmpdir(), 'admin-console-'));
  await build({
    configFile: join(process.cwd(), 'console', 'vite.config.ts'),
    build: { outDir: buildDir, emptyOutDir: true },
    logLevel: 'warn',
  });
  const t = await createTestApp({
    config: {
      consoleDir: buildDir,
      rateLimit: false,
      paymentSandboxDelayMs: 3_600_000,
      payoutStuckSeconds: 60,
    },
  });
  // The admin's account exists with its role (as `user:role` gives it); the browser signs in.
  const adminPhone = nextPhone();
  const { user } = await t.app.services.users.findOrCreate(adminPhone, 'CM');
  await t.app.services.users.changeRole(user.id, 'admin');
  const admin = await signIn(t, { role: 'admin' });
  const customer = await signIn(t);
  const other = await signIn(t);
  await giveMoney(t, customer.id, 9000);
  await giveMoney(t, other.id, 7000);
  const toApprove = await withdrawn(t, customer, { amount: 6000 });
  const toReject = await withdrawn(t, other, { amount: 5000 });
  const flagRaised = await t.app.db.transaction((tx) =>
    raiseFlag(
      tx,
      {
        kind: 'contradicts_final',
        targetType: 'withdrawal',
        targetId: toReject,
        details: { provider_status: 'complete', our_status: 'cancelled' },
      },
      undefined,
      t.app.services.events,
    ),
  );
  expect(flagRaised).toBe(true);
  const [flag] = (await t.app.services.flags.list({ status: 'open' })).flags;
  const day = (days: number, hour: string) =>
    `${new Date(t.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10)}T${hour}:00Z`;
  const fixtureIds = {
    arsenal: await seedFixture(t, { home: 'Arsenal', away: 'Chelsea', kickoffAt: day(3, '15:00') }),
    fulham: await seedFixture(t, { home: 'Fulham', away: 'Everton', kickoffAt: day(2, '19:45') }),
    barcelona: await seedFixture(t, {
      league: 'SP1',
      home: 'Barcelona',
      away: 'Girona',
      kickoffAt: day(4, '20:00'),
    }),
  };
  await grantCredits(t, other.id, 5);
  const pronostic = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: other.headers,
    payload: { type_id: 1, fixture_id: fixtureIds.arsenal },
  });
  expect(pronostic.statusCode, pronostic.body).toBe(201);
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  const form = new FormData();
  form.set('subject', 'Retrait non reçu');
  form.set('message', 'Bonjour, mon retrait n’est pas arrivé.');
  const created = await fetch(`${base}/api/user/support/ticket/create`, {
    method: 'POST',
    body: form,
    headers: customer.headers,
  });
  expect(created.status).toBe(201);
  const ticketId = ((await created.json()) as { data: { ticket: { id: number } } }).data.ticket.id;
  await mkdir(OUT, { recursive: true });
  const browser = await launchChromium();
  const pageErrors: string[] = [];

  return {
    t,
    browser,
    base,
    adminPhone,
    admin,
    customer,
    other,
    toApprove,
    toReject,
    ticketId,
    flagId: flag!.id,
    fixtureIds,
    pageErrors,
    async newPage(context) {
      const page = await (
        context ?? (await browser.newContext({ locale: 'fr-FR', viewport: { width: 1280, height: 900 } }))
      ).newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      page.on('requestfailed', (request) => {
        // A read the page cuts itself is no failure: the live stream when the page goes elsewhere
        // or signs out, and any GET still in flight when the test navigates (a list reloading
        // after a write, slower on a loaded machine). A cut write, or any other error, is one.
        const aborted = request.failure()?.errorText === 'net::ERR_ABORTED';
        if (aborted && request.method() === 'GET') return;
        pageErrors.push(`${request.method()} ${request.url()}: ${request.failure()?.errorText}`);
      });
      page.on('response', (response) => {
        if (response.status() === 404) pageErrors.push(`404 ${response.url()}`);
      });
      page.on('console', (message) => {
        // A refused call (403 for the non-admin, 401 after logout) is logged by Chromium as a failed load.
        if (message.type() === 'error' && !/status of 40[13]/.test(message.text()))
          pageErrors.push(message.text());
      });
      return page;
    },
    async signInThroughUi(page, phone) {
      const response = await page.goto(`${base}/admin`);
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
      // Typed as people type it, in national format with Cameroon chosen: the console sends E.164.
      const typed = phone.startsWith('+237') ? phone.slice(4) : phone;
      await page.getByLabel('Numéro de téléphone').fill(typed);
      await page.getByRole('button', { name: 'Recevoir un code' }).click();
      // The code field shows once the code is sent: only then is it in the outbox.
      const codeField = page.getByLabel('Code reçu');
      await codeField.waitFor();
      await codeField.fill(t.outbox!.lastCode(phone));
      await page.getByRole('button', { name: 'Se connecter' }).click();
    },
    async status(page, text) {
      await page.locator('.status-bar[role="status"]', { hasText: text }).waitFor({ timeout: 10_000 });
    },
    async close() {
      await browser.close();
      await t.close();
      await rm(buildDir, { recursive: true, force: true });
    },
  };
}
