// `npm run bench:http`: the service over HTTP against a hand-written minimal server
// (bench/http/reference-server.ts) on the same database and rows, in alternating pairs, with
// autocannon. PostgreSQL when BENCH_DATABASE_URL is set (a fresh database is created on it and
// dropped at the end); otherwise only the embedded PGlite workload runs. Each run reports req/s,
// p50/p99, errors, and the server's CPU per request served and peak RSS under load: the service's
// read from its own GET /metrics (METRICS_TOKEN, as a production dashboard would), the reference's
// from /proc; each pair prints the service ÷ reference ratios. Options:
//   --workloads list,search,detail,history,create,wallet,otp,fixtures,competitions,fixtures-league,slip-check,checkout,pglite
//                                                             (default: all that the database allows)
//   --history 100                                             (ledger rows seeded per user for the history
//                                                              workload: GET /api/user/wallet/operations by
//                                                              type or currency, against bench/http/reference-history.ts)
//   --fixtures 50000                                          (fixtures seeded over every stored league, ~40: for the
//                                                              fixtures workload, page 1 unfiltered with 10 connections,
//                                                              issue 25's target; fixtures-league, one competition's
//                                                              page; competitions, GET /api/competitions; the last two
//                                                              against bench/http/reference-reads.ts)
//   --slip-legs 10                                            (legs of the slip-check workload's slip: POST
//                                                              /api/user/slips/check, against reference-reads.ts)
//   checkout                                                  (POST /api/user/wallet/checkout by users with spending
//                                                              limits, against the same service and users without)
//   --pglite-env 'A=1,B=2;A=3'                                (the PGlite list once per variant, each a fresh start of
//                                                              the service on the same rows with these variables)
//   --api-processes 0                                         (N > 0: N ROLE=api processes and one ROLE=worker
//                                                              on the PostgreSQL, REDIS_URL set, behind nginx
//                                                              (bench/http/balancer.ts), measured as the service)
//   --cpu-prof DIR                                            (the service's processes write a V8 CPU profile
//                                                              there when they stop: `node --cpu-prof`)
//   --users 10000 --per-user 100 --pglite-users 1000       (rows seeded)
//   --duration 15 --warmup 3 --pairs 3 --connections 50    (seconds, seconds, pairs, connections)
// Quick run: npm run bench:http -- --users 1000 --duration 5 --warmup 1 --pairs 1
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../../src/db/client.js';
import { openScratchDatabase } from '../scratch-database.js';
import { type Server, startService as start } from '../service-process.js';
import { serverGroup, startNginx } from './balancer.js';
import { HISTORY_FILTERS, OTP_BENCH_CODE, type Seeded, seed, seedCheckout, seedFixtures } from './seed.js';

const { values: args } = parseArgs({
  options: {
    workloads: {
      type: 'string',
      default:
        'list,search,detail,history,create,wallet,otp,fixtures,competitions,fixtures-league,slip-check,checkout,pglite',
    },
    'slip-legs': { type: 'string', default: '10' },
    'pglite-env': { type: 'string', default: '' },
    history: { type: 'string', default: '100' },
    'api-processes': { type: 'string', default: '0' },
    'cpu-prof': { type: 'string' },
    fixtures: { type: 'string', default: '50000' },
    users: { type: 'string', default: '10000' },
    'per-user': { type: 'string', default: '100' },
    'pglite-users': { type: 'string', default: '1000' },
    duration: { type: 'string', default: '15' },
    warmup: { type: 'string', default: '3' },
    pairs: { type: 'string', default: '3' },
    connections: { type: 'string', default: '50' },
  },
});
const workloads = new Set(args.workloads.split(','));
const duration = Number(args.duration);
const warmup = Number(args.warmup);
const pairs = Number(args.pairs);
const connections = Number(args.connections);
const perUser = Number(args['per-user']);
const slipLegs = Number(args['slip-legs']);
const APP_SECRET = `bench-${randomBytes(16).toString('hex')}`;
const postgresBase = process.env.BENCH_DATABASE_URL;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  /** Peak resident memory of the server under load (all its processes), sampled each second. */
  rssMb: number;
  cpuPercent: number;
  /** CPU milliseconds the server (all its processes) spent per request served. */
  cpuMsPerRequest: number;
  /** A group's processes, each on its own (CPU per request, RSS at the end). */
  parts?: { name: string; cpuMsPerRequest: number; rssMb: number }[];
}

