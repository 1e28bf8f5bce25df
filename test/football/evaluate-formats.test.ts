// Issue 50's evaluation: `evaluate` reads every results layout (a division's season file, an extra
// league's country file, a results-only file named by its league and season), scores the
// bookmaker only where a file has prices, and `--forecasts` writes every test match's forecast
// walked forward: changing every result and price dated D or later leaves every line before D
// (and on D) byte-identical.
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { testConfig } from '../../src/config.js';
import { marketsFrom } from '../../src/engine/markets.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';
import { protocolFiles } from '../../src/modules/football/evaluation-data.js';
import { FORECASTS_HEADER } from '../../src/modules/football/forecasts-csv.js';
import { simulateLeague } from '../engine/simulate.js';

/**
 * Names a loader must keep as written: an accent, an apostrophe, a comma (quoted in the file), a
 * trailing space (as some older football-data files have; the model reads the trimmed name).
 */
const QUIRKY = ['São Paulo', "Nott'm Forest", 'Sporting, Lisbon', 'Atlético-MG', 'Ingolstadt '];

interface Simulated {
  date: number;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  /** Decimal closing odds from the true probabilities, 4 % margin. */
  odds: [string, string, string];
}

/** Two seasons of an 8-team league, the first four teams renamed `QUIRKY`. */
function simulate(seed: number): Simulated[] {
  const { teams, matches } = simulateLeague({ teams: 8, seasons: 2, seed });
  const strength = new Map(teams.map((team) => [team.name, team]));
  const rename = (name: string) => QUIRKY[Number(name.slice(5))] ?? name;
  return matches.map((match) => {
    const home = strength.get(match.home)!;
    const away = strength.get(match.away)!;
    const truth = marketsFrom(
      scoreMatrix(
        Math.exp(Math.log(1.2) + 0.3 + home.attack - away.defence),
        Math.exp(Math.log(1.2) + away.attack - home.defence),
        0,
      ),
    ).oneXTwo;
    const price = (p: number) => (1 / (p * 1.04)).toFixed(2);
    return {
      date: match.date,
      home: rename(match.home),
      away: rename(match.away),
      homeGoals: match.homeGoals,
      awayGoals: match.awayGoals,
      odds: [price(truth.home), price(truth.draw), price(truth.away)],
    };
  });
}

