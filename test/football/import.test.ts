import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { testConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { type LoopbackServer, serveOnLoopback } from '../fakes/http.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const SHORT_DATES = [
  'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HTR,HS,AS,HST,AST,BbAv_2_5,BbAv_2_5_1',
  'E0,16/08/14,Arsenal,Crystal Palace,2.0,1.0,H,1.0,1.0,D,14.0,4.0,6.0,2.0,1.72,2.1',
  'E0,16/08/14,Leicester,Everton,2.0,2.0,D,1.0,2.0,A,11.0,13.0,3.0,3.0,2.0,1.8',
  'E0,17/08/14,Everton,,1.0,1.0,D,,,,,,,,,',
  ',,,,,,,,,,,,,,,',
].join('\n');

const LONG_DATES = [
  'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR,HTHG,HTAG,HS,AS,HST,AST,PC>2.5,PC<2.5',
  'SP1,16/08/2019,20:00,Ath Bilbao,Barcelona,1,0,H,0,0,10,12,3,4,1.9,1.95',
  'SP1,17/08/2019,18:00,Celta,Real Madrid,1,3,A,0,2,9,14,2,8,1.7,2.2',
  'SP1,32/08/2019,18:00,Celta,Real Madrid,1,3,A,0,2,9,14,2,8,1.7,2.2',
].join('\n');

let database: TestDatabase;
let football: FootballService;
let dir: string;
const lines: string[] = [];

async function cli(args: string[], config = testConfig()): Promise<number> {
  lines.length = 0;
  const ctx = createCliContext(config, {
    database: database.handle,
    clock: new ManualClock('2025-10-01T12:00:00Z'),
    out: (line) => lines.push(line),
  });
  return runCli(args, ctx);
}

beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  dir = mkdtempSync(join(tmpdir(), 'results-import-'));
  writeFileSync(join(dir, 'E0-2014-15.csv'), SHORT_DATES);
  writeFileSync(join(dir, 'SP1-2019-20.csv'), LONG_DATES);
});

afterAll(async () => {
  await database.drop();
});

describe('results:import', () => {
  it('imports both date formats and both over/under spellings, and reports skipped rows', async () => {
    const code = await cli(['results:import', join(dir, 'E0-2014-15.csv'), join(dir, 'SP1-2019-20.csv')]);
    expect(code).toBe(0);
    expect(lines).toContain('E0-2014-15.csv: 2 rows read, 2 new, 0 already stored, 1 skipped');
    expect(lines).toContain('  line 4: missing team name');
    expect(lines).toContain('SP1-2019-20.csv: 2 rows read, 2 new, 0 already stored, 1 skipped');
    expect(lines).toContain('  line 4: unreadable date "32/08/2019"');
    expect(lines.at(-1)).toBe('Done: 4 new matches.');
    expect(await football.stats()).toMatchObject({ matches: 4, leagues: 2 });
  });

  it('adds nothing when the same files are imported again', async () => {
    await cli(['results:import', join(dir, 'E0-2014-15.csv'), join(dir, 'SP1-2019-20.csv')]);
    expect(lines).toContain('E0-2014-15.csv: 2 rows read, 0 new, 2 already stored, 1 skipped');
    expect(lines.at(-1)).toBe('Done: 0 new matches.');
    expect((await football.stats()).matches).toBe(4);
  });

  it('fails with a clear message for a missing file', async () => {
    const code = await cli(['results:import', join(dir, 'nope.csv')]);
    expect(code).toBe(1);
  });
});

describe('names: case, accents and aliases', () => {
  it('finds leagues by code, seeded names and added aliases, and teams by name or alias', async () => {
    expect((await football.resolveLeague('e0'))?.code).toBe('E0');
    expect((await football.resolveLeague('PREMIER LEAGUE'))?.code).toBe('E0');
    expect((await football.resolveLeague('Liga'))?.code).toBe('SP1');
    expect((await football.resolveLeague('Primera Division'))?.code).toBe('SP1');
    expect(await football.resolveLeague('Ligue des nations')).toBeUndefined();

    expect((await football.resolveTeam('ATH  BILBAO'))?.name).toBe('Ath Bilbao');
    // The usual long names of football-data.co.uk's short forms come with the import.
    expect((await football.resolveTeam('Athletic Club'))?.name).toBe('Ath Bilbao');
    expect((await football.resolveTeam('fc barcelona'))?.name).toBe('Barcelona');
    expect((await football.resolveTeam('Leicester City'))?.name).toBe('Leicester');
    expect(await football.resolveTeam('Los Leones')).toBeUndefined();
    expect(await cli(['team:alias', 'Lós Leones', 'Ath Bilbao'])).toBe(0);
    expect(lines).toEqual(['"Lós Leones" now names team "Ath Bilbao".']);
    expect((await football.resolveTeam('los leones'))?.name).toBe('Ath Bilbao');

    expect(await cli(['league:alias', 'E0', 'La Premier'])).toBe(0);
    expect((await football.resolveLeague('la premier'))?.code).toBe('E0');
    expect(await cli(['team:alias', 'Arsenal', 'Everton'])).toBe(1);
    expect(await cli(['team:alias', 'Nobody', 'Else'])).toBe(1);
  });
});

