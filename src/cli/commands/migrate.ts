// `migrate`: apply pending migrations (the service also does it at start).
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('migrate')
    .description('Apply the pending database migrations')
    .action(async () => {
      const handle = await ctx.database();
      ctx.out(`Migrations applied (${handle.kind}).`);
    });
}
