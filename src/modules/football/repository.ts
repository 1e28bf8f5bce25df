// Queries for football results: leagues, teams, their aliases and matches. Names arrive here
// already normalised (see normalize.ts); the rules live in the service.
import { and, asc, count, countDistinct, desc, eq, gte, inArray, like, lt, max, or, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { type Executor, type NamedStatement, namedQuery, preparedOnce } from '../../db/client.js';
import {
  type FootballLeague,
  type FootballSyncStatus,
  type FootballTeam,
  footballLeagueAliases,
  footballLeagues,
  footballMatches,
  footballSyncStatus,
  footballTeamAliases,
  footballTeams,
  type NewFootballMatch,
  ODDS_COLUMNS,
  type OddsColumn,
} from '../../db/schema/football.js';
import { isoTimestamp } from '../../lib/time.js';

/** A league by its code (any case) or one of its aliases. */
export async function findLeague(db: Executor, normalized: string): Promise<FootballLeague | undefined> {
  // Prepared once: a competition's fixtures list resolves its league on every request (issue 57).
  const prepare = () =>
    db
      .select({ league: footballLeagues })
      .from(footballLeagues)
      .leftJoin(footballLeagueAliases, eq(footballLeagueAliases.leagueId, footballLeagues.id))
      .where(
        or(
          sql`lower(${footballLeagues.code}) = ${sql.placeholder('code')}`,
          eq(footballLeagueAliases.aliasNormalized, sql.placeholder('normalized')),
        ),
      )
      .limit(1)
      .prepare('football_league_by_name');
  const [row] = await preparedOnce(db, 'football_league_by_name', prepare).execute({
    code: normalized.replace(/ /g, ''),
    normalized,
  });
  return row?.league;
}

/** A league by its exact code (prepared once: a competition's fixtures page looks it up each time). */
export async function findLeagueByCode(db: Executor, code: string): Promise<FootballLeague | undefined> {
  const prepare = () =>
    db
      .select()
      .from(footballLeagues)
      .where(eq(footballLeagues.code, sql.placeholder('code')))
      .limit(1)
      .prepare('football_league_by_code');
  const [row] = await preparedOnce(db, 'football_league_by_code', prepare).execute({ code });
  return row;
}

/** Leagues by their codes (exact, as the catalogue writes them). */
export function findLeaguesByCodes(db: Executor, codes: readonly string[]): Promise<FootballLeague[]> {
  if (codes.length === 0) return Promise.resolve([]);
  return db
    .select()
    .from(footballLeagues)
    .where(inArray(footballLeagues.code, [...codes]));
}

export async function insertLeague(db: Executor, code: string, name: string): Promise<void> {
  await db.insert(footballLeagues).values({ code, name }).onConflictDoNothing();
}

export async function insertLeagueAlias(
  db: Executor,
  leagueId: number,
  alias: string,
  aliasNormalized: string,
): Promise<boolean> {
  const inserted = await db
    .insert(footballLeagueAliases)
    .values({ leagueId, alias, aliasNormalized })
    .onConflictDoNothing()
    .returning({ id: footballLeagueAliases.id });
  return inserted.length > 0;
}

/**
 * Teams by normalised name or alias, in one named statement (an analysis resolves its two sides
 * with it, on every job); a name that is both goes to the team of that name (its row comes last).
 */
const teamsByNameStatement: NamedStatement = {
  name: 'football_teams_by_name',
  text: `SELECT a.alias_normalized AS key, t.id, t.name, t.name_normalized AS "nameNormalized",
      t.created_at::text AS "createdAt", 0 AS by_name
    FROM football_team_aliases a JOIN football_teams t ON t.id = a.team_id
    WHERE a.alias_normalized = ANY($1::text[])
    UNION ALL
    SELECT t.name_normalized, t.id, t.name, t.name_normalized, t.created_at::text, 1
    FROM football_teams t
    WHERE t.name_normalized = ANY($1::text[])
    ORDER BY by_name`,
};

export async function findTeams(
  db: Executor,
  normalized: readonly string[],
): Promise<Map<string, FootballTeam>> {
  const found = new Map<string, FootballTeam>();
  if (normalized.length === 0) return found;
  const rows = await namedQuery<FootballTeam & { key: string }>(db, teamsByNameStatement, [
    [...new Set(normalized)],
  ]);
  for (const { key, id, name, nameNormalized, createdAt } of rows) {
    found.set(key, { id, name, nameNormalized, createdAt });
  }
  return found;
}

export async function insertTeams(
  db: Executor,
  teams: ReadonlyArray<{ name: string; nameNormalized: string }>,
): Promise<void> {
  if (teams.length === 0) return;
  await db
    .insert(footballTeams)
    .values([...teams])
    .onConflictDoNothing();
}

export async function insertTeamAlias(
  db: Executor,
  teamId: number,
  alias: string,
  aliasNormalized: string,
): Promise<boolean> {
  const inserted = await db
    .insert(footballTeamAliases)
    .values({ teamId, alias, aliasNormalized })
    .onConflictDoNothing()
    .returning({ id: footballTeamAliases.id });
  return inserted.length > 0;
}

/** Adds aliases in one statement; one already taken (by any team) is left as it is. */
export async function insertTeamAliases(
  db: Executor,
  rows: ReadonlyArray<{ teamId: number; alias: string; aliasNormalized: string }>,
): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(footballTeamAliases)
    .values([...rows])
    .onConflictDoNothing();
}

