import { sql } from 'drizzle-orm';
import { buildApp } from '../src/app.js';
import { testConfig } from '../src/config.js';
import { openScratchDatabase } from './scratch-database.js';

const rows = Number(process.env.BENCH_ROWS ?? 200_000);
const postgresBase = process.env.BENCH_DATABASE_URL;

async function time(runs: number, fn: () => Promise<unknown>): Promise<number> {
  await fn();
  const started = performance.now();
  for (let i = 0; i < runs; i++) await fn();
  return (performance.now() - started) / runs;
}

const { handle, drop, kind } = await openScratchDatabase(postgresBase, {
  prefix: 'pronostics_bench',
  poolSize: 10,
});
try {
  await handle.migrate();
  const config = testConfig({ rateLimit: false });
  const app = await buildApp({ config, database: handle, logger: false, runLoops: false });
  await app.ready();

  // Many users' rows; the measured user owns one row in a hundred.
  const { users, wallet } = app.services;
  const { user } = await users.findOrCreate('+237670000001', 'CM');
  await wallet.grantCredits(user, 100_000, 'bench');
  const others = await users.findOrCreate('+237670000002', 'CM');
  const seeded = performance.now();
  await handle.db.execute(sql`
    INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, ai_model, search_text,
                            run_after, deadline_at, created_at)
    SELECT CASE WHEN g % 100 = 0 THEN ${user.id}::int ELSE ${others.user.id}::int END, 1, 'success', 1,
           jsonb_build_object('home', 'Equipe ' || g, 'away', 'Rival ' || (g * 7919 % 100000)),
           'dixon-coles-1', 'equipe ' || g || ' rival ' || (g * 7919 % 100000),
           now(), now(), now() - (g || ' seconds')::interval
    FROM generate_series(1, ${rows}::int) AS g`);
  await handle.db.execute(sql`ANALYZE pronostics`);
  const seedSeconds = (performance.now() - seeded) / 1000;

  const token = await app.services.tokens.issue(handle.db, user.id);
  const headers = { authorization: `Bearer ${token}` };
  const get = (url: string) => app.inject({ method: 'GET', url, headers });
  const listMs = () => time(30, () => get('/api/user/pronostics?per_page=50&page=3'));
  const searchMs = () => time(30, () => get('/api/user/pronostics?search=rival%204242'));

  const withIndex = { list: await listMs(), search: await searchMs() };
  // The same queries when the planner may not use an index: what the indexes are worth.
  await handle.db.execute(sql`SET enable_indexscan = off`);
  await handle.db.execute(sql`SET enable_bitmapscan = off`);
  const withoutIndex = { list: await listMs(), search: await searchMs() };
  await handle.db.execute(sql`RESET enable_indexscan`);
  await handle.db.execute(sql`RESET enable_bitmapscan`);

  const createMs = await time(50, () =>
    app.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers,
      payload: { type_id: 1, teams_details: { home: 'Canon Yaoundé', away: 'Coton Sport' } },
    }),
  );
  await app.close();

  // Create → success with the worker running and the real engine (priors only: no results loaded).
  const live = await buildApp({ config, database: handle, logger: false, runLoops: true });
  await live.ready();
  await live.runtime.analysisWorker.drain();
  const latencies: number[] = [];
  for (let i = 0; i < 20; i++) {
    const started = performance.now();
    const created = await live.inject({
      method: 'POST',
      url: '/api/user/pronostic/create',
      headers,
      payload: { type_id: 6, teams_details: { home: `Equipe ${i}`, away: 'Coton Sport' } },
    });
    const id = created.json().data.pronostic.id;
    for (;;) {
      const detail = await live.inject({ method: 'GET', url: `/api/user/pronostic/${id}`, headers });
      if (detail.json().data.pronostic.status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 2));
    }
    latencies.push(performance.now() - started);
  }
  await live.close();
  latencies.sort((a, b) => a - b);

  const ms = (value: number) => `${value.toFixed(2)} ms`;
  console.log(
    `API benchmark on ${kind}: ${rows} pronostics (${rows / 100} of them the user's), seeded in ${seedSeconds.toFixed(1)} s`,
  );
  console.log(
    `  list page 3 of 50:  ${ms(withIndex.list)} with indexes, ${ms(withoutIndex.list)} without — ${(withoutIndex.list / withIndex.list).toFixed(1)}x`,
  );
  console.log(
    `  search "rival 4242": ${ms(withIndex.search)} with indexes, ${ms(withoutIndex.search)} without — ${(withoutIndex.search / withIndex.search).toFixed(1)}x`,
  );
  console.log(`  create (debit + insert + ledger): ${ms(createMs)} per request`);
  console.log(
    `  create → analysed (worker, full analysis): median ${ms(latencies[10]!)}, max ${ms(latencies.at(-1)!)}`,
  );
} finally {
  await drop();
}
