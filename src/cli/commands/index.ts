// Every CLI command module; each exports `register(program, ctx)`.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';
import * as migrate from './migrate.js';

export const commandModules: { register(program: Command, ctx: CliContext): void }[] = [migrate];
