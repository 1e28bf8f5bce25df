// `npm run reliability:money`: random money operations from many clients at once against the
// service on PostgreSQL — pronostic creates, checkouts, duplicate and out-of-order webhooks,
// withdrawals, admin approvals and rejections, idempotent replays — then, once everything is
// final, every balance is compared with an independent model built only from the answers the
// clients saw, no balance is negative, and `ledger:verify` is clean.
//
// RELIABILITY_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres) names the server;
// the run creates a database of its own there and drops it afterwards. Options: --ops 10000
// --clients 50 --seed <n>.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { seededRandom } from '../../src/engine/random.js';
import { SANDBOX_SIGNATURE_HEADER, signSandboxWebhook } from '../../src/providers/payments/sandbox.js';

const { values: options } = parseArgs({
  options: {
    ops: { type: 'string', default: '10000' },
    clients: { type: 'string', default: '50' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
  },
});
const OPS = Number(options.ops);
const CLIENTS = Number(options.clients);
const SEED = Number(options.seed);
const APP_SECRET = 'money-concurrency-run-secret-0123456789abcdef';
const COMMISSION_PERCENT = 10;
// Lower than the production 5,000 XAF so that godfathers reach it often enough for many withdrawals.
const WITHDRAW_MIN = 1000;

const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

interface Client {
  index: number;
  phone: string;
  token: string;
  userId: number;
  godfather: number | undefined;
}
interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the answers are read as the spec shows them; a wrong guess throws and fails the run.
  body: Record<string, any>;
}

const baseUrl = process.env.RELIABILITY_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const databaseName = `pronostics_money_${randomUUID().slice(0, 8)}`;
const databaseUrl = Object.assign(new URL(baseUrl), { pathname: `/${databaseName}` }).toString();
const dataDir = mkdtempSync(join(tmpdir(), 'pronostics-money-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: dataDir,
  DATABASE_URL: databaseUrl,
  APP_SECRET,
  APP_ENV: 'development',
  PORT: '0',
  LOG_LEVEL: 'warn',
  RATE_LIMIT: 'off',
  PAYMENT_SANDBOX_DELAY_MS: '300',
  PAYMENT_MAX_PENDING: '1000',
  OTP_COUNTRY_HOURLY_BUDGET: '100000',
  OTP_GLOBAL_HOURLY_BUDGET: '100000',
  WELCOME_CREDITS: '0',
  WITHDRAW_MIN: String(WITHDRAW_MIN),
  REFERRAL_COMMISSION_PERCENT: String(COMMISSION_PERCENT),
};

let server: ChildProcess | undefined;
let url = '';
const counts = new Map<string, number>();
const count = (what: string): void => {
  counts.set(what, (counts.get(what) ?? 0) + 1);
};

// What the clients saw, the only input of the model.
const payments = new Map<number, { owner: number; amount: number; credits: number; reference: string }>();
const pronostics = new Map<number, { owner: number; cost: number }>();
const withdrawalsSeen = new Map<number, { owner: number; amount: number }>();
/** XAF each client was told it withdrew (201 answers, first requests only). */
const withdrawnByClient = new Map<number, number>();
const replays: { path: string; key: string; body: unknown; client: Client; first: Answer }[] = [];

async function call(
  client: Client | undefined,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (client) headers.authorization = `Bearer ${client.token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers['idempotency-key'] = key;
  const response = await fetch(`${url}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status >= 500) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
  return { status: response.status, body: JSON.parse(text) };
}

