// Track-record timings from one run: settling a backlog of `success` pronostics (every one names a
// stored fixture by its teams and date, as clients do) in the worker's batches, a second pass over
// nothing left to settle, and computing the public figures over the settled rows. Embedded PGlite
// (memory); BENCH_SETTLE_ROWS sets the backlog (default 100000).
// `npm run bench` (or `npx tsx bench/track-record.ts`).
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { ManualClock } from '../src/lib/clock.js';

const rows = Number(process.env.BENCH_SETTLE_ROWS ?? 100_000);
const handle = await openDatabase({ url: 'memory://' });
try {
  await handle.migrate();
  const clock = new ManualClock('2026-06-01T12:00:00.000Z');
  const app = await buildApp({
    config: testConfig({ rateLimit: false }),
    database: handle,
    clock,
    logger: false,
    worker: false,
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
  await handle.db.execute(sql`
    INSERT INTO users (phone, country, affiliation_code)
    SELECT '+2376' || lpad(g::text, 8, '0'), 'CM', 'BENCH' || g FROM generate_series(1, 1000) AS g`);
  await handle.db.execute(sql`
    WITH fixtures AS (
      SELECT row_number() OVER (ORDER BY m.id) - 1 AS k, h.name AS home, a.name AS away, m.played_on
      FROM football_matches m JOIN football_teams h ON h.id = m.home_team_id JOIN football_teams a ON a.id = m.away_team_id)
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                            search_text, run_after, deadline_at, created_at)
    SELECT 1 + g % 1000, 1 + g % 6, 'success', 1,
           jsonb_build_object('home', f.home, 'away', f.away, 'league', 'Premier League', 'date', f.played_on::text),
           jsonb_build_object('market', (ARRAY['1x2','double_chance','btts','over_under_2_5','exact_score','full_analysis'])[1 + g % 6],
                              'pick', (ARRAY['home','home_draw','yes','over','1-0','away'])[1 + g % 6], 'confidence', 0.5,
                              'probabilities', jsonb_build_object('home', 0.5, 'draw', 0.3, 'away', 0.2, '1-0', 0.1, 'other', 0.5),
                              'analysis', repeat('analyse ', 60)),
           'bench', 'x', now(), now(), f.played_on - 1
    FROM generate_series(1, ${rows}::int) AS g JOIN fixtures f ON f.k = g % 380`);
  await handle.db.execute(sql`ANALYZE`);

  let started = performance.now();
  const report = await app.services.trackRecord.settleDue();
  const settleMs = performance.now() - started;
  started = performance.now();
  await app.services.trackRecord.settleDue();
  const idleMs = performance.now() - started;
  started = performance.now();
  await app.services.trackRecord.publicRecord();
  const figuresMs = performance.now() - started;

  console.log(`\ntrack record (PGlite memory, ${rows} success pronostics on 380 stored fixtures)`);
  console.log(
    `  settle the backlog: ${(settleMs / 1000).toFixed(1)} s (${report.settled} settled: ${report.won} won, ${report.lost} lost, ${report.void} void)`,
  );
  console.log(`  second pass, nothing left: ${idleMs.toFixed(0)} ms`);
  console.log(`  public figures over every settled row: ${figuresMs.toFixed(0)} ms`);
  await app.close();
} finally {
  await handle.close();
}
