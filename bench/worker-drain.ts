// The analysis worker's throughput, and the statements one job sends: `npm run bench:worker`
// (PostgreSQL with BENCH_DATABASE_URL, else PGlite in memory). A scratch database gets 3,000 due
// pronostics; 100 jobs run one after another (their statements counted at the driver and listed
// per job), then the default lanes drain the rest. No HTTP: what the worker costs on its own.
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openScratchDatabase } from './scratch-database.js';

const BACKLOG = 3000;
const SERIAL_JOBS = 100;

const statements = new Map<string, number>();
let counting = false;
// Every statement node-postgres sends (pool or transaction) goes through Client.prototype.query.
const query = pg.Client.prototype.query;
pg.Client.prototype.query = function counted(this: pg.Client, ...args: unknown[]) {
  if (counting) {
    const config = args[0] as string | { text: string };
    const text = (typeof config === 'string' ? config : config.text).replace(/\s+/g, ' ').slice(0, 90);
    statements.set(text, (statements.get(text) ?? 0) + 1);
  }
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof query;

const { handle, drop, kind } = await openScratchDatabase(process.env.BENCH_DATABASE_URL, {
  prefix: 'worker_bench',
  poolSize: 10,
});
try {
  await handle.migrate();
  const app = await buildApp({
    config: testConfig({ rateLimit: false }),
    database: handle,
    logger: false,
    runLoops: false,
  });
  await app.ready();
  await app.db.execute(sql`
    INSERT INTO users (phone, country, affiliation_code)
    SELECT '+2376' || lpad(g::text, 8, '0'), 'CM', 'WORKER' || g FROM generate_series(1, 100) AS g`);
  await app.db.execute(sql`
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, ai_model, search_text,
                            run_after, deadline_at)
    SELECT 1 + g % 100, 1 + g % 6, 'processing', 1,
           jsonb_build_object('home', 'Team ' || (g % 16), 'away', 'Team ' || ((g * 7 + 3) % 16), 'league', 'Elite One'),
           'bench', 'bench', now(), now() + interval '15 minutes'
    FROM generate_series(1, ${BACKLOG}::int) AS g`);
  await app.db.execute(sql`ANALYZE`);
  const worker = app.runtime.analysisWorker;
  for (let i = 0; i < 20; i++) await worker.runOnce(); // warm-up
  counting = kind === 'PostgreSQL';
  const started = performance.now();
  for (let i = 0; i < SERIAL_JOBS; i++) await worker.runOnce();
  const serialMs = (performance.now() - started) / SERIAL_JOBS;
  counting = false;
  console.log(`${kind}: one job at a time, ${serialMs.toFixed(2)} ms a job`);
  if (kind === 'PostgreSQL') {
    const perJob = [...statements.values()].reduce((sum, n) => sum + n, 0) / SERIAL_JOBS;
    console.log(`statements a job: ${perJob.toFixed(1)}`);
    for (const [text, n] of [...statements].sort((a, b) => b[1] - a[1])) {
      console.log(`  ${(n / SERIAL_JOBS).toFixed(2)}  ${text}`);
    }
  }
  const drainStarted = performance.now();
  const drained = await worker.drain();
  const seconds = (performance.now() - drainStarted) / 1000;
  console.log(
    `drain with ${worker.options.concurrency} lanes: ${drained} jobs in ${seconds.toFixed(1)} s, ${(drained / seconds).toFixed(0)} jobs/s`,
  );
  await app.close();
} finally {
  await drop();
}
