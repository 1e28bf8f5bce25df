// The console's competitions screen in Chromium (fixture: ./setup.ts): an admin signs in, opens
// "Compétitions" from the menu and reads each competition's sync health: a competition whose results
// sync failed comes first with its one-line reason, the seeded Premier League shows its latest
// scheduled match and a fixtures sync never run; then the same screen in English (?lang=en).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPETITIONS } from '../../src/lib/competitions.js';
import { type ConsoleFixture, runBrowserTests, startConsole } from './setup.js';

describe.skipIf(!runBrowserTests)('the console’s competitions screen in Chromium', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
  }, 120_000);
  afterAll(() => f?.close());

  it('shows each competition’s latest result, fixture and failing sync, in French then English', async () => {
    await f.t.app.services.football.recordSync(['BRA'], 'results', new Date('2026-01-05T06:00:00Z'), {
      error: 'GET https://www.football-data.co.uk/new/BRA.csv answered 503',
    });
    const page = await f.newPage();
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('link', { name: 'Compétitions' }).click();
    await page
      .getByRole('heading', { name: 'Compétitions : santé des synchronisations', level: 1 })
      .waitFor();
    const rows = page.locator('tr[data-competition]');
    await rows.first().waitFor();
    // Every competition of the catalogue: divisions, extra leagues, European cups, national teams' tournaments.
    expect(await rows.count()).toBe(COMPETITIONS.length);
    // The failing one first, with its reason.
    expect(await rows.first().getAttribute('data-competition')).toBe('BRA');
    const brazil = (await rows.first().textContent()) ?? '';
    expect(brazil).toContain('Brasileirão (Série A)');
    expect(brazil).toContain('Brésil');
    expect(brazil).toContain('Échec le');
    expect(brazil).toContain('answered 503');
    const premier = page.locator('tr[data-competition="E0"]');
    expect(await premier.locator('[data-field="last-fixture"]').textContent()).toMatch(/UTC$/);
    expect(await premier.textContent()).toContain('Angleterre');
    expect(await premier.textContent()).toContain('Jamais');

    await page.goto(`${f.base}/admin/competitions?lang=en`);
    await page.getByRole('heading', { name: 'Competitions: sync health', level: 1 }).waitFor();
    await page.locator('tr[data-competition="BRA"]').waitFor();
    const english = (await page.locator('tr[data-competition="BRA"]').textContent()) ?? '';
    expect(english).toContain('Brazil');
    expect(english).toContain('Failed on');
    expect(await page.locator('tr[data-competition="SC1"]').textContent()).toContain('Scottish Championship');
    expect(f.pageErrors).toEqual([]);
  }, 120_000);
});