async function main(): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  try {
    await startServer();
    const started = performance.now();
    const clients = await signInAll();
    const adminClient = clients[0] as Client;
    run('npm', ['run', '--silent', 'cli', '--', 'user:role', adminClient.phone, 'admin']);
    const types = (await call(clients[1], 'GET', '/api/user/pronostic/types')).body.data.types as {
      id: number;
      difficulty: number;
    }[];
    const packs = (await call(clients[1], 'GET', '/api/user/wallet/packs')).body.data.packs as {
      id: number;
      price: number;
      credits: number;
    }[];
    console.log(`${clients.length} clients signed in; ${OPS} operations (seed ${SEED})…`);

    let remaining = OPS;
    await Promise.all(
      clients.map(async (client) => {
        while (remaining > 0) {
          remaining -= 1;
          await operation(client, client === adminClient, types, packs);
        }
      }),
    );
    const loadSeconds = (performance.now() - started) / 1000;
    console.log(`load done in ${loadSeconds.toFixed(1)} s; replaying ${replays.length} idempotent requests…`);
    for (const replay of replays) {
      const again = await call(replay.client, 'POST', replay.path, replay.body, replay.key);
      if (
        again.status !== replay.first.status ||
        canonical(again.body.data) !== canonical(replay.first.body.data)
      ) {
        throw new Error(
          `replay of ${replay.path} (${replay.key}) answered ${again.status} ${JSON.stringify(again.body)}, first ${replay.first.status} ${JSON.stringify(replay.first.body)}`,
        );
      }
      count('replay ok');
    }
    const drainStarted = performance.now();
    await drain(adminClient, clients);
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    const mismatches = await compare(clients);
    const verify = run('npm', ['run', '--silent', 'cli', '--', 'ledger:verify']);
    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const negative = (
      await db.query('SELECT count(*)::int AS n FROM users WHERE credits_balance < 0 OR money_balance < 0')
    ).rows[0].n as number;
    const ledgerRows = (await db.query('SELECT count(*)::int AS n FROM wallet_operations')).rows[0]
      .n as number;
    await db.end();

    console.log('\noperations:');
    for (const [what, n] of [...counts].sort()) console.log(`  ${what.padEnd(34)} ${n}`);
    console.log(
      `\nclients ${clients.length}, operations ${OPS}, load ${loadSeconds.toFixed(1)} s (${(OPS / loadSeconds).toFixed(0)} ops/s), drain ${drainSeconds.toFixed(1)} s`,
    );
    console.log(
      `ledger rows ${ledgerRows}; payments ${payments.size}, pronostics ${pronostics.size}, withdrawals ${withdrawalsSeen.size}`,
    );
    console.log(`balances that differ from the model: ${mismatches.length}`);
    for (const line of mismatches.slice(0, 10)) console.log(`  ${line}`);
    console.log(`negative balances: ${negative}`);
    console.log(`ledger:verify: ${verify.status === 0 ? 'clean' : `FAILED\n${verify.output}`}`);
    const ok = mismatches.length === 0 && negative === 0 && verify.status === 0;
    console.log(ok ? '\nmoney run: OK' : '\nmoney run: FAILED');
    process.exitCode = ok ? 0 : 1;
  } finally {
    server?.kill('SIGTERM');
    await new Promise((r) => server?.once('exit', r) ?? r(undefined));
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function operation(
  client: Client,
  isAdmin: boolean,
  types: { id: number; difficulty: number }[],
  packs: { id: number; price: number; credits: number }[],
): Promise<void> {
  const roll = random();
  if (isAdmin) {
    // The admin decides on pending withdrawals, sometimes twice (a 409 the second time).
    const list = await call(client, 'GET', '/api/admin/withdrawals?status=pending&per_page=50');
    const pending = list.body.data.withdrawals as { id: number }[];
    if (pending.length === 0) {
      count('admin: nothing pending');
      return;
    }
    const target = pick(pending);
    const approve = random() < 0.6;
    const answer = await call(
      client,
      'POST',
      `/api/admin/withdrawals/${target.id}/${approve ? 'approve' : 'reject'}`,
      {
        message: approve ? 'Validé.' : 'Refusé pour le test.',
      },
    );
    count(`admin ${approve ? 'approve' : 'reject'} ${answer.status}`);
    if (random() < 0.2)
      count(
        `admin second decision ${(await call(client, 'POST', `/api/admin/withdrawals/${target.id}/reject`, { message: 'Encore.' })).status}`,
      );
    return;
  }
  if (roll < 0.3) {
    const pack = pick(packs);
    const phone = random() < 0.05 ? '+237699990000' : client.phone;
    const key = randomUUID();
    const body = { pack_id: pack.id, phone };
    const answer = await call(client, 'POST', '/api/user/wallet/checkout', body, key);
    count(`checkout ${answer.status}`);
    if (answer.status === 201) {
      const payment = answer.body.data.payment;
      payments.set(payment.id, {
        owner: client.userId,
        amount: payment.amount,
        credits: payment.credits,
        reference: payment.reference,
      });
      if (random() < 0.15)
        replays.push({ path: '/api/user/wallet/checkout', key, body, client, first: answer });
    }
  } else if (roll < 0.55) {
    const type = pick(types);
    const key = randomUUID();
    const body = {
      type_id: type.id,
      teams_details: { home: 'Coton Sport', away: 'Canon Yaoundé', league: 'Elite One' },
    };
    const answer = await call(client, 'POST', '/api/user/pronostic/create', body, key);
    count(`create ${answer.status}`);
    if (answer.status === 201)
      pronostics.set(answer.body.data.pronostic.id, { owner: client.userId, cost: type.difficulty });
    if (answer.status === 201 || answer.status === 402) {
      if (random() < 0.15)
        replays.push({ path: '/api/user/pronostic/create', key, body, client, first: answer });
    }
  } else if (roll < 0.65) {
    // A duplicate or out-of-order webhook, authentic: the service re-fetches and changes only what is true.
    const known = [...payments.values()];
    if (known.length === 0) return;
    const payment = pick(known);
    const status = pick(['complete', 'failed', 'pending', 'expired']);
    const rawBody = JSON.stringify({
      id: `dup-${randomUUID()}`,
      event: `payment.${status}`,
      data: { reference: payment.reference, status },
    });
    const response = await fetch(`${url}/api/webhooks/payments/sandbox`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        [SANDBOX_SIGNATURE_HEADER]: signSandboxWebhook(APP_SECRET, rawBody),
      },
      body: rawBody,
    });
    await response.text();
    if (response.status >= 500) throw new Error(`webhook answered ${response.status}`);
    count(`webhook replay ${response.status}`);
  } else if (roll < 0.85) {
    const amount = WITHDRAW_MIN + Math.floor(random() * 4) * 500;
    const phone = random() < 0.1 ? '+237699990000' : client.phone;
    const key = randomUUID();
    const body = { amount, phone, operator: { name: 'MTN', icon: 'https://example.com/mtn.png' } };
    const answer = await call(client, 'POST', '/api/user/affiliation/withdraw', body, key);
    count(`withdraw ${answer.status}`);
    if (answer.status === 201)
      withdrawnByClient.set(client.userId, (withdrawnByClient.get(client.userId) ?? 0) + amount);
    if (answer.status === 201 || answer.status === 402) {
      if (random() < 0.15)
        replays.push({ path: '/api/user/affiliation/withdraw', key, body, client, first: answer });
    }
  } else {
    const answer = await call(
      client,
      'GET',
      random() < 0.5 ? '/api/user/dashboard' : '/api/user/affiliation/overview',
    );
    count(`read ${answer.status}`);
  }
}

