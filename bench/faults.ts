// `npm run bench:faults`: unrelated requests while the payment provider hangs. The service runs as
// its own process (ROLE=all: API, worker and payment poller) on the real NotchPay driver against
// the local NotchPay stand-in; a few checkouts a second keep payments coming due, so the poller is
// always reading one. The same load
// (profile and pronostics list, autocannon) runs twice: with NotchPay answering, then with every
// status read hanging past NOTCHPAY_TIMEOUT_MS. The figure is the p99 with the fault over the p99
// without it, on embedded PGlite (where every query shares one connection) and on PostgreSQL
// (BENCH_DATABASE_URL, default the machine's). Target: at most 2x.
// Options: --databases pglite,postgres --users 200 --payments 40 --duration 10 --connections 20
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase } from '../src/db/client.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PRIVATE_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  startNotchPayFake,
} from '../test/fakes/notchpay.js';
import { type Seeded, seed } from './http/seed.js';
import { openScratchDatabase } from './scratch-database.js';
import { type Server, startService } from './service-process.js';

const { values: args } = parseArgs({
  options: {
    databases: { type: 'string', default: 'pglite,postgres' },
    users: { type: 'string', default: '200' },
    payments: { type: 'string', default: '40' },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '20' },
  },
});
const duration = Number(args.duration);
const connections = Number(args.connections);
const APP_SECRET = 'bench-faults-0123456789abcdef0123456789abcdef';
const TIMEOUT_MS = 2000;
const postgresBase = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Figures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

const random = (n: number) => Math.floor(Math.random() * n);

async function load(server: Server, seeded: Seeded, seconds: number): Promise<Figures> {
  const result = await autocannon({
    url: server.url,
    connections,
    duration: seconds,
    requests: [
      {
        setupRequest: (request) => {
          const token = seeded.tokens[random(seeded.tokens.length)];
          const path = random(2) === 0 ? '/api/user/profile' : '/api/user/pronostics?page=1';
          return { ...request, method: 'GET', path, headers: { authorization: `Bearer ${token}` } };
        },
      },
    ],
  });
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Pending payments for the poller to read: checkouts through the API, as users make them. */
async function checkout(server: Server, seeded: Seeded, i: number): Promise<void> {
  const who = i % seeded.tokens.length;
  const response = await fetch(`${server.url}/api/user/wallet/checkout`, {
    method: 'POST',
    headers: { authorization: `Bearer ${seeded.tokens[who]}`, 'content-type': 'application/json' },
    body: JSON.stringify({ pack_id: 1, phone: seeded.phones[who] }),
  });
  if (response.status !== 201)
    throw new Error(`checkout answered ${response.status}: ${await response.text()}`);
}

/** A checkout every `everyMs` until stopped: payments keep coming due (five seconds after each). */
function checkoutsUntil(server: Server, seeded: Seeded, everyMs: number) {
  let running = true;
  const done = (async () => {
    for (let i = Number(args.payments); running; i++) {
      await checkout(server, seeded, i);
      await new Promise((resolve) => setTimeout(resolve, everyMs));
    }
  })();
  return async () => {
    running = false;
    await done;
  };
}

function serviceEnv(fake: NotchPayFake, database: Record<string, string>): Record<string, string> {
  return {
    ...database,
    APP_ENV: 'development',
    APP_SECRET,
    RATE_LIMIT: 'off',
    LOG_LEVEL: 'error',
    ROLE: 'all',
    PAYMENTS_DRIVER: 'notchpay',
    NOTCHPAY_BASE_URL: fake.baseUrl,
    NOTCHPAY_PUBLIC_KEY,
    NOTCHPAY_PRIVATE_KEY,
    NOTCHPAY_WEBHOOK_SECRET: NOTCHPAY_HASH_KEY,
    NOTCHPAY_TIMEOUT_MS: String(TIMEOUT_MS),
  };
}

async function measure(name: string, database: Record<string, string>, seeded: Seeded, fake: NotchPayFake) {
  const server = await startService(`service (${name})`, 'src/server.ts', serviceEnv(fake, database));
  try {
    for (let i = 0; i < Number(args.payments); i++) await checkout(server, seeded, i);
    const stop = checkoutsUntil(server, seeded, 250);
    try {
      // The first looks are due five seconds after checkout.
      await new Promise((resolve) => setTimeout(resolve, 6000));
      await load(server, seeded, 2);
      const healthy = await load(server, seeded, duration);
      fake.hangReads(true);
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const hung = fake.hungReads;
      const faulty = await load(server, seeded, duration);
      const reads = fake.hungReads - hung;
      fake.hangReads(false);
      return { name, healthy, faulty, reads };
    } finally {
      await stop();
    }
  } finally {
    await server.stop();
  }
}

const rows: string[] = [];
const databases = new Set(args.databases.split(','));
const users = Number(args.users);

for (const kind of ['pglite', 'postgres'] as const) {
  if (!databases.has(kind)) continue;
  const fake = await startNotchPayFake();
  const dir = mkdtempSync(join(tmpdir(), 'pronostics-faults-'));
  try {
    let result: Awaited<ReturnType<typeof measure>>;
    if (kind === 'pglite') {
      const handle = await openDatabase({ url: join(dir, 'pglite') });
      await handle.migrate();
      const seeded = await seed(handle, { users, perUser: 20, appSecret: APP_SECRET, quiet: true });
      await handle.close();
      result = await measure('PGlite', { DATA_DIR: dir }, seeded, fake);
    } else {
      const scratch = await openScratchDatabase(postgresBase, { prefix: 'bench_faults', poolSize: 2 });
      try {
        await scratch.handle.migrate();
        const seeded = await seed(scratch.handle, { users, perUser: 20, appSecret: APP_SECRET, quiet: true });
        result = await measure('PostgreSQL', { DATABASE_URL: scratch.url!, DATA_DIR: dir }, seeded, fake);
      } finally {
        await scratch.drop();
      }
    }
    const { healthy, faulty } = result;
    rows.push(
      `| ${result.name} | ${healthy.rps.toFixed(0)} | ${healthy.p50} / ${healthy.p99} | ${faulty.rps.toFixed(0)} | ` +
        `${faulty.p50} / ${faulty.p99} | ${(faulty.p99 / Math.max(healthy.p99, 1)).toFixed(2)}x | ${result.reads} | ` +
        `${healthy.errors + faulty.errors} |`,
    );
  } finally {
    await fake.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log(
  `\nUnrelated requests (profile, pronostics list; ${connections} connections, ${duration} s each) while NotchPay answers, then while every status read hangs (timeout ${TIMEOUT_MS} ms):\n`,
);
console.log(
  '| database | req/s healthy | p50 / p99 ms healthy | req/s hanging | p50 / p99 ms hanging | p99 ratio (target ≤ 2x) | reads left hanging | errors |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const row of rows) console.log(row);
