// The worker's daily results sync against a local server in football-data.co.uk's layout: each
// configured league is downloaded and imported, a failing download is retried with pauses, one
// log line per league; and nothing is synced (or fetched) unless leagues are configured.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createResultsSync } from '../../src/runtime/results-sync.js';
import { type LoopbackServer, serveOnLoopback } from '../fakes/http.js';
import { createTestApp, type TestApp } from '../helpers.js';

const CSV = [
  'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR',
  'E0,17/08/2024,15:00,Arsenal,Wolves,2,0,H',
  'E0,18/08/2024,16:30,Chelsea,Man City,0,2,A',
  'E0,24/08/2024,12:30,Brighton,Man United,2,1,H',
].join('\n');

let server: LoopbackServer;
const requests: string[] = [];
let e0Failures = 0;

beforeAll(async () => {
  server = await serveOnLoopback((request, response) => {
    requests.push(request.url ?? '');
    if (request.url === '/mmz4281/2425/E0.csv') {
      if (e0Failures > 0) {
        e0Failures--;
        response.writeHead(503).end('busy');
        return;
      }
      response.writeHead(200, { 'content-type': 'text/csv' }).end(CSV);
      return;
    }
    response.writeHead(404).end('not found');
  });
});
afterAll(() => server.close());

const open: TestApp[] = [];
afterEach(async () => {
  for (const t of open.splice(0)) await t.close();
  requests.length = 0;
});

function capturingLogger() {
  const lines: Array<{ level: string; fields: Record<string, unknown>; message: string }> = [];
  const log =
    (level: string) =>
    (fields: Record<string, unknown>, message: string): void => {
      lines.push({ level, fields, message });
    };
  const logger = {
    info: log('info'),
    warn: log('warn'),
    error: log('error'),
    debug() {},
    child: () => logger,
  };
  return { lines, logger: logger as never };
}

describe('daily results sync', () => {
  it('downloads each league, retries a failing one with pauses, and logs one line per league', async () => {
    const t = await createTestApp({ config: { resultsBaseUrl: `${server.url}/mmz4281` } });
    open.push(t);
    const { lines, logger } = capturingLogger();
    const sync = createResultsSync({
      source: t.app.services.football,
      clock: new ManualClock('2024-10-01T04:00:00Z'),
      logger,
      options: { leagues: ['E0', 'SP1'], retryDelaysMs: [5, 10] },
      settlement: { wake() {} },
    });
    e0Failures = 1;
    const outcomes = await sync.runOnce();
    expect(outcomes).toEqual([
      { league: 'E0', ok: true, attempts: 2, inserted: 3 },
      { league: 'SP1', ok: false, attempts: 3, error: expect.stringContaining('404') },
    ]);
    // The 2024-25 season's files (October 2024), E0 twice (one 503), SP1 three times (404 each).
    expect(requests).toEqual([
      '/mmz4281/2425/E0.csv',
      '/mmz4281/2425/E0.csv',
      '/mmz4281/2425/SP1.csv',
      '/mmz4281/2425/SP1.csv',
      '/mmz4281/2425/SP1.csv',
    ]);
    expect(lines.map((line) => [line.level, line.fields.league, line.message])).toEqual([
      ['info', 'E0', 'results synced'],
      ['error', 'SP1', 'results sync failed'],
    ]);
    expect(lines[0]!.fields).toMatchObject({ season: '2024-25', inserted: 3, attempts: 2 });

    // The next day's run adds nothing twice; the analyst sees the results.
    const again = await sync.runOnce();
    expect(again[0]).toEqual({ league: 'E0', ok: true, attempts: 1, inserted: 0 });
    expect((await t.app.services.football.stats()).matches).toBe(3);
  });

  it('runs with the worker only for configured leagues: none outside production unless asked', async () => {
    const t = await createTestApp({
      runLoops: true,
      config: { resultsBaseUrl: `${server.url}/mmz4281`, resultsSyncLeagues: [] },
    });
    open.push(t);
    expect(t.app.runtime.resultsSync.options.leagues).toEqual([]);
    expect(await t.app.runtime.resultsSync.runOnce()).toEqual([]);
    expect(requests).toEqual([]);

    expect(loadConfig({ APP_ENV: 'development' }, '/srv').resultsSyncLeagues).toEqual([]);
    expect(loadConfig({ APP_ENV: 'test' }, '/srv').resultsSyncLeagues).toEqual([]);
    expect(loadConfig({ RESULTS_SYNC_LEAGUES: 'E0, SP1,E0' }, '/srv').resultsSyncLeagues).toEqual([
      'E0',
      'SP1',
    ]);
    expect(() => loadConfig({ RESULTS_SYNC_LEAGUES: 'E0;../x' }, '/srv')).toThrow(/RESULTS_SYNC_LEAGUES/);
    const production = loadConfig(
      {
        APP_ENV: 'production',
        APP_SECRET: 'production-secret-0123456789abcdef0123456789',
        TOMBSTONE_KEY: 'production-tombstone-key-0123456789abcdef',
        MESSAGING_DRIVER: 'twilio',
        TWILIO_ACCOUNT_SID: 'AC1',
        TWILIO_AUTH_TOKEN: 't',
        TWILIO_SMS_FROM: 'PRONOS',
        TWILIO_WHATSAPP_FROM: '+15550001',
        TWILIO_WHATSAPP_CONTENT_SID: 'HX1',
        PAYMENTS_DRIVER: 'notchpay',
        NOTCHPAY_PUBLIC_KEY: 'pk',
        NOTCHPAY_PRIVATE_KEY: 'sk',
        NOTCHPAY_WEBHOOK_SECRET: 'whsec',
      },
      '/srv',
    );
    // Every football-data division and extra league (issue 50).
    expect(production.resultsSyncLeagues).toHaveLength(38);
    expect(production.resultsSyncLeagues).toEqual(expect.arrayContaining(['E0', 'SC3', 'G1', 'BRA', 'USA']));
  });

  it('a scheduled sync runs after its first delay, and stop() ends the schedule', async () => {
    const t = await createTestApp({ config: { resultsBaseUrl: `${server.url}/mmz4281` } });
    open.push(t);
    const { lines, logger } = capturingLogger();
    const sync = createResultsSync({
      source: t.app.services.football,
      clock: new ManualClock('2024-10-01T04:00:00Z'),
      logger,
      options: { leagues: ['E0'], firstDelayMs: 1, intervalMs: 3_600_000, retryDelaysMs: [] },
      settlement: { wake() {} },
    });
    sync.start();
    for (let i = 0; i < 200 && lines.length === 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    await sync.stop();
    expect(lines.map((line) => line.message)).toEqual(['results synced']);
  });
});
