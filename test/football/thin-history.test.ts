// Issue 50 in the analysis: a typed-in match whose teams come from an extra league (its country
// file, football-data's names such as "Flamengo RJ") is recognised under the names bettors type,
// its league inferred; and the analysis is honest where data is thin: a league whose results carry
// no odds is at most `medium` and says so, one with too short a history is `low` and says so, in
// both languages; a league with odds is left as it was.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createAnalyst } from '../../src/modules/football/analyst.js';
import { inlineFitter } from '../../src/modules/football/fit-pool.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { createNarrator } from '../../src/providers/ai/index.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const clock = new ManualClock('2025-11-20T12:00:00Z');

/** `count` matches among six sides, one every two days up to 2025-11-15, as [date, home, away, hg, ag]. */
function matches(teams: readonly string[], count: number): Array<[string, string, string, number, number]> {
  const rows: Array<[string, string, string, number, number]> = [];
  for (let i = 0; i < count; i++) {
    const day = new Date(Date.UTC(2025, 10, 15) - (count - i) * 2 * 86_400_000);
    const home = teams[i % teams.length]!;
    const away = teams[(i + 1 + (i % (teams.length - 1))) % teams.length]!;
    rows.push([day.toISOString().slice(0, 10), home, away, (i * 7) % 4, (i * 5) % 3]);
  }
  return rows;
}
const dmy = (iso: string) => `${iso.slice(8, 10)}/${iso.slice(5, 7)}/${iso.slice(0, 4)}`;

const BRAZIL = ['Flamengo RJ', 'Palmeiras', 'Atletico-MG', 'Santos', 'Gremio', 'Corinthians'];

let database: TestDatabase;
let football: FootballService;
beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  // An extra league's country file with closing odds: 120 matches.
  const extra = [
    'Country,League,Season,Date,Time,Home,Away,HG,AG,Res,PSCH,PSCD,PSCA,AvgCH,AvgCD,AvgCA',
    ...matches(BRAZIL, 120).map(
      ([date, home, away, hg, ag]) =>
        `Brazil,Serie A,2025,${dmy(date)},20:00,${home},${away},${hg},${ag},${hg > ag ? 'H' : hg < ag ? 'A' : 'D'},2.2,3.3,3.4,2.1,3.2,3.3`,
    ),
  ].join('\r\n');
  await football.importText(extra, 'BRA.csv');
  // A results-only file (Scotland's League One): 120 matches, no odds.
  const scots = ['Airdrie', 'Alloa', 'Cove Rangers', 'Falkirk', 'Montrose', 'Peterhead'];
  const resultsOnly = [
    'Date,Team 1,FT,HT,Team 2',
    ...matches(scots, 120).map(([date, home, away, hg, ag]) => {
      const day = new Date(`${date}T00:00:00Z`).toUTCString().split(' ');
      // `Sat Aug 8 2015`
      return `${day[0]!.slice(0, 3)} ${day[2]} ${Number(day[1])} ${day[3]},${home},${hg}-${ag},?,${away}`;
    }),
  ].join('\r\n');
  await football.importText(resultsOnly, 'SC2-2025-26.csv', undefined, { league: 'SC2' });
  // Greece: 20 matches with odds only.
  const greeks = ['Olympiakos', 'Panathinaikos', 'AEK', 'PAOK', 'Aris', 'Volos'];
  const short = [
    'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,PSCH,PSCD,PSCA',
    ...matches(greeks, 20).map(
      ([date, home, away, hg, ag]) => `G1,${dmy(date)},${home},${away},${hg},${ag},H,2,3.4,3.9`,
    ),
  ].join('\n');
  await football.importText(short, 'G1.csv');
});
afterAll(() => database.drop());

const levelOf = (outcome: { result: unknown }) =>
  (outcome.result as { data_quality: { level: string } }).data_quality.level;

const analyst = () =>
  createAnalyst({
    football,
    narrator: createNarrator(testConfig(), { logger: silent }),
    logger: silent,
    clock,
    fitter: inlineFitter(),
  });

describe('an extra league’s sides typed in', () => {
  it('are recognised under the names bettors type, their league inferred, with no thin-data note', async () => {
    const outcome = await analyst().analyse({ home: 'Flamengo', away: 'Atlético Mineiro' }, '1x2');
    const result = outcome.result as { analysis: string; data_quality: Record<string, number | string> };
    expect(result.data_quality.home_matches).toBeGreaterThan(30);
    expect(result.data_quality.away_matches).toBeGreaterThan(30);
    expect(result.data_quality.level).toBe('high');
    expect(result.analysis).toContain('Flamengo');
    expect(result.analysis).not.toContain('minces');
    expect(result.analysis).not.toContain('que des résultats');
  });
});

describe('honest where data is thin', () => {
  it('results only: at most medium, and the text says so in French and English', async () => {
    const french = await analyst().analyse({ home: 'Falkirk', away: 'Alloa' }, '1x2');
    expect(levelOf(french)).toBe('medium');
    expect(french.result.analysis).toContain(
      'Pour League One écossaise, nous n’avons que des résultats, sans les cotes des bookmakers',
    );
    const english = await analyst().analyse({ home: 'Falkirk', away: 'Alloa' }, '1x2', undefined, {
      locale: 'en',
    });
    expect(levelOf(english)).toBe('medium');
    expect(english.result.analysis).toContain('For Scottish League One we hold results only');
  });

  it('a short history: low, and the text says so in French and English', async () => {
    const french = await analyst().analyse({ home: 'PAOK', away: 'Aris', league: 'G1' }, 'full-analysis');
    expect(levelOf(french)).toBe('low');
    expect(french.result.analysis).toContain('Nos données de Super League grecque sont encore minces');
    const english = await analyst().analyse({ home: 'PAOK', away: 'Aris' }, '1x2', undefined, {
      locale: 'en',
    });
    expect(levelOf(english)).toBe('low');
    expect(english.result.analysis).toContain('Our data on Greek Super League is still thin');
  });
});
