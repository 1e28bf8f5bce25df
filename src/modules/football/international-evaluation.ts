// `evaluate` on the international results files (issue 52): the national-team forecaster walked
// forward over the test files (each match forecast from the training results and every test result
// dated before its day), the forecasts file's lines in test-file order, and the RPS per tournament
// class and per confederation. A file is international when its header is the dataset's.
import { readFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { outcomeOf, rps } from '../../engine/evaluation.js';
import { parseCsv } from './csv.js';
import type { ForecastLine } from './forecasts-csv.js';
import {
  type InternationalMatch,
  isInternationalResultsHeader,
  matchConfederation,
  parseInternationalResults,
  parseShootouts,
  type Shootout,
  tournamentClassOf,
} from './international-csv.js';
import { walkForwardForecasts } from './international-forecasts.js';

/** Whether a results file is the international dataset's (its header), read from its first line. */
export async function isInternationalFile(path: string): Promise<boolean> {
  const text = await readFile(path, 'utf8');
  const firstLine = text.slice(0, Math.max(text.search(/[\r\n]/), 0) || text.length);
  const header = parseCsv(firstLine)[0]?.fields ?? [];
  return isInternationalResultsHeader(header);
}

interface GroupScore {
  matches: number;
  rps: number;
}

export interface InternationalReport {
  /** Test matches forecast (scheduled ones included). */
  forecasts: number;
  /** Test matches with a result, scored. */
  matches: number;
  rps: number;
  classes: Record<string, GroupScore>;
  confederations: Record<string, GroupScore>;
}

export interface InternationalEvaluation {
  report: InternationalReport;
  lines: ForecastLine[];
  skipped: Array<{ file: string; line: number; reason: string }>;
}

async function readMatches(files: readonly string[]) {
  const matches: InternationalMatch[] = [];
  const skipped: InternationalEvaluation['skipped'] = [];
  for (const file of files) {
    const parsed = parseInternationalResults(await readFile(file, 'utf8'));
    matches.push(...parsed.matches);
    skipped.push(...parsed.skipped.map((row) => ({ file, ...row })));
  }
  return { matches, skipped };
}

/** The `shootouts.csv` beside each results file, when there is one (its winners mark 120-minute draws). */
async function shootoutsBeside(files: readonly string[]): Promise<Shootout[]> {
  const folders = [...new Set(files.map((file) => dirname(file)))];
  const shootouts: Shootout[] = [];
  for (const folder of folders) {
    const text = await readFile(join(folder, 'shootouts.csv'), 'utf8').catch(() => null);
    if (text !== null) shootouts.push(...parseShootouts(text));
  }
  return shootouts;
}

function add(groups: Record<string, GroupScore>, key: string, value: number): void {
  const group = groups[key] ?? { matches: 0, rps: 0 };
  group.matches += 1;
  group.rps += value;
  groups[key] = group;
}

function averaged(groups: Record<string, GroupScore>): Record<string, GroupScore> {
  return Object.fromEntries(
    Object.entries(groups)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([key, group]) => [key, { matches: group.matches, rps: group.rps / group.matches }]),
  );
}

export async function evaluateInternational(
  trainFiles: readonly string[],
  testFiles: readonly string[],
): Promise<InternationalEvaluation> {
  const train = await readMatches(trainFiles.filter((file) => basename(file) !== 'shootouts.csv'));
  const test = await readMatches(testFiles);
  const shootouts = await shootoutsBeside([...trainFiles, ...testFiles]);
  const forecasts = walkForwardForecasts(train.matches, test.matches, shootouts);
  const lines: ForecastLine[] = test.matches.map((match, index) => ({
    date: match.date,
    competition: match.competition,
    homeTeam: match.homeTeamAsWritten,
    awayTeam: match.awayTeamAsWritten,
    pHome: forecasts[index]![0],
    pDraw: forecasts[index]![1],
    pAway: forecasts[index]![2],
  }));
  const classes: Record<string, GroupScore> = {};
  const confederations: Record<string, GroupScore> = {};
  let total = 0;
  let scored = 0;
  test.matches.forEach((match, index) => {
    if (match.homeGoals === null || match.awayGoals === null) return;
    const value = rps(
      forecasts[index]!,
      outcomeOf({ homeGoals: match.homeGoals, awayGoals: match.awayGoals } as never),
    );
    total += value;
    scored += 1;
    add(classes, tournamentClassOf(match.competition), value);
    add(confederations, matchConfederation(match.homeTeam, match.awayTeam) ?? 'none', value);
  });
  return {
    report: {
      forecasts: lines.length,
      matches: scored,
      rps: scored > 0 ? total / scored : Number.NaN,
      classes: averaged(classes),
      confederations: averaged(confederations),
    },
    lines,
    skipped: [...train.skipped, ...test.skipped],
  };
}
