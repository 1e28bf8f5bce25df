// Seeds the benchmark's database fast: users with credits (and the ledger row that gives them),
// one bearer token each, and N pronostics each with realistic results (the engine's own result
// objects, ~1-2 KB of JSON) spread over the past months, in multi-row INSERTs of a few thousand
// rows (unnest of arrays), with a progress bar. Then the counters, VACUUM ANALYZE.
import { SingleBar } from 'cli-progress';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../../src/db/client.js';
import { fitModel } from '../../src/engine/model.js';
import { buildResult } from '../../src/engine/result.js';
import { MARKET_PICKS } from '../../src/engine/slip.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { keyedHash, newToken } from '../../src/lib/crypto.js';
import { codeHash } from '../../src/modules/auth/otp-service.js';
import { searchTextOf } from '../../src/modules/pronostics/search-text.js';
import { simulateLeague } from '../../test/engine/simulate.js';

export interface Seeded {
  /** tokens[i] belongs to userIds[i]. */
  tokens: string[];
  userIds: number[];
  /** phones[i] is userIds[i]'s (E.164, valid: the OTP workload signs in with it). */
  phones: string[];
  /** A few pronostic ids of each user (for the detail workload): ids[i] are userIds[i]'s. */
  pronosticIds: number[][];
  /** Slip legs on each user's first pronostics (`slipLegs` of them; the slip check workload). */
  slipLegs: SeededLeg[][];
  seconds: number;
}

interface Template {
  typeId: number;
  teams: string;
  result: string;
  searchText: string;
}

/** A slip leg on a seeded pronostic: the market its result offers and one of its picks. */
export interface SeededLeg {
  pronostic_id: number;
  market: string;
  pick: string;
}

function templates(): Template[] {
  const { matches } = simulateLeague({ teams: 16, seasons: 3, seed: 7 });
  const asOf = matches.at(-1)!.date + 86_400_000;
  const model = fitModel(matches, asOf);
  const out: Template[] = [];
  for (let i = 0; i < 40; i++) {
    const home = `Team ${String(i % 16).padStart(2, '0')}`;
    const away = `Team ${String((i * 7 + 3) % 16).padStart(2, '0')}`;
    const slug = pronosticTypeSlugs[i % pronosticTypeSlugs.length]!;
    const context = {
      home: { name: home, known: true, matches: 90, form: null },
      away: { name: away, known: true, matches: 90, form: null },
      league: { name: 'Elite One', known: true },
    };
    const teams = { home, away, league: 'Elite One', date: '2026-03-14' };
    const { result } = buildResult(slug, model.predict(home, away), context);
    out.push({
      typeId: pronosticTypeSlugs.indexOf(slug) + 1,
      teams: JSON.stringify(teams),
      result: JSON.stringify(result),
      searchText: searchTextOf(teams, result as unknown as Record<string, unknown>),
    });
  }
  return out;
}

const BATCH = 2000;
/**
 * Rows older than this are seeded settled (void), as a running service has settled them: otherwise
 * the service's first settlement pass works through the whole seeded backlog while the first pair
 * is measured (that backlog has its own bench, `bench/track-record.ts`). The newer ones wait for
 * their matches, as recent analyses do.
 */
const SETTLED_AFTER_SECONDS = 8 * 86_400;

/** A PostgreSQL array literal of plain words or numbers, sent as one parameter. */
const pgArray = (values: readonly (string | number)[]) => `{${values.join(',')}}`;

/** The history workload's ledger rows, in turn (g % 6). */
const HISTORY_KINDS = [
  { type: 'pronostic_debit', currency: 'credits', amount: -1 },
  { type: 'pronostic_debit', currency: 'credits', amount: -2 },
  { type: 'pronostic_debit', currency: 'credits', amount: -3 },
  { type: 'pack_purchase', currency: 'credits', amount: 10 },
  { type: 'referral_commission', currency: 'XAF', amount: 100 },
  { type: 'withdrawal', currency: 'XAF', amount: -5000 },
] as const;

/** What the history workload filters on: each type seeded, each currency. */
export const HISTORY_FILTERS = [
  'type=pronostic_debit',
  'type=pack_purchase',
  'type=referral_commission',
  'type=withdrawal',
  'currency=credits',
  'currency=XAF',
];

/** The sign-in code every seeded OTP code carries. */
export const OTP_BENCH_CODE = '424242';