/**
 * Inserts matches; a fixture already stored keeps its result but takes the file's odds (so
 * re-importing the shipped files adds the odds to rows stored before the columns existed).
 * Returns how many were new.
 */
export async function insertMatches(db: Executor, rows: readonly NewFootballMatch[]): Promise<number> {
  if (rows.length === 0) return 0;
  // Every odds column takes the file's value (excluded.*: the row the insert proposed).
  const set = Object.fromEntries(
    ODDS_COLUMNS.map((key) => [key, sql.raw(`excluded.${footballMatches[key].name}`)]),
  );
  const written = await db
    .insert(footballMatches)
    .values([...rows])
    .onConflictDoUpdate({
      target: [footballMatches.homeTeamId, footballMatches.awayTeamId, footballMatches.playedOn],
      set,
    })
    // xmax is 0 on a row this statement inserted, non-zero on one it updated.
    .returning({ inserted: sql<boolean>`(xmax = 0)` });
  return written.filter((row) => row.inserted === true || String(row.inserted) === 'true').length;
}

export interface StoredMatch {
  /** `2014-15`: the file's season, which the engine tells seasons apart by. */
  season: string;
  playedOn: string;
  homeTeamId: number;
  awayTeamId: number;
  homeGoals: number;
  awayGoals: number;
  homeShots: number | null;
  awayShots: number | null;
  homeShotsOnTarget: number | null;
  awayShotsOnTarget: number | null;
  /** Both odds groups, column by column (see the schema); null where unknown. */
  odds: Record<OddsColumn, number | null>;
}

/** A league's matches played on days in [from, before), oldest first. */
export async function leagueMatches(
  db: Executor,
  leagueId: number,
  from: string,
  before: string,
): Promise<StoredMatch[]> {
  return db
    .select({
      season: footballMatches.season,
      playedOn: footballMatches.playedOn,
      homeTeamId: footballMatches.homeTeamId,
      awayTeamId: footballMatches.awayTeamId,
      homeGoals: footballMatches.homeGoals,
      awayGoals: footballMatches.awayGoals,
      homeShots: footballMatches.homeShots,
      awayShots: footballMatches.awayShots,
      homeShotsOnTarget: footballMatches.homeShotsOnTarget,
      awayShotsOnTarget: footballMatches.awayShotsOnTarget,
      odds: Object.fromEntries(ODDS_COLUMNS.map((key) => [key, footballMatches[key]])) as {
        [K in OddsColumn]: (typeof footballMatches)[K];
      },
    })
    .from(footballMatches)
    .where(
      and(
        eq(footballMatches.leagueId, leagueId),
        gte(footballMatches.playedOn, from),
        lt(footballMatches.playedOn, before),
      ),
    )
    .orderBy(footballMatches.playedOn, footballMatches.id);
}

/**
 * The league a team played its latest match in, before a day: the latest home match and the
 * latest away match, each one step down its own (team, day) index, then the later of the two.
 */
export async function latestLeagueOfTeam(
  db: Executor,
  teamId: number,
  before: string,
): Promise<number | undefined> {
  const latest = (side: 'home' | 'away') =>
    db
      .select({ leagueId: footballMatches.leagueId, playedOn: footballMatches.playedOn })
      .from(footballMatches)
      .where(
        and(
          eq(side === 'home' ? footballMatches.homeTeamId : footballMatches.awayTeamId, teamId),
          lt(footballMatches.playedOn, before),
        ),
      )
      .orderBy(desc(footballMatches.playedOn), desc(footballMatches.id))
      .limit(1);
  const [[home], [away]] = await Promise.all([latest('home'), latest('away')]);
  if (!home) return away?.leagueId;
  if (!away) return home.leagueId;
  return away.playedOn > home.playedOn ? away.leagueId : home.leagueId;
}

