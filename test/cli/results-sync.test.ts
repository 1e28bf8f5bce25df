// `results:sync --international [URL]` and `--cups [URL…]` (issue 52): the worker's national teams'
// results sync and the European cups' Football.TXT sync, run once by hand through the fixtures
// service, from the configured URL (a local HTTP server here) or one given on the command line
// (`file://`); each prints what it added, a second run adds nothing, and the results close the
// fixtures they were played in. Never the network.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { fixtures } from '../../src/db/schema/fixtures.js';
import { footballMatches } from '../../src/db/schema/football.js';
import { ManualClock } from '../../src/lib/clock.js';
import { type LoopbackServer, serveOnLoopback } from '../fakes/http.js';
import { createTestApp, type TestApp } from '../helpers.js';

const HEADER = 'date,home_team,away_team,home_score,away_score,tournament,city,country,neutral';
const INTERNATIONALS = [
  HEADER,
  '2026-01-10,Cameroun,Gabon,2,0,African Cup of Nations qualification,Yaoundé,Cameroon,FALSE',
  '2026-01-14,Nigeria,Ghana,1,1,Friendly,Lagos,Nigeria,FALSE',
  '2026-01-18,Cameroon,Nigeria,1,0,African Cup of Nations,Rabat,Morocco,TRUE',
  // Not played yet: not a result.
  '2026-06-05,Cameroon,Ghana,,,Friendly,Yaoundé,Cameroon,FALSE',
].join('\n');

const CUP = [
  '= UEFA Champions League 2025/26',
  '',
  '» League phase',
  '  Wed Sep/17 2025',
  '    21.00  Real Madrid (ESP)       v Olympique Marseille (FRA)  2-1 (1-0)',
  '  Wed Mar/11 2026',
  '    18.45  Atlético Madrid (ESP)   v Liverpool FC (ENG)',
  '',
].join('\n');

const dir = mkdtempSync(join(tmpdir(), 'results-sync-cli-'));
const clock = new ManualClock('2026-01-20T08:00:00Z');
let t: TestApp;
let server: LoopbackServer;
const requests: string[] = [];

/** Runs one CLI command on the app's database; its exit code, output and error lines. */
async function cli(...argv: string[]): Promise<{ code: number; out: string[]; err: string }> {
  const out: string[] = [];
  const errors: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void errors.push(args.join(' ')));
  const code = await runCli(
    argv,
    createCliContext(t.config, { database: t.database, clock: t.clock, out: (line) => out.push(line) }),
  );
  vi.restoreAllMocks();
  return { code, out, err: errors.join('\n') };
}

const storedMatches = async () => (await t.database.db.select().from(footballMatches)).length;

beforeAll(async () => {
  server = await serveOnLoopback((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/results.csv') {
      response.writeHead(200, { 'content-type': 'text/csv; charset=utf-8' }).end(INTERNATIONALS);
      return;
    }
    response.writeHead(404).end('not found');
  });
  const cupFile = join(dir, 'cl.txt');
  writeFileSync(cupFile, CUP);
  t = await createTestApp({
    clock,
    config: {
      internationalResultsUrl: `${server.url}/results.csv`,
      footballTxtUrls: [pathToFileURL(cupFile).toString()],
    },
  });
});
afterAll(async () => {
  await t.close();
  await server.close();
});

describe('npm run cli -- results:sync --international / --cups', () => {
  it('syncs a given file:// results file once, prints what it added, and closes the fixture it holds', async () => {
    const afcon = await t.app.services.football.ensureLeagueAndTeams('INT-AFCON', ['Cameroon', 'Nigeria']);
    await t.database.db.insert(fixtures).values({
      leagueId: afcon.league.id,
      season: '2026',
      homeTeamId: afcon.teams.get('Cameroon')!.id,
      awayTeamId: afcon.teams.get('Nigeria')!.id,
      homeName: 'Cameroon',
      awayName: 'Nigeria',
      kickoffAt: '2026-01-18T19:00:00Z',
    });
    await t.app.services.fixtures.recount();
    const file = join(dir, 'results.csv');
    writeFileSync(file, INTERNATIONALS);
    const url = pathToFileURL(file).toString();

    const first = await cli('results:sync', '--international', url);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toEqual([
      `${url}: 3 rows read, 3 new, 0 already stored, 1 skipped`,
      '  INT-AFCON: 1 new',
      '  INT-AFCON-Q: 1 new',
      '  INT-FRIENDLY: 1 new',
      'Fixtures closed: 1 played, 0 postponed.',
    ]);
    expect(await storedMatches()).toBe(3);
    // The given file, not INTERNATIONAL_RESULTS_URL.
    expect(requests).toEqual([]);

    const again = await cli('results:sync', '--international', url);
    expect(again.code, again.err).toBe(0);
    expect(again.out).toEqual([`${url}: 3 rows read, 0 new, 3 already stored, 1 skipped`]);
    expect(await storedMatches()).toBe(3);
  });

  it('reads INTERNATIONAL_RESULTS_URL without a URL: nothing new after the same file', async () => {
    const { code, out, err } = await cli('results:sync', '--international');
    expect(code, err).toBe(0);
    expect(requests).toEqual(['/results.csv']);
    expect(out).toEqual([`${server.url}/results.csv: 3 rows read, 0 new, 3 already stored, 1 skipped`]);
  });

  it('syncs the European cups from FOOTBALL_TXT_URL, then adds nothing on a second run', async () => {
    const before = await storedMatches();
    const first = await cli('results:sync', '--cups');
    expect(first.code, first.err).toBe(0);
    expect(first.out).toEqual([
      'European cups: 1 files, 1 new results, 1 scheduled fixtures upserted, 0 skipped',
    ]);
    expect(await storedMatches()).toBe(before + 1);
    const again = await cli('results:sync', '--cups');
    expect(again.out).toEqual([
      'European cups: 1 files, 0 new results, 1 scheduled fixtures upserted, 0 skipped',
    ]);
    expect(await storedMatches()).toBe(before + 1);
  });

  it('fails naming the sync whose file is missing, and asks for something to sync', async () => {
    const missing = pathToFileURL(join(dir, 'absent.csv')).toString();
    const failed = await cli('results:sync', '--international', missing);
    expect(failed.code).toBe(1);
    expect(failed.out[0]).toMatch(new RegExp(`^${missing}: failed \\(`));
    expect(failed.err).toBe('Error: sync failed for international');
    const nothing = await cli('results:sync');
    expect(nothing.code).toBe(1);
    expect(nothing.err).toMatch(/nothing to sync/);
  });
});
