// `npm run bench:backup`: what a backup of the embedded database costs the service. An on-disk
// PGlite in a scratch DATA_DIR is filled with BENCH_PRONOSTICS pronostics (default 1,000,000: the
// real figure, on a quiet machine), the app is built on it as `npm start` builds it, and
// BENCH_CLIENTS clients load the list (GET /api/user/pronostics, page 1, through app.inject) for
// BENCH_SECONDS without a backup, then while `backups.backup()` runs (the scheduled backup's
// path: its transaction holds PGlite's one session, the database writing each table with COPY;
// the archive is then written on a worker thread). Printed: the snapshot's length (how long
// requests wait), the whole backup, the archive's size, the list's p50/p99/max both ways, and a
// summary line (hold, p99 during, p99 without). 1 M pronostics: about a minute of seeding, then
// 10 s of reference load and the backup, a few minutes in all on two cores.
//
//   BENCH_PRONOSTICS=5000 BENCH_SECONDS=3 npm run bench:backup     # a smoke run
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openConfiguredDatabase } from '../src/db/open.js';

const pronostics = Number(process.env.BENCH_PRONOSTICS ?? 1_000_000);
const clients = Number(process.env.BENCH_CLIENTS ?? 8);
const seconds = Number(process.env.BENCH_SECONDS ?? 10);

const dataDir = mkdtempSync(join(tmpdir(), 'bench-backup-'));
const config = testConfig({
  dataDir,
  databaseUrl: undefined,
  backupDir: join(dataDir, 'backups'),
  rateLimit: false,
  pgliteSharedBuffersMb: 16,
});
const database = await openConfiguredDatabase(config, 'service');
const app = await buildApp({ config, database, logger: false, runLoops: false });
await app.ready();

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

const summary = (label: string, times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  const f = (ms: number) => `${ms.toFixed(1)} ms`;
  return `${label}: ${sorted.length} requests, p50 ${f(percentile(sorted, 50))}, p99 ${f(percentile(sorted, 99))}, max ${f(sorted.at(-1) ?? Number.NaN)}`;
};

try {
  const { users, wallet, tokens } = app.services;
  const { user } = await users.findOrCreate('+237670000001', 'CM');
  await wallet.grantCredits(user, 1000, 'bench');
  const others = await users.findOrCreate('+237670000002', 'CM');
  const seeding = performance.now();
  for (let from = 1; from <= pronostics; from += 100_000) {
    const to = Math.min(pronostics, from + 99_999);
    await database.db.execute(sql`
      INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, ai_model, search_text,
                              run_after, deadline_at, created_at)
      SELECT CASE WHEN g % 100 = 0 THEN ${user.id}::int ELSE ${others.user.id}::int END, 1, 'success', 1,
             json_build_object('home', 'Equipe ' || g, 'away', 'Rival ' || (g::bigint * 7919 % 100000)),
             'dixon-coles-1', 'equipe ' || g || ' rival ' || (g::bigint * 7919 % 100000),
             now(), now(), now() - (g || ' seconds')::interval
      FROM generate_series(${from}::int, ${to}::int) AS g`);
  }
  await database.db.execute(sql`ANALYZE pronostics`);
  console.log(
    `seeded ${pronostics} pronostics in ${((performance.now() - seeding) / 1000).toFixed(1)} s (${dataDir})`,
  );

  const token = await tokens.issue(database.db, user.id);
  const headers = { authorization: `Bearer ${token}` };
  /**
   * `clients` loops of the list until `until` resolves or `deadline` (performance.now()) passes;
   * each request's time. PGlite answers through microtasks: each loop yields to the event loop
   * between requests, or timers and the backup's file writes would never run.
   */
  async function load(until: Promise<unknown>, deadline = Number.POSITIVE_INFINITY): Promise<number[]> {
    const times: number[] = [];
    let done = false;
    void until.finally(() => {
      done = true;
    });
    await Promise.all(
      Array.from({ length: clients }, async () => {
        while (!done && performance.now() < deadline) {
          await new Promise((resolve) => setImmediate(resolve));
          const started = performance.now();
          const response = await app.inject({ method: 'GET', url: '/api/user/pronostics?page=1', headers });
          if (response.statusCode !== 200) throw new Error(`list answered ${response.statusCode}`);
          times.push(performance.now() - started);
        }
      }),
    );
    return times;
  }

  const quiet = await load(new Promise(() => {}), performance.now() + seconds * 1000);
  const backup = app.services.backups.backup();
  // The backup starts at once; the load runs until it is written and verified.
  const during = await load(backup);
  const result = await backup;
  console.log(summary('list without a backup', quiet));
  console.log(summary('list during the backup', during));
  const p99 = (times: number[]) =>
    percentile(
      [...times].sort((a, b) => a - b),
      99,
    ).toFixed(1);
  console.log(
    `summary: ${pronostics} pronostics, hold ${Math.round(result.snapshotMs)} ms, list p99 ${p99(during)} ms ` +
      `during the backup against ${p99(quiet)} ms without`,
  );
  console.log(
    `backup: snapshot held the database ${Math.round(result.snapshotMs)} ms, ` +
      `${Math.round(result.totalMs)} ms in all, archive ${(statSync(result.file).size / 1e6).toFixed(1)} MB, ` +
      `${Object.values(result.manifest.rows).reduce((a, b) => a + b, 0)} rows`,
  );
} finally {
  await app.close();
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}
