// Queries of the track record: the settlement worker's scan of unsettled successes (a keyset cursor
// along `pronostics_unsettled_idx`), its one-statement batch write (`result.settlement`, `outcome`,
// `settled_at`, `settled_match_id` together, only on rows still unsettled: idempotent), and the
// grouped aggregation the figures are rolled up from.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { footballLeagues, footballMatches, pronostics, pronosticTypes } from '../../db/schema/index.js';
import type { SettlementOutcome } from '../../engine/settlement.js';
import type { PronosticTypeSlug } from '../../engine/types.js';

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

export interface UnsettledRow {
  id: number;
  slug: PronosticTypeSlug;
  teamsDetails: Record<string, unknown>;
  pick: string | null;
  /** The exact-score market's priced scorelines (its probabilities' keys but `other`). */
  listedScores: string[];
  /** `yyyy-mm-dd` of the row's creation (the fixture's day when the client gave none). */
  createdOn: string;
}

/** The next unsettled successes after `afterId`, in id order (never the analysis text). */
export async function unsettledAfter(db: Executor, afterId: number, limit: number): Promise<UnsettledRow[]> {
  const result = await db.execute(sql`
    SELECT p.id, t.slug, p.teams_details, p.result->>'pick' AS pick,
           CASE WHEN p.result->>'market' = 'exact_score'
                THEN (SELECT coalesce(array_agg(k), '{}') FROM jsonb_object_keys(p.result->'probabilities') AS k
                      WHERE k <> 'other') END AS listed,
           to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS created_on
    FROM ${pronostics} p JOIN ${pronosticTypes} t ON t.id = p.type_id
    WHERE p.status = 'success' AND p.outcome IS NULL AND p.id > ${afterId}
    ORDER BY p.id
    LIMIT ${limit}`);
  return rowsOf(result).map((row) => ({
    id: Number(row.id),
    slug: row.slug as PronosticTypeSlug,
    teamsDetails: (typeof row.teams_details === 'string'
      ? JSON.parse(row.teams_details)
      : row.teams_details) as Record<string, unknown>,
    pick: (row.pick as string | null) ?? null,
    listedScores: parseTextArray(row.listed),
    createdOn: String(row.created_on),
  }));
}

/** A text[] as node-postgres (an array) or PGlite/raw text (`{a,b}`) hands it over. */
function parseTextArray(value: unknown): string[] {
  if (Array.isArray(value)) return value.map(String);
  if (typeof value !== 'string' || value.length < 2) return [];
  const inner = value.slice(1, -1);
  return inner === '' ? [] : inner.split(',').map((item) => item.replace(/^"|"$/g, ''));
}

export interface Settlement {
  id: number;
  outcome: SettlementOutcome;
  /** `2-1`, or null when void for want of a result. */
  score: string | null;
  matchId: number | null;
}

/**
 * Writes a batch of settlements in one statement; a row settled meanwhile (another worker, a
 * re-run) is left as it is. Returns how many rows this call settled.
 */
export async function writeSettlements(
  db: Executor,
  settlements: readonly Settlement[],
  now: Date,
): Promise<number> {
  if (settlements.length === 0) return 0;
  const list = JSON.stringify(
    settlements.map((s) => ({ id: s.id, outcome: s.outcome, score: s.score, match_id: s.matchId })),
  );
  const at = now.toISOString();
  const result = await db.execute(sql`
    UPDATE ${pronostics} AS p
    SET outcome = s.outcome,
        settled_at = ${at}::timestamptz,
        settled_match_id = s.match_id,
        result = jsonb_set(coalesce(p.result, '{}'::jsonb), '{settlement}', jsonb_build_object(
          'outcome', s.outcome, 'score', s.score,
          'settled_at', to_char(${at}::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')))
    FROM jsonb_to_recordset(${list}::jsonb) AS s(id int, outcome text, score text, match_id int)
    WHERE p.id = s.id AND p.status = 'success' AND p.outcome IS NULL
    RETURNING p.id`);
  return rowsOf(result).length;
}

/** One group of settled rows: a type, a league, a month and an age band (0: ≤30 days … 3: older). */
export interface SettledGroup {
  slug: PronosticTypeSlug;
  leagueId: number | null;
  month: string;
  band: 0 | 1 | 2 | 3;
  won: number;
  lost: number;
  void: number;
  /** Sum of the stated confidence over won and lost rows. */
  confidenceSum: number;
  /** Won/lost rows with a 1X2 forecast (types 1x2 and full-analysis), by actual result. */
  scored: { home: number; draw: number; away: number };
  brierSum: number;
  rpsSum: number;
}

/**
 * Settled rows grouped by type, league, month of the match day (or of the settlement when there
 * was no match) and age band as of `today`: one pass over the settled rows, the Brier and RPS sums
 * of the 1X2 forecasts computed in SQL.
 */
