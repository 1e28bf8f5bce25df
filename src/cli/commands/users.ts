// `user:role <phone> admin|user`: promote or demote an account. The role is read on every request,
// so the change applies to the user's current tokens at once.
import { Argument, type Command } from 'commander';
import { userRoles } from '../../lib/allowed-values.js';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('user:role')
    .description('Set the role of the account of a phone number')
    .argument('<phone>', 'the account phone, international format (+237…)')
    .addArgument(new Argument('<role>', 'the new role').choices(userRoles))
    .action(async (phone: string, role: (typeof userRoles)[number]) => {
      const { users } = await ctx.services();
      const account = await users.accountOfPhone(phone);
      await users.changeRole(account.id, role);
      ctx.out(`User ${account.id} (${account.phone}) is now ${role}.`);
    });
}
