// `purge`: delete expired sign-in codes, dead tokens and idempotent answers past 24 h now (the API
// also does it on a timer).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('purge')
    .description('Delete sign-in codes past retention (24 h), unusable tokens and expired idempotency keys')
    .action(async () => {
      const purged = await (await ctx.services()).housekeeping.purgeExpired();
      ctx.out(
        `Purged ${purged.codes} code(s), ${purged.tokens} token(s) and ${purged.idempotencyKeys} idempotency key(s).`,
      );
    });
}