export async function settledGroups(db: Executor, today: string, userId?: number): Promise<SettledGroup[]> {
  const result = await db.execute(sql`
    WITH base AS (
      SELECT t.slug, m.league_id, p.outcome,
             (p.result->>'confidence')::float8 AS confidence,
             coalesce(m.played_on, (p.settled_at AT TIME ZONE 'UTC')::date) AS day,
             CASE WHEN m.home_goals > m.away_goals THEN 'home'
                  WHEN m.home_goals = m.away_goals THEN 'draw' ELSE 'away' END AS actual,
             (p.result->'probabilities'->>'home')::float8 AS ph,
             (p.result->'probabilities'->>'draw')::float8 AS pd,
             (p.result->'probabilities'->>'away')::float8 AS pa
      FROM ${pronostics} p
      JOIN ${pronosticTypes} t ON t.id = p.type_id
      LEFT JOIN ${footballMatches} m ON m.id = p.settled_match_id
      WHERE p.outcome IS NOT NULL ${userId === undefined ? sql`` : sql`AND p.user_id = ${userId}`}
    ), scored AS (
      SELECT *, outcome <> 'void' AND slug IN ('1x2', 'full-analysis') AND ph IS NOT NULL
                AND league_id IS NOT NULL AS has_forecast,
             (actual = 'home')::int AS oh, (actual = 'draw')::int AS od, (actual = 'away')::int AS oa
      FROM base
    )
    SELECT slug, league_id, to_char(day, 'YYYY-MM') AS month,
           CASE WHEN day > ${today}::date - 30 THEN 0 WHEN day > ${today}::date - 90 THEN 1
                WHEN day > ${today}::date - 365 THEN 2 ELSE 3 END AS band,
           count(*) FILTER (WHERE outcome = 'won') AS won,
           count(*) FILTER (WHERE outcome = 'lost') AS lost,
           count(*) FILTER (WHERE outcome = 'void') AS void,
           coalesce(sum(confidence) FILTER (WHERE outcome <> 'void'), 0) AS confidence_sum,
           count(*) FILTER (WHERE has_forecast AND actual = 'home') AS scored_home,
           count(*) FILTER (WHERE has_forecast AND actual = 'draw') AS scored_draw,
           count(*) FILTER (WHERE has_forecast AND actual = 'away') AS scored_away,
           coalesce(sum((ph - oh) ^ 2 + (pd - od) ^ 2 + (pa - oa) ^ 2) FILTER (WHERE has_forecast), 0) AS brier_sum,
           coalesce(sum(((ph - oh) ^ 2 + (ph + pd - oh - od) ^ 2) / 2) FILTER (WHERE has_forecast), 0) AS rps_sum
    FROM scored
    GROUP BY 1, 2, 3, 4`);
  return rowsOf(result).map((row) => ({
    slug: row.slug as PronosticTypeSlug,
    leagueId: row.league_id === null ? null : Number(row.league_id),
    month: String(row.month),
    band: Number(row.band) as SettledGroup['band'],
    won: Number(row.won),
    lost: Number(row.lost),
    void: Number(row.void),
    confidenceSum: Number(row.confidence_sum),
    scored: { home: Number(row.scored_home), draw: Number(row.scored_draw), away: Number(row.scored_away) },
    brierSum: Number(row.brier_sum),
    rpsSum: Number(row.rps_sum),
  }));
}

/** Won and lost rows by stated-confidence decile (0 = [0, 0.1) … 9 = [0.9, 1]). */
export async function calibrationBins(
  db: Executor,
  userId?: number,
): Promise<Array<{ bin: number; count: number; won: number; confidenceSum: number }>> {
  const result = await db.execute(sql`
    SELECT least(floor((p.result->>'confidence')::float8 * 10), 9)::int AS bin,
           count(*) AS count, count(*) FILTER (WHERE p.outcome = 'won') AS won,
           sum((p.result->>'confidence')::float8) AS confidence_sum
    FROM ${pronostics} p
    WHERE p.outcome IN ('won', 'lost') AND p.result->>'confidence' IS NOT NULL
      ${userId === undefined ? sql`` : sql`AND p.user_id = ${userId}`}
    GROUP BY 1 ORDER BY 1`);
  return rowsOf(result).map((row) => ({
    bin: Number(row.bin),
    count: Number(row.count),
    won: Number(row.won),
    confidenceSum: Number(row.confidence_sum),
  }));
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
  return rowsOf(result).map((row) => ({
    id: Number(row.id),
    code: String(row.code),
    name: String(row.name),
    home: Number(row.home),
    draw: Number(row.draw),
    away: Number(row.away),
  }));
}
