// Every screen of the admin console in Chromium (fixture: ./setup.ts), opened by its deep link, at a
// desktop width (1280 px) and a phone's (390 px): screenshot into .ci/out/admin-<screen>[-390].png,
// checked for overflow (nothing wider than the viewport, no box whose content spills out of it) and
// by axe-core, no serious or critical violation allowed. axe-core is injected as an inline script, so only this file's context bypasses
// the service's CSP (the other file runs the console under it).
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIND_OVERFLOW, OUT, seriousAxeViolations } from '../browser/page-checks.js';
import { type ConsoleFixture, runBrowserTests, startConsole } from './setup.js';

describe.skipIf(!runBrowserTests)("the admin console's accessibility in Chromium", () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
    // A Vite build, a fresh database and Chromium: a loaded machine needs more than the default.
  }, 120_000);
  afterAll(() => f?.close());

  it('has no serious or critical axe violation on any screen (screenshots in .ci/out)', async () => {
    // axe-core is injected as an inline script: only this context bypasses the service's CSP.
    const context = await f.browser.newContext({
      bypassCSP: true,
      locale: 'fr-FR',
      viewport: { width: 1280, height: 900 },
    });
    const page = await f.newPage(context);
    const check = async (screen: string, ready: () => Promise<unknown>) => {
      await ready();
      await page.screenshot({ path: join(OUT, `admin-${screen}.png`), fullPage: true });
      expect((await page.evaluate(FIND_OVERFLOW)) as string[], `${screen}: overflow`).toEqual([]);
      // axe-core is injected once per page load: the screens after the first deep link open in the page.
      expect(await seriousAxeViolations(page), `${screen}: axe`).toEqual([]);
    };
    for (const [width, height, suffix] of [
      [1280, 900, ''],
      [390, 844, '-390'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.evaluate(`sessionStorage.clear()`).catch(() => {});
      await page.goto(`${f.base}/admin`);
      await check(`signin${suffix}`, () => page.getByLabel('Numéro de téléphone').waitFor());
    }
    // One withdrawal approved and its payout escalated (still sent after a minute), so the
    // withdrawals screen shows the hand-resolution form and the provider's read too.
    const approved = await f.t.app.inject({
      method: 'POST',
      url: `/api/admin/withdrawals/${f.toApprove}/approve`,
      headers: f.admin.headers,
      payload: {},
    });
    expect(approved.statusCode, approved.body).toBe(200);
    f.t.clock.advance(61_000);
    expect(await f.t.app.services.payouts.onTransferEvent(`wd-${f.toApprove}`)).toBe('escalated');
    await page.setViewportSize({ width: 1280, height: 900 });
    // The admin's token, as the sign-in keeps it; a deep link, then each screen opened in the page
    // (as its menu link does, `history.pushState`), so axe-core is parsed once.
    await page.evaluate(`sessionStorage.setItem('pronostics.admin.token', ${JSON.stringify(f.admin.token)})`);
    const screens: [string, string, string][] = [
      ['retraits', '/admin/retraits', 'Retraits'],
      ['dashboard', '/admin', 'Tableau de bord'],
      ['utilisateurs', '/admin/utilisateurs', 'Utilisateurs'],
      [
        'utilisateur',
        `/admin/utilisateurs/${f.customer.id}`,
        `Utilisateur n° ${f.customer.id} · ${f.customer.phone}`,
      ],
      ['types', '/admin/types', 'Types de pronostic'],
      ['packs', '/admin/packs', 'Packs'],
      ['signalements', '/admin/signalements', 'Signalements'],
      ['approbations', '/admin/approbations', 'Approbations'],
      ['matchs', '/admin/matchs', 'Matchs à venir'],
      ['competitions', '/admin/competitions', 'Compétitions : santé des synchronisations'],
      ['support', '/admin/support', 'Support'],
      ['ticket', `/admin/support/${f.ticketId}`, 'Demande n°'],
      ['journal', '/admin/journal', 'Journal d’audit'],
    ];
    for (const [width, height, suffix] of [
      [1280, 900, ''],
      [390, 844, '-390'],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto(`${f.base}/admin/retraits`);
      for (const [screen, url, heading] of screens) {
        await page.evaluate(
          `history.pushState(null, '', ${JSON.stringify(url)}); dispatchEvent(new PopStateEvent('popstate'))`,
        );
        await check(`${screen}${suffix}`, async () => {
          await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
          await page.waitForFunction('document.querySelectorAll(\'[aria-busy="true"]\').length === 0');
          if (screen === 'retraits') {
            await page.getByRole('button', { name: 'Lire le transfert chez l’opérateur' }).click();
            await page.locator('[data-field="provider-read"]').waitFor();
          }
        });
      }
    }
    await context.close();
    expect(f.pageErrors).toEqual([]);
  }, 120_000);
});
