// `credits:grant <phone> <n> <reason>`: an operator adds credits to an account (ledger row
// `admin_adjustment`); a negative n takes them back, never below zero.
import { type Command, InvalidArgumentError } from 'commander';
import type { CliContext } from '../context.js';

function wholeNumber(value: string): number {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError('expected a whole number of credits');
  return Number(value);
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('credits:grant')
    .description('Grant credits to the account of a phone number (negative to take back)')
    .argument('<phone>', 'the account phone, international format (+237…)')
    .argument('<credits>', 'how many credits', wholeNumber)
    .argument('<reason>', 'why, shown in the user’s operations history')
    .action(async (phone: string, credits: number, reason: string) => {
      const { users, wallet } = await ctx.services();
      const account = await users.accountOfPhone(phone);
      const { balance } = await wallet.grantCredits(account, credits, reason);
      ctx.out(`User ${account.id} (${account.phone}) now has ${balance} credits.`);
    });
}