const quote = (name: string) => (name.includes(',') ? `"${name}"` : name);
const dmy = (date: number) => {
  const d = new Date(date);
  return `${String(d.getUTCDate()).padStart(2, '0')}/${String(d.getUTCMonth() + 1).padStart(2, '0')}/${d.getUTCFullYear()}`;
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const spelled = (date: number) => {
  const d = new Date(date);
  return `${DAYS[d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()} ${d.getUTCFullYear()}`;
};
const result = (m: Simulated) => (m.homeGoals > m.awayGoals ? 'H' : m.homeGoals < m.awayGoals ? 'A' : 'D');

const FORMATS = {
  division: (matches: Simulated[]) =>
    [
      'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,PSCH,PSCD,PSCA',
      ...matches.map((m) =>
        [
          'E1',
          dmy(m.date),
          quote(m.home),
          quote(m.away),
          m.homeGoals,
          m.awayGoals,
          result(m),
          ...m.odds,
        ].join(','),
      ),
    ].join('\n'),
  // Calendar-year seasons, closing prices only, a byte-order mark and CRLF, as the country files come.
  extra: (matches: Simulated[]) =>
    [
      '\ufeffCountry,League,Season,Date,Time,Home,Away,HG,AG,Res,PSCH,PSCD,PSCA,AvgCH,AvgCD,AvgCA',
      ...matches.map((m) =>
        [
          'Brazil',
          'Serie A',
          new Date(m.date).getUTCFullYear(),
          dmy(m.date),
          '20:00',
          quote(m.home),
          quote(m.away),
          m.homeGoals,
          m.awayGoals,
          result(m),
          ...m.odds,
          ...m.odds,
        ].join(','),
      ),
    ].join('\r\n'),
  results: (matches: Simulated[]) =>
    [
      'Date,Team 1,FT,HT,Team 2',
      ...matches.map((m) =>
        [spelled(m.date), quote(m.home), `${m.homeGoals}-${m.awayGoals}`, '?', quote(m.away)].join(','),
      ),
    ].join('\n'),
};

/** The train and test files of the three layouts: each league's first season trains, its second is forecast. */
function writeLeagues(dir: string, change?: (match: Simulated) => Simulated) {
  const files = { train: [] as string[], test: [] as string[] };
  const leagues = [
    { format: 'division', seed: 11, names: ['E1-2015-16.csv', 'E1-2016-17.csv'] },
    { format: 'extra', seed: 12, names: ['brazil-train.csv', 'brazil-test.csv'] },
    { format: 'results', seed: 13, names: ['SC1-2015-16.csv', 'SC1-2016-17.csv'] },
  ] as const;
  for (const { format, seed, names } of leagues) {
    const matches = simulate(seed);
    const split = matches.length / 2;
    const test = matches.slice(split).map((match) => (change ? change(match) : match));
    writeFileSync(join(dir, names[0]), FORMATS[format](matches.slice(0, split)));
    writeFileSync(join(dir, names[1]), FORMATS[format](test));
    files.train.push(join(dir, names[0]));
    files.test.push(join(dir, names[1]));
  }
  return files;
}

async function evaluateFiles(files: { train: string[]; test: string[] }, out: string, json = true) {
  const lines: string[] = [];
  const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
  const args = ['evaluate', '--train', ...files.train, '--test', ...files.test, '--forecasts', out];
  expect(await runCli(json ? [...args, '--json'] : args, ctx)).toBe(0);
  return { lines, forecasts: readFileSync(out, 'utf8') };
}

describe('evaluate reads every results layout', () => {
  it('scores each competition under its code, the bookmaker only where a file has prices', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-formats-'));
    const files = writeLeagues(dir);
    const { lines, forecasts } = await evaluateFiles(files, join(dir, 'forecasts.csv'));
    const report = JSON.parse(lines[0]!);
    expect(Object.keys(report.leagues)).toEqual(['BRA', 'E1', 'SC1']);
    const perLeague = 56;
    expect(report.matches).toBe(3 * perLeague);
    for (const code of ['BRA', 'E1']) {
      expect(report.leagues[code]).toMatchObject({ matches: perLeague, priced_matches: perLeague });
      // Prices from the truth: the engine is near the market, never far below it.
      expect(report.leagues[code].rps_ratio).toBeGreaterThan(0.97);
      expect(report.leagues[code].rps_ratio).toBeLessThan(1.2);
    }
    // Results only: the engine is scored, the bookmaker's column is empty, not made up.
    expect(report.leagues.SC1).toMatchObject({
      matches: perLeague,
      priced_matches: 0,
      bookmaker_rps: null,
      rps_ratio: null,
      rps_ratio_ci: null,
    });
    expect(report.leagues.SC1.engine_rps).toBeGreaterThan(0);
    // The pooled ratio is over the priced matches only, the engine's RPS over every match.
    expect(report.leagues.BRA.priced_matches + report.leagues.E1.priced_matches).toBe(2 * perLeague);
    expect(report.rps_ratio).toBeGreaterThan(0.97);

    const [header, ...rows] = forecasts.trimEnd().split('\n');
    expect(header).toBe(FORECASTS_HEADER);
    expect(rows).toHaveLength(3 * perLeague);
    const dates = rows.map((row) => row.slice(0, 10));
    expect(dates.every((date) => /^\d{4}-\d{2}-\d{2}$/.test(date))).toBe(true);
    expect([...dates].sort()).toEqual(dates);
    for (const row of rows) {
      const probabilities = row.split(',').slice(-3);
      expect(probabilities.every((p) => /^0\.\d{6}$/.test(p))).toBe(true);
      expect(probabilities.reduce((sum, p) => sum + Number(p), 0)).toBeCloseTo(1, 5);
    }
    // Team names exactly as the test files write them, in every layout.
    for (const code of ['E1', 'BRA', 'SC1']) {
      const inLeague = rows.filter((row) => row.split(',')[1] === code);
      expect(inLeague).toHaveLength(perLeague);
      expect(inLeague.some((row) => row.includes(',São Paulo,'))).toBe(true);
      expect(inLeague.some((row) => row.includes(",Nott'm Forest,"))).toBe(true);
      expect(inLeague.some((row) => row.includes(',"Sporting, Lisbon",'))).toBe(true);
      expect(inLeague.some((row) => row.includes(',Atlético-MG,'))).toBe(true);
      expect(inLeague.some((row) => row.includes(',Ingolstadt ,'))).toBe(true);
    }
    // The first test day, listed by competition code, then in the file's order.
    const first = simulate(11).slice(56)[0]!;
    expect(rows[0]!.startsWith(`${new Date(first.date).toISOString().slice(0, 10)},BRA,`)).toBe(true);

    // The table says where there is no bookmaker, without a crash.
    const table = await evaluateFiles(files, join(dir, 'again.csv'), false);
    expect(table.forecasts).toBe(forecasts);
    const sc1 = table.lines.find((line) => line.startsWith('SC1 '));
    expect(sc1).toMatch(/^SC1\s+56\s+0\s+0\.\d{4}\s+—\s+—\s+—/);
  });

  it('reports a test set with no prices at all without a bookmaker and without a crash', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-unpriced-'));
    const matches = simulate(13);
    writeFileSync(join(dir, 'SC2-2015-16.csv'), FORMATS.results(matches.slice(0, 56)));
    writeFileSync(join(dir, 'SC2-2016-17.csv'), FORMATS.results(matches.slice(56)));
    const files = { train: [join(dir, 'SC2-2015-16.csv')], test: [join(dir, 'SC2-2016-17.csv')] };
    const { lines, forecasts } = await evaluateFiles(files, join(dir, 'out.csv'));
    const report = JSON.parse(lines[0]!);
    expect(report.bookmaker).toBeNull();
    expect(report.rps_ratio).toBeNull();
    expect(report.matches).toBe(56);
    expect(report.engine.rps).toBeLessThan(report.baseline.rps + 0.02);
    expect(forecasts.trimEnd().split('\n')).toHaveLength(57);
    const table = await evaluateFiles(files, join(dir, 'out.csv'), false);
    expect(table.lines.join('\n')).toContain('no test match has prices');
  });
});

