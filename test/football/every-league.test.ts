// Issue 50, the data side: the three results layouts told apart by their header (a division's
// season file, an extra league's country file, a results-only file), imported idempotently by
// results:import; an extra league synced from its country file on a local server (the current
// season's rows only) and its fixtures from the extra leagues' file (comma- or tab-separated);
// each sync's outcome recorded for the console's health, a failure with its one line.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { fixtures } from '../../src/db/schema/fixtures.js';
import { ManualClock } from '../../src/lib/clock.js';
import { ALL_COMPETITION_CODES, competitionOf, extraLeagueOfCountry } from '../../src/lib/competitions.js';
import { parseFixturesCsv } from '../../src/modules/football/fixtures-csv.js';
import { detectFormat, extraSeason, resultsOnlyDate } from '../../src/modules/football/result-formats.js';
import { parseResultsCsv } from '../../src/modules/football/results-csv.js';
import { type LoopbackServer, serveOnLoopback } from '../fakes/http.js';
import { createTestApp, type TestApp } from '../helpers.js';

const EXTRA_HEADER =
  '\ufeffCountry,League,Season,Date,Time,Home,Away,HG,AG,Res,PSCH,PSCD,PSCA,MaxCH,MaxCD,MaxCA,AvgCH,AvgCD,AvgCA';
const BRAZIL = [
  EXTRA_HEADER,
  'Brazil,Serie A,2025,12/04/2025,20:00,Palmeiras,Flamengo RJ,2,1,H,2.1,3.3,3.6,2.2,3.4,3.7,2.05,3.2,3.5',
  'Brazil,Serie A,2025,13/04/2025,22:30,Santos,Gremio,0,0,D,,,,,,,2.4,3.1,3.0',
  'Brazil,Serie A,2024,01/12/2024,19:00,Gremio,Palmeiras,1,3,A,3.2,3.3,2.2,3.3,3.4,2.3,3.1,3.2,2.1',
  // A match never played (abandoned): no score.
  'Brazil,Serie A,2025,20/04/2025,20:00,Flamengo RJ,Santos,,,,2.0,3.3,3.8,,,,,,',
].join('\r\n');

const RESULTS_ONLY = [
  'Date,Team 1,FT,HT,Team 2',
  'Fri Aug 7 2015,Rangers,3-1,2-1,St Mirren',
  'Sat Aug 8 2015,Dumbarton,2-1,?,Hibernian',
  'Sat Aug 15 2015,Hibernian,?,?,Rangers',
].join('\r\n');

const DIVISION = [
  'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,PSH,PSD,PSA,PSCH,PSCD,PSCA',
  'E1,08/08/2015,Brentford,Ipswich,2,2,D,2.1,3.3,3.5,2.0,3.4,3.6',
].join('\n');

