// `npm run cli -- <command>`: operations from the shell (migrations, users, results, evaluation).
import { Command, CommanderError } from 'commander';
import { loadConfigOrExit } from '../config.js';
import { commandModules } from './commands/index.js';
import { type CliContext, createCliContext } from './context.js';

export function buildProgram(ctx: CliContext): Command {
  const program = new Command('cli')
    .description('Command line of the Pronostics API')
    .showHelpAfterError()
    .exitOverride();
  for (const module of commandModules) module.register(program, ctx);
  return program;
}

/** Runs one command line; returns the exit code. */
export async function runCli(argv: string[], ctx: CliContext): Promise<number> {
  const program = buildProgram(ctx);
  try {
    await program.parseAsync(argv, { from: 'user' });
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode;
    console.error(`Error: ${(error as Error).message}`);
    return 1;
  } finally {
    await ctx.close();
  }
}

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  // A restore writes nothing in DATA_DIR before its archive checks out, the generated secret included.
  const config = loadConfigOrExit({ generateSecret: argv[0] !== 'restore' });
  process.exitCode = await runCli(argv.length === 0 ? ['help'] : argv, createCliContext(config));
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
