// Issue 51's evaluation: `evaluate` takes European cup files of both formats mixed with league
// files, forecasts every played test cup match walked forward, and writes them with --forecasts:
// changing every result dated D or later leaves every line before D byte-identical.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import { testConfig } from '../../src/config.js';

const dir = mkdtempSync(join(tmpdir(), 'cups-evaluate-'));
const pad = (n: number) => String(n).padStart(2, '0');
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A deterministic score from a seed (no randomness: both runs must read the same files). */
const goals = (seed: number) => [(seed * 7) % 4, (seed * 5) % 3] as const;

/** One league's season, every Saturday from September: a double round robin of four clubs. */
function leagueCsv(code: string, clubs: string[], year: number, shift: number): string {
  const lines = ['Div,Date,HomeTeam,AwayTeam,FTHG,FTAG,FTR,PSCH,PSCD,PSCA'];
  let day = Date.UTC(year, 8, 6);
  let seed = 1;
  for (let round = 0; round < 2; round++) {
    for (const home of clubs) {
      for (const away of clubs) {
        if (home === away) continue;
        const d = new Date(day);
        const [h, a] = goals(seed++ + shift);
        lines.push(
          `${code},${pad(d.getUTCDate())}/${pad(d.getUTCMonth() + 1)}/${d.getUTCFullYear()},${home},${away},${h},${a},${h > a ? 'H' : h === a ? 'D' : 'A'},2.1,3.3,3.6`,
        );
        day += 7 * 86_400_000;
      }
    }
  }
  return `${lines.join('\n')}\n`;
}

/** A cup season in Football.TXT: a group on Wednesdays from October, a two-legged semi-final, a final. */
function cupTxt(year: number, shift: number): string {
  const clubs = [
    'Arsenal FC (ENG)',
    'Chelsea FC (ENG)',
    'Real Madrid (ESP)',
    'FC Barcelona (ESP)',
    'Shakhtar Donetsk (UKR)',
  ];
  const out = [
    `= UEFA Champions League ${year}/${String((year + 1) % 100).padStart(2, '0')}`,
    '',
    '» Group A',
  ];
  let day = Date.UTC(year, 9, 2);
  let seed = 3;
  const line = (home: string, away: string, played = true) => {
    const d = new Date(day);
    const [h, a] = goals(seed++ + shift);
    out.push(
      `  ${['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getUTCDay()]} ${MONTHS[d.getUTCMonth()]}/${d.getUTCDate()} ${d.getUTCFullYear()}`,
    );
    out.push(`    21.00  ${home.padEnd(24)} v ${away.padEnd(24)} ${played ? `${h}-${a}` : ''}`.trimEnd());
    day += 7 * 86_400_000;
  };
  for (const [i, home] of clubs.entries()) for (const away of clubs.slice(i + 1)) line(home, away);
  out.push('', '» Semifinals');
  line(clubs[0]!, clubs[2]!);
  line(clubs[2]!, clubs[0]!);
  out.push('', '» Final');
  line(clubs[2]!, clubs[4]!);
  return `${out.join('\r\n')}\r\n`;
}

/** The same cup in footballcsv's CSV, for the training season. */
const CUP_CSV = [
  'Stage,Round,Group,Date,Team 1,FT,HT,Team 2,∑FT,ET,P,Comments',
  'Group,Matchday ?,A,(Wed) 1 Oct 2014 (W40),Arsenal FC › ENG (1),2-0,1-0,Real Madrid CF › ESP (1),,,,',
  'Group,Matchday ?,A,(Wed) 8 Oct 2014 (W41),FC Barcelona › ESP (1),3-1,1-0,Shakhtar Donetsk › UKR (1),,,,',
  'Group,Matchday ?,A,(Wed) 15 Oct 2014 (W42),Shakhtar Donetsk › UKR (2),1-1,0-0,Chelsea FC › ENG (1),,,,',
  'Knockout,Final,,(Sat) 30 May 2015 (W22),FC Barcelona › ESP (2),1-1 (*),0-0,Arsenal FC › ENG (2),,2-1 (a.e.t.),,',
].join('\r\n');

function write(name: string, text: string): string {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
}

async function evaluateFiles(train: string[], test: string[], out: string) {
  const lines: string[] = [];
  const ctx = createCliContext(testConfig(), { out: (line) => lines.push(line) });
  const code = await runCli(
    ['evaluate', '--train', ...train, '--test', ...test, '--forecasts', out, '--json'],
    ctx,
  );
  expect(code, lines.join('\n')).toBe(0);
  return { report: JSON.parse(lines.at(-1)!), forecasts: readFileSync(out, 'utf8') };
}