type RequestOf = () => { path: string; method?: string; body?: string; headers: Record<string, string> };

/** Page 1 of GET /api/fixtures is measured under this many connections (issue 25: p99 <= 20 ms). */
const FIXTURES_CONNECTIONS = 10;

async function drive(
  server: Server,
  next: RequestOf,
  seconds: number,
  connectionCount = connections,
): Promise<Figures> {
  const before = await server.figures();
  const partsBefore = await Promise.all((server.parts ?? []).map((part) => part.figures()));
  let peakRss = before.rssMb;
  // Once a second, as a dashboard would scrape (each scrape costs the service a little CPU).
  let sampling: Promise<void> | undefined;
  const sampler = setInterval(() => {
    sampling ??= server
      .figures()
      .then((now) => {
        peakRss = Math.max(peakRss, now.rssMb);
      })
      .finally(() => {
        sampling = undefined;
      });
  }, 1000);
  const started = performance.now();
  const result = await autocannon({
    url: server.url,
    connections: connectionCount,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const chosen = next();
          return {
            ...request,
            method: (chosen.method ?? 'GET') as 'GET',
            path: chosen.path,
            headers: { ...chosen.headers, ...(chosen.body ? { 'content-type': 'application/json' } : {}) },
            ...(chosen.body ? { body: chosen.body } : {}),
          };
        },
      },
    ],
  });
  clearInterval(sampler);
  await sampling;
  const wall = (performance.now() - started) / 1000;
  const after = await server.figures();
  const cpuSeconds = after.cpuSeconds - before.cpuSeconds;
  const requests = Math.max(1, result.requests.total);
  const partsAfter = await Promise.all((server.parts ?? []).map((part) => part.figures()));
  const parts = (server.parts ?? []).map((part, i) => ({
    name: part.name,
    cpuMsPerRequest: (1000 * (partsAfter[i]!.cpuSeconds - partsBefore[i]!.cpuSeconds)) / requests,
    rssMb: partsAfter[i]!.rssMb,
  }));
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
    rssMb: Math.max(peakRss, after.rssMb),
    cpuPercent: (100 * cpuSeconds) / wall,
    cpuMsPerRequest: (1000 * cpuSeconds) / requests,
    ...(parts.length > 0 ? { parts } : {}),
  };
}

const random = (n: number) => Math.floor(Math.random() * n);
/** Open sign-in codes seeded per user for the OTP workload. */
const OTP_CODES_PER_USER = 30;
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

function line(label: string, f: Figures): string {
  const parts = (f.parts ?? []).map(
    (part) =>
      `\n    ${part.name.padEnd(20)} ${part.cpuMsPerRequest.toFixed(2).padStart(6)} ms CPU/req  RSS ${part.rssMb.toFixed(0).padStart(4)} MB`,
  );
  return (
    `  ${label.padEnd(22)} ${f.rps.toFixed(0).padStart(7)} req/s  p50 ${String(f.p50).padStart(4)} ms` +
    `  p99 ${String(f.p99).padStart(5)} ms  errors ${String(f.errors).padStart(4)}` +
    `  RSS ${f.rssMb.toFixed(0).padStart(4)} MB  CPU ${f.cpuPercent.toFixed(0).padStart(3)}%` +
    `  ${f.cpuMsPerRequest.toFixed(2).padStart(6)} ms CPU/req` +
    parts.join('')
  );
}

const summary: string[] = [];

/**
 * Warm-up of both, then `pairs` alternating reference/service runs; prints each and the ratios. The
 * reference run sends `referenceNext`'s requests when given (the checkout: the same service, users
 * without limits).
 */