describe('results:sync against a local server', () => {
  let server: LoopbackServer;
  let baseUrl: string;
  const requests: string[] = [];

  beforeAll(async () => {
    server = await serveOnLoopback((request, response) => {
      requests.push(request.url ?? '');
      if (request.url === '/mmz4281/2526/E0.csv') {
        response.writeHead(200, { 'content-type': 'text/csv' });
        response.end(
          [
            'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR',
            'E0,15/08/2025,20:00,Liverpool,Bournemouth,4,2,H',
            'E0,16/08/2025,12:30,Aston Villa,Newcastle,0,0,D',
          ].join('\r\n'),
        );
        return;
      }
      response.writeHead(404).end('not found');
    });
    baseUrl = `${server.url}/mmz4281`;
  });

  afterAll(async () => {
    await server.close();
  });

  it('downloads the season file, imports it, and is idempotent', async () => {
    const config = testConfig({ resultsBaseUrl: baseUrl });
    expect(await cli(['results:sync', 'E0', '--season', '2025-26'], config)).toBe(0);
    expect(requests).toEqual(['/mmz4281/2526/E0.csv']);
    expect(lines).toContain('E0 2025-26: 2 rows read, 2 new, 0 already stored, 0 skipped');
    // Without --season: the season under way by the clock (2025-10-01 → 2025-26).
    expect(await cli(['results:sync', 'E0'], config)).toBe(0);
    expect(lines).toContain('E0 2025-26: 2 rows read, 0 new, 2 already stored, 0 skipped');
  });

  it('downloads through the fetch it was given, from the configured base URL', async () => {
    const asked: string[] = [];
    const service = createFootballService({
      db: database.handle.db,
      config: testConfig({ resultsBaseUrl: 'https://results.invalid/data/' }),
      fetch: async (url) => {
        asked.push(String(url));
        return new Response('Div,Date,HomeTeam,AwayTeam,FTHG,FTAG\nSC0,02/08/2025,Hearts,Aberdeen,2,1\n');
      },
    });
    const report = await service.syncLeague('SC0', '2025-26');
    expect(asked).toEqual(['https://results.invalid/data/2526/SC0.csv']);
    expect(report).toMatchObject({ url: asked[0], file: 'SC0 2025-26', rows: 1, inserted: 1 });
    expect((await service.resolveTeam('hearts'))?.name).toBe('Hearts');
  });

  it('fills both odds groups on sync too', async () => {
    const service = createFootballService({
      db: database.handle.db,
      config: testConfig({ resultsBaseUrl: 'https://results.invalid/data/' }),
      fetch: async () =>
        new Response(
          'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,PSCH,PSCD,PSCA,AvgC>2.5,AvgC<2.5\n' +
            'SC1,02/08/2025,Dundee Utd,Partick,2,1,2.1,3.4,3.5,1.9,3.6,4.0,1.8,2.0\n',
        ),
    });
    await service.syncLeague('SC1', '2025-26');
    const league = await service.resolveLeague('SC1');
    const [match] = await service.playedMatches(league!.id, '2025-01-01', '2026-01-01');
    expect(match!.odds).toMatchObject({
      prePinnacleHome: 2.1,
      closePinnacleHome: 1.9,
      closePinnacleAway: 4.0,
      closeAverageOver: 1.8,
      closeAverageUnder: 2.0,
      preAverageOver: null,
    });
  });

  it('reports a league whose file is missing and exits non-zero', async () => {
    const config = testConfig({ resultsBaseUrl: baseUrl });
    expect(await cli(['results:sync', 'XX9', '--season', '2025-26'], config)).toBe(1);
    expect(lines.join('\n')).toContain('XX9 2025-26: failed');
    expect(await cli(['results:sync', 'E0', '--season', '2025-2027'], config)).toBe(1);
  });
});

