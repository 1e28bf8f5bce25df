// `ledger:verify`: over the whole database, every user's balances equal their ledger sums and no
// provider reference is credited twice. Prints a summary; a problem makes the exit code non-zero.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import { progressBar } from './progress.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('ledger:verify')
    .description('Check that every balance equals its ledger sum and no payment is credited twice')
    .action(async () => {
      const { wallet } = await ctx.services();
      const bar = progressBar('users');
      const report = await wallet
        .verifyLedger({ progress: (done, total) => bar.update(done, total) })
        .finally(() => bar.stop());
      for (const user of report.mismatches) {
        ctx.out(
          `MISMATCH user ${user.id} (${user.phone}): balances ${user.credits} credits / ${user.money} XAF, ` +
            `ledger ${user.ledgerCredits} credits / ${user.ledgerMoney} XAF`,
        );
      }
      for (const duplicate of report.duplicateReferences) {
        ctx.out(`DUPLICATE reference ${duplicate.reference}: credited ${duplicate.rows} times`);
      }
      if (report.unreferencedPurchases > 0) {
        ctx.out(`UNREFERENCED ${report.unreferencedPurchases} pack purchase(s) without a provider reference`);
      }
      const problems =
        report.mismatches.length +
        report.duplicateReferences.length +
        (report.unreferencedPurchases > 0 ? 1 : 0);
      ctx.out(
        `Checked ${report.users} users: ${report.mismatches.length} balance mismatch(es), ` +
          `${report.duplicateReferences.length} reference(s) credited twice, ` +
          `${report.unreferencedPurchases} purchase(s) without a reference.`,
      );
      if (problems > 0) throw new Error(`the ledger is inconsistent (${problems} problem(s), listed above)`);
      ctx.out('Ledger OK.');
    });
}
