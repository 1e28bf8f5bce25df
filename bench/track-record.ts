import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { ManualClock } from '../src/lib/clock.js';
import { openScratchDatabase } from './scratch-database.js';

const rowsFlag = process.argv.indexOf('--rows');
const rows = Number(rowsFlag > 0 ? process.argv[rowsFlag + 1] : (process.env.BENCH_SETTLE_ROWS ?? 100_000));
const postgresBase = process.env.BENCH_DATABASE_URL;
/** Rows inserted per statement while seeding (keeps PGlite's memory in bounds). */
const SEED_CHUNK = 100_000;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
const millis = (ms: number) => `${ms.toFixed(0)} ms`;
const ratio = (ms: number, reference: number) => `${(ms / reference).toFixed(2)}×`;

const { handle, drop, kind } = await openScratchDatabase(postgresBase, {
  prefix: 'pronostics_bench',
  poolSize: 10,
});
try {
  await handle.migrate();
  const db = handle.db;
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const app = await buildApp({
    config: testConfig({ rateLimit: false }),
    database: handle,
    clock,
    logger: false,
    runLoops: false,
  });
  await app.ready();
  // A season of 20 teams: 380 fixtures, played from August to May.
  const teams = Array.from({ length: 20 }, (_, i) => `Club ${String.fromCharCode(65 + i)}`);
  const lines = ['Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR'];
  let n = 0;
  for (const home of teams) {
    for (const away of teams) {
      if (home === away) continue;
      const day = new Date(Date.UTC(2025, 7, 9) + (n % 280) * 86_400_000);
      const d = `${String(day.getUTCDate()).padStart(2, '0')}/${String(day.getUTCMonth() + 1).padStart(2, '0')}/${day.getUTCFullYear()}`;
      lines.push(`E0,${d},15:00,${home},${away},${n % 4},${(n * 7) % 3},X`);
      n++;
    }
  }
  await app.services.football.importText(lines.join('\n'), 'bench.csv');
  await db.execute(sql`
    INSERT INTO users (phone, country, affiliation_code)
    SELECT '+2376' || lpad(g::text, 8, '0'), 'CM', 'BENCH' || g FROM generate_series(1, 1000) AS g`);
  // User 1 is a heavy user: one analysis in fifty (20 000 of a million).
  for (let from = 1; from <= rows; from += SEED_CHUNK) {
    const to = Math.min(rows, from + SEED_CHUNK - 1);
    await db.execute(sql`
      WITH fixtures AS (
        SELECT row_number() OVER (ORDER BY m.id) - 1 AS k, h.name AS home, a.name AS away, m.played_on
        FROM football_matches m JOIN football_teams h ON h.id = m.home_team_id JOIN football_teams a ON a.id = m.away_team_id)
      INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                              search_text, run_after, deadline_at, created_at)
      SELECT CASE WHEN g % 50 = 0 THEN 1 ELSE 2 + g % 999 END, 1 + g % 6, 'success', 1,
             jsonb_build_object('home', f.home, 'away', f.away, 'league', 'Premier League', 'date', f.played_on::text),
             jsonb_build_object('market', (ARRAY['1x2','double_chance','btts','over_under_2_5','exact_score','full_analysis'])[1 + g % 6],
                                'pick', (ARRAY['home','home_draw','yes','over','1-0','away'])[1 + g % 6],
                                'confidence', 0.3 + (g % 50) / 100.0,
                                'probabilities', jsonb_build_object('home', 0.5, 'draw', 0.3, 'away', 0.2, '1-0', 0.1, 'other', 0.5),
                                'analysis', repeat('analyse ', 60)),
             'bench', 'x', now(), now(), f.played_on - 1
      FROM generate_series(${from}::int, ${to}::int) AS g JOIN fixtures f ON f.k = g % 380`);
  }
  await db.execute(sql`ANALYZE`);

  const settle = await timed(() => app.services.trackRecord.settleDue());
  const idle = await timed(() => app.services.trackRecord.settleDue());
  // The steady state autovacuum reaches after a backlog (visibility map set, statistics fresh).
  await db.execute(sql`VACUUM ANALYZE pronostics`);
  const figures = await timed(() => app.services.trackRecord.publicRecord());
  const user = await timed(() => app.services.trackRecord.userRecord(1));
  const scan = await timed(() => db.execute(sql`SELECT count(*) FROM pronostics WHERE outcome IS NOT NULL`));
  // The public figures' aggregation as it was before the rollup: every settled row, `result` read.
  const former = await timed(() =>
    db.execute(sql`
      SELECT t.slug, m.league_id, to_char(coalesce(m.played_on, (p.settled_at AT TIME ZONE 'UTC')::date), 'YYYY-MM'),
             count(*) FILTER (WHERE p.outcome = 'won'), count(*) FILTER (WHERE p.outcome = 'lost'),
             sum((p.result->>'confidence')::float8),
             sum(((p.result->'probabilities'->>'home')::float8 - (m.home_goals > m.away_goals)::int) ^ 2)
      FROM pronostics p JOIN pronostic_types t ON t.id = p.type_id
      LEFT JOIN football_matches m ON m.id = p.settled_match_id
      WHERE p.outcome IS NOT NULL GROUP BY 1, 2, 3`),
  );
  const rewrite = await timed(() => db.execute(sql`UPDATE pronostics SET settled_at = settled_at`));
  const report = settle.value;
  const heavy = user.value.overall.all_time.settled;

  console.log(`\ntrack record (${kind}, ${rows} success pronostics on 380 stored fixtures, one run)`);
  console.log(
    `  settle the backlog: ${seconds(settle.ms)} (${report.settled} settled: ${report.won} won, ${report.lost} lost, ${report.void} void); ${ratio(settle.ms, rewrite.ms)} a bare rewrite of every row (${seconds(rewrite.ms)})`,
  );
  console.log(`  second pass, nothing left: ${millis(idle.ms)}`);
  console.log(
    `  public figures: ${millis(figures.ms)}; ${ratio(figures.ms, scan.ms)} a count(*) of the settled rows (${millis(scan.ms)}), ${ratio(figures.ms, former.ms)} the former aggregation (${millis(former.ms)})`,
  );
  console.log(
    `  a heavy user's figures (${heavy} settled): ${millis(user.ms)}; ${ratio(user.ms, scan.ms)} the count(*)`,
  );
  await app.close();
} finally {
  await drop();
}