async function compare(
  label: string,
  service: Server,
  reference: Server | undefined,
  next: RequestOf,
  connectionCount = connections,
  referenceNext: RequestOf = next,
) {
  console.log(`\n${label}`);
  await drive(service, next, warmup, connectionCount);
  if (reference) await drive(reference, referenceNext, warmup, connectionCount);
  const ratios: number[] = [];
  const cpuRatios: number[] = [];
  const serviceRuns: Figures[] = [];
  const referenceRuns: Figures[] = [];
  for (let pair = 1; pair <= pairs; pair++) {
    const ref = reference ? await drive(reference, referenceNext, duration, connectionCount) : undefined;
    const own = await drive(service, next, duration, connectionCount);
    serviceRuns.push(own);
    if (ref) console.log(line(`pair ${pair} reference`, ref));
    console.log(line(`pair ${pair} service`, own));
    if (ref) {
      referenceRuns.push(ref);
      ratios.push(own.rps / ref.rps);
      cpuRatios.push(own.cpuMsPerRequest / ref.cpuMsPerRequest);
      console.log(
        `  pair ${pair} service ÷ reference: ${(own.rps / ref.rps).toFixed(2)}× req/s, ` +
          `${(own.cpuMsPerRequest / ref.cpuMsPerRequest).toFixed(2)}× CPU per request, ` +
          `${(own.rssMb / ref.rssMb).toFixed(2)}× RSS`,
      );
    }
  }
  const best = median(serviceRuns.map((run) => run.rps));
  const p99 = median(serviceRuns.map((run) => run.p99));
  const rss = Math.max(...serviceRuns.map((run) => run.rssMb));
  const cpu = median(serviceRuns.map((run) => run.cpuMsPerRequest));
  const ratio = ratios.length > 0 ? `${median(ratios).toFixed(2)}×` : 'n/a';
  const cpuRatio = cpuRatios.length > 0 ? `${median(cpuRatios).toFixed(2)}×` : 'n/a';
  const refCpu =
    referenceRuns.length > 0 ? median(referenceRuns.map((run) => run.cpuMsPerRequest)).toFixed(2) : '—';
  const refRss =
    referenceRuns.length > 0 ? Math.max(...referenceRuns.map((run) => run.rssMb)).toFixed(0) : '—';
  console.log(`  median service ÷ reference: ${ratio} req/s, ${cpuRatio} CPU per request`);
  summary.push(
    `| ${label} | ${best.toFixed(0)} | ${p99} | ${ratio} | ${cpu.toFixed(2)} | ${refCpu} | ${cpuRatio} | ${rss.toFixed(0)} | ${refRss} |`,
  );
}

/**
 * Create → the row's status is no longer `processing`, polled through the detail endpoint, timed
 * from the first try: a create held by the queue's admission counts its hold, and one refused (429)
 * is tried again after its `retry_after`, that wait counted too.
 */