function files(shift: number) {
  const suffix = shift === 0 ? 'a' : 'b';
  const train = [
    write('E0-2014-15.csv', leagueCsv('E0', ['Arsenal', 'Chelsea', 'Everton', 'Stoke'], 2014, 0)),
    write('SP1-2014-15.csv', leagueCsv('SP1', ['Real Madrid', 'Barcelona', 'Getafe', 'Eibar'], 2014, 0)),
    write('cl-2014-15.csv', CUP_CSV),
  ];
  // The later run changes every result from `shift`'s start on: the first season's half.
  const test = [
    write(
      `E0-2015-16-${suffix}.csv`,
      leagueCsv('E0', ['Arsenal', 'Chelsea', 'Everton', 'Stoke'], 2015, shift),
    ),
    write(
      `SP1-2015-16-${suffix}.csv`,
      leagueCsv('SP1', ['Real Madrid', 'Barcelona', 'Getafe', 'Eibar'], 2015, shift),
    ),
    write(`cl-2015-16-${suffix}.txt`, cupTxt(2015, shift)),
  ];
  return { train, test };
}

describe('evaluate with the European cups', () => {
  it('forecasts every played test cup match of either format beside the leagues, in the forecasts file', async () => {
    const { train, test } = files(0);
    const { report, forecasts } = await evaluateFiles(train, test, join(dir, 'a.csv'));
    const cupLines = forecasts.split('\n').filter((line) => line.includes(',UCL,'));
    // Ten group matches, two semi-final legs, the final.
    expect(cupLines).toHaveLength(13);
    expect(report.leagues.UCL.matches).toBe(13);
    expect(report.leagues.UCL.priced_matches).toBe(0);
    expect(cupLines[0]).toMatch(/^2015-10-\d\d,UCL,Arsenal FC,Chelsea FC,0\.\d{6},0\.\d{6},0\.\d{6}$/);
    for (const line of cupLines) {
      const [, , , , ...p] = line.split(',');
      expect(p.map(Number).reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 5);
    }
    // The final is on neutral ground: the home side has no home term; the English and Spanish
    // clubs are rated from their leagues, Shakhtar from its cup matches alone.
    const final = cupLines.at(-1)!.split(',');
    expect(final.slice(2, 4)).toEqual(['Real Madrid', 'Shakhtar Donetsk']);
  });

  it('is walked forward: results from a day on change no forecast before that day', async () => {
    const before = await evaluateFiles(files(0).train, files(0).test, join(dir, 'a.csv'));
    const { train, test } = files(0);
    // Rewrite every test result dated from 2015-11-01 on (leagues and the cup).
    const cutoff = '2015-11-01';
    const changed = test.map((path) => {
      const text = readFileSync(path, 'utf8');
      if (path.endsWith('.txt')) {
        const lines = text.split('\r\n');
        let date = '';
        const out = lines.map((line) => {
          const dated = /^\s+\w{3} (\w{3})\/(\d+) (\d{4})$/.exec(line);
          if (dated) date = `${dated[3]}-${pad(MONTHS.indexOf(dated[1]!) + 1)}-${pad(Number(dated[2]))}`;
          return date >= cutoff ? line.replace(/\d-\d$/, '5-0') : line;
        });
        return write(`changed-${path.split('/').at(-1)}`, out.join('\r\n'));
      }
      const out = text.split('\n').map((line) => {
        const [, day] = line.split(',');
        const m = /^(\d\d)\/(\d\d)\/(\d{4})$/.exec(day ?? '');
        if (!m || `${m[3]}-${m[2]}-${m[1]}` < cutoff) return line;
        const fields = line.split(',');
        fields[4] = '0';
        fields[5] = '4';
        fields[6] = 'A';
        return fields.join(',');
      });
      return write(`changed-${path.split('/').at(-1)}`, out.join('\n'));
    });
    const after = await evaluateFiles(train, changed, join(dir, 'b.csv'));
    const early = (text: string) => text.split('\n').filter((line) => line.slice(0, 10) < cutoff);
    expect(early(after.forecasts)).toEqual(early(before.forecasts));
    expect(early(before.forecasts).filter((line) => line.includes(',UCL,')).length).toBeGreaterThan(2);
    // Later forecasts did read the changed results.
    expect(after.forecasts).not.toEqual(before.forecasts);
  });
});
