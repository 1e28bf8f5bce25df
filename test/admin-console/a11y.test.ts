// Every screen of the admin console in Chromium (fixture: ./setup.ts), opened by its deep link:
// screenshot into .ci/out/admin-<screen>.png and checked by axe-core, no serious or critical
// violation allowed. axe-core is injected as an inline script, so only this file's context bypasses
// the service's CSP (the other file runs the console under it).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleFixture, OUT, runBrowserTests, startConsole } from './setup.js';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

// The WCAG 2.x A and AA rules; only the violations are collected (the passes' details cost time).
const AXE_OPTIONS = {
  runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'] },
  resultTypes: ['violations'],
};

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: string[] }[];
}

describe.skipIf(!runBrowserTests)("the admin console's accessibility in Chromium", () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
    // A Vite build, a fresh database and Chromium: a loaded machine needs more than the default.
  }, 120_000);
  afterAll(() => f?.close());

  it('has no serious or critical axe violation on any screen (screenshots in .ci/out)', async () => {
    // axe-core is injected as an inline script: only this context bypasses the service's CSP.
    const context = await f.browser.newContext({ bypassCSP: true, viewport: { width: 1280, height: 900 } });
    const page = await f.newPage(context);
    const check = async (screen: string, ready: () => Promise<unknown>) => {
      await ready();
      await page.screenshot({ path: join(OUT, `admin-${screen}.png`), fullPage: true });
      // Injected once per page load: the screens after the first deep link are opened in the page.
      if ((await page.evaluate('typeof axe')) === 'undefined') await page.addScriptTag({ content: AXE });
      const violations = (await page.evaluate(
        `axe.run(document, ${JSON.stringify(AXE_OPTIONS)}).then((r) => r.violations)`,
      )) as AxeViolation[];
      const bad = violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map(
          (v) =>
            `${screen}: ${v.id} (${v.impact}) ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
        );
      expect(bad).toEqual([]);
    };
    await page.goto(`${f.base}/admin`);
    await check('signin', () => page.getByLabel('Numéro de téléphone').waitFor());
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
      ['support', '/admin/support', 'Support'],
      ['ticket', `/admin/support/${f.ticketId}`, 'Demande n°'],
      ['journal', '/admin/journal', 'Journal d’audit'],
    ];
    await page.goto(`${f.base}/admin/retraits`);
    for (const [screen, url, heading] of screens) {
      await page.evaluate(
        `history.pushState(null, '', ${JSON.stringify(url)}); dispatchEvent(new PopStateEvent('popstate'))`,
      );
      await check(screen, async () => {
        await page.getByRole('heading', { name: heading, level: 1 }).first().waitFor();
        await page.waitForFunction('document.querySelectorAll(\'[aria-busy="true"]\').length === 0');
      });
    }
    // The narrow layout (a phone) is screenshot too.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(`${f.base}/admin/retraits`);
    await check('retraits-mobile', () => page.getByRole('heading', { name: 'Retraits', level: 1 }).waitFor());
    await context.close();
    expect(f.pageErrors).toEqual([]);
  }, 60_000);
});
