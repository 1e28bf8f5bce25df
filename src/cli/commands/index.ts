// Every CLI command module; each exports `register(program, ctx)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import * as aliases from './aliases.js';
import * as backup from './backup.js';
import * as credits from './credits.js';
import * as evaluate from './evaluate.js';
import * as fixtures from './fixtures.js';
import * as ledger from './ledger.js';
import * as migrate from './migrate.js';
import * as purge from './purge.js';
import * as results from './results.js';
import * as users from './users.js';

export const commandModules: { register(program: Command, ctx: CliContext): void }[] = [
  migrate,
  purge,
  users,
  credits,
  ledger,
  results,
  fixtures,
  aliases,
  evaluate,
  backup,
];
