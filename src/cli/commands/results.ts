// `results:import <file.csv…>` and `results:sync <league code…> [--season 2025-26]`: feed the
// engine football-data.co.uk results. Both are idempotent: a match already stored is not added again.
import type { Command } from 'commander';
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
    .description("Download a season's results from football-data.co.uk (RESULTS_BASE_URL) and import them")
    .argument('<codes...>', 'league codes, e.g. E0 SP1')
    .option('--season <season>', 'season such as 2025-26 (default: the current one)')
    .action(async (codes: string[], options: { season?: string }) => {
      const { football } = await ctx.services();
      const season = options.season ?? football.currentSeason(ctx.clock.now());
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
      await closeFixtures(ctx);
      if (failed.length > 0) throw new Error(`sync failed for ${failed.join(', ')}`);
    });
}
