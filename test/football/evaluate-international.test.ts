import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { testConfig } from '../../src/config.js';

const HEADER = 'date,home_team,away_team,home_score,away_score,tournament,city,country,neutral';
const TEAMS = ['Cameroon', 'Nigeria', 'Ghana', 'Senegal', 'Egypt', 'Morocco', 'Brazil', 'France'];
const TOURNAMENTS = ['Friendly', 'African Cup of Nations qualification', 'FIFA World Cup qualification'];

/** A small deterministic international history: one match every 3 days, strengths by index. */
function history(days: number, seed: number): string[] {
  let state = seed;
  const random = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
  const rows: string[] = [];
  for (let day = 0; day < days; day += 3) {
    const home = Math.floor(random() * TEAMS.length);
    const away = (home + 1 + Math.floor(random() * (TEAMS.length - 1))) % TEAMS.length;
    const date = new Date(Date.UTC(2018, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
    const homeGoals = Math.floor(random() * (4 - home / 3));
    const awayGoals = Math.floor(random() * (4 - away / 3));
    const tournament = TOURNAMENTS[Math.floor(random() * TOURNAMENTS.length)]!;
    const neutral = random() < 0.3 ? 'TRUE' : 'FALSE';
    rows.push(
      `${date},${TEAMS[home]},${TEAMS[away]},${homeGoals},${awayGoals},${tournament},City,${TEAMS[home]},${neutral}`,
    );
  }
  return rows;
}

async function forecastsOf(train: string, test: string, dir: string, name: string): Promise<string> {
  const trainFile = join(dir, `${name}-train.csv`);
  const testFile = join(dir, `${name}-test.csv`);
  const out = join(dir, `${name}-forecasts.csv`);
  writeFileSync(trainFile, train);
  writeFileSync(testFile, test);
  const lines: string[] = [];
  const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
  const code = await runCli(
    ['evaluate', '--train', trainFile, '--test', testFile, '--forecasts', out, '--json'],
    ctx,
  );
  expect(code).toBe(0);
  const report = JSON.parse(lines.at(-1)!);
  expect(report.national_teams.matches).toBeGreaterThan(0);
  expect(report.national_teams.classes.qualifier.matches).toBeGreaterThan(0);
  return readFileSync(out, 'utf8');
}

describe('evaluate on the international results files', () => {
  it('writes every test match walked forward, and later results never change an earlier forecast', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'evaluate-intl-'));
    const rows = history(900, 7);
    const train = [HEADER, ...rows.slice(0, 150)].join('\n');
    const testRows = rows.slice(150);
    // French names in the test file: written back exactly, read as the same teams; a scheduled
    // fixture (empty scores) is forecast too.
    testRows.push('2020-06-30,Cameroun,Maroc,,,Friendly,Yaoundé,Cameroon,FALSE');
    const test = [HEADER, ...testRows.map((row) => row.replace(',Cameroon,', ',Cameroun,'))].join('\n');
    const original = await forecastsOf(train, test, dir, 'original');

    const lines = original.trimEnd().split('\n');
    expect(lines[0]).toBe('date,competition,home_team,away_team,p_home,p_draw,p_away');
    expect(lines).toHaveLength(testRows.length + 1);
    expect(lines.at(-1)).toMatch(/^2020-06-30,INT-FRIENDLY,Cameroun,Maroc,0\.\d{6},0\.\d{6},0\.\d{6}$/);
    for (const line of lines.slice(1)) {
      const [, , , , ...p] = line.split(',');
      expect(Math.abs(p.map(Number).reduce((sum, value) => sum + value, 0) - 1)).toBeLessThan(1e-5);
    }
    // The forecasts are not all alike: the model learnt who is strong.
    expect(new Set(lines.slice(1).map((line) => line.split(',')[4])).size).toBeGreaterThan(20);

    // Every result dated D or later changed (scores swapped and shifted): earlier lines identical.
    const cut = '2019-10-01';
    const changed = [
      HEADER,
      ...test
        .split('\n')
        .slice(1)
        .map((row) => {
          const fields = row.split(',');
          if (fields[0]! < cut || fields[3] === '') return row;
          fields[3] = String(Number(fields[4]) + 2);
          fields[4] = '0';
          return fields.join(',');
        }),
    ].join('\n');
    const altered = (await forecastsOf(train, changed, dir, 'altered')).trimEnd().split('\n');
    const before = lines.filter((line, index) => index > 0 && line.slice(0, 10) < cut);
    const firstAfter = lines.findIndex((line, index) => index > 0 && line.slice(0, 10) > cut);
    expect(before.length).toBeGreaterThan(50);
    expect(altered.filter((line, index) => index > 0 && line.slice(0, 10) < cut)).toEqual(before);
    // …and the change did reach the later forecasts (the test would catch a frozen model).
    expect(altered[firstAfter + 5]).not.toBe(lines[firstAfter + 5]);
  });
});