async function createToSuccess(
  service: Server,
  seeded: Seeded,
  samples: number,
): Promise<{ times: number[]; refused: number }> {
  const times: number[] = [];
  let refused = 0;
  for (let i = 0; i < samples; i++) {
    const who = random(seeded.tokens.length);
    const headers = { authorization: `Bearer ${seeded.tokens[who]}`, 'content-type': 'application/json' };
    const started = performance.now();
    let id: number | undefined;
    while (id === undefined) {
      const created = await fetch(`${service.url}/api/user/pronostic/create`, {
        method: 'POST',
        headers,
        body: JSON.stringify({
          type_id: 1 + (i % 6),
          teams_details: { home: `Team ${i % 16}`, away: 'Coton Sport' },
        }),
      });
      const body = (await created.json()) as { data: { pronostic?: { id: number }; retry_after?: number } };
      if (created.status === 429) {
        refused += 1;
        await new Promise((resolve) => setTimeout(resolve, 1000 * (body.data.retry_after ?? 1)));
        continue;
      }
      if (created.status !== 201) throw new Error(`create answered ${created.status}`);
      id = body.data.pronostic!.id;
    }
    for (;;) {
      const detail = await fetch(`${service.url}/api/user/pronostic/${id}`, { headers });
      const body = (await detail.json()) as { data: { pronostic: { status: string } } };
      if (body.data.pronostic.status !== 'processing') break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    times.push(performance.now() - started);
  }
  return { times: times.sort((a, b) => a - b), refused };
}

/** The service's figures are read from its own /metrics, with this token (BENCH_METRICS_TOKEN to scrape it by hand during a run). */
const METRICS_TOKEN = process.env.BENCH_METRICS_TOKEN ?? `bench-metrics-${randomBytes(16).toString('hex')}`;
const serviceMetrics = (url: string) => ({ url: `${url}/metrics`, token: METRICS_TOKEN });

const serviceEnv = (database: Record<string, string>) => ({
  ...database,
  APP_ENV: 'development',
  APP_SECRET,
  RATE_LIMIT: 'off',
  LOG_LEVEL: 'warn',
  ROLE: 'all',
  METRICS_TOKEN,
});

const apiProcesses = Number(args['api-processes']);

/** `--pglite-env 'A=1,B=2;A=3'`: the PGlite list's variants, each its variables (none: as deployed). */
function variantsOf(text: string): Record<string, string>[] {
  const variants = text
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map((part) => {
      const variables: Record<string, string> = {};
      for (const pair of part.split(',')) {
        const [name, ...value] = pair.trim().split('=');
        if (!name || !/^[A-Z][A-Z0-9_]*$/.test(name) || value.length === 0)
          throw new Error(`--pglite-env: "${pair}" is not NAME=value`);
        variables[name] = value.join('=');
      }
      return variables;
    });
  return variants.length > 0 ? variants : [{}];
}
const pgliteVariants = variantsOf(args['pglite-env']);
const profiling = args['cpu-prof'] ? { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${args['cpu-prof']}`] } : {};

/**
 * The service as measured: one ROLE=all process, or (`--api-processes N`) N ROLE=api processes and
 * a ROLE=worker behind nginx, measured together (API processes and worker; nginx shown apart).
 */
async function startDeployment(databaseUrl: string): Promise<Server> {
  const env = serviceEnv({ DATABASE_URL: databaseUrl });
  if (apiProcesses <= 0)
    return start('service', 'src/server.ts', env, { metrics: serviceMetrics, ...profiling });
  const members: Server[] = [];
  try {
    // REDIS_URL as production sets it beside several API processes (RATE_LIMIT=off leaves it unused).
    const redisUrl = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
    for (let i = 1; i <= apiProcesses; i++) {
      members.push(
        await start(
          `api ${i}`,
          'src/server.ts',
          { ...env, ROLE: 'api', REDIS_URL: redisUrl, TRUST_PROXY: 'loopback' },
          { metrics: serviceMetrics, ...profiling },
        ),
      );
    }
    // The worker serves no HTTP: its figures come from its METRICS_PORT.
    members.push(
      await start(
        'worker',
        'src/server.ts',
        { ...env, ROLE: 'worker', REDIS_URL: redisUrl },
        {
          portVariables: ['METRICS_PORT'],
          readyPath: '/metrics',
          metrics: (url) => ({ url: `${url}/metrics` }),
        },
      ),
    );
    const front = await startNginx(
      members.slice(0, apiProcesses).map((member) => Number(new URL(member.url).port)),
    );
    return serverGroup(`service (${apiProcesses} × api + worker, nginx)`, front, members);
  } catch (error) {
    for (const member of members) await member.stop();
    throw error;
  }
}

function listRequest(seeded: Seeded, query = ''): RequestOf {
  const pages = Math.max(1, Math.floor(perUser / 10));
  return () => {
    const who = random(seeded.tokens.length);
    return {
      path: `/api/user/pronostics?page=${1 + random(pages)}${query}`,
      headers: { authorization: `Bearer ${seeded.tokens[who]}` },
    };
  };
}

console.log(
  `bench:http on ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'}, ${(totalmem() / 2 ** 30).toFixed(1)} GB, Node ${process.version}; ` +
    `${connections} connections, ${duration} s runs after ${warmup} s warm-ups, ${pairs} pair(s)`,
);

if (postgresBase && [...workloads].some((w) => w !== 'pglite')) {
  const database = await openScratchDatabase(postgresBase, { prefix: 'pronostics_http', poolSize: 4 });
  await database.handle.migrate();
  const databaseUrl = database.url as string;
  const servers: Server[] = [];
  try {
    const users = Number(args.users);
    console.log(`PostgreSQL: seeding ${users} users × ${perUser} pronostics…`);
    // Enough open codes for the OTP workload's runs (each verify spends one).
    const otpCodesPerUser = workloads.has('otp') ? OTP_CODES_PER_USER : 0;
    const historyPerUser = workloads.has('history') ? Number(args.history) : 0;
    const seeded = await seed(database.handle, {
      users,
      perUser,
      appSecret: APP_SECRET,
      otpCodesPerUser,
      historyPerUser,
      slipLegs: workloads.has('slip-check') ? slipLegs : 0,
    });
    console.log(`seeded in ${seeded.seconds.toFixed(0)} s`);
    let leagueCodes: string[] = [];
    if (['fixtures', 'competitions', 'fixtures-league'].some((w) => workloads.has(w))) {
      console.log(`seeding ${args.fixtures} fixtures…`);
      leagueCodes = await seedFixtures(database.handle, Number(args.fixtures));
    }
    const packId = workloads.has('checkout') ? await seedCheckout(database.handle, seeded) : 0;
    await database.handle.close();
    const service = await startDeployment(databaseUrl);
    const reference = await start('reference', 'bench/http/reference-server.ts', {
      REF_DATABASE_URL: databaseUrl,
      REF_APP_SECRET: APP_SECRET,
    });
    servers.push(service, reference);
    const referenceHistory = workloads.has('history')
      ? await start('reference (history)', 'bench/http/reference-history.ts', {
          REF_DATABASE_URL: databaseUrl,
          REF_APP_SECRET: APP_SECRET,
        })
      : undefined;
    if (referenceHistory) servers.push(referenceHistory);
    const referenceReads = ['competitions', 'fixtures-league', 'slip-check'].some((w) => workloads.has(w))
      ? await start('reference (reads)', 'bench/http/reference-reads.ts', {
          REF_DATABASE_URL: databaseUrl,
          REF_APP_SECRET: APP_SECRET,
        })
      : undefined;
    if (referenceReads) servers.push(referenceReads);

    if (workloads.has('list')) await compare('list page', service, reference, listRequest(seeded));
    if (workloads.has('search')) {
      await compare('list with search', service, reference, listRequest(seeded, '&search=team%2003'));
    }
    if (workloads.has('detail')) {
      await compare('detail', service, reference, () => {
        const who = random(seeded.tokens.length);
        const ids = seeded.pronosticIds[who]!;
        return {
          path: `/api/user/pronostic/${ids[random(ids.length)]}`,
          headers: { authorization: `Bearer ${seeded.tokens[who]}` },
        };
      });
    }
    if (referenceHistory) {
      // One page among the filtered rows' first pages (a type holds a sixth to a half of a user's history).
      const pages = Math.max(1, Math.floor(Number(args.history) / 60));
      await compare('wallet history by type or currency', service, referenceHistory, () => ({
        path: `/api/user/wallet/operations?${HISTORY_FILTERS[random(HISTORY_FILTERS.length)]}&page=${1 + random(pages)}`,
        headers: { authorization: `Bearer ${seeded.tokens[random(seeded.tokens.length)]}` },
      }));
    }
    if (workloads.has('fixtures')) {
      await compare(
        `fixtures page 1 (${args.fixtures} fixtures, ${FIXTURES_CONNECTIONS} connections)`,
        service,
        undefined,
        () => ({
          path: '/api/fixtures',
          headers: { authorization: `Bearer ${seeded.tokens[random(seeded.tokens.length)]}` },
        }),
        FIXTURES_CONNECTIONS,
      );
    }
    const anyUser = () => random(seeded.tokens.length);
    if (referenceReads && workloads.has('competitions')) {
      await compare(`competitions (${leagueCodes.length} stored)`, service, referenceReads, () => ({
        path: '/api/competitions',
        headers: { authorization: `Bearer ${seeded.tokens[anyUser()]}` },
      }));
    }
    if (referenceReads && workloads.has('fixtures-league')) {
      // One competition's upcoming fixtures (~1/40 of them), one of its first pages.
      await compare(
        `fixtures of a competition (${args.fixtures} over ${leagueCodes.length})`,
        service,
        referenceReads,
        () => ({
          path: `/api/fixtures?league=${leagueCodes[random(leagueCodes.length)]}&page=${1 + random(3)}`,
          headers: { authorization: `Bearer ${seeded.tokens[anyUser()]}` },
        }),
      );
    }
    if (referenceReads && workloads.has('slip-check')) {
      // Each user's own first pronostics, one leg each (legs of different matches multiply).
      await compare(`slip check (${slipLegs} legs)`, service, referenceReads, () => {
        const who = anyUser();
        return {
          method: 'POST',
          path: '/api/user/slips/check',
          headers: { authorization: `Bearer ${seeded.tokens[who]}` },
          body: JSON.stringify({
            legs: seeded.slipLegs[who]!.map((leg, i) => ({ ...leg, odds: 1.5 + (i % 5) / 10 })),
            stake: 1000,
          }),
        };
      });
    }
    if (workloads.has('checkout')) {
      // Users at an odd index have limits (seedCheckout), at an even one none; each pays from its own number.
      const checkoutBy = (limited: boolean) => () => {
        const who = 2 * random(Math.floor(seeded.tokens.length / 2)) + (limited ? 1 : 0);
        return {
          method: 'POST',
          path: '/api/user/wallet/checkout',
          headers: { authorization: `Bearer ${seeded.tokens[who]}` },
          body: JSON.stringify({ pack_id: packId, phone: seeded.phones[who] }),
        };
      };
      await compare(
        'checkout with spending limits (reference: without)',
        service,
        service,
        checkoutBy(true),
        connections,
        checkoutBy(false),
      );
    }
    if (workloads.has('wallet')) {
      await compare('wallet operations page', service, undefined, () => ({
        path: '/api/user/wallet/operations?page=1',
        headers: { authorization: `Bearer ${seeded.tokens[random(seeded.tokens.length)]}` },
      }));
    }
    if (workloads.has('otp')) {
      // Phones in turn, so every user's codes are spent evenly; each verify closes a code and issues a token.
      let turn = 0;
      await compare('OTP verify (sign-in)', service, undefined, () => {
        turn += 1;
        return {
          method: 'POST',
          path: '/api/otp/verify',
          headers: {},
          body: JSON.stringify({ phone: seeded.phones[turn % seeded.phones.length], code: OTP_BENCH_CODE }),
        };
      });
    }
    if (workloads.has('create')) {
      const idle = (await createToSuccess(service, seeded, 20)).times;
      console.log(
        `\ncreate → success at idle: p50 ${median(idle).toFixed(0)} ms, max ${idle.at(-1)!.toFixed(0)} ms`,
      );
      summary.push(`| create → success, idle (p50 ms) | — | ${median(idle).toFixed(0)} | n/a | | | | | |`);
      let counter = 0;
      const underLoad = createToSuccess(service, seeded, 20);
      await compare('create (debit + ledger row)', service, undefined, () => {
        counter += 1;
        return {
          method: 'POST',
          path: '/api/user/pronostic/create',
          headers: { authorization: `Bearer ${seeded.tokens[random(seeded.tokens.length)]}` },
          body: JSON.stringify({
            type_id: 1 + (counter % 6),
            teams_details: { home: `Team ${counter % 16}`, away: 'Coton Sport' },
          }),
        };
      });
      const { times: loaded, refused } = await underLoad;
      console.log(
        `create → success under load: p50 ${median(loaded).toFixed(0)} ms, max ${loaded.at(-1)!.toFixed(0)} ms` +
          ` (${refused} tries refused with a 429)`,
      );
      summary.push(
        `| create → success, under load (p50 / max ms) | — | ${median(loaded).toFixed(0)} / ${loaded.at(-1)!.toFixed(0)} | n/a | | | | | |`,
      );
    }
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}

if (workloads.has('pglite') && (!postgresBase || args.workloads.includes('pglite'))) {
  const dir = mkdtempSync(join(tmpdir(), 'pronostics-bench-'));
  let service: Server | undefined;
  try {
    const users = Number(args['pglite-users']);
    console.log(`\nPGlite: seeding ${users} users × ${perUser} pronostics…`);
    const handle = await openDatabase({ url: join(dir, 'pglite') });
    await handle.migrate();
    const seeded = await seed(handle, { users, perUser, appSecret: APP_SECRET });
    await handle.close();
    console.log(`seeded in ${seeded.seconds.toFixed(0)} s`);
    // Each variant (--pglite-env) a fresh start on the same rows: settings compared in one block.
    for (const variant of pgliteVariants) {
      const named = Object.entries(variant).map(([name, value]) => `${name}=${value}`);
      service = await start('service (PGlite)', 'src/server.ts', serviceEnv({ DATA_DIR: dir, ...variant }), {
        metrics: serviceMetrics,
        ...profiling,
      });
      await compare(
        `list page (PGlite${named.length > 0 ? `, ${named.join(' ')}` : ''})`,
        service,
        undefined,
        listRequest(seeded),
      );
      await service.stop();
      service = undefined;
    }
  } finally {
    await service?.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  '\n| workload | service req/s (median) | service p99 ms (median) | service ÷ reference req/s (median) ' +
    '| service CPU ms/req (median) | reference CPU ms/req (median) | CPU per request ÷ reference (median) ' +
    '| service RSS MB (peak) | reference RSS MB (peak) |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const row of summary) console.log(row);
