// `npm run bench:events`: the live event streams at scale (issue 27), on PostgreSQL
// (BENCH_DATABASE_URL; a fresh database is created on it and dropped at the end).
//   1. memory: one ROLE=api process, its RSS before and after N streams open (one per user), per stream;
//   2. idle: the database's committed transactions while the N streams sit idle through several
//      heartbeats (the API process runs no loop, so anything counted would be the streams');
//   3. delivery: a ROLE=worker process joins and the create workload runs against the API process
//      (autocannon in a process of its own, bench/create-load.ts, so the stream readers here share
//      no event loop with it: POST /api/user/pronostic/create by the users whose streams are open); each
//      `pronostic.succeeded` the worker commits is timed from its created_at (stamped in the writing
//      transaction, just before its commit) to its arrival on the client's socket.
// Options: --streams 10000 --idle 30 --heartbeat 5 --duration 20 --connections 20 --drain 60
// Quick run: npm run bench:events -- --streams 500 --idle 6 --heartbeat 2 --duration 5 --drain 20

import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { seed } from './http/seed.js';
import { openScratchDatabase } from './scratch-database.js';
import { processStats, type Server, startService } from './service-process.js';

const { values: args } = parseArgs({
  options: {
    streams: { type: 'string', default: '10000' },
    idle: { type: 'string', default: '30' },
    heartbeat: { type: 'string', default: '5' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '20' },
    drain: { type: 'string', default: '60' },
  },
});
const streamCount = Number(args.streams);
const idleSeconds = Number(args.idle);
const heartbeatSeconds = Number(args.heartbeat);
const loadSeconds = Number(args.duration);
const connections = Number(args.connections);
const drainSeconds = Number(args.drain);
const postgresBase = process.env.BENCH_DATABASE_URL;
if (!postgresBase) {
  console.error(
    'bench:events needs BENCH_DATABASE_URL (PostgreSQL): the streams hear commits through LISTEN',
  );
  process.exit(2);
}
const APP_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;

interface ClientStream {
  /** Resolves once the stream's first bytes (`: connected`) arrived. */
  opened: Promise<void>;
  close(): void;
}

/** Commit-to-client delays (ms) of every pronostic.succeeded received. */
const delays: number[] = [];
let received = 0;

function openStream(url: string, token: string): ClientStream {
  let request: http.ClientRequest | undefined;
  const opened = new Promise<void>((resolve, reject) => {
    request = http.get(
      `${url}/api/user/events`,
      { headers: { authorization: `Bearer ${token}` }, agent: false },
      (response) => {
        if (response.statusCode !== 200) {
          reject(new Error(`stream answered ${response.statusCode}`));
          response.resume();
          return;
        }
        let pending = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          const now = Date.now();
          pending += chunk;
          let end = pending.indexOf('\n\n');
          while (end >= 0) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            if (block.startsWith(': connected')) resolve();
            const data = block.split('\n').find((line) => line.startsWith('data: '));
            if (data?.includes('"pronostic.succeeded"') || data?.includes('"pronostic.cancelled"')) {
              const event = JSON.parse(data.slice('data: '.length)) as { created_at: string };
              delays.push(now - Date.parse(event.created_at));
              received += 1;
            }
            end = pending.indexOf('\n\n');
          }
        });
      },
    );
    request.on('error', reject);
  });
  return { opened, close: () => request?.destroy() };
}

/** The create workload, run by bench/create-load.ts in a process of its own. */
function createLoad(settings: { url: string; tokens: string[]; connections: number; seconds: number }) {
  return new Promise<{ rps: number; p99: number; created: number; errors: number }>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', new URL('./create-load.ts', import.meta.url).pathname],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
    });
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`create load exited ${code}`)),
    );
    child.stdin.end(JSON.stringify(settings));
  });
}

/** Transactions committed in the bench's database so far (PostgreSQL's statistics, read from another database). */
async function committed(stats: pg.Client, name: string): Promise<number> {
  // A backend reports its transactions to the statistics within a second while busy, but an idle
  // one only after 10 s (PostgreSQL 15's PGSTAT_IDLE_INTERVAL): wait past it.
  await sleep(11_000);
  await stats.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await stats.query<{ n: string }>(
    'SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = $1',
    [name],
  );
  return Number(rows[0]?.n ?? 0);
}