export async function seed(
  database: DatabaseHandle,
  options: {
    users: number;
    perUser: number;
    appSecret: string;
    quiet?: boolean;
    /** Open sign-in codes per user, all `OTP_BENCH_CODE` (the OTP verify workload spends one each). */
    otpCodesPerUser?: number;
    /** Ledger rows per user besides the grant, of several types and both currencies (the history workload). */
    historyPerUser?: number;
    /** Slip legs read back per user (the slip check workload): its first pronostics, one leg each. */
    slipLegs?: number;
  },
): Promise<Seeded> {
  const started = performance.now();
  const { db } = database;
  const credits = 1_000_000;
  await db.execute(sql`
    INSERT INTO users (phone, country, affiliation_code, credits_balance)
    SELECT '+23769' || lpad(g::text, 7, '0'), 'CM', 'BENCH' || g, ${credits}::int
    FROM generate_series(1, ${options.users}::int) AS g`);
  await db.execute(sql`
    INSERT INTO wallet_operations (user_id, type, currency, amount, balance_after, reference, description)
    SELECT id, 'admin_adjustment', 'credits', credits_balance, credits_balance, 'bench:grant:' || id, 'Crédits du banc'
    FROM users WHERE affiliation_code LIKE 'BENCH%'`);
  const idRows = (await db.execute(
    sql`SELECT id, phone FROM users WHERE affiliation_code LIKE 'BENCH%' ORDER BY id`,
  )) as unknown as { rows: { id: number; phone: string }[] };
  const userIds = idRows.rows.map((row) => row.id);
  const phones = idRows.rows.map((row) => row.phone);
  const tokens = userIds.map(() => newToken());
  for (let at = 0; at < userIds.length; at += BATCH) {
    const rows = userIds.slice(at, at + BATCH).map((u, i) => ({
      u,
      h: keyedHash(options.appSecret, 'token', tokens[at + i]!),
    }));
    await db.execute(sql`
      INSERT INTO access_tokens (user_id, token_hash, last_used_at, created_at)
      SELECT u, h, now(), now() FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(u int, h text)`);
  }

  const history = options.historyPerUser ?? 0;
  for (let at = 0; history > 0 && at < userIds.length; at += BATCH) {
    // One row in six of each kind but debits (three in six): what a user's wallet history holds,
    // one row an hour back from now. Balances are not replayed: the workload only reads the history.
    const ids = userIds.slice(at, at + BATCH);
    await db.execute(sql`
      INSERT INTO wallet_operations (user_id, type, currency, amount, balance_after, description, created_at)
      SELECT u, (${pgArray(HISTORY_KINDS.map((kind) => kind.type))}::text[])[1 + g % 6],
             (${pgArray(HISTORY_KINDS.map((kind) => kind.currency))}::text[])[1 + g % 6],
             (${pgArray(HISTORY_KINDS.map((kind) => kind.amount))}::int[])[1 + g % 6], 1000,
             'Historique du banc', now() - make_interval(secs => g * 3600)
      FROM unnest(${pgArray(ids)}::int[]) AS u, generate_series(1, ${history}::int) AS g`);
  }

  const codes = options.otpCodesPerUser ?? 0;
  for (let at = 0; codes > 0 && at < userIds.length; at += BATCH) {
    // Each phone's codes share one hash (the code is the same); verify takes the newest open one.
    const rows = idRows.rows.slice(at, at + BATCH).map((row) => ({
      u: row.id,
      p: row.phone,
      h: codeHash({ appSecret: options.appSecret }, row.phone, OTP_BENCH_CODE),
    }));
    await db.execute(sql`
      INSERT INTO otp_codes (user_id, phone, calling_code, channel, code_hash, ip, sent_at, expires_at)
      SELECT u, p, '237', 'sms', h, '127.0.0.1', now() - make_interval(secs => g), now() + interval '1 day'
      FROM jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) AS x(u int, p text, h text),
           generate_series(1, ${codes}::int) AS g`);
  }

  const shapes = templates();
  const total = userIds.length * options.perUser;
  const bar = new SingleBar({
    format: 'seeding pronostics [{bar}] {percentage}% {value}/{total} rows, {eta}s left',
    noTTYOutput: true,
    notTTYSchedule: 5000,
  });
  if (!options.quiet) bar.start(total, 0);
  const pending: number[] = [];
  const flush = async () => {
    // One JSON document per batch: a multi-row INSERT with six parameters whatever the batch size.
    const parts: string[] = [];
    for (const index of pending) {
      const shape = shapes[index % shapes.length]!;
      const u = userIds[Math.floor(index / options.perUser)]!;
      // Each user's rows spread over the last ~100 days, newest last.
      const a = (options.perUser - (index % options.perUser)) * 86_400 + (index % 997);
      parts.push(
        `{"u":${u},"t":${shape.typeId},"d":${shape.teams},"r":${shape.result},"s":${JSON.stringify(shape.searchText)},"a":${a}}`,
      );
    }
    await db.execute(sql`
      INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                              search_text, attempts, run_after, deadline_at, finished_at, created_at,
                              outcome, settled_at, settled_day)
      SELECT u, t, 'success', t, d, r, 'dixon-coles-1', s, 1, now(), now(), now(), now() - make_interval(secs => a),
             CASE WHEN a > ${SETTLED_AFTER_SECONDS} THEN 'void' END,
             CASE WHEN a > ${SETTLED_AFTER_SECONDS} THEN now() END,
             CASE WHEN a > ${SETTLED_AFTER_SECONDS} THEN current_date END
      FROM jsonb_to_recordset(${`[${parts.join(',')}]`}::jsonb) AS x(u int, t int, d jsonb, r jsonb, s text, a int)`);
    if (!options.quiet) bar.increment(pending.length);
    pending.length = 0;
  };
  for (let index = 0; index < total; index++) {
    pending.push(index);
    if (pending.length === BATCH) await flush();
  }
  if (pending.length > 0) await flush();
  if (!options.quiet) bar.stop();

  await db.execute(sql`
    INSERT INTO pronostic_counters (user_id, live)
    SELECT user_id, count(*)::int FROM pronostics WHERE deleted_at IS NULL GROUP BY user_id
    ON CONFLICT (user_id) DO UPDATE SET live = EXCLUDED.live`);
  await db.execute(sql`VACUUM ANALYZE`);
  const firstRows = (await db.execute(sql`
    SELECT user_id, (array_agg(id ORDER BY id))[1:5] AS ids FROM pronostics GROUP BY user_id`)) as unknown as {
    rows: { user_id: number; ids: number[] }[];
  };
  const byUser = new Map(firstRows.rows.map((row) => [row.user_id, row.ids]));
  const legsByUser = new Map<number, SeededLeg[]>();
  if ((options.slipLegs ?? 0) > 0) {
    // Each pronostic's own market (a full analysis offers 1x2) and its first pick: an exact
    // score's first listed score, a market's first pick otherwise.
    const legRows = (await db.execute(sql`
      SELECT user_id, (array_agg(json_build_array(id, result->>'market', result->'scores'->0->>'score')
                                 ORDER BY id))[1:${options.slipLegs}::int] AS legs
      FROM pronostics GROUP BY user_id`)) as unknown as {
      rows: { user_id: number; legs: [number, string, string | null][] }[];
    };
    for (const row of legRows.rows) {
      legsByUser.set(
        row.user_id,
        row.legs.map(([id, market, score]) => {
          const leg = market === 'full_analysis' ? '1x2' : market;
          const picks = MARKET_PICKS[leg as keyof typeof MARKET_PICKS];
          return { pronostic_id: id, market: leg, pick: leg === 'exact_score' ? (score ?? '1-1') : picks[0] };
        }),
      );
    }
  }
  return {
    tokens,
    userIds,
    phones,
    pronosticIds: userIds.map((id) => byUser.get(id) ?? []),
    slipLegs: userIds.map((id) => legsByUser.get(id) ?? []),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * The fixtures workloads' rows (issues 25 and 57): `count` scheduled fixtures spread over every
 * stored league (the catalogue's ~40 competitions the migrations seed), 200 teams, one every 10
 * minutes from now on (50,000 reach about a year ahead), so page 1 of the default list counts them
 * all and a competition holds ~1/40 of them; each league pairing once, as the natural key wants.
 * Then `matches` played results over the last two years (what `GET /api/competitions` reads each
 * competition's basis from), spread over the same leagues. Returns the leagues' codes.
 */
export async function seedFixtures(
  database: DatabaseHandle,
  count: number,
  matches = 20_000,
): Promise<string[]> {
  const { db } = database;
  await db.execute(sql`
    INSERT INTO football_teams (name, name_normalized)
    SELECT 'Bench Team ' || t, 'bench team ' || t FROM generate_series(0, 199) AS t
    ON CONFLICT DO NOTHING`);
  const leagueRows = (await db.execute(
    sql`SELECT id, code FROM football_leagues ORDER BY id`,
  )) as unknown as { rows: { id: number; code: string }[] };
  const leagueIds = pgArray(leagueRows.rows.map((row) => row.id));
  const leagues = leagueRows.rows.length;
  await db.execute(sql`
    WITH spec AS (
      SELECT i, (${leagueIds}::int[])[1 + i % ${leagues}::int] AS league, (i / ${leagues}::int) % 200 AS home,
             ((i / ${leagues}::int) % 200 + 1 + ((i / ${leagues}::int) / 200) % 199) % 200 AS away
      FROM generate_series(0, ${count - 1}::int) AS i
    )
    INSERT INTO fixtures (league_id, season, home_team_id, away_team_id, home_name, away_name, kickoff_at)
    SELECT spec.league, '2025-26', h.id, a.id, h.name, a.name, now() + make_interval(mins => 10 * (spec.i + 1))
    FROM spec
    JOIN football_teams h ON h.name_normalized = 'bench team ' || spec.home
    JOIN football_teams a ON a.name_normalized = 'bench team ' || spec.away
    ON CONFLICT DO NOTHING`);
  // A side plays at most once a day: day i % 700 back, home (i / 700) % 200, so (home, day) is unique.
  await db.execute(sql`
    WITH spec AS (
      SELECT i, (${leagueIds}::int[])[1 + i % ${leagues}::int] AS league, current_date - (i % 700) AS day,
             (i / 700) % 200 AS home, ((i / 700) % 200 + 1 + (i / 140000) % 199) % 200 AS away
      FROM generate_series(0, ${matches - 1}::int) AS i
    )
    INSERT INTO football_matches (league_id, season, played_on, home_team_id, away_team_id, home_goals, away_goals,
                                  pre_average_home, pre_average_draw, pre_average_away)
    SELECT spec.league, '2025-26', spec.day, h.id, a.id, spec.i % 4, spec.i % 3,
           CASE WHEN spec.i % 2 = 0 THEN 2.1 END, CASE WHEN spec.i % 2 = 0 THEN 3.3 END, CASE WHEN spec.i % 2 = 0 THEN 3.6 END
    FROM spec
    JOIN football_teams h ON h.name_normalized = 'bench team ' || spec.home
    JOIN football_teams a ON a.name_normalized = 'bench team ' || spec.away
    ON CONFLICT DO NOTHING`);
  // The per-status totals the service keeps on its writes (the list's meta reads them).
  await db.execute(sql`
    INSERT INTO fixture_counts (status, total)
    SELECT s, (SELECT count(*)::int FROM fixtures WHERE status = s)
    FROM unnest(ARRAY['scheduled', 'played', 'postponed']) AS s
    ON CONFLICT (status) DO UPDATE SET total = EXCLUDED.total`);
  await db.execute(sql`VACUUM ANALYZE fixtures`);
  await db.execute(sql`VACUUM ANALYZE football_matches`);
  return leagueRows.rows.map((row) => row.code);
}

/** The spending limit every limited user of the checkout workload has on each window (XAF): never reached. */
const BENCH_LIMIT_XAF = 1_000_000_000;

/**
 * The checkout workloads' setup (issue 57): users at an odd index get a daily, weekly and monthly
 * spending limit (DESIGN "Responsible play": read in the checkout's transaction), users at an even
 * index none. Returns the pack they buy: the first active one.
 */
export async function seedCheckout(database: DatabaseHandle, seeded: Seeded): Promise<number> {
  const { db } = database;
  const limited = seeded.userIds.filter((_, index) => index % 2 === 1);
  for (let at = 0; at < limited.length; at += BATCH) {
    await db.execute(sql`
      INSERT INTO spending_limits (user_id, period, amount)
      SELECT u, p, ${BENCH_LIMIT_XAF}::int
      FROM unnest(${pgArray(limited.slice(at, at + BATCH))}::int[]) AS u,
           unnest(ARRAY['daily', 'weekly', 'monthly']) AS p
      ON CONFLICT DO NOTHING`);
  }
  const packRows = (await db.execute(
    sql`SELECT id FROM packs WHERE active ORDER BY price, id LIMIT 1`,
  )) as unknown as { rows: { id: number }[] };
  const pack = packRows.rows[0];
  if (!pack) throw new Error('no active pack to check out');
  return pack.id;
}
