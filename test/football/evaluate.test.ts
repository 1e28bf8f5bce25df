import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { testConfig } from '../../src/config.js';
import { impliedProbabilities, rps } from '../../src/engine/evaluation.js';
import { marketsFrom } from '../../src/engine/markets.js';
import { DEFAULT_SETTINGS } from '../../src/engine/model.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';
import { evaluate } from '../../src/modules/football/evaluation.js';
import { CLOSING_COLUMN_NAMES, canonicalColumn } from '../../src/modules/football/odds-columns.js';
import { simulateLeague } from '../engine/simulate.js';

/** A simulated league as a football-data.co.uk file, with odds from the true probabilities (+5 % margin). */
function leagueCsv(league: string, seed: number): { train: string; test: string } {
  const { teams, matches } = simulateLeague({ teams: 10, seasons: 3, seed });
  const strength = new Map(teams.map((team) => [team.name, team]));
  const rows = matches.map((match) => {
    const home = strength.get(match.home)!;
    const away = strength.get(match.away)!;
    const truth = marketsFrom(
      scoreMatrix(
        Math.exp(Math.log(1.2) + 0.3 + home.attack - away.defence),
        Math.exp(Math.log(1.2) + away.attack - home.defence),
        0,
      ),
    );
    const odds = [truth.oneXTwo.home, truth.oneXTwo.draw, truth.oneXTwo.away].map((p) =>
      (1 / (p * 1.05)).toFixed(2),
    );
    const overUnder = [truth.overUnder25.over, truth.overUnder25.under].map((p) =>
      (1 / (p * 1.05)).toFixed(2),
    );
    const date = new Date(match.date);
    const day = `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
    return [
      league,
      day,
      match.home,
      match.away,
      match.homeGoals,
      match.awayGoals,
      ...odds,
      ...overUnder,
    ].join(',');
  });
  const header = 'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSCH,PSCD,PSCA,PC>2.5,PC<2.5';
  const split = Math.floor(rows.length / 3);
  return {
    train: [header, ...rows.slice(0, split)].join('\n'),
    test: [header, ...rows.slice(split)].join('\n'),
  };
}

describe('evaluate', () => {
  it('prints the walk-forward figures as one JSON object, per league too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-'));
    const files: Record<string, string> = {};
    for (const [league, seed] of [
      ['AA', 1],
      ['BB', 2],
    ] as const) {
      const { train, test } = leagueCsv(league, seed);
      files[`${league}-train`] = join(dir, `${league}-train.csv`);
      files[`${league}-test`] = join(dir, `${league}-test.csv`);
      writeFileSync(files[`${league}-train`]!, train);
      writeFileSync(files[`${league}-test`]!, test);
    }
    const lines: string[] = [];
    const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
    const code = await runCli(
      [
        'evaluate',
        '--train',
        files['AA-train']!,
        files['BB-train']!,
        '--test',
        files['AA-test']!,
        files['BB-test']!,
        '--json',
      ],
      ctx,
    );
    expect(code).toBe(0);
    expect(lines).toHaveLength(1);
    const report = JSON.parse(lines[0]!);
    // The keys scripts read stay; the protocol's blocks, seasons and months come beside them.
    expect(Object.keys(report)).toEqual(
      expect.arrayContaining(['baseline', 'bookmaker', 'engine', 'leagues', 'matches', 'rps_ratio']),
    );
    expect(report.rps_ratio_ci[0]).toBeLessThan(report.rps_ratio);
    expect(report.rps_ratio_ci[1]).toBeGreaterThan(report.rps_ratio);
    expect(report.matches).toBe(2 * 180);
    for (const name of ['engine', 'baseline', 'bookmaker']) {
      expect(Object.keys(report[name]).sort()).toEqual(['brier', 'logloss', 'ou_logloss', 'rps']);
    }
    expect(Object.keys(report.leagues)).toEqual(['AA', 'BB']);
    expect(Object.keys(report.leagues.AA)).toEqual(
      expect.arrayContaining(['bookmaker_rps', 'engine_rps', 'matches', 'rps_ratio']),
    );
    // The bookmaker here knows the true strengths: the engine comes close, the baseline does not.
    expect(report.rps_ratio).toBeGreaterThan(0.98);
    expect(report.rps_ratio).toBeLessThan(1.1);
    expect(report.baseline.rps).toBeGreaterThan(report.engine.rps);
    expect(report.rps_ratio).toBeCloseTo(report.engine.rps / report.bookmaker.rps, 12);
  });

  it('runs the protocol on season files: blocks, seasons, months, intervals and the plot', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'protocol-'));
    const { train, test } = leagueCsv('AA', 3);
    const [header, ...rows] = [...train.split('\n'), ...test.split('\n').slice(1)];
    // Simulated seasons start in August 2015, 2016 and 2017: one file per season, as in the data folder.
    for (const year of [2015, 2016, 2017]) {
      const season = `${year}-${String((year + 1) % 100).padStart(2, '0')}`;
      const inSeason = rows.filter((row) => row.split(',')[1]!.endsWith(String(year)));
      writeFileSync(join(dir, `AA-${season}.csv`), [header, ...inSeason].join('\n'));
    }
    const plot = join(dir, 'plot.svg');
    const lines: string[] = [];
    const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
    const args = ['evaluate', '--data', dir, '--block', 'validation', '--leagues', 'AA', '--plot', plot];
    expect(await runCli([...args, '--json'], ctx)).toBe(0);
    const report = JSON.parse(lines[0]!);
    expect(Object.keys(report.blocks)).toEqual(['validation']);
    expect(report.blocks.validation.matches).toBe(180);
    expect(report.matches).toBe(180);
    expect(Object.keys(report.seasons)).toEqual(['AA 2016-17', 'AA 2017-18']);
    expect(Object.keys(report.months).length).toBeGreaterThan(2);
    const [low, high] = report.blocks.validation.rps_ratio_ci;
    expect(low).toBeLessThan(report.blocks.validation.rps_ratio);
    expect(high).toBeGreaterThan(report.blocks.validation.rps_ratio);
    expect(report.blocks.validation.ou_ratio).toBeGreaterThan(0.9);
    const svg = readFileSync(plot, 'utf8');
    expect(svg.startsWith('<svg')).toBe(true);
    for (const title of [
      'Home win',
      'Draw',
      'Away win',
      'Over 2.5 goals',
      'RPS ratio engine / bookmaker per season',
    ]) {
      expect(svg).toContain(title);
    }
    expect(svg).toContain('2016-17: ');
    // Seeded bootstrap: the same run gives the same interval.
    lines.length = 0;
    expect(await runCli([...args, '--json'], ctx)).toBe(0);
    expect(JSON.parse(lines[0]!).rps_ratio_ci).toEqual(report.rps_ratio_ci);
    // The table names the block and the interval.
    lines.length = 0;
    expect(await runCli(args, ctx)).toBe(0);
    expect(lines).toContain('Block validation');
    expect(lines.join('\n')).toMatch(/RPS ratio engine \/ bookmaker: [\d.]+ \(95 % bootstrap/);
  });

  it('scores with the textbook formulas', () => {
    expect(rps([1, 0, 0], 0)).toBe(0);
    expect(rps([0, 0, 1], 0)).toBe(1);
    expect(rps([0.5, 0.3, 0.2], 1)).toBeCloseTo(((0.5 - 0) ** 2 + (0.8 - 1) ** 2) / 2, 12);
    const [home, draw, away] = impliedProbabilities([2, 4, 4]);
    expect(home).toBeCloseTo(0.5, 12);
    expect(draw! + away!).toBeCloseTo(0.5, 12);
  });

  it('keeps its JSON keys with --prematch-odds, and the pre-match odds move the engine toward the market', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-prematch-'));
    const { train, test } = marketCsv('AA', 5);
    writeFileSync(join(dir, 'train.csv'), train);
    writeFileSync(join(dir, 'test.csv'), test);
    const run = async (extra: string[]) => {
      const lines: string[] = [];
      const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
      const args = ['evaluate', '--train', join(dir, 'train.csv'), '--test', join(dir, 'test.csv'), '--json'];
      expect(await runCli([...args, ...extra], ctx)).toBe(0);
      expect(lines).toHaveLength(1);
      return JSON.parse(lines[0]!);
    };
    const without = await run([]);
    const withOdds = await run(['--prematch-odds']);
    for (const report of [without, withOdds]) {
      expect(Object.keys(report)).toEqual(
        expect.arrayContaining(['baseline', 'bookmaker', 'engine', 'leagues', 'matches', 'rps_ratio']),
      );
      expect(Object.keys(report.leagues.AA)).toEqual(
        expect.arrayContaining(['bookmaker_rps', 'engine_rps', 'matches', 'rps_ratio']),
      );
    }
    expect(withOdds.matches).toBe(without.matches);
    // Pre-match prices here are the truth (plus margin): the second mode is closer to the market.
    expect(withOdds.rps_ratio).toBeLessThan(without.rps_ratio);
  });

  it('evaluates an earlier engine version by name, and refuses an unknown one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-model-'));
    const { train, test } = marketCsv('AA', 5);
    writeFileSync(join(dir, 'train.csv'), train);
    writeFileSync(join(dir, 'test.csv'), test);
    const args = ['evaluate', '--train', join(dir, 'train.csv'), '--test', join(dir, 'test.csv'), '--json'];
    const run = async (extra: string[]) => {
      const lines: string[] = [];
      const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
      return { code: await runCli([...args, ...extra], ctx), lines };
    };
    const report = async (extra: string[]) => {
      const { code, lines } = await run(extra);
      expect(code).toBe(0);
      return JSON.parse(lines[0]!);
    };
    const shipped = await report([]);
    const named = await report(['--model', 'dixon-coles-7']);
    const three = await report(['--model', 'dixon-coles-3']);
    // The shipped version by its name is the default.
    expect(named.engine.rps).toBe(shipped.engine.rps);
    // dixon-coles-3 is the results-only fit: no market rating at all.
    expect(three.engine.rps).not.toBeCloseTo(shipped.engine.rps, 6);
    const errors: string[] = [];
    const spy = vi.spyOn(console, 'error').mockImplementation((line: string) => {
      errors.push(line);
    });
    try {
      expect((await run(['--model', 'dixon-coles-0'])).code).not.toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(errors.join('\n')).toMatch(/unknown --model dixon-coles-0/);
  });
});

/**
 * A simulated league as a file with every column group of the real files: pre-match odds (`PSH…`,
 * `BbAvH…`, `P>2.5`…, the Asian handicap `AHh`, `PAHH`…, `BbAHh`…), and closing odds under every
 * closing name (`PSCH…`, `AvgCH…`, `MaxCH…`, `B365CH…`, `PC>2.5`…, `AvgC>2.5`…, `AHCh`,
 * `PCAHH`…, `AvgCAHH`…), all from the true probabilities.
 */
const CLOSING_1X2 = ['PSC', 'AvgC', 'MaxC', 'B365C'];
const CLOSING_OU = ['PC', 'AvgC'];
const CLOSING_AH = ['AHCh', 'PCAHH', 'PCAHA', 'AvgCAHH', 'AvgCAHA'];
function marketCsv(league: string, seed: number): { train: string; test: string; header: string[] } {
  const { teams, matches } = simulateLeague({ teams: 10, seasons: 3, seed });
  const strength = new Map(teams.map((team) => [team.name, team]));
  const header = [
    'Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,PSH,PSD,PSA,BbAvH,BbAvD,BbAvA,P>2.5,P<2.5,BbAv>2.5,BbAv<2.5',
    'AHh,PAHH,PAHA,AvgAHH,AvgAHA,BbAHh,BbAvAHH,BbAvAHA',
    ...CLOSING_1X2.map((p) => `${p}H,${p}D,${p}A`),
    ...CLOSING_OU.map((p) => `${p}>2.5,${p}<2.5`),
    ...CLOSING_AH,
  ].join(',');
  const rows = matches.map((match) => {
    const home = strength.get(match.home)!;
    const away = strength.get(match.away)!;
    const truth = marketsFrom(
      scoreMatrix(
        Math.exp(Math.log(1.2) + 0.3 + home.attack - away.defence),
        Math.exp(Math.log(1.2) + away.attack - home.defence),
        0,
      ),
    );
    const price = (p: number, margin: number) => (1 / (p * margin)).toFixed(2);
    const x2 = (margin: number) =>
      [truth.oneXTwo.home, truth.oneXTwo.draw, truth.oneXTwo.away].map((p) => price(p, margin));
    const ou = (margin: number) =>
      [truth.overUnder25.over, truth.overUnder25.under].map((p) => price(p, margin));
    // Half a goal to the favourite: the home side covers −0.5 by winning, +0.5 by not losing.
    const { home: pHome, draw: pDraw, away: pAway } = truth.oneXTwo;
    const line = pHome >= pAway ? -0.5 : 0.5;
    const covers = line < 0 ? pHome : pHome + pDraw;
    const ah = (margin: number) => [price(covers, margin), price(1 - covers, margin)];
    const date = new Date(match.date);
    const day = `${String(date.getUTCDate()).padStart(2, '0')}/${String(date.getUTCMonth() + 1).padStart(2, '0')}/${date.getUTCFullYear()}`;
    return [
      league,
      day,
      match.home,
      match.away,
      match.homeGoals,
      match.awayGoals,
      ...x2(1.03),
      ...x2(1.06),
      ...ou(1.03),
      ...ou(1.06),
      line,
      ...ah(1.03),
      ...ah(1.05),
      line,
      ...ah(1.05),
      ...CLOSING_1X2.flatMap(() => x2(1.025)),
      ...CLOSING_OU.flatMap(() => ou(1.025)),
      line,
      ...ah(1.02),
      ...ah(1.04),
    ].join(',');
  });
  const split = Math.floor(rows.length / 3);
  return {
    train: [header, ...rows.slice(0, split)].join('\n'),
    test: [header, ...rows.slice(split)].join('\n'),
    header: header.split(','),
  };
}

/** The file with every closing column of the rows `poison` picks replaced by nonsense prices. */
function poisoned(file: string, header: string[], poison: (row: string[]) => boolean): string {
  const closing = header
    .map((name, i) => ({ name, i }))
    .filter(
      ({ name }) =>
        CLOSING_AH.includes(name) ||
        [...CLOSING_1X2, ...CLOSING_OU].some((prefix) => name.startsWith(prefix)),
    );
  expect(closing).toHaveLength(4 * 3 + 2 * 2 + 5);
  // Every column the reader takes as closing is among them (the rest are closing prices it skips).
  expect(CLOSING_COLUMN_NAMES.filter((name) => !header.map(canonicalColumn).includes(name))).toEqual([]);
  return file
    .split('\n')
    .map((line, n) => {
      const row = line.split(',');
      if (n === 0 || !poison(row)) return line;
      // A handicap line poisoned is a far-off line, still readable; a price, nonsense.
      for (const { name, i } of closing) row[i] = name === 'AHCh' ? '-3.5' : i % 2 === 0 ? '1.01' : '41';
      return row.join(',');
    })
    .join('\n');
}

describe('no leak of a match’s own closing odds', () => {
  it('poisoning every closing column of the predicted matches changes no prediction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-leak-'));
    const { train, test, header } = marketCsv('AA', 7);
    const testRows = test.split('\n').slice(1);
    // (1) A test file of one match day, every row poisoned. (2) The full test file, its last day poisoned.
    const firstDay = testRows[0]!.split(',')[1]!;
    const lastDay = testRows.at(-1)!.split(',')[1]!;
    const oneDay = [header.join(','), ...testRows.filter((row) => row.split(',')[1] === firstDay)].join('\n');
    writeFileSync(join(dir, 'train.csv'), train);
    const cases = [
      { clean: oneDay, dirty: poisoned(oneDay, header, () => true) },
      { clean: test, dirty: poisoned(test, header, (row) => row[1] === lastDay) },
    ];
    for (const { clean, dirty } of cases) {
      writeFileSync(join(dir, 'clean.csv'), clean);
      writeFileSync(join(dir, 'dirty.csv'), dirty);
      expect(dirty).not.toBe(clean);
      for (const prematchOdds of [false, true]) {
        const run = (file: string) =>
          evaluate(
            { train: [join(dir, 'train.csv')], test: [join(dir, file)] },
            DEFAULT_SETTINGS,
            undefined,
            { prematchOdds },
          );
        const [a, b] = [await run('clean.csv'), await run('dirty.csv')];
        expect(b.scored.length).toBe(a.scored.length);
        expect(b.scored.map((m) => [m.engine, m.overUnder?.engine])).toEqual(
          a.scored.map((m) => [m.engine, m.overUnder?.engine]),
        );
        // The scoring did read the poisoned prices: the bookmaker's side changed.
        expect(b.scored.map((m) => m.bookmaker)).not.toEqual(a.scored.map((m) => m.bookmaker));
      }
    }
  });
});