describe('odds on stored matches', () => {
  // Old spellings (BetBrain `BbAv…`, pre-match) beside the closing Pinnacle columns (2012-13 on).
  const header =
    'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,BbAvH,BbAvD,BbAvA,BbAv>2.5,BbAv<2.5,PSCH,PSCD,PSCA,BbAHh,BbAvAHH,BbAvAHA';
  const oldRow =
    'I1,20/08/16,Juventus,Fiorentina,2,1,1.5,4.2,7.5,1.45,4.1,7.0,1.9,1.9,1.4,4.6,8.5,-1,1.95,1.9';
  // Current spellings: closing averages and closing over/under too.
  const newHeader =
    'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,AvgH,AvgD,AvgA,P>2.5,P<2.5,Avg>2.5,Avg<2.5,PSCH,PSCD,PSCA,AvgCH,AvgCD,AvgCA,PC>2.5,PC<2.5,AvgC>2.5,AvgC<2.5,' +
    'AHh,PAHH,PAHA,AvgAHH,AvgAHA,AHCh,PCAHH,PCAHA,AvgCAHH,AvgCAHA';
  const newRow =
    'I1,24/08/19,Parma,Juventus,0,1,9,5,1.4,8.5,4.8,1.38,2.0,1.9,1.95,1.85,10,5.5,1.35,9.5,5.2,1.33,2.1,1.8,2.05,1.75,' +
    '1.5,1.92,1.98,1.9,1.95,1.75,1.96,1.94,1.93,1.92';

  async function storedOdds() {
    const league = await football.resolveLeague('I1');
    const matches = await football.playedMatches(league!.id, '2016-01-01', '2020-01-01');
    return matches.map((match) => match.odds);
  }

  it('stores each group in its own columns, old names included, and a re-import adds odds to stored rows', async () => {
    // First stored without any odds, as before the columns existed.
    const bare = [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG',
      'I1,20/08/16,Juventus,Fiorentina,2,1',
      'I1,24/08/19,Parma,Juventus,0,1',
    ].join('\n');
    writeFileSync(join(dir, 'I1-bare.csv'), bare);
    expect(await cli(['results:import', join(dir, 'I1-bare.csv')])).toBe(0);
    expect((await storedOdds()).every((odds) => Object.values(odds).every((value) => value === null))).toBe(
      true,
    );

    writeFileSync(join(dir, 'I1-2016-17.csv'), [header, oldRow].join('\n'));
    writeFileSync(join(dir, 'I1-2019-20.csv'), [newHeader, newRow].join('\n'));
    expect(await cli(['results:import', join(dir, 'I1-2016-17.csv'), join(dir, 'I1-2019-20.csv')])).toBe(0);
    expect(lines).toContain('I1-2016-17.csv: 1 rows read, 0 new, 1 already stored, 0 skipped');
    const [old, current] = await storedOdds();
    expect(old).toMatchObject({
      prePinnacleHome: 1.5,
      prePinnacleAway: 7.5,
      // BetBrain's average was taken days before the match: pre-match, never closing.
      preAverageHome: 1.45,
      preAverageOver: 1.9,
      preAverageUnder: 1.9,
      closePinnacleHome: 1.4,
      closePinnacleDraw: 4.6,
      closePinnacleAway: 8.5,
      closeAverageHome: null,
      closeAverageOver: null,
      prePinnacleOver: null,
      // BetBrain's Asian handicap: the line and the average only, pre-match.
      preAhLine: -1,
      preAverageAhHome: 1.95,
      preAverageAhAway: 1.9,
      prePinnacleAhHome: null,
      closeAhLine: null,
      closeAverageAhHome: null,
    });
    expect(current).toMatchObject({
      prePinnacleHome: 9,
      preAverageAway: 1.38,
      prePinnacleOver: 2.0,
      preAverageOver: 1.95,
      closePinnacleHome: 10,
      closeAverageHome: 9.5,
      closePinnacleOver: 2.1,
      closePinnacleUnder: 1.8,
      closeAverageOver: 2.05,
      closeAverageUnder: 1.75,
      preAhLine: 1.5,
      prePinnacleAhHome: 1.92,
      prePinnacleAhAway: 1.98,
      preAverageAhHome: 1.9,
      preAverageAhAway: 1.95,
      closeAhLine: 1.75,
      closePinnacleAhHome: 1.96,
      closePinnacleAhAway: 1.94,
      closeAverageAhHome: 1.93,
      closeAverageAhAway: 1.92,
    });
    expect((await football.stats()).matches).toBeGreaterThanOrEqual(2);
  });
});