describe('the protocol run (--data)', () => {
  it('reads a season without an odds file from results-only/', () => {
    const dir = mkdtempSync(join(tmpdir(), 'protocol-results-only-'));
    mkdirSync(join(dir, 'results-only'));
    for (const name of ['SC1-2015-16.csv', 'SC1-2016-17.csv', 'results-only/SC1-2017-18.csv'])
      writeFileSync(join(dir, name), 'Date,Team 1,FT,HT,Team 2\n');
    const files = protocolFiles(dir, ['validation'], ['SC1']);
    expect(files.train).toEqual([join(dir, 'SC1-2015-16.csv')]);
    expect(files.test).toEqual([join(dir, 'SC1-2016-17.csv'), join(dir, 'results-only/SC1-2017-18.csv')]);
  });
});

describe('evaluate --forecasts walks forward', () => {
  it('changing every result and price dated D or later leaves every forecast up to D byte-identical', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-walk-'));
    const clean = await evaluateFiles(writeLeagues(dir), join(dir, 'clean.csv'));
    // D: a test day half-way through the second season.
    const testDays = [
      ...new Set(
        simulate(11)
          .slice(56)
          .map((m) => m.date),
      ),
    ].sort((a, b) => a - b);
    const day = testDays[Math.floor(testDays.length / 2)]!;
    const changed = (match: Simulated): Simulated =>
      match.date < day
        ? match
        : {
            ...match,
            homeGoals: match.awayGoals + 3,
            awayGoals: match.homeGoals,
            odds: ['1.05', '15.00', '41.00'],
          };
    const dirtyDir = mkdtempSync(join(tmpdir(), 'evaluate-walk-changed-'));
    const dirty = await evaluateFiles(writeLeagues(dirtyDir, changed), join(dirtyDir, 'changed.csv'));
    const upTo = (text: string) => {
      const iso = new Date(day).toISOString().slice(0, 10);
      return text.split('\n').filter((row) => row.slice(0, 10) <= iso);
    };
    const before = upTo(clean.forecasts);
    expect(before.length).toBeGreaterThan(1 + 3 * 20);
    expect(upTo(dirty.forecasts)).toEqual(before);
    // The forecasts after D read the changed results: the comparison above is not vacuous.
    expect(dirty.forecasts).not.toBe(clean.forecasts);
    expect(dirty.forecasts.split('\n').length).toBe(clean.forecasts.split('\n').length);
  });
});
