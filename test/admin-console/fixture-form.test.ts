// The console's fixture entry in Chromium (fixture: ./setup.ts; issues 51 and 52): an admin opens
// "Matchs à venir", adds a Champions League match (competition from the catalogue's cups, teams
// picked from the known ones as typed, kick-off in UTC, stage, neutral venue), sees it listed with
// its stage in French; imports a
// national-teams file and reads its report (added, skipped with the line's reason), then enters a
// knockout's score after 90 minutes; the same form in English.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ConsoleFixture, runBrowserTests, startConsole } from './setup.js';

describe.skipIf(!runBrowserTests)('the console’s fixture entry in Chromium', () => {
  let f: ConsoleFixture;
  beforeAll(async () => {
    f = await startConsole();
  }, 120_000);
  afterAll(() => f?.close());

  const day = (days: number) =>
    new Date(f.t.clock.now().getTime() + days * 86_400_000).toISOString().slice(0, 10);

  it('adds a cup fixture, imports a file of national-team fixtures and enters a 90-minute score', async () => {
    await f.t.app.services.football.ensureLeagueAndTeams('INT-FRIENDLY', ['Cameroon', 'Gabon']);
    const page = await f.newPage();
    await f.signInThroughUi(page, f.adminPhone);
    await page.getByRole('link', { name: 'Matchs à venir' }).click();
    await page.getByRole('heading', { name: 'Ajouter un match', level: 2 }).waitFor();
    const form = page.getByRole('form', { name: 'Ajouter un match' });
    const competition = form.getByLabel('Compétition');
    await competition.locator('option[value="UCL"]').waitFor({ state: 'attached' });
    // The cups are a group of their own in the picker.
    expect(await competition.locator('optgroup[label="Coupes"] option').allTextContents()).toContain(
      'Ligue des champions (UCL)',
    );
    await competition.selectOption('UCL');
    const home = form.getByLabel('Équipe à domicile');
    await home.pressSequentially('arse');
    // The known teams matching what was typed are offered.
    await form.locator('#fixture-home-teams option[value="Arsenal"]').waitFor({ state: 'attached' });
    await home.fill('Arsenal');
    await form.getByLabel('Équipe à l’extérieur').fill('Chelsea');
    await form.getByLabel('Coup d’envoi (UTC)').fill(`${day(6)}T20:00`);
    await form.getByLabel('Ville (facultatif)').fill('Londres');
    await form.getByLabel('Phase (facultatif)').fill('Round of 16, Leg 2');
    await form.getByLabel('Terrain neutre').check();
    await form.getByRole('button', { name: 'Ajouter le match' }).click();
    await f.status(page, 'Match ajouté : Arsenal – Chelsea.');
    const table = page.locator('table[data-league="UCL"]');
    await table.waitFor();
    expect(await table.textContent()).toContain('Arsenal – Chelsea');
    expect(await table.textContent()).toContain('20:00 UTC');
    // The stage, in the console's language (decision 0161).
    expect(await table.locator('[data-field="stage"]').textContent()).toContain(
      'Huitièmes de finale, match retour',
    );

    const upload = page.getByRole('form', { name: 'Importer des matchs' });
    await upload.getByLabel('Fichier (2 Mo au plus)').setInputFiles({
      name: 'fixtures.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(
        [
          'date,home_team,away_team,home_score,away_score,tournament,city,country,neutral',
          `${day(8)},Cameroun,Gabon,,,African Cup of Nations,Yaoundé,Cameroon,FALSE`,
          `${day(9)},Gabon,Gabon,,,Friendly,Libreville,Gabon,FALSE`,
        ].join('\n'),
      ),
    });
    await upload.getByRole('button', { name: 'Importer' }).click();
    await f.status(page, 'Import terminé : 1 ajouté(s), 0 déjà connu(s), 1 ligne(s) écartée(s).');
    const report = upload.locator('[data-field="import-report"]');
    expect(await report.textContent()).toContain('Ligne 3 :');
    await page.locator('tr', { hasText: 'Cameroun – Gabon' }).waitFor();
    const id = await page.locator('tr', { hasText: 'Cameroun – Gabon' }).getAttribute('data-fixture');

    const regular = page.getByRole('form', { name: 'Score après 90 minutes' });
    await regular.getByLabel('Identifiant du match').fill(id!);
    await regular.getByLabel('Buts domicile').fill('1');
    await regular.getByLabel('Buts extérieur').fill('1');
    await regular.getByRole('button', { name: 'Enregistrer le score' }).click();
    await f.status(page, `Score après 90 minutes enregistré pour le match n° ${id}.`);
    const shown = await f.t.app.inject({
      method: 'PATCH',
      url: `/api/admin/fixtures/${id}`,
      headers: f.admin.headers,
      payload: {},
    });
    expect(shown.json().data.fixture).toMatchObject({
      knockout: true,
      regular_time_score: { home: 1, away: 1 },
    });

    await page.goto(`${f.base}/admin/matchs?lang=en`);
    const english = page.getByRole('form', { name: 'Add a match' });
    await english.getByLabel('Competition').locator('optgroup[label="Cups"]').waitFor({ state: 'attached' });
    await english.getByLabel('Home team').fill('Nowhere Rovers');
    await english.getByLabel('Away team').fill('Chelsea');
    await english.getByLabel('Competition').selectOption('UCL');
    await english.getByLabel('Kick-off (UTC)').fill(`${day(7)}T20:00`);
    await english.getByRole('button', { name: 'Add the match' }).click();
    // The refusal names the field, in English.
    await f.status(page, 'Unknown team');
    expect(f.pageErrors.filter((error) => !/status of 422/.test(error))).toEqual([]);
  }, 120_000);
});