console.log(
  `bench:events on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GB, ` +
    `Node ${process.version}; ${streamCount} streams, heartbeat ${heartbeatSeconds} s`,
);
const database = await openScratchDatabase(postgresBase, { prefix: 'pronostics_events', poolSize: 4 });
const servers: Server[] = [];
const streams: ClientStream[] = [];
const stats = new pg.Client({ connectionString: postgresBase });
const summary: string[] = [];
try {
  await database.handle.migrate();
  const seeded = await seed(database.handle, { users: streamCount, perUser: 1, appSecret: APP_SECRET });
  console.log(`seeded ${streamCount} users in ${seeded.seconds.toFixed(0)} s`);
  await database.handle.close();
  const databaseUrl = database.url as string;
  const name = new URL(databaseUrl).pathname.slice(1);
  await stats.connect();
  const env = {
    DATABASE_URL: databaseUrl,
    APP_ENV: 'development',
    APP_SECRET,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'warn',
    EVENTS_HEARTBEAT_SECONDS: String(heartbeatSeconds),
    EVENTS_MAX_STREAMS: String(streamCount + 10),
  };
  const api = await startService('api', 'src/server.ts', { ...env, ROLE: 'api' });
  servers.push(api);
  const pid = api.child.pid!;
  // Warm the process (routes compiled, pool open) before its baseline.
  for (let i = 0; i < 50; i++) {
    await fetch(`${api.url}/api/user/events/history`, {
      headers: { authorization: `Bearer ${seeded.tokens[i % seeded.tokens.length]}` },
    });
  }
  await sleep(2000);
  const before = processStats(pid).rssMb;

  // 1. Memory: N streams, opened in waves of 500.
  const opening = performance.now();
  for (let i = 0; i < streamCount; i += 500) {
    const wave = seeded.tokens.slice(i, i + 500).map((token) => openStream(api.url, token));
    streams.push(...wave);
    await Promise.all(wave.map((stream) => stream.opened));
  }
  const openSeconds = (performance.now() - opening) / 1000;
  await sleep(3000);
  const after = processStats(pid).rssMb;
  const perStreamKb = ((after - before) * 1024) / streamCount;
  console.log(
    `\n${streamCount} streams open in ${openSeconds.toFixed(1)} s; API RSS ${before.toFixed(0)} → ${after.toFixed(0)} MB: ` +
      `${perStreamKb.toFixed(1)} KB per stream`,
  );
  summary.push(`| streams open | ${streamCount} (in ${openSeconds.toFixed(1)} s) | — |`);
  summary.push(`| RSS per open stream, just opened | ${perStreamKb.toFixed(1)} KB | — |`);

  // 2. Idle: no transaction while the streams wait through several heartbeats.
  const idleFrom = await committed(stats, name);
  const cpuFrom = processStats(pid).cpuSeconds;
  await sleep(idleSeconds * 1000);
  const idleTransactions = (await committed(stats, name)) - idleFrom;
  const idleCpu = processStats(pid).cpuSeconds - cpuFrom;
  // Once the opening's garbage is collected (the heartbeats allocate, so collections run).
  const settled = processStats(pid).rssMb;
  const settledKb = ((settled - before) * 1024) / streamCount;
  console.log(
    `API RSS after the idle period ${settled.toFixed(0)} MB: ${settledKb.toFixed(1)} KB per stream`,
  );
  summary.push(
    `| RSS per open stream, after ${idleSeconds} s idle | ${settledKb.toFixed(1)} KB | <= 20 KB |`,
  );
  console.log(
    `idle ${idleSeconds} s (${Math.floor(idleSeconds / heartbeatSeconds)} heartbeats): ` +
      `${idleTransactions} transactions in the database, API CPU ${((100 * idleCpu) / idleSeconds).toFixed(1)} %`,
  );
  summary.push(`| database transactions while idle (${idleSeconds} s) | ${idleTransactions} | 0 |`);

  // 3. Delivery under the create workload, the worker committing the events.
  // The worker serves no HTTP: it is up once its METRICS_PORT answers.
  const worker = await startService(
    'worker',
    'src/server.ts',
    { ...env, ROLE: 'worker' },
    { portVariables: ['METRICS_PORT'], readyPath: '/metrics' },
  );
  servers.push(worker);
  const load = await createLoad({
    url: api.url,
    tokens: seeded.tokens,
    connections,
    seconds: loadSeconds,
  });
  const created = load.created;
  console.log(
    `create workload: ${load.rps.toFixed(0)} req/s for ${loadSeconds} s, ${created} created, ` +
      `p99 ${load.p99} ms, ${load.errors} errors`,
  );
  // The worker finishes the backlog; each success reaches its stream.
  const drainDeadline = Date.now() + drainSeconds * 1000;
  while (received < created && Date.now() < drainDeadline) await sleep(250);
  const sorted = [...delays].sort((a, b) => a - b);
  console.log(
    `delivered ${received} pronostic.succeeded of ${created} created: commit → client ` +
      `p50 ${quantile(sorted, 0.5).toFixed(0)} ms, p99 ${quantile(sorted, 0.99).toFixed(0)} ms, ` +
      `max ${(sorted.at(-1) ?? Number.NaN).toFixed(0)} ms`,
  );
  summary.push(`| creates under load (req/s) | ${load.rps.toFixed(0)} | — |`);
  summary.push(`| events delivered / created | ${received} / ${created} | all, within the drain |`);
  summary.push(`| commit → client p99 | ${quantile(sorted, 0.99).toFixed(0)} ms | <= 250 ms |`);
  console.log(`\n| figure | measured | target |\n|---|---|---|\n${summary.join('\n')}`);
} finally {
  for (const stream of streams) stream.close();
  for (const server of servers.reverse()) await server.stop();
  await stats.end().catch(() => {});
  await database.drop();
}