/**
 * What changes when a league's results change (its match count and highest id), and its latest
 * result day before a bound: the cache key of its fitted ratings, and the staleness check.
 */
export async function leagueVersion(
  db: Executor,
  leagueId: number,
  before: string,
): Promise<{ matches: number; maxId: number; latestBefore: string | null }> {
  const [row] = await db
    .select({
      matches: count(),
      maxId: max(footballMatches.id),
      latestBefore: sql<
        string | null
      >`max(${footballMatches.playedOn}) filter (where ${footballMatches.playedOn} < ${before})`,
    })
    .from(footballMatches)
    .where(eq(footballMatches.leagueId, leagueId));
  return {
    matches: Number(row?.matches ?? 0),
    maxId: Number(row?.maxId ?? 0),
    latestBefore: row?.latestBefore ? String(row.latestBefore).slice(0, 10) : null,
  };
}

/** Leagues by id (the fixtures list names its leagues with these). */
export async function findLeaguesByIds(db: Executor, ids: readonly number[]): Promise<FootballLeague[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(footballLeagues)
    .where(inArray(footballLeagues.id, [...new Set(ids)]));
}

export async function findLeagueById(db: Executor, id: number): Promise<FootballLeague | undefined> {
  const [row] = await db.select().from(footballLeagues).where(eq(footballLeagues.id, id)).limit(1);
  return row;
}

/** Cheap facts that change whenever results are added: the cache key of fitted ratings. */
export async function matchStats(db: Executor): Promise<{ matches: number; leagues: number; maxId: number }> {
  const [row] = await db
    .select({
      matches: count(),
      leagues: countDistinct(footballMatches.leagueId),
      maxId: max(footballMatches.id),
    })
    .from(footballMatches);
  return {
    matches: Number(row?.matches ?? 0),
    leagues: Number(row?.leagues ?? 0),
    maxId: Number(row?.maxId ?? 0),
  };
}

export interface FixtureWindow {
  homeTeamId: number;
  awayTeamId: number;
  /** The league the fixture must belong to, when one was named and found. */
  leagueId: number | null;
  /** Days (`yyyy-mm-dd`, inclusive) within which the match may have been played. */
  from: string;
  to: string;
}

export interface FixtureResult {
  matchId: number;
  leagueId: number;
  playedOn: string;
  homeGoals: number;
  awayGoals: number;
}

/**
 * The earliest stored match of each fixture within its window, in one statement: the windows go in
 * as one JSON parameter, each looked up along the unique (home, away, day) index. Index-aligned with
 * `windows`; undefined where none was played.
 */
export async function findFixtureResults(
  db: Executor,
  windows: readonly FixtureWindow[],
): Promise<Array<FixtureResult | undefined>> {
  if (windows.length === 0) return [];
  const list = JSON.stringify(
    windows.map((w, index) => ({
      ord: index + 1,
      home: w.homeTeamId,
      away: w.awayTeamId,
      league: w.leagueId,
      day_from: w.from,
      day_to: w.to,
    })),
  );
  const result = await db.execute(sql`
    SELECT w.ord::int AS ord, m.id AS match_id, m.league_id, m.played_on::text AS played_on,
           m.home_goals, m.away_goals
    FROM jsonb_to_recordset(${list}::jsonb)
         AS w(ord int, home int, away int, league int, day_from date, day_to date)
    CROSS JOIN LATERAL (
      SELECT id, league_id, played_on, home_goals, away_goals
      FROM ${footballMatches}
      WHERE home_team_id = w.home AND away_team_id = w.away
        AND played_on BETWEEN w.day_from AND w.day_to
        AND (w.league IS NULL OR league_id = w.league)
      ORDER BY played_on, id
      LIMIT 1
    ) AS m`);
  const found: Array<FixtureResult | undefined> = windows.map(() => undefined);
  for (const row of (result as unknown as { rows: Record<string, unknown>[] }).rows) {
    found[Number(row.ord) - 1] = {
      matchId: Number(row.match_id),
      leagueId: Number(row.league_id),
      playedOn: String(row.played_on).slice(0, 10),
      homeGoals: Number(row.home_goals),
      awayGoals: Number(row.away_goals),
    };
  }
  return found;
}

