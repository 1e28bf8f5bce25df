// Football results the engine learns from: leagues and teams with their aliases, and played
// matches. Names are also stored normalised (lower-case, accents and punctuation stripped) so a
// client's "Atlético Madrid" or "premier league" finds its row; unique keys make re-imports no-ops.
import {
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';

export const footballLeagues = pgTable('football_leagues', {
  id: serial('id').primaryKey(),
  /** football-data.co.uk division code, e.g. `E0`, `SP1`. */
  code: text('code').notNull().unique(),
  name: text('name').notNull(),
  createdAt: createdAt(),
});

export const footballLeagueAliases = pgTable(
  'football_league_aliases',
  {
    id: serial('id').primaryKey(),
    leagueId: integer('league_id')
      .notNull()
      .references(() => footballLeagues.id, { onDelete: 'cascade' }),
    alias: text('alias').notNull(),
    aliasNormalized: text('alias_normalized').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('football_league_aliases_normalized_unique').on(table.aliasNormalized)],
);

export const footballTeams = pgTable('football_teams', {
  id: serial('id').primaryKey(),
  name: text('name').notNull(),
  nameNormalized: text('name_normalized').notNull().unique(),
  createdAt: createdAt(),
});

export const footballTeamAliases = pgTable(
  'football_team_aliases',
  {
    id: serial('id').primaryKey(),
    teamId: integer('team_id')
      .notNull()
      .references(() => footballTeams.id, { onDelete: 'cascade' }),
    alias: text('alias').notNull(),
    aliasNormalized: text('alias_normalized').notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex('football_team_aliases_normalized_unique').on(table.aliasNormalized)],
);

/**
 * One group's columns: Pinnacle and market-average 1X2, over/under 2.5 and Asian handicap (the
 * home side's line, then the prices on the home and away sides).
 */
function oddsGroup<P extends 'pre' | 'close'>(prefix: P) {
  return {
    [`${prefix}PinnacleHome`]: doublePrecision(`${prefix}_pinnacle_home`),
    [`${prefix}PinnacleDraw`]: doublePrecision(`${prefix}_pinnacle_draw`),
    [`${prefix}PinnacleAway`]: doublePrecision(`${prefix}_pinnacle_away`),
    [`${prefix}AverageHome`]: doublePrecision(`${prefix}_average_home`),
    [`${prefix}AverageDraw`]: doublePrecision(`${prefix}_average_draw`),
    [`${prefix}AverageAway`]: doublePrecision(`${prefix}_average_away`),
    [`${prefix}PinnacleOver`]: doublePrecision(`${prefix}_pinnacle_over`),
    [`${prefix}PinnacleUnder`]: doublePrecision(`${prefix}_pinnacle_under`),
    [`${prefix}AverageOver`]: doublePrecision(`${prefix}_average_over`),
    [`${prefix}AverageUnder`]: doublePrecision(`${prefix}_average_under`),
    [`${prefix}AhLine`]: doublePrecision(`${prefix}_ah_line`),
    [`${prefix}PinnacleAhHome`]: doublePrecision(`${prefix}_pinnacle_ah_home`),
    [`${prefix}PinnacleAhAway`]: doublePrecision(`${prefix}_pinnacle_ah_away`),
    [`${prefix}AverageAhHome`]: doublePrecision(`${prefix}_average_ah_home`),
    [`${prefix}AverageAhAway`]: doublePrecision(`${prefix}_average_ah_away`),
  } as Record<`${P}${OddsField}`, ReturnType<typeof doublePrecision>>;
}

export type OddsField =
  | 'PinnacleHome'
  | 'PinnacleDraw'
  | 'PinnacleAway'
  | 'AverageHome'
  | 'AverageDraw'
  | 'AverageAway'
  | 'PinnacleOver'
  | 'PinnacleUnder'
  | 'AverageOver'
  | 'AverageUnder'
  | 'AhLine'
  | 'PinnacleAhHome'
  | 'PinnacleAhAway'
  | 'AverageAhHome'
  | 'AverageAhAway';

const ODDS_FIELDS: readonly OddsField[] = [
  'PinnacleHome',
  'PinnacleDraw',
  'PinnacleAway',
  'AverageHome',
  'AverageDraw',
  'AverageAway',
  'PinnacleOver',
  'PinnacleUnder',
  'AverageOver',
  'AverageUnder',
  'AhLine',
  'PinnacleAhHome',
  'PinnacleAhAway',
  'AverageAhHome',
  'AverageAhAway',
];
export type OddsColumn = `${'pre' | 'close'}${OddsField}`;
/** Every odds column's key, pre-match first. */
export const ODDS_COLUMNS: readonly OddsColumn[] = (['pre', 'close'] as const).flatMap((prefix) =>
  ODDS_FIELDS.map((field) => `${prefix}${field}` as const),
);

export const footballMatches = pgTable(
  'football_matches',
  {
    id: serial('id').primaryKey(),
    leagueId: integer('league_id')
      .notNull()
      .references(() => footballLeagues.id),
    /** `2014-15`. */
    season: text('season').notNull(),
    /** Match day, `yyyy-mm-dd`. */
    playedOn: date('played_on', { mode: 'string' }).notNull(),
    kickoff: text('kickoff'),
    homeTeamId: integer('home_team_id')
      .notNull()
      .references(() => footballTeams.id),
    awayTeamId: integer('away_team_id')
      .notNull()
      .references(() => footballTeams.id),
    homeGoals: smallint('home_goals').notNull(),
    awayGoals: smallint('away_goals').notNull(),
    halfTimeHomeGoals: smallint('half_time_home_goals'),
    halfTimeAwayGoals: smallint('half_time_away_goals'),
    homeShots: smallint('home_shots'),
    awayShots: smallint('away_shots'),
    homeShotsOnTarget: smallint('home_shots_on_target'),
    awayShotsOnTarget: smallint('away_shots_on_target'),
    /** Played on neutral ground (national teams' file says so; league matches never are). */
    neutral: boolean('neutral').notNull().default(false),
    // The market's decimal odds in two groups that never mix (see odds-columns.ts): pre-match,
    // taken days before kick-off (the only kind a fixture has, so a model input), and closing, at
    // kick-off (what the engine is scored against; a past match's closing odds train the
    // market rating, a match's own never). Null where the file has none.
    ...oddsGroup('pre'),
    ...oddsGroup('close'),
    createdAt: createdAt(),
  },
  (table) => [
    // A side plays at most once a day: the same fixture on the same day is the same match.
    uniqueIndex('football_matches_fixture_unique').on(table.homeTeamId, table.awayTeamId, table.playedOn),
    index('football_matches_league_date_idx').on(table.leagueId, table.playedOn),
    // A team's latest league (the analyst's lookup), from either side of the fixture.
    index('football_matches_home_date_idx').on(table.homeTeamId, table.playedOn),
    index('football_matches_away_date_idx').on(table.awayTeamId, table.playedOn),
  ],
);

export type FootballLeague = typeof footballLeagues.$inferSelect;
export type FootballTeam = typeof footballTeams.$inferSelect;
export type FootballMatch = typeof footballMatches.$inferSelect;
export type NewFootballMatch = typeof footballMatches.$inferInsert;

/**
 * Each competition's sync health (issue 50): the latest success and failure of its results and of
 * its fixtures sync, with the failure's one-line reason. One row per competition code and source.
 */
export const footballSyncStatus = pgTable(
  'football_sync_status',
  {
    leagueCode: text('league_code').notNull(),
    /** `results` or `fixtures`. */
    source: text('source').notNull(),
    lastSuccessAt: timestamptz('last_success_at'),
    /** Matches (results) or fixtures the latest success stored. */
    lastStored: integer('last_stored'),
    lastFailureAt: timestamptz('last_failure_at'),
    lastError: text('last_error'),
  },
  (table) => [primaryKey({ columns: [table.leagueCode, table.source] })],
);
export type FootballSyncStatus = typeof footballSyncStatus.$inferSelect;
