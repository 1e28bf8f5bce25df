// `purge`: delete expired sign-in codes and dead tokens now (the API also does it on a timer).
import type { Command } from 'commander';
import { purgeSignInData } from '../../modules/auth/otp-service.js';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('purge')
    .description('Delete sign-in codes past retention (24 h) and tokens that can no longer be used')
    .action(async () => {
      const purged = await purgeSignInData(await ctx.db(), ctx.config, ctx.clock.now());
      ctx.out(`Purged ${purged.codes} code(s) and ${purged.tokens} token(s).`);
    });
}
