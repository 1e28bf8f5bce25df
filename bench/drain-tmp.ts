import { sql } from 'drizzle-orm';
import pg from 'pg';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openScratchDatabase } from './scratch-database.js';
const counts = new Map<string, number>();
const original = pg.Client.prototype.query;
let counting = false;
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  if (counting) { const q = args[0] as string | { text: string }; const text = (typeof q === 'string' ? q : q.text).replace(/\s+/g, ' ').slice(0, 90); counts.set(text, (counts.get(text) ?? 0) + 1); }
  return (original as (...a: unknown[]) => unknown).apply(this, args);
} as typeof original;
const { handle, drop } = await openScratchDatabase(process.env.BENCH_DATABASE_URL, { prefix: 'drain', poolSize: 10 });
try {
  await handle.migrate();
  const app = await buildApp({ config: testConfig({ rateLimit: false }), database: handle, logger: false, runLoops: false });
  await app.ready();
  await app.db.execute(sql`INSERT INTO users (phone, country, affiliation_code) SELECT '+2376' || lpad(g::text, 8, '0'), 'CM', 'D' || g FROM generate_series(1, 100) g`);
  await app.db.execute(sql`INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, ai_model, search_text, run_after, deadline_at)
    SELECT 1 + g % 100, 1 + g % 6, 'processing', 1, jsonb_build_object('home', 'Team ' || (g % 16), 'away', 'Team ' || ((g*7+3) % 16), 'league', 'Elite One'), 'x', 'x', now(), now() + interval '15 minutes' FROM generate_series(1, 3000) g`);
  await app.db.execute(sql`ANALYZE`);
  const w = app.runtime.analysisWorker;
  for (let i = 0; i < 20; i++) await w.runOnce();
  counting = true;
  const t0 = performance.now();
  const n = 100;
  for (let i = 0; i < n; i++) await w.runOnce();
  counting = false;
  console.log(`serial: ${((performance.now() - t0) / n).toFixed(2)} ms per job`);
  for (const [k, v] of [...counts].sort((a, b) => b[1] - a[1])) console.log((v / n).toFixed(2), k);
  const t2 = performance.now();
  const done = await w.drain();
  console.log(`drain (${w.options.concurrency} lanes): ${done} jobs in ${((performance.now() - t2) / 1000).toFixed(1)} s = ${(done / ((performance.now() - t2) / 1000)).toFixed(0)}/s`);
  await app.close();
} finally { await drop(); }
