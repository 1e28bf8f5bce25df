// Queries of the track record: the settlement worker's scan of unsettled successes (a keyset cursor
// along `pronostics_unsettled_idx`), its one-statement batch write (`result.settlement`, `outcome`,
// `settled_at`, `settled_match_id` and the figure columns together, only on rows still unsettled:
// idempotent; the rollups gain exactly the rows that statement settled), and the figures' reads:
// the rollups for the public record, the caller's own settled rows for a user's.
import { type SQL, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  pronostics,
  pronosticTypes,
  trackRecordCalibration,
  trackRecordDays,
  trackRecordMatches,
} from '../../db/schema/pronostics.js';
import type { PronosticTypeSlug, SettlementOutcome } from '../../lib/allowed-values.js';

function rowsOf(result: unknown): Record<string, unknown>[] {
  return (result as { rows: Record<string, unknown>[] }).rows;
}

const numberOrNull = (value: unknown) => (value === null || value === undefined ? null : Number(value));

/** A json value as float8 when it is a JSON number, else null (a string or an absent key is no number). */
const jsonNumber = (value: SQL) =>
  sql`CASE WHEN json_typeof(${value}) = 'number' THEN (${value}::text)::float8 END`;

export interface UnsettledRow {
  id: number;
  slug: PronosticTypeSlug;
  teamsDetails: Record<string, unknown>;
  pick: string | null;
  /** The exact-score market's priced scorelines (its probabilities' keys but `other`). */
  listedScores: string[];
  /** `yyyy-mm-dd` of the row's creation (the fixture's day when the client gave none). */
  createdOn: string;
  /** The stated confidence, when `result.confidence` is a number. */
  confidence: number | null;
  /** The 1X2 forecast (`result.probabilities` home/draw/away), when all three are numbers. */
  forecast: { home: number; draw: number; away: number } | null;
  /** The fixture it was created from: settled on that fixture, not by name. */
  fixtureId: number | null;
}

