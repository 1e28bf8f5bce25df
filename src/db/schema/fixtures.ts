// Upcoming matches (football-data.co.uk's fixtures.csv) and the bookmakers' pre-match odds seen on
// them over time. A fixture is one league pairing of one season: the sync upserts on that natural
// key, so a changed date updates the row (a rescheduled match keeps its id and its pronostics).
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { fixtureStatuses } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { footballLeagues, footballMatches, footballTeams } from './football.js';

const statusList = sql.raw(fixtureStatuses.map((status) => `'${status}'`).join(', '));

export const fixtures = pgTable(
  'fixtures',
  {
    id: serial('id').primaryKey(),
    leagueId: integer('league_id')
      .notNull()
      .references(() => footballLeagues.id),
    /** `2025-26`, from the kick-off (July to June): a pairing plays once per season at home. */
    season: text('season').notNull(),
    homeTeamId: integer('home_team_id')
      .notNull()
      .references(() => footballTeams.id),
    awayTeamId: integer('away_team_id')
      .notNull()
      .references(() => footballTeams.id),
    /**
     * The teams' stored names, copied at sync: the list answers from this table alone (no join to
     * the football tables, which another module owns), and a team's name never changes.
     */
    homeName: text('home_name').notNull(),
    awayName: text('away_name').notNull(),
    kickoffAt: timestamptz('kickoff_at').notNull(),
    /** Played at a neutral venue (a final, most national-team tournaments): no home advantage. */
    neutral: boolean('neutral').notNull().default(false),
    /** Where it is played, when an admin or an import said so. */
    city: text('city'),
    /**
     * A knockout match whose final score may include extra time (a cup's or a national team's
     * knockout round, not a tie's first leg): it settles by its 90-minute score (DESIGN, "Fixtures").
     */
    knockout: boolean('knockout').notNull().default(false),
    /**
     * The cup's or tournament's stage as its file or admin wrote it (`Group A`, `Round of 16`,
     * `Final`), shown translated where the heading is a usual one (decision 0161); null for a league.
     */
    stage: text('stage'),
    /** Which leg of a two-legged tie (1 or 2); null for a single match. */
    leg: smallint('leg'),
    /** The score after 90 minutes of a knockout fixture, an admin's entry (null until given). */
    regularHomeGoals: smallint('regular_home_goals'),
    regularAwayGoals: smallint('regular_away_goals'),
    status: text('status', { enum: fixtureStatuses }).notNull().default('scheduled'),
    homeGoals: smallint('home_goals'),
    awayGoals: smallint('away_goals'),
    /** The stored result that closed it (`played`). */
    matchId: integer('match_id').references(() => footballMatches.id),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().default(sql`now()`),
  },
  (table) => [
    uniqueIndex('fixtures_natural_key').on(table.leagueId, table.season, table.homeTeamId, table.awayTeamId),
    // The list's order (kick-off, id) under its default filter (one status from a time on).
    index('fixtures_status_kickoff_idx').on(table.status, table.kickoffAt, table.id),
    index('fixtures_league_kickoff_idx').on(table.leagueId, table.kickoffAt, table.id),
    index('fixtures_home_kickoff_idx').on(table.homeTeamId, table.kickoffAt),
    index('fixtures_away_kickoff_idx').on(table.awayTeamId, table.kickoffAt),
    check('fixtures_status_allowed', sql`${table.status} IN (${statusList})`),
    check(
      'fixtures_regular_score_pair',
      sql`(${table.regularHomeGoals} IS NULL) = (${table.regularAwayGoals} IS NULL)`,
    ),
    check('fixtures_leg_allowed', sql`${table.leg} IS NULL OR ${table.leg} IN (1, 2)`),
    check(
      'fixtures_score_when_played',
      sql`(${table.status} = 'played') = (${table.homeGoals} IS NOT NULL AND ${table.awayGoals} IS NOT NULL)`,
    ),
  ],
);

/**
 * The pre-match odds of a fixture as each sync saw them: a new row only when they changed, so the
 * analysis can use the latest odds collected before it ran. Never closing odds (the fixtures file
 * has none, and the engine is scored against them).
 */
export const fixtureOdds = pgTable(
  'fixture_odds',
  {
    id: serial('id').primaryKey(),
    fixtureId: integer('fixture_id')
      .notNull()
      .references(() => fixtures.id, { onDelete: 'cascade' }),
    collectedAt: timestamptz('collected_at').notNull(),
    pinnacleHome: doublePrecision('pinnacle_home'),
    pinnacleDraw: doublePrecision('pinnacle_draw'),
    pinnacleAway: doublePrecision('pinnacle_away'),
    averageHome: doublePrecision('average_home'),
    averageDraw: doublePrecision('average_draw'),
    averageAway: doublePrecision('average_away'),
    overUnderPinnacleOver: doublePrecision('ou_pinnacle_over'),
    overUnderPinnacleUnder: doublePrecision('ou_pinnacle_under'),
    overUnderAverageOver: doublePrecision('ou_average_over'),
    overUnderAverageUnder: doublePrecision('ou_average_under'),
  },
  (table) => [index('fixture_odds_fixture_collected_idx').on(table.fixtureId, table.collectedAt.desc())],
);

/**
 * Fixtures per status, recounted by the fixtures service in the transaction of each write (a sync,
 * a closing pass): the default list's `meta.total` reads it instead of counting a season of rows
 * on every request.
 */
export const fixtureCounts = pgTable(
  'fixture_counts',
  {
    status: text('status', { enum: fixtureStatuses }).primaryKey(),
    total: integer('total').notNull(),
  },
  (table) => [check('fixture_counts_status_allowed', sql`${table.status} IN (${statusList})`)],
);

export type Fixture = typeof fixtures.$inferSelect;
export type NewFixture = typeof fixtures.$inferInsert;
export type FixtureOddsRow = typeof fixtureOdds.$inferSelect;
export type NewFixtureOdds = typeof fixtureOdds.$inferInsert;