describe('the three results layouts', () => {
  it('tells them apart by their header', () => {
    expect(detectFormat(EXTRA_HEADER.slice(1).split(','))).toBe('extra');
    expect(detectFormat(['Date', 'Team 1', 'FT', 'HT', 'Team 2'])).toBe('results');
    expect(detectFormat(['Div', 'Date', 'HomeTeam', 'AwayTeam', 'FTHG', 'FTAG'])).toBe('division');
  });

  it('reads an extra league: the country names it, its own season labels, closing odds only', () => {
    const parsed = parseResultsCsv(BRAZIL);
    expect(parsed.format).toBe('extra');
    expect(parsed.rows.map((row) => [row.league, row.season, row.date, row.kickoff, row.homeTeam])).toEqual([
      ['BRA', '2025', '2025-04-12', '20:00', 'Palmeiras'],
      ['BRA', '2025', '2025-04-13', '22:30', 'Santos'],
      ['BRA', '2024', '2024-12-01', '19:00', 'Gremio'],
    ]);
    const first = parsed.rows[0]!.market;
    expect(first.closing.pinnacle).toEqual([2.1, 3.3, 3.6]);
    expect(first.closing.average).toEqual([2.05, 3.2, 3.5]);
    expect(first.prematch.pinnacle).toBeNull();
    expect(first.prematch.average).toBeNull();
    expect(parsed.skipped).toEqual([{ line: 5, reason: 'no score (match not played)' }]);
  });

  it('reads the newer spelling of an extra file (PH, AvgH) as closing prices, and a season split over two years', () => {
    const parsed = parseResultsCsv(
      [
        'Country,League,Season,Date,Time,Home,Away,HG,AG,Res,PH,PD,PA,AvgH,AvgD,AvgA',
        ' Austria ,Bundesliga,2024/2025,27/07/2024,16:00,Sturm Graz,Salzburg,1,1,D,2.5,3.4,2.7,2.4,3.3,2.6',
        'Atlantis,Premier,2024/2025,27/07/2024,16:00,A,B,1,1,D,,,,,,',
      ].join('\n'),
    );
    expect(parsed.rows).toHaveLength(1);
    expect(parsed.rows[0]).toMatchObject({ league: 'AUT', season: '2024-25' });
    expect(parsed.rows[0]!.market.closing.pinnacle).toEqual([2.5, 3.4, 2.7]);
    expect(parsed.rows[0]!.market.prematch.average).toBeNull();
    expect(parsed.skipped).toEqual([{ line: 3, reason: 'unknown country "Atlantis"' }]);
    expect(extraSeason('2019/2020')).toBe('2019-20');
    expect(extraSeason('2019')).toBe('2019');
    expect(extraSeason('2019/2021')).toBe('');
  });

  it('reads a results-only file: dates in words, FT and HT as n-n, an unknown half-time, an unplayable score skipped', () => {
    expect(resultsOnlyDate('Fri Aug 7 2015')).toBe('07/08/2015');
    expect(resultsOnlyDate('Dec 26 2016')).toBe('26/12/2016');
    const parsed = parseResultsCsv(RESULTS_ONLY, { league: 'SC1' });
    expect(parsed.format).toBe('results');
    expect(
      parsed.rows.map((row) => [
        row.league,
        row.season,
        row.date,
        row.homeTeam,
        row.awayTeam,
        row.homeGoals,
        row.awayGoals,
        row.halfTimeHomeGoals,
      ]),
    ).toEqual([
      ['SC1', '2015-16', '2015-08-07', 'Rangers', 'St Mirren', 3, 1, 2],
      ['SC1', '2015-16', '2015-08-08', 'Dumbarton', 'Hibernian', 2, 1, null],
    ]);
    expect(parsed.skipped).toEqual([{ line: 4, reason: 'unreadable score "?-?"' }]);
    // Without a league (no column, no file name) its rows cannot be stored.
    expect(parseResultsCsv(RESULTS_ONLY).rows).toEqual([]);
  });

  it('knows every division and extra league by code, with both languages and a country', () => {
    expect(ALL_COMPETITION_CODES).toHaveLength(38);
    expect(competitionOf('sc3')).toMatchObject({
      code: 'SC3',
      tier: 4,
      country: { code: 'GB-SCT', name: { fr: 'Écosse', en: 'Scotland' } },
    });
    expect(competitionOf('SWZ')?.name).toEqual({ fr: 'Super League suisse', en: 'Swiss Super League' });
    expect(extraLeagueOfCountry(' USA ')).toBe('USA');
    for (const code of ALL_COMPETITION_CODES) {
      const competition = competitionOf(code)!;
      expect(competition.name.fr.length * competition.name.en.length).toBeGreaterThan(0);
    }
  });
});

let server: LoopbackServer;
let t: TestApp;
let brazil = BRAZIL;
let extraFixtures = '';
const clock = new ManualClock('2025-04-15T12:00:00Z');
const lines: string[] = [];

beforeAll(async () => {
  server = await serveOnLoopback((request, response) => {
    const url = request.url ?? '';
    if (url === '/new/BRA.csv') response.writeHead(200, { 'content-type': 'text/csv' }).end(brazil);
    else if (url === '/mmz4281/2425/E1.csv') response.writeHead(200).end(DIVISION);
    else if (url === '/fixtures.csv') response.writeHead(200).end('Div,Date,Time,HomeTeam,AwayTeam\n');
    else if (url === '/new_league_fixtures.csv') response.writeHead(200).end(extraFixtures);
    else response.writeHead(404).end('not found');
  });
  t = await createTestApp({
    clock,
    config: {
      resultsBaseUrl: `${server.url}/mmz4281`,
      fixturesUrl: `${server.url}/fixtures.csv`,
      extraFixturesUrl: `${server.url}/new_league_fixtures.csv`,
    },
  });
});
afterAll(async () => {
  await t.close();
  await server.close();
});

async function cli(args: string[]): Promise<number> {
  lines.length = 0;
  const ctx = createCliContext(t.config, { database: t.database, clock, out: (line) => lines.push(line) });
  return runCli(args, ctx);
}