/** The next unsettled successes after `afterId`, in id order (never the analysis text). */
export async function unsettledAfter(db: Executor, afterId: number, limit: number): Promise<UnsettledRow[]> {
  // `result` is json (its text): each operator on it parses the whole 1-2 KB document again, so its
  // top-level keys are read once (json_to_record) and only the small `probabilities` is read twice.
  const result = await db.execute(sql`
    SELECT p.id, t.slug, p.teams_details, r.pick, p.fixture_id,
           CASE WHEN r.market = 'exact_score' AND json_typeof(r.probabilities) = 'object'
                THEN (SELECT coalesce(array_agg(k), '{}') FROM json_object_keys(r.probabilities) AS k
                      WHERE k <> 'other') END AS listed,
           to_char(p.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS created_on,
           ${jsonNumber(sql`r.confidence`)} AS confidence,
           ${jsonNumber(sql`(r.probabilities -> 'home')`)} AS ph,
           ${jsonNumber(sql`(r.probabilities -> 'draw')`)} AS pd,
           ${jsonNumber(sql`(r.probabilities -> 'away')`)} AS pa
    FROM ${pronostics} p JOIN ${pronosticTypes} t ON t.id = p.type_id
    CROSS JOIN LATERAL json_to_record(CASE WHEN json_typeof(p.result) = 'object' THEN p.result END)
      AS r(pick text, market text, confidence json, probabilities json)
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
    confidence: numberOrNull(row.confidence),
    forecast:
      row.ph === null || row.pd === null || row.pa === null
        ? null
        : { home: Number(row.ph), draw: Number(row.pd), away: Number(row.pa) },
    fixtureId: row.fixture_id === null || row.fixture_id === undefined ? null : Number(row.fixture_id),
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
  /** The match day, or the settlement day when void without a match (`yyyy-mm-dd`). */
  day: string;
  leagueId: number | null;
  confidence: number | null;
  /** Set only for a scored 1X2 forecast: the actual result and the forecast's Brier and RPS. */
  actual: 'home' | 'draw' | 'away' | null;
  brier: number | null;
  rps: number | null;
}

/**
 * Writes a batch of settlements in one statement; a row settled meanwhile (another worker, a
 * re-run) is left as it is. The same statement adds the rows it settled (its RETURNING, so never a
 * row twice) to the day rollup, the calibration rollup and the settled matches, in key order (two passes at once wait
 * for each other instead of deadlocking). Returns how many rows this call settled.
 */
export async function writeSettlements(
  db: Executor,
  settlements: readonly Settlement[],
  now: Date,
): Promise<number> {
  if (settlements.length === 0) return 0;
  const list = JSON.stringify(
    settlements.map((s) => ({
      id: s.id,
      outcome: s.outcome,
      score: s.score,
      match_id: s.matchId,
      day: s.day,
      league_id: s.leagueId,
      confidence: s.confidence,
      actual: s.actual,
      brier: s.brier,
      rps: s.rps,
    })),
  );
  const at = now.toISOString();
  const settlementObject = sql`json_build_object('outcome', s.outcome, 'score', s.score,
    'settled_at', to_char(${at}::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'))`;
  const result = await db.execute(sql`
    WITH s AS (
      SELECT * FROM jsonb_to_recordset(${list}::jsonb) AS s(id int, outcome text, score text, match_id int,
        day date, league_id int, confidence float8, actual text, brier float8, rps float8)
    ), settled AS (
      UPDATE ${pronostics} AS p
      SET outcome = s.outcome,
          settled_at = ${at}::timestamptz,
          settled_match_id = s.match_id,
          settled_day = s.day,
          settled_league_id = s.league_id,
          settled_confidence = s.confidence,
          settled_actual = s.actual,
          settled_brier = s.brier,
          settled_rps = s.rps,
          -- result is json (stored as text) and has no settlement key yet (markSucceeded drops one):
          -- the key is spliced before the closing brace of an object with keys, instead of a round
          -- trip through jsonb that parses and rebuilds every 1-2 KB document (docs/performance.md).
          result = CASE WHEN p.result::text ~ '^\\s*\\{\\s*"'
            THEN (left(rtrim(p.result::text, E' \\t\\r\\n'), -1) || ',"settlement":' || ${settlementObject}::text || '}')::json
            ELSE json_build_object('settlement', ${settlementObject}) END
      FROM s
      WHERE p.id = s.id AND p.status = 'success' AND p.outcome IS NULL
      RETURNING p.type_id, s.outcome, s.match_id, s.day, s.league_id, s.confidence, s.actual, s.brier, s.rps
    ), days AS (
      INSERT INTO ${trackRecordDays} AS r (day, type_id, league_id, won, lost, void, confidence_sum,
                                           scored_home, scored_draw, scored_away, brier_sum, rps_sum)
      SELECT day, type_id, league_id,
             count(*) FILTER (WHERE outcome = 'won'), count(*) FILTER (WHERE outcome = 'lost'),
             count(*) FILTER (WHERE outcome = 'void'),
             coalesce(sum(confidence) FILTER (WHERE outcome <> 'void'), 0),
             count(*) FILTER (WHERE actual = 'home'), count(*) FILTER (WHERE actual = 'draw'),
             count(*) FILTER (WHERE actual = 'away'),
             coalesce(sum(brier), 0), coalesce(sum(rps), 0)
      FROM settled GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
      ON CONFLICT ON CONSTRAINT track_record_days_key DO UPDATE SET
        won = r.won + excluded.won, lost = r.lost + excluded.lost, void = r.void + excluded.void,
        confidence_sum = r.confidence_sum + excluded.confidence_sum,
        scored_home = r.scored_home + excluded.scored_home, scored_draw = r.scored_draw + excluded.scored_draw,
        scored_away = r.scored_away + excluded.scored_away,
        brier_sum = r.brier_sum + excluded.brier_sum, rps_sum = r.rps_sum + excluded.rps_sum
    ), bins AS (
      INSERT INTO ${trackRecordCalibration} AS c (type_id, bin, count, won, confidence_sum)
      SELECT type_id, least(floor(confidence * 10), 9)::int, count(*), count(*) FILTER (WHERE outcome = 'won'),
             sum(confidence)
      FROM settled WHERE outcome IN ('won', 'lost') AND confidence IS NOT NULL
      GROUP BY 1, 2 ORDER BY 1, 2
      ON CONFLICT (type_id, bin) DO UPDATE SET
        count = c.count + excluded.count, won = c.won + excluded.won,
        confidence_sum = c.confidence_sum + excluded.confidence_sum
    ), matches AS (
      INSERT INTO ${trackRecordMatches} AS m (match_id, settled)
      SELECT match_id, count(*) FROM settled WHERE match_id IS NOT NULL GROUP BY 1 ORDER BY 1
      ON CONFLICT (match_id) DO UPDATE SET settled = m.settled + excluded.settled
    )
    SELECT count(*)::int AS settled FROM settled`);
  return Number(rowsOf(result)[0]?.settled ?? 0);
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

const GROUP_SUMS = sql`
  sum(won) AS won, sum(lost) AS lost, sum(void) AS void, sum(confidence_sum) AS confidence_sum,
  sum(scored_home) AS scored_home, sum(scored_draw) AS scored_draw, sum(scored_away) AS scored_away,
  sum(brier_sum) AS brier_sum, sum(rps_sum) AS rps_sum`;

const bandOf = (today: string) => sql`
  CASE WHEN day > ${today}::date - 30 THEN 0 WHEN day > ${today}::date - 90 THEN 1
       WHEN day > ${today}::date - 365 THEN 2 ELSE 3 END`;

function groupsOf(result: unknown): SettledGroup[] {
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

/**
 * Every settled row grouped by type, league, month of the match day (or of the settlement when
 * there was no match) and age band as of `today`: read from the day rollup (a row per day × type
 * × league), never from the pronostics.
 */
export async function settledGroups(db: Executor, today: string): Promise<SettledGroup[]> {
  const result = await db.execute(sql`
    SELECT t.slug, r.league_id, to_char(r.day, 'YYYY-MM') AS month, ${bandOf(today)} AS band, ${GROUP_SUMS}
    FROM ${trackRecordDays} r JOIN ${pronosticTypes} t ON t.id = r.type_id
    GROUP BY 1, 2, 3, 4`);
  return groupsOf(result);
}

/** The same groups over one user's own settled rows (their figure columns, never `result`). */
export async function userSettledGroups(
  db: Executor,
  today: string,
  userId: number,
): Promise<SettledGroup[]> {
  const result = await db.execute(sql`
    WITH own AS (
      SELECT p.type_id, p.settled_league_id AS league_id, p.settled_day AS day,
             (p.outcome = 'won')::int AS won, (p.outcome = 'lost')::int AS lost, (p.outcome = 'void')::int AS void,
             CASE WHEN p.outcome <> 'void' THEN coalesce(p.settled_confidence, 0) ELSE 0 END AS confidence_sum,
             (p.settled_actual = 'home')::int AS scored_home, (p.settled_actual = 'draw')::int AS scored_draw,
             (p.settled_actual = 'away')::int AS scored_away,
             coalesce(p.settled_brier, 0) AS brier_sum, coalesce(p.settled_rps, 0) AS rps_sum
      FROM ${pronostics} p
      WHERE p.user_id = ${userId} AND p.outcome IS NOT NULL
    )
    SELECT t.slug, own.league_id, to_char(own.day, 'YYYY-MM') AS month, ${bandOf(today)} AS band, ${GROUP_SUMS}
    FROM own JOIN ${pronosticTypes} t ON t.id = own.type_id
    GROUP BY 1, 2, 3, 4`);
  return groupsOf(result);
}

export interface CalibrationBin {
  bin: number;
  count: number;
  won: number;
  confidenceSum: number;
}

function binsOf(result: unknown): CalibrationBin[] {
  return rowsOf(result).map((row) => ({
    bin: Number(row.bin),
    count: Number(row.count),
    won: Number(row.won),
    confidenceSum: Number(row.confidence_sum),
  }));
}

/** Won and lost rows by stated-confidence decile (0 = [0, 0.1) … 9 = [0.9, 1]): the rollup. */
export async function calibrationBins(db: Executor): Promise<CalibrationBin[]> {
  const result = await db.execute(sql`
    SELECT bin, sum(count) AS count, sum(won) AS won, sum(confidence_sum) AS confidence_sum
    FROM ${trackRecordCalibration} GROUP BY 1 ORDER BY 1`);
  return binsOf(result);
}

/** The same bins over one user's own won and lost rows. */
export async function userCalibrationBins(db: Executor, userId: number): Promise<CalibrationBin[]> {
  const result = await db.execute(sql`
    SELECT least(floor(p.settled_confidence * 10), 9)::int AS bin,
           count(*) AS count, count(*) FILTER (WHERE p.outcome = 'won') AS won,
           sum(p.settled_confidence) AS confidence_sum
    FROM ${pronostics} p
    WHERE p.user_id = ${userId} AND p.outcome IN ('won', 'lost') AND p.settled_confidence IS NOT NULL
    GROUP BY 1 ORDER BY 1`);
  return binsOf(result);
}

/** The matches the settled analyses were settled on (the market calibration's matches). */
export async function settledMatchIds(db: Executor): Promise<number[]> {
  const result = await db.execute(sql`SELECT match_id FROM ${trackRecordMatches} ORDER BY 1`);
  return rowsOf(result).map((row) => Number(row.match_id));
}

/** The same over one user's own settled rows. */
export async function userSettledMatchIds(db: Executor, userId: number): Promise<number[]> {
  const result = await db.execute(sql`
    SELECT DISTINCT p.settled_match_id AS match_id FROM ${pronostics} p
    WHERE p.user_id = ${userId} AND p.outcome IS NOT NULL AND p.settled_match_id IS NOT NULL
    ORDER BY 1`);
  return rowsOf(result).map((row) => Number(row.match_id));
}

/**
 * The settled (won or lost) analyses whose pick may have stored pre-match odds (1X2, full analysis,
 * over/under 2.5) and that were given odds: the track record's returns (decision 0129). Every one
 * since the first; a void one is no bet.
 */
export async function pricedSettled(db: Executor) {
  const rows = await db
    .select({
      slug: pronosticTypes.slug,
      pick: sql<string | null>`${pronostics.result}->>'pick'`,
      outcome: pronostics.outcome,
      month: sql<string>`substr(${pronostics.settledDay}::text, 1, 7)`,
      oddsId: pronostics.fixtureOddsId,
      matchId: pronostics.settledMatchId,
    })
    .from(pronostics)
    .innerJoin(pronosticTypes, sql`${pronosticTypes.id} = ${pronostics.typeId}`)
    .where(
      sql`${pronostics.outcome} IN ('won', 'lost') AND ${pronostics.fixtureOddsId} IS NOT NULL
        AND ${pronosticTypes.slug} IN ('1x2', 'full-analysis', 'over-under-2-5')`,
    )
    .orderBy(pronostics.id);
  return rows.map((row) => ({
    slug: row.slug,
    pick: row.pick,
    won: row.outcome === 'won',
    month: row.month,
    oddsId: row.oddsId!,
    matchId: row.matchId,
  }));
}