/** Decides what is still pending, then waits until every payment, payout and analysis is final. */
async function drain(adminClient: Client, clients: Client[]): Promise<void> {
  const deadline = Date.now() + 180_000;
  for (;;) {
    const pendingWithdrawals = (
      await call(adminClient, 'GET', '/api/admin/withdrawals?status=pending&per_page=50')
    ).body.data;
    for (const w of pendingWithdrawals.withdrawals as { id: number; decision: unknown }[]) {
      if (w.decision === null) {
        const answer = await call(adminClient, 'POST', `/api/admin/withdrawals/${w.id}/approve`, {});
        count(`drain approve ${answer.status}`);
      }
    }
    let busy = pendingWithdrawals.meta.total as number;
    for (const [id, payment] of payments) {
      const owner = clients.find((c) => c.userId === payment.owner) as Client;
      const answer = await call(owner, 'GET', `/api/user/wallet/payments/${id}`);
      if (answer.body.data.payment.status === 'pending') busy += 1;
    }
    for (const client of clients) {
      const list = await call(client, 'GET', '/api/user/pronostics?status=processing&per_page=1');
      busy += list.body.data.meta.total as number;
    }
    if (busy === 0) return;
    if (Date.now() > deadline) throw new Error(`still ${busy} operations not final after 3 minutes`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** The model: balances from what the clients saw and the final states, compared with the service's. */
async function compare(clients: Client[]): Promise<string[]> {
  const mismatches: string[] = [];
  const credits = new Map<number, number>();
  const money = new Map<number, number>();
  const add = (map: Map<number, number>, user: number, amount: number) =>
    map.set(user, (map.get(user) ?? 0) + amount);
  for (const [id, payment] of payments) {
    const owner = clients.find((c) => c.userId === payment.owner) as Client;
    const status = (await call(owner, 'GET', `/api/user/wallet/payments/${id}`)).body.data.payment.status;
    if (status !== 'success') continue;
    add(credits, owner.userId, payment.credits);
    if (owner.godfather !== undefined)
      add(money, owner.godfather, Math.floor((payment.amount * COMMISSION_PERCENT) / 100));
  }
  for (const [id, pronostic] of pronostics) {
    const owner = clients.find((c) => c.userId === pronostic.owner) as Client;
    const status = (await call(owner, 'GET', `/api/user/pronostic/${id}`)).body.data.pronostic.status;
    if (status !== 'cancelled') add(credits, owner.userId, -pronostic.cost);
  }
  for (const client of clients) {
    let listed = 0;
    for (let page = 1; ; page++) {
      const list = (await call(client, 'GET', `/api/user/affiliation/withdrawals?per_page=50&page=${page}`))
        .body.data;
      for (const w of list.withdrawals as { id: number; amount: number; status: string }[]) {
        withdrawalsSeen.set(w.id, { owner: client.userId, amount: w.amount });
        listed += w.amount;
        if (w.status !== 'cancelled') add(money, client.userId, -w.amount);
      }
      if (!list.meta.has_more) break;
    }
    if (listed !== (withdrawnByClient.get(client.userId) ?? 0)) {
      mismatches.push(
        `user ${client.userId}: withdrawals listed ${listed} XAF, answered 201 for ${withdrawnByClient.get(client.userId) ?? 0}`,
      );
    }
  }
  for (const client of clients) {
    const user = (await call(client, 'GET', '/api/user/dashboard')).body.user;
    const expected = { credits: credits.get(client.userId) ?? 0, money: money.get(client.userId) ?? 0 };
    if (user.credits_balance !== expected.credits || user.money_balance !== expected.money) {
      mismatches.push(
        `user ${client.userId}: service ${user.credits_balance} credits / ${user.money_balance} XAF, model ${expected.credits} / ${expected.money}`,
      );
    }
  }
  return mismatches;
}

async function signInAll(): Promise<Client[]> {
  const clients: Client[] = [];
  for (let index = 0; index < CLIENTS; index++) {
    const phone = `+2376700${String(10_000 + index).padStart(5, '0')}`;
    await call(undefined, 'POST', '/api/otp/generate', { phone, country: 'CM', method: 'sms' });
    const line = readFileSync(join(dataDir, 'outbox.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { to: string; text: string })
      .filter((l) => l.to === phone)
      .at(-1);
    const code = /\b(\d{6})\b/.exec(line?.text ?? '')?.[1];
    const verified = await call(undefined, 'POST', '/api/otp/verify', { phone, code });
    if (verified.status !== 200) throw new Error(`sign-in of ${phone}: ${verified.status}`);
    const client: Client = {
      index,
      phone,
      token: verified.body.data.token,
      userId: verified.body.user.id,
      godfather: undefined,
    };
    // Clients 1..9 are godfathers; from 10 on each has one of them.
    if (index >= 10) {
      const godfather = clients[1 + (index % 9)] as Client;
      const code = (await call(godfather, 'GET', '/api/user/dashboard')).body.user.affiliation_code;
      const applied = await call(client, 'POST', '/api/user/profile/apply-affiliation', {
        affiliation_code: code,
      });
      if (applied.status !== 200) throw new Error(`apply-affiliation: ${applied.status}`);
      client.godfather = godfather.userId;
    }
    clients.push(client);
  }
  return clients;
}

async function startServer(): Promise<void> {
  const port = await freePort();
  server = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: { ...env, PORT: String(port) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 120; i++) {
    if (server.exitCode !== null) throw new Error(`the service exited ${server.exitCode}`);
    try {
      if ((await fetch(`${url}/api/`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error('the service did not start within a minute');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/** JSON with sorted keys: a replay is the same answer whatever the order of its keys. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : 1)))
      : v,
  );
}

function run(command: string, args: string[]): { status: number | null; output: string } {
  const result = spawnSync(command, args, { env, encoding: 'utf8' });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

await main();