/** Every league's stored results by 1X2 outcome (the naive baseline's frequencies), with its name. */
export async function leagueFrequencies(
  db: Executor,
): Promise<Array<{ id: number; code: string; name: string; home: number; draw: number; away: number }>> {
  const result = await db.execute(sql`
    SELECT l.id, l.code, l.name,
           count(m.id) FILTER (WHERE m.home_goals > m.away_goals) AS home,
           count(m.id) FILTER (WHERE m.home_goals = m.away_goals) AS draw,
           count(m.id) FILTER (WHERE m.home_goals < m.away_goals) AS away
    FROM ${footballLeagues} l LEFT JOIN ${footballMatches} m ON m.league_id = l.id
    GROUP BY l.id, l.code, l.name`);
  return (result as { rows: Record<string, unknown>[] }).rows.map((row) => ({
    id: Number(row.id),
    code: String(row.code),
    name: String(row.name),
    home: Number(row.home),
    draw: Number(row.draw),
    away: Number(row.away),
  }));
}

/** A played match's stored odds (every column, both groups) and its score. */
export interface MatchOneXTwoOdds {
  id: number;
  homeGoals: number;
  awayGoals: number;
  odds: Record<OddsColumn, number | null>;
}

/** The odds and scores of the given matches (ids as one JSON parameter, any number of them). */
export async function matchesOneXTwoOdds(db: Executor, ids: readonly number[]): Promise<MatchOneXTwoOdds[]> {
  if (ids.length === 0) return [];
  const m = footballMatches;
  return db
    .select({
      id: m.id,
      homeGoals: m.homeGoals,
      awayGoals: m.awayGoals,
      odds: Object.fromEntries(ODDS_COLUMNS.map((key) => [key, m[key]])) as {
        [K in OddsColumn]: (typeof footballMatches)[K];
      },
    })
    .from(m)
    .where(sql`${m.id} IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int)`)
    .orderBy(m.id);
}

/** A league's stored history since a day: matches, those with any 1X2 odds, its first and last days. */
export interface LeagueHistory {
  leagueId: number;
  code: string;
  name: string;
  /** Every stored match. */
  matches: number;
  /** Matches played on or after `since`. */
  recent: number;
  /** Of those, the ones with 1X2 odds (pre-match or closing, Pinnacle or the average). */
  recentWithOdds: number;
  lastPlayedOn: string | null;
  lastImportedAt: string | null;
}

export async function leagueHistories(db: Executor, since: string): Promise<LeagueHistory[]> {
  const result = await db.execute(sql`
    SELECT l.id, l.code, l.name,
           count(m.id) AS matches,
           count(m.id) FILTER (WHERE m.played_on >= ${since}) AS recent,
           count(m.id) FILTER (WHERE m.played_on >= ${since} AND (
             m.pre_pinnacle_home IS NOT NULL OR m.pre_average_home IS NOT NULL OR
             m.close_pinnacle_home IS NOT NULL OR m.close_average_home IS NOT NULL)) AS with_odds,
           max(m.played_on)::text AS last_played_on,
           max(m.created_at) AS last_imported_at
    FROM ${footballLeagues} l LEFT JOIN ${footballMatches} m ON m.league_id = l.id
    GROUP BY l.id, l.code, l.name`);
  return (result as { rows: Record<string, unknown>[] }).rows.map((row) => ({
    leagueId: Number(row.id),
    code: String(row.code),
    name: String(row.name),
    matches: Number(row.matches),
    recent: Number(row.recent),
    recentWithOdds: Number(row.with_odds),
    lastPlayedOn: row.last_played_on === null ? null : String(row.last_played_on),
    lastImportedAt:
      row.last_imported_at === null ? null : isoTimestamp(row.last_imported_at as string | Date),
  }));
}

export type SyncSource = 'results' | 'fixtures';

/** Records a sync's outcome for each code: a success (with what it stored) or a failure's one line. */
export async function recordSync(
  db: Executor,
  codes: readonly string[],
  source: SyncSource,
  at: Date,
  outcome: { stored: number } | { error: string },
): Promise<void> {
  if (codes.length === 0) return;
  const success = 'stored' in outcome;
  const rows = codes.map((leagueCode) => ({
    leagueCode,
    source,
    ...(success
      ? { lastSuccessAt: at.toISOString(), lastStored: outcome.stored }
      : { lastFailureAt: at.toISOString(), lastError: outcome.error }),
  }));
  await db
    .insert(footballSyncStatus)
    .values(rows)
    .onConflictDoUpdate({
      target: [footballSyncStatus.leagueCode, footballSyncStatus.source],
      set: success
        ? { lastSuccessAt: sql`excluded.last_success_at`, lastStored: sql`excluded.last_stored` }
        : { lastFailureAt: sql`excluded.last_failure_at`, lastError: sql`excluded.last_error` },
    });
}

export function syncStatuses(db: Executor): Promise<FootballSyncStatus[]> {
  return db.select().from(footballSyncStatus);
}

