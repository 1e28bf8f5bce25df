// The slip walk in Debian's Chromium (issue 53): from an analysis, "check the odds on my slip";
// typing the odds brings the verdict; a second analysis is added and its odds typed; the slip is
// saved and listed open, then settles from the results and shows it; in French and in English, at
// 390 and 1280 px with no overflow and no serious axe violation. Without Chromium the file is
// skipped locally and fails in CI.
import { rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../webapp/src/i18n/en.js';
import { fr } from '../../webapp/src/i18n/fr.js';
import {
  FIND_OVERFLOW,
  launchChromium,
  runBrowserTests,
  seriousAxeViolations,
  WIDTHS,
  warnWithoutChromium,
} from '../browser/page-checks.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { matrixAnalyst } from '../slips/analyst.js';
import { buildWebapp, type Texts } from './setup.js';

warnWithoutChromium('web app slip walk');

describe.runIf(runBrowserTests)('the slip screen in a browser', { timeout: 240_000 }, () => {
  let t: TestApp;
  let browser: Browser;
  let base: string;
  let buildDir: string;
  let user: SignedIn;
  const analyses: number[] = [];
  const today = new Date().toISOString().slice(0, 10);

  beforeAll(async () => {
    buildDir = await buildWebapp('webapp-slips-');
    t = await createTestApp({ analyst: matrixAnalyst, config: { webappDir: buildDir, rateLimit: false } });
    user = await signIn(t, { credits: 50 });
    for (const [home, away, type] of [
      ['Arsenal', 'Chelsea', 6],
      ['Leeds', 'Everton', 1],
    ] as const) {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/user/pronostic/create',
        headers: user.headers,
        payload: { type_id: type, teams_details: { home, away, date: today, league: 'E0' } },
      });
      analyses.push(created.json().data.pronostic.id);
      await t.app.runtime.analysisWorker.runOnce();
    }
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    await rm(buildDir, { recursive: true, force: true });
  });

  async function opened(width: number, language: 'fr' | 'en'): Promise<Page> {
    const context = await browser.newContext({
      locale: language === 'fr' ? 'fr-FR' : 'en-GB',
      // axe-core is injected as an inline script: only this context bypasses the service's CSP.
      bypassCSP: true,
      viewport: { width, height: 900 },
    });
    const token = user.headers.authorization.replace(/^Bearer /, '');
    await context.addInitScript(`localStorage.setItem('pronostics.token', ${JSON.stringify(token)});`);
    return context.newPage();
  }

  async function checks(page: Page, name: string): Promise<string[]> {
    const overflow = (await page.evaluate(FIND_OVERFLOW)) as string[];
    const axe = await seriousAxeViolations(page);
    return [...overflow, ...axe].map((problem) => `${name}: ${problem}`);
  }

  async function walk(width: number, language: 'fr' | 'en', L: Texts): Promise<string[]> {
    const page = await opened(width, language);
    await page.goto(`${base}/app/analyses/${analyses[0]}?lang=${language}`);
    await page.getByRole('link', { name: L.slipCheckOdds }).click();
    await page.getByRole('heading', { name: L.slipsTitle }).waitFor();
    await page.getByLabel(L.slipOdds).first().fill('1.85');
    await page.locator('[data-slip-verdict]:not([data-slip-verdict=""])').waitFor();
    const verdict = page.locator('[data-slip-verdict] strong');
    expect(await verdict.textContent()).toMatch(
      language === 'fr' ? /^En moyenne, ce ticket rapporte/ : /^On average this slip returns/,
    );
    await page.getByLabel(L.slipAdd).selectOption(String(analyses[1]));
    await page.getByLabel(L.slipOdds).nth(1).fill('2.4');
    await expect.poll(async () => (await verdict.textContent()) ?? '').toMatch(/\d/);
    const problems = await checks(page, `${language}-${width}-slip`);
    await page.getByRole('button', { name: L.slipSave }).click();
    await page.getByText(L.slipSaved, { exact: true }).waitFor();
    await page.locator('[data-status="open"]').first().waitFor();
    problems.push(...(await checks(page, `${language}-${width}-saved`)));
    await page.context().close();
    return problems;
  }

  it('builds, checks and saves a slip in French and English at 390 and 1280 px, then shows it settled', async () => {
    const problems: string[] = [];
    for (const width of WIDTHS) {
      problems.push(...(await walk(width, 'fr', fr)));
      problems.push(...(await walk(width, 'en', en)));
    }
    expect(problems).toEqual([]);

    // The matches are played: Arsenal 3-1 (home and over), Leeds 1-1 (a draw).
    const [year, month, day] = today.split('-');
    await t.app.services.football.importText(
      'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR\n' +
        `E0,${day}/${month}/${year},15:00,Arsenal,Chelsea,3,1,H\n` +
        `E0,${day}/${month}/${year},17:00,Leeds,Everton,1,1,D`,
      'results',
    );
    await t.app.runtime.settlement.runOnce();
    const page = await opened(390, 'fr');
    await page.goto(`${base}/app/slips`);
    await page.getByRole('heading', { name: fr.slipsSaved }).waitFor();
    await page.locator('[data-status]').first().waitFor();
    const statuses = await page
      .locator('[data-status]')
      .evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-status')));
    expect(statuses).toHaveLength(2 * WIDTHS.length);
    expect(statuses.every((status) => status === 'won' || status === 'lost')).toBe(true);
    await page.context().close();
  });
});
