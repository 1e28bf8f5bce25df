// The public /account/delete page in a real browser: Debian's Chromium (playwright-core) against the
// service listening on port 0. The page is laid out at 390 px and 1280 px (screenshots kept in
// .ci/out/), runs under the service's CSP, and a person deletes their account with it: phone, the
// sign-in code, then the deletion code (a remaining balance is shown and given up with the box).
// The browser asks for French (`locale: 'fr-FR'`). Without Chromium the test is skipped locally and
// fails in CI (CI=true).
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/index.js';
import { createTestApp, nextPhone, signIn, type TestApp } from '../helpers.js';
import { giveMoney } from './helpers.js';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const inCi = process.env.CI === 'true';
if (!available && !inCi) {
  console.warn(`account deletion page test skipped: no Chromium at ${CHROMIUM} (apt-get install chromium)`);
}

describe.skipIf(!available && !inCi)('the /account/delete page in Chromium', () => {
  let t: TestApp;
  let browser: Browser | undefined;
  let base: string;
  const out = join(process.cwd(), '.ci', 'out');

  beforeAll(async () => {
    if (!available) throw new Error(`CI: Chromium is required at ${CHROMIUM} for the page test`);
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
    });
    await mkdir(out, { recursive: true });
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(width: number): Promise<{ page: Page; errors: string[] }> {
    const page = await browser!.newPage({ locale: 'fr-FR', viewport: { width, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => {
      if (message.type() === 'error') errors.push(message.text());
    });
    const response = await page.goto(`${base}/account/delete`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'");
    await page.waitForSelector('#status[data-step="phone-form"]');
    return { page, errors };
  }

  for (const width of [390, 1280]) {
    it(`is laid out at ${width} px without horizontal scrolling`, async () => {
      const { page, errors } = await open(width);
      expect(await page.textContent('h1')).toBe('Supprimer mon compte');
      expect(await page.textContent('body')).toContain('Depuis l’application');
      const scroll = (await page.evaluate('document.documentElement.scrollWidth')) as number;
      expect(scroll).toBeLessThanOrEqual(width);
      const button = await page.locator('#phone-form button').boundingBox();
      expect(button!.x + button!.width).toBeLessThanOrEqual(width);
      await page.screenshot({ path: join(out, `account-delete-${width}.png`), fullPage: true });
      expect(existsSync(join(out, `account-delete-${width}.png`))).toBe(true);
      expect(errors).toEqual([]);
      await page.close();
    }, 60_000);
  }

  it('deletes an account by phone and two codes, giving up the balance shown', async () => {
    const phone = nextPhone();
    const owner = await signIn(t, { phone });
    await giveMoney(t, owner.id, 1500);
    // The sign-in above started a cooldown on sign-in codes for this phone.
    t.clock.advance(120_000);
    const { page, errors } = await open(390);
    await page.fill('#phone', phone);
    await page.click('#phone-form button');
    await page.waitForSelector('#status[data-step="signin-form"]');
    await page.fill('#signin-code', t.outbox!.lastCode(phone));
    await page.click('#signin-form button');
    await page.waitForSelector('#status[data-step="delete-form"]');
    const deletionCode = t.outbox!.lastCode(phone);
    await page.fill('#delete-code', deletionCode);
    await page.click('#delete-form button');
    await page.waitForSelector('#forfeit-row:not([hidden])');
    expect(await page.textContent('#status')).toContain('1 500 XAF');
    await page.check('#forfeit');
    await page.click('#delete-form button');
    await page.waitForSelector('#status[data-step="done"]');
    expect(await page.textContent('#status')).toContain('Votre compte a été supprimé');
    await page.screenshot({ path: join(out, 'account-delete-done-390.png'), fullPage: true });
    const [row] = await t.app.db.select().from(users).where(eq(users.id, owner.id));
    expect(row).toMatchObject({ status: 'deleted', phone: null, moneyBalance: 0 });
    expect(errors.filter((e) => !e.includes('409'))).toEqual([]);
    await page.close();
  }, 60_000);
});
