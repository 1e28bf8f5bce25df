// `results:import <file.csv…>` and `results:sync [league code…] [--season 2025-26]
// [--international [URL]] [--cups [URL…]]`: feed the engine football-data.co.uk results, and by hand
// the worker's other two syncs, the national teams' results (INTERNATIONAL_RESULTS_URL) and the
// European cups' Football.TXT files (FOOTBALL_TXT_URL), or files named for one run (https:// or
// file://). All are idempotent: a match already stored is not added again.
import type { Command } from 'commander';
import type { FootballTxtSyncReport, InternationalSyncReport } from '../../modules/fixtures/service.js';
import type { FileImportReport } from '../../modules/football/service.js';
import type { CliContext } from '../context.js';
import { progressBar } from './progress.js';

/** Skipped rows listed one by one up to this many per file; the rest are counted. */
const LISTED_SKIPS = 20;

function printReport(ctx: CliContext, report: FileImportReport): void {
  ctx.out(
    `${report.file}: ${report.rows} rows read, ${report.inserted} new, ${report.duplicates} already stored, ${report.skipped.length} skipped`,
  );
  for (const row of report.skipped.slice(0, LISTED_SKIPS)) ctx.out(`  line ${row.line}: ${row.reason}`);
  if (report.skipped.length > LISTED_SKIPS) ctx.out(`  … and ${report.skipped.length - LISTED_SKIPS} more`);
}

/** New results close the fixtures they were played in (issue 25). */
async function closeFixtures(ctx: CliContext): Promise<void> {
  const { fixtures } = await ctx.services();
  const closed = await fixtures.closeFromResults();
  if (closed.played + closed.postponed > 0) {
    ctx.out(`Fixtures closed: ${closed.played} played, ${closed.postponed} postponed.`);
  }
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('results:import')
    .description('Import football-data.co.uk result CSV files (idempotent)')
    .argument('<files...>', 'CSV files, e.g. E0.csv')
    .action(async (files: string[]) => {
      const { football } = await ctx.services();
      let inserted = 0;
      for (const file of files) {
        const bar = progressBar(file);
        const report = await football
          .importFile(file, (done, total) => bar.update(done, total))
          .finally(() => bar.stop());
        printReport(ctx, report);
        inserted += report.inserted;
      }
      ctx.out(`Done: ${inserted} new matches.`);
      await closeFixtures(ctx);
    });

  program
    .command('results:sync')
    .description(
      "Download a season's results from football-data.co.uk (RESULTS_BASE_URL), the national teams' results and the European cups' files, and import them (idempotent)",
    )
    .argument('[codes...]', 'league codes, e.g. E0 SP1')
    .option('--season <season>', 'season such as 2025-26 (default: the current one)')
    .option('--international [url]', "the national teams' results.csv (default: INTERNATIONAL_RESULTS_URL)")
    .option('--cups [urls...]', "the European cups' Football.TXT files (default: FOOTBALL_TXT_URL)")
    .action(async (codes: string[], options: ResultsSyncOptions) => {
      if (codes.length === 0 && options.international === undefined && options.cups === undefined) {
        throw new Error(
          'nothing to sync: name league codes (results:sync E0 SP1), --international or --cups',
        );
      }
      const failed: string[] = [];
      if (codes.length > 0) failed.push(...(await syncLeagues(ctx, codes, options.season)));
      if (options.international !== undefined) {
        if (!(await syncInternational(ctx, options.international))) failed.push('international');
      }
      if (options.cups !== undefined) {
        if (!(await syncCups(ctx, options.cups))) failed.push('cups');
      }
      await closeFixtures(ctx);
      if (failed.length > 0) throw new Error(`sync failed for ${failed.join(', ')}`);
    });
}

interface ResultsSyncOptions {
  season?: string;
  /** `true` for INTERNATIONAL_RESULTS_URL, or the URL given. */
  international?: string | true;
  /** `true` for FOOTBALL_TXT_URL, or the URLs given. */
  cups?: string[] | true;
}

/** Each league's season from football-data.co.uk; the codes that failed. */
async function syncLeagues(ctx: CliContext, codes: readonly string[], wanted: string | undefined) {
  const { football } = await ctx.services();
  const season = wanted ?? football.currentSeason(ctx.clock.now());
  if (!football.isSeason(season)) throw new Error(`--season "${season}" is not a season such as 2025-26`);
  const failed: string[] = [];
  for (const code of codes) {
    const bar = progressBar(`${code} ${season}`);
    try {
      const report = await football
        .syncLeague(code, season, (done, total) => bar.update(done, total))
        .finally(() => bar.stop());
      ctx.out(report.url);
      printReport(ctx, report);
    } catch (error) {
      failed.push(code);
      ctx.out(`${code} ${season}: failed (${(error as Error).message})`);
    }
  }
  return failed;
}

/** The national teams' results file, as the worker syncs it; false when it failed. */
async function syncInternational(ctx: CliContext, option: string | true): Promise<boolean> {
  const url = option === true ? ctx.config.internationalResultsUrl : option;
  if (!url) throw new Error('--international: give a URL or set INTERNATIONAL_RESULTS_URL');
  const { fixtures } = await ctx.services();
  let report: InternationalSyncReport | undefined;
  try {
    report = await fixtures.syncInternationalResults(url);
  } catch (error) {
    ctx.out(`${url}: failed (${(error as Error).message})`);
    return false;
  }
  if (!report) return true;
  ctx.out(
    `${report.url}: ${report.rows} rows read, ${report.inserted} new, ${report.duplicates} already stored, ${report.skipped} skipped`,
  );
  for (const [code, count] of Object.entries(report.insertedByCompetition))
    ctx.out(`  ${code}: ${count} new`);
  return true;
}

/** The European cups' Football.TXT files, as the worker syncs them; false when one failed. */
async function syncCups(ctx: CliContext, option: string[] | true): Promise<boolean> {
  const urls = option === true ? ctx.config.footballTxtUrls : option;
  if (urls.length === 0) throw new Error('--cups: give URLs or set FOOTBALL_TXT_URL');
  const { fixtures } = await ctx.services();
  let report: FootballTxtSyncReport;
  try {
    report = await fixtures.syncFootballTxt(urls);
  } catch (error) {
    ctx.out(`European cups: failed (${(error as Error).message})`);
    return false;
  }
  ctx.out(
    `European cups: ${report.files} files, ${report.results} new results, ${report.fixtures} scheduled fixtures upserted, ${report.skipped} skipped`,
  );
  return true;
}