/** The final scores of stored matches, by id (slips settle their legs' other markets on them). */
export async function matchScores(
  db: Executor,
  ids: readonly number[],
): Promise<Array<{ id: number; homeGoals: number; awayGoals: number }>> {
  if (ids.length === 0) return [];
  const m = footballMatches;
  return db
    .select({ id: m.id, homeGoals: m.homeGoals, awayGoals: m.awayGoals })
    .from(m)
    .where(sql`${m.id} IN (SELECT jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb)::int)`);
}

/** A national-team result as the national forecaster learns it (the team names are the stored ones). */
export interface StoredInternationalMatch {
  playedOn: string;
  competition: string;
  homeName: string;
  awayName: string;
  homeGoals: number;
  awayGoals: number;
  neutral: boolean;
}

/**
 * Every national-team result (leagues coded `INT-…`) played before a day (yyyy-mm-dd, exclusive),
 * oldest first: the forecaster walks the whole history (about 45,000 rows).
 */
export async function internationalMatchesBefore(
  db: Executor,
  before: string,
): Promise<StoredInternationalMatch[]> {
  const home = alias(footballTeams, 'home_team');
  const away = alias(footballTeams, 'away_team');
  return db
    .select({
      playedOn: footballMatches.playedOn,
      competition: footballLeagues.code,
      homeName: home.name,
      awayName: away.name,
      homeGoals: footballMatches.homeGoals,
      awayGoals: footballMatches.awayGoals,
      neutral: footballMatches.neutral,
    })
    .from(footballMatches)
    .innerJoin(footballLeagues, eq(footballLeagues.id, footballMatches.leagueId))
    .innerJoin(home, eq(home.id, footballMatches.homeTeamId))
    .innerJoin(away, eq(away.id, footballMatches.awayTeamId))
    .where(and(sql`${footballLeagues.code} like 'INT-%'`, lt(footballMatches.playedOn, before)))
    .orderBy(footballMatches.playedOn, footballMatches.id);
}

/**
 * Teams whose name or one of whose aliases contains `normalized` (a folded text: letters, digits,
 * spaces), those starting with it first, then by name; at most `limit` (the console's team picker).
 */
export function searchTeams(db: Executor, normalized: string, limit: number): Promise<FootballTeam[]> {
  const pattern = `%${normalized.replace(/[%_\\]/g, '')}%`;
  const prefix = `${normalized.replace(/[%_\\]/g, '')}%`;
  return db
    .select()
    .from(footballTeams)
    .where(
      or(
        like(footballTeams.nameNormalized, pattern),
        inArray(
          footballTeams.id,
          db
            .select({ id: footballTeamAliases.teamId })
            .from(footballTeamAliases)
            .where(like(footballTeamAliases.aliasNormalized, pattern)),
        ),
      ),
    )
    .orderBy(sql`(${footballTeams.nameNormalized} LIKE ${prefix}) DESC`, asc(footballTeams.name))
    .limit(limit);
}

/** A domestic or European cup result as the cup rating reads it (stored names, the league's code). */
export interface StoredRatingMatch {
  playedOn: string;
  league: string;
  homeName: string;
  awayName: string;
  homeGoals: number;
  awayGoals: number;
  neutral: boolean;
  odds: Record<OddsColumn, number | null>;
}

/**
 * Every result of the given leagues (the cups and the domestic leagues of the cups' countries)
 * played before a day (yyyy-mm-dd, exclusive), oldest first: the cup rating walks them all.
 */
export async function ratingMatchesBefore(
  db: Executor,
  leagueCodes: readonly string[],
  before: string,
): Promise<StoredRatingMatch[]> {
  const home = alias(footballTeams, 'home_team');
  const away = alias(footballTeams, 'away_team');
  return db
    .select({
      playedOn: footballMatches.playedOn,
      league: footballLeagues.code,
      homeName: home.name,
      awayName: away.name,
      homeGoals: footballMatches.homeGoals,
      awayGoals: footballMatches.awayGoals,
      neutral: footballMatches.neutral,
      odds: Object.fromEntries(ODDS_COLUMNS.map((key) => [key, footballMatches[key]])) as {
        [K in OddsColumn]: (typeof footballMatches)[K];
      },
    })
    .from(footballMatches)
    .innerJoin(footballLeagues, eq(footballLeagues.id, footballMatches.leagueId))
    .innerJoin(home, eq(home.id, footballMatches.homeTeamId))
    .innerJoin(away, eq(away.id, footballMatches.awayTeamId))
    .where(and(inArray(footballLeagues.code, [...leagueCodes]), lt(footballMatches.playedOn, before)))
    .orderBy(footballMatches.playedOn, footballMatches.id);
}
