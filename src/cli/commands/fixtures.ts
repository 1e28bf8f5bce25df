// `fixtures:sync [LEAGUE…]`: downloads FIXTURES_URL (football-data.co.uk's fixtures.csv, or a local
// file) and upserts the upcoming fixtures of those leagues (default RESULTS_SYNC_LEAGUES) with their
// pre-match odds, then closes the fixtures the stored results say were played. Idempotent.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('fixtures:sync')
    .description('Download upcoming fixtures (FIXTURES_URL) of some leagues and store them (idempotent)')
    .argument('[codes...]', 'league codes, e.g. E0 SP1 (default: RESULTS_SYNC_LEAGUES)')
    .action(async (codes: string[]) => {
      const leagues = codes.length > 0 ? codes : ctx.config.resultsSyncLeagues;
      if (leagues.length === 0) {
        throw new Error('no league to sync: name some (fixtures:sync E0 SP1) or set RESULTS_SYNC_LEAGUES');
      }
      const { fixtures } = await ctx.services();
      const report = await fixtures.sync(leagues);
      ctx.out(report.url);
      ctx.out(
        `${leagues.join(', ')}: ${report.rows} rows read, ${report.fixtures} fixtures stored, ${report.odds} odds changes, ${report.skipped} skipped`,
      );
      const cups = await fixtures.syncFootballTxt();
      if (cups.files > 0) {
        ctx.out(
          `European cups (FOOTBALL_TXT_URL): ${cups.files} files, ${cups.results} new results, ${cups.fixtures} fixtures stored, ${cups.skipped} skipped`,
        );
      }
      const closed = await fixtures.closeFromResults();
      ctx.out(`Closed by results: ${closed.played} played, ${closed.postponed} postponed.`);
    });
}
