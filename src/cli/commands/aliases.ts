// `team:alias` and `league:alias`: other names for a team or a league, so a client's
// "Manchester United" finds football-data's "Man United" and "Premier League" finds E0.
// Either argument may be the known name; the other becomes its alias.
import type { Command } from 'commander';
import type { CliContext } from '../context.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('team:alias')
    .description('Add another name for a team, e.g. team:alias "Man United" "Manchester United"')
    .argument('<name>', 'a name of the team (as imported, or an alias)')
    .argument('<alias>', 'the other name')
    .action(async (name: string, alias: string) => {
      const outcome = await (await ctx.services()).football.addTeamAlias(name, alias);
      ctx.out(
        outcome.added
          ? `"${outcome.alias}" now names team "${outcome.team.name}".`
          : `"${outcome.alias}" already names team "${outcome.team.name}".`,
      );
    });

  program
    .command('league:alias')
    .description('Add another name for a league, e.g. league:alias E0 "Premier League"')
    .argument('<league>', 'the league code or a name it already has')
    .argument('<alias>', 'the other name')
    .action(async (league: string, alias: string) => {
      const outcome = await (await ctx.services()).football.addLeagueAlias(league, alias);
      ctx.out(
        outcome.added
          ? `"${outcome.alias}" now names league ${outcome.league.code} (${outcome.league.name}).`
          : `"${outcome.alias}" already names league ${outcome.league.code} (${outcome.league.name}).`,
      );
    });
}
