// `evaluate` on the international results files (issue 52): the national-team forecaster walked
// forward over the test files; `--forecasts OUT.csv` writes one line per test match (test-file
// order, team names as written), `--json` prints the report as one object.
import { writeFile } from 'node:fs/promises';
import {
  evaluateInternational,
  forecastsCsv,
  isInternationalFile,
} from '../../modules/football/evaluation.js';
import type { CliContext } from '../context.js';

/** Whether every test file is the international dataset's (then this evaluation answers). */
export async function testsAreInternational(test: readonly string[] | undefined): Promise<boolean> {
  if (!test || test.length === 0) return false;
  for (const file of test) if (!(await isInternationalFile(file))) return false;
  return true;
}

export async function evaluateNationalTeams(
  options: { train?: string[]; test?: string[]; forecasts?: string; json?: boolean },
  ctx: CliContext,
): Promise<void> {
  const { report, lines, skipped } = await evaluateInternational(options.train ?? [], options.test ?? []);
  if (options.forecasts) await writeFile(options.forecasts, forecastsCsv(lines));
  if (options.json) {
    ctx.out(JSON.stringify({ national_teams: report, skipped: skipped.length }));
    return;
  }
  if (skipped.length > 0) ctx.out(`${skipped.length} rows skipped`);
  ctx.out(
    `National teams: ${report.forecasts} test matches forecast walked forward, ${report.matches} scored; RPS ${report.rps.toFixed(4)}.`,
  );
  for (const [title, groups] of [
    ['class', report.classes],
    ['confederation', report.confederations],
  ] as const) {
    ctx.out('');
    ctx.out(`${title.padEnd(18)} ${'matches'.padStart(7)} ${'RPS'.padStart(8)}`);
    for (const [name, group] of Object.entries(groups))
      ctx.out(`${name.padEnd(18)} ${String(group.matches).padStart(7)} ${group.rps.toFixed(4).padStart(8)}`);
  }
  if (options.forecasts) ctx.out(`Forecasts written to ${options.forecasts}`);
}