describe('results:import and results:sync of every layout', () => {
  it('imports the three layouts, the results-only file taking its league from its name, idempotently', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'every-league-'));
    const files = [
      [join(dir, 'BRA.csv'), BRAZIL],
      [join(dir, 'SC1-2015-16.csv'), RESULTS_ONLY],
      [join(dir, 'E1-2015-16.csv'), DIVISION],
    ] as const;
    for (const [path, text] of files) writeFileSync(path, text);
    expect(await cli(['results:import', ...files.map(([path]) => path)])).toBe(0);
    expect(lines).toContain('BRA.csv: 3 rows read, 3 new, 0 already stored, 1 skipped');
    expect(lines).toContain('SC1-2015-16.csv: 2 rows read, 2 new, 0 already stored, 1 skipped');
    expect(lines).toContain('E1-2015-16.csv: 1 rows read, 1 new, 0 already stored, 0 skipped');
    expect(await cli(['results:import', ...files.map(([path]) => path)])).toBe(0);
    expect(lines).toContain('Done: 0 new matches.');
    const stored = await t.app.services.football.histories('2000-01-01');
    const count = (code: string) => stored.find((league) => league.code === code)?.matches;
    expect([count('BRA'), count('SC1'), count('E1')]).toEqual([3, 2, 1]);
    expect(stored.find((league) => league.code === 'BRA')?.name).toBe('Brasileirão (Série A)');
  });

  it('syncs an extra league from its country file beside the season folders, keeping the current season', async () => {
    brazil = [
      BRAZIL,
      'Brazil,Serie A,2025,14/04/2025,20:00,Gremio,Flamengo RJ,1,0,H,,,,,,,,,',
      'Brazil,Serie A,2023,01/12/2023,19:00,Santos,Gremio,1,1,D,,,,,,,,,',
    ].join('\r\n');
    expect(await cli(['results:sync', 'BRA', 'E1'])).toBe(0);
    expect(lines).toContain(`${server.url}/new/BRA.csv`);
    // Season 2024-25's calendar years (2024 and 2025) are kept; an older season would be left out.
    expect(lines).toContain('BRA 2024-25: 4 rows read, 1 new, 3 already stored, 1 skipped');
    expect(lines).toContain('E1 2024-25: 1 rows read, 0 new, 1 already stored, 0 skipped');
  });

  it('records each sync in the health table, a failure with its one-line reason', async () => {
    expect(await cli(['results:sync', 'MEX'])).toBe(1);
    const statuses = await t.app.services.football.syncStatuses();
    const of = (code: string) => statuses.find((row) => row.leagueCode === code && row.source === 'results');
    expect(of('BRA')).toMatchObject({ lastStored: 1, lastFailureAt: null });
    expect(of('MEX')?.lastSuccessAt).toBeNull();
    expect(of('MEX')?.lastError).toMatch(/404/);
    expect(of('MEX')?.lastError).not.toContain('\n');
  });
});

describe('fixtures of the extra leagues', () => {
  it('parses the extra leagues’ file, comma- or tab-separated, its country naming the competition', () => {
    const comma = [
      'Country,League,Date,Time,Home,Away,PSH,PSD,PSA,AvgH,AvgD,AvgA',
      'Brazil,Serie A,19/04/2025,20:00,Palmeiras,Santos,1.9,3.4,4.2,1.85,3.3,4.0',
      'Atlantis,Premier,19/04/2025,20:00,A,B,,,,,,',
      'Japan,J1 League,20/04/2025,06:00,Kashima,Urawa,,,,,,',
    ].join('\n');
    const rows = parseFixturesCsv(comma);
    expect(rows.map((row) => [row.league, row.home, row.kickoffAt])).toEqual([
      ['BRA', 'Palmeiras', '2025-04-19T19:00:00.000Z'],
      ['JPN', 'Kashima', '2025-04-20T05:00:00.000Z'],
    ]);
    expect(rows[0]!.prematch.pinnacle).toEqual([1.9, 3.4, 4.2]);
    expect(parseFixturesCsv(comma.replaceAll(',', '\t'), ['JPN']).map((row) => row.home)).toEqual([
      'Kashima',
    ]);
  });

  it('fixtures:sync reads EXTRA_FIXTURES_URL for an extra league, and records the outcome', async () => {
    extraFixtures = [
      'Country,League,Date,Time,Home,Away,PH,PD,PA',
      'Brazil,Serie A,19/04/2025,20:00,Palmeiras,Santos,1.9,3.4,4.2',
    ].join('\n');
    expect(await cli(['fixtures:sync', 'BRA'])).toBe(0);
    const rows = await t.database.db.select().from(fixtures).orderBy(asc(fixtures.id));
    expect(rows.map((row) => [row.homeName, row.awayName])).toEqual([['Palmeiras', 'Santos']]);
    const statuses = await t.app.services.football.syncStatuses();
    expect(statuses.find((row) => row.leagueCode === 'BRA' && row.source === 'fixtures')).toMatchObject({
      lastStored: 1,
    });

    extraFixtures = 'Country,League,Date,Time,Home,Away\nBrazil,Serie A,bad,20:00,Palmeiras,Santos';
    expect(await cli(['fixtures:sync', 'BRA'])).toBe(1);
    const failed = (await t.app.services.football.syncStatuses()).find(
      (row) => row.leagueCode === 'BRA' && row.source === 'fixtures',
    );
    expect(failed?.lastError).toMatch(/^line 2: a fixture needs/);
    expect(failed?.lastStored).toBe(1);
  });
});
