// Every CLI command module; each exports `register(program, ctx)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import * as aliases from './aliases.js';
import * as evaluate from './evaluate.js';
import * as migrate from './migrate.js';
import * as results from './results.js';

export const commandModules: { register(program: Command, ctx: CliContext): void }[] = [
  migrate,
  results,
  aliases,
  evaluate,
];
