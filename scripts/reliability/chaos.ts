// `npm run chaos`: the crash test. The API (ROLE=api) and two worker processes (ROLE=worker) run on
// a PostgreSQL of the run's own, with the real NotchPay driver against the NotchPay stand-in served
// from this process. Clients create pronostics, buy packs (the stand-in settles the payments and
// sends webhooks: single, duplicated, stale and out of order, or none), withdraw, and an admin
// approves and rejects; meanwhile the processes are killed with SIGKILL at random moments and
// restarted, and PostgreSQL is restarted once (`pg_ctl restart -m immediate`). Then everything is
// drained and the invariants of chaos-invariants.ts are checked, with `ledger:verify`.
//
// It runs through tsx (no build). Without CHAOS_DATABASE_URL it initialises a throw-away cluster
// with /usr/lib/postgresql/15/bin (or CHAOS_PG_BIN) on a free port, as the `postgres` user when run
// as root, and removes it at the end; with CHAOS_DATABASE_URL it creates a database there and
// restarts no server unless --restart-postgres (and CHAOS_PGDATA) say so.
// The stand-in is faulty by default (--provider-faults off to calm it): 5xx bursts, 429s, creates
// that take effect with no answer or no effect at all, cut connections, windows where every status
// read hangs past the timeout, and payments it completes after saying they failed. A payout whose
// create never reached it is escalated at PAYOUT_STUCK_SECONDS; the drain resolves those as an
// operator would (failed, with override, when the provider holds no transfer).
// Options: --seconds 120 --clients 12 --seed <n> --kills 8 (kill moments; one in seven kills all three).
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chownSync, createWriteStream, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { seededRandom } from '../../src/engine/random.js';
import { messages } from '../../src/lib/messages.js';
import {
  NOTCHPAY_HASH_KEY,
  NOTCHPAY_PRIVATE_KEY,
  NOTCHPAY_PUBLIC_KEY,
  type NotchPayFake,
  signedNotchPayWebhook,
  startNotchPayFake,
  transactionOf,
  transferOf,
} from '../../test/fakes/notchpay.js';
import { ANALYSIS_LOG_SQL, checkInvariants } from './chaos-invariants.js';

const { values: options } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    clients: { type: 'string', default: '12' },
    seed: { type: 'string', default: String(Date.now() % 1_000_000) },
    kills: { type: 'string', default: '8' },
    'restart-postgres': { type: 'boolean', default: false },
    'provider-faults': { type: 'string', default: 'on' },
  },
});
const PROVIDER_FAULTS = options['provider-faults'] !== 'off';
const SECONDS = Number(options.seconds);
const CLIENTS = Math.max(3, Number(options.clients));
const SEED = Number(options.seed);
const KILLS = Number(options.kills);
const APP_SECRET = 'chaos-run-secret-0123456789abcdef-0123456789';
/** Low, with a 50 % commission, so that the three godfathers withdraw often. */
const WITHDRAW_MIN = 500;
/** Payments from this number are refused by the operator; payouts to it fail. */
const FAILING_PHONE = '+237699990000';
const DRAIN_LIMIT_MS = 300_000;

const random = seededRandom(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Client {
  phone: string;
  token: string;
  userId: number;
}
interface Answer {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: answers are read as the spec shows them; a wrong guess throws.
  body: Record<string, any>;
}

const counts = new Map<string, number>();
const count = (what: string, by = 1): void => {
  counts.set(what, (counts.get(what) ?? 0) + by);
};

const workDir = mkdtempSync(join(tmpdir(), 'pronostics-chaos-'));
const dataDir = join(workDir, 'data');
const logDir = join(workDir, 'logs');
mkdirSync(dataDir);
mkdirSync(logDir);

// ---------------------------------------------------------------------------------------------
// PostgreSQL: a cluster of the run's own, or a database on CHAOS_DATABASE_URL.

const pgBin = process.env.CHAOS_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const asRoot = process.getuid?.() === 0;
let pgData: string | undefined = process.env.CHAOS_PGDATA;
let ownCluster = false;
let databaseUrl = '';
let adminUrl = '';
let databaseName = '';

function pgCommand(binary: string, args: string[]): void {
  const command = asRoot ? 'runuser' : join(pgBin, binary);
  const full = asRoot ? ['-u', 'postgres', '--', join(pgBin, binary), ...args] : args;
  const result = spawnSync(command, full, { encoding: 'utf8' });
  if (result.status !== 0)
    throw new Error(`${binary} ${args.join(' ')} failed:\n${result.stdout}${result.stderr}`);
}

async function startPostgres(): Promise<void> {
  const given = process.env.CHAOS_DATABASE_URL;
  if (given) {
    adminUrl = given;
  } else {
    const clusterDir = join(workDir, 'pg');
    mkdirSync(clusterDir);
    if (asRoot) {
      const uid = Number(spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      const gid = Number(spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' }).stdout.trim());
      chownSync(workDir, uid, gid);
      chownSync(clusterDir, uid, gid);
    }
    pgData = join(clusterDir, 'data');
    pgCommand('initdb', ['-D', pgData, '-U', 'postgres', '-A', 'trust', '--no-sync', '-E', 'UTF8']);
    clusterStart = { dir: clusterDir, port: await freePort() };
    startCluster();
    ownCluster = true;
    adminUrl = `postgres://postgres@127.0.0.1:${clusterStart.port}/postgres`;
  }
  databaseName = `pronostics_chaos_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${databaseName}`);
  await admin.end();
  databaseUrl = Object.assign(new URL(adminUrl), { pathname: `/${databaseName}` }).toString();
}

let clusterStart: { dir: string; port: number } | undefined;

/** Starts the run's own cluster; its output goes to a file (a pipe would be held open by the server). */
function startCluster(): void {
  if (!pgData || !clusterStart) throw new Error('no cluster of the run');
  pgCommand('pg_ctl', [
    '-D',
    pgData,
    '-l',
    join(clusterStart.dir, 'postgres.log'),
    '-o',
    `-p ${clusterStart.port} -k ${clusterStart.dir} -c listen_addresses=127.0.0.1 -c max_connections=200`,
    '-w',
    'start',
  ]);
}

/** An immediate stop (a crash as far as the data is concerned: recovery from the WAL), then a start. */
function restartPostgres(): void {
  if (!pgData) throw new Error('restarting PostgreSQL needs its data directory (CHAOS_PGDATA)');
  pgCommand('pg_ctl', ['-D', pgData, '-m', 'immediate', '-w', 'stop']);
  if (clusterStart) startCluster();
  else pgCommand('pg_ctl', ['-D', pgData, '-l', join(pgData, 'chaos-restart.log'), '-w', 'start']);
}

async function stopPostgres(): Promise<void> {
  if (ownCluster && pgData) pgCommand('pg_ctl', ['-D', pgData, '-m', 'fast', '-w', 'stop']);
  else if (adminUrl && databaseName) {
    const admin = new pg.Client({ connectionString: adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`);
    await admin.end();
  }
}

// ---------------------------------------------------------------------------------------------
// The service's processes.

let apiPort = 0;
let url = '';
const processes = new Map<string, ChildProcess>();
let restarts = 0;
let logSerial = 0;

function serviceEnv(fake: NotchPayFake, role: 'api' | 'worker'): NodeJS.ProcessEnv {
  return {
    ...process.env,
    ROLE: role,
    DATA_DIR: dataDir,
    DATABASE_URL: databaseUrl,
    APP_SECRET,
    APP_ENV: 'development',
    PORT: String(apiPort),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    RATE_LIMIT: 'off',
    MESSAGING_DRIVER: 'log',
    AI_DRIVER: 'builtin',
    PAYMENTS_DRIVER: 'notchpay',
    NOTCHPAY_BASE_URL: fake.baseUrl,
    NOTCHPAY_PUBLIC_KEY,
    NOTCHPAY_PRIVATE_KEY,
    NOTCHPAY_WEBHOOK_SECRET: NOTCHPAY_HASH_KEY,
    NOTCHPAY_TIMEOUT_MS: '3000',
    PAYMENT_MAX_PENDING: '1000',
    OTP_COUNTRY_HOURLY_BUDGET: '100000',
    OTP_GLOBAL_HOURLY_BUDGET: '100000',
    WELCOME_CREDITS: '0',
    WITHDRAW_MIN: String(WITHDRAW_MIN),
    REFERRAL_COMMISSION_PERCENT: '50',
    WORKER_LEASE_SECONDS: '10',
    // A payout whose create never reached the provider is escalated a minute on (the drain resolves it).
    PAYOUT_STUCK_SECONDS: '60',
    // The narrative rewrite must fit two thirds of the lease (the builtin analyst has none).
    AI_NARRATIVE_DEADLINE_MS: '5000',
    WORKER_CONCURRENCY: '3',
    RESULTS_SYNC_LEAGUES: 'none',
  };
}

function spawnProcess(name: string, fake: NotchPayFake): ChildProcess {
  const role = name === 'api' ? 'api' : 'worker';
  logSerial += 1;
  const log = createWriteStream(join(logDir, `${name}.${logSerial}.log`));
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    env: serviceEnv(fake, role),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  processes.set(name, child);
  child.once('exit', (code, signal) => {
    if (expectedExits.has(child) || stopping) return;
    // A process that ends by itself (an unhandled error on a lost connection…) is a defect: it is
    // reported as a violation, and started again so that the run goes on.
    unexpectedExits.push(`${name} (pid ${child.pid}) exited by itself: code ${code}, signal ${signal}`);
    console.log(`  ${name} exited by itself (code ${code}); starting it again`);
    if (processes.get(name) === child) {
      spawnProcess(name, fake);
      restarts += 1;
    }
  });
  return child;
}

/** Children this script killed or stopped; any other exit is unexpected. */
const expectedExits = new WeakSet<ChildProcess>();
const unexpectedExits: string[] = [];
let stopping = false;

async function waitForApi(): Promise<void> {
  for (let i = 0; i < 240; i++) {
    const api = processes.get('api');
    if (api?.exitCode !== null && api?.exitCode !== undefined)
      throw new Error(`the API exited ${api.exitCode} (logs in ${logDir})`);
    try {
      if ((await fetch(`${url}/api/`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  throw new Error('the API did not start within a minute');
}

function kill9(name: string): Promise<void> {
  const child = processes.get(name);
  if (!child || child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  expectedExits.add(child);
  child.kill('SIGKILL');
  return exited;
}

async function stopAll(): Promise<void> {
  stopping = true;
  await Promise.all(
    [...processes.values()].map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      const late = setTimeout(() => child.kill('SIGKILL'), 20_000);
      return exited.finally(() => clearTimeout(late));
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// HTTP, patient through crashes: a request that got no answer (the API was killed or is
// restarting) is sent again with the same Idempotency-Key until a real answer comes.

class NoAnswer extends Error {}

async function callOnce(
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
  let response: Response;
  try {
    response = await fetch(`${url}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new NoAnswer(String(error));
  }
  const text = await response.text().catch(() => {
    throw new NoAnswer('connection cut while reading');
  });
  let parsed: Answer['body'];
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error(`${method} ${path} answered ${response.status} without JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, body: parsed };
}

/**
 * Sends until an answer that is not a crash symptom: no answer, a 503 (closing, database down) or
 * a 500 while the database restarts. Returns undefined when the key stays in flight (409: its first
 * request died with the API and the key waits out its in-flight window); the client moves on.
 */
async function call(
  client: Client | undefined,
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<Answer | undefined> {
  const started = Date.now();
  let last = '';
  for (let attempt = 1; ; attempt++) {
    try {
      const answer = await callOnce(client, method, path, body, key);
      if (answer.status === 500 || answer.status === 503 || answer.status === 502) {
        last = `${answer.status} ${JSON.stringify(answer.body).slice(0, 200)}`;
        count(`answer ${answer.status} during a crash, sent again`);
      } else if (answer.status === 409 && answer.body?.message === messages.requestInFlight) {
        count('idempotency key left in flight by a killed API (given up)');
        return undefined;
      } else {
        if (attempt > 1) count('requests answered after a retry');
        return answer;
      }
    } catch (error) {
      if (!(error instanceof NoAnswer)) throw error;
      last = error.message;
      count('requests without an answer, sent again');
    }
    // Restarts under load take tens of seconds each on a small machine; four minutes is a stuck service.
    if (Date.now() - started > 240_000)
      throw new Error(`${method} ${path}: no real answer for four minutes (last: ${last})`);
    await sleep(300 + Math.floor(random() * 400));
  }
}

// ---------------------------------------------------------------------------------------------
// The provider's side: payers confirm or refuse, payouts complete or fail, and NotchPay tells us
// by webhooks that may be lost, repeated, stale or out of order.

interface Pending {
  dueAt: number;
}
const settleAt = new Map<string, Pending>();
let providerStop = false;

async function sendWebhook(event: string, data: Record<string, unknown>): Promise<boolean> {
  const webhook = signedNotchPayWebhook({ event, data, envelope: random() < 0.5 ? 'type' : 'event' });
  try {
    const response = await fetch(`${url}/api/webhooks/payments/notchpay`, {
      method: 'POST',
      headers: webhook.headers,
      body: webhook.rawBody,
      signal: AbortSignal.timeout(15_000),
    });
    await response.text();
    count(`webhook ${response.status}`);
    return response.ok;
  } catch {
    count('webhook lost (API down)');
    return false;
  }
}

/** A webhook NotchPay retries until the service takes it (the only word of a late completion). */
async function sendWebhookUntilTaken(event: string, data: Record<string, unknown>): Promise<void> {
  for (let attempt = 0; attempt < 120 && !(await sendWebhook(event, data)); attempt++) await sleep(500);
}

/** Payments the provider said failed and will complete after all (a payer who confirmed late). */
const lateCompletes = new Map<string, number>();
let readsHangUntil = 0;

/** The stand-in's faults for the next requests: errors, rate limits, lost answers, hanging reads. */
function injectFaults(fake: NotchPayFake, now: number): void {
  if (!PROVIDER_FAULTS) return;
  const roll = random();
  if (roll < 0.06) {
    fake.respond({ status: pick([500, 502, 503]) }, { status: pick([500, 503]) });
    count('provider fault 5xx burst');
  } else if (roll < 0.09) {
    fake.respond({ rateLimit: pick([null, 1]) });
    count('provider fault 429');
  } else if (roll < 0.11) {
    fake.respond('hang');
    count('provider fault answer lost (effect taken)');
  } else if (roll < 0.12) {
    fake.respond(pick(['stall', 'drop'] as const));
    count('provider fault request lost (no effect)');
  }
  if (now >= readsHangUntil && random() < 0.01) {
    readsHangUntil = now + 2000 + random() * 4000;
    count('provider fault reads hang (window)');
  }
  fake.hangReads(now < readsHangUntil);
}

async function providerLoop(fake: NotchPayFake): Promise<void> {
  while (!providerStop) {
    const now = Date.now();
    const jobs: Promise<void>[] = [];
    injectFaults(fake, now);
    for (const [reference, at] of lateCompletes) {
      if (at > now) continue;
      lateCompletes.delete(reference);
      const payment = fake.payments.get(reference);
      if (!payment) continue;
      fake.setPayment(reference, { status: 'complete' });
      count('provider payment complete after failed');
      jobs.push(sendWebhookUntilTaken('payment.complete', transactionOf(payment)));
    }
    for (const payment of fake.payments.values()) {
      if (payment.status !== 'pending') continue;
      const key = `payment:${payment.reference}`;
      const due = settleAt.get(key) ?? { dueAt: now + 300 + random() * 2500 };
      settleAt.set(key, due);
      if (due.dueAt > now) continue;
      // Only a payment the payer was asked to confirm on the phone can complete.
      const charged = payment.charges.length > 0;
      const phone = String(payment.customer.phone ?? '');
      const failing = !charged || phone.endsWith(FAILING_PHONE.slice(1)) || random() < 0.03;
      fake.setPayment(payment.reference, { status: failing ? 'failed' : 'complete' });
      count(`provider payment ${failing ? 'failed' : 'complete'}`);
      if (PROVIDER_FAULTS && failing && charged && random() < 0.1) {
        lateCompletes.set(payment.reference, now + 1000 + random() * 3000);
      }
      jobs.push(deliver(`payment.${failing ? 'failed' : 'complete'}`, () => transactionOf(payment)));
    }
    for (const transfer of fake.transfers.values()) {
      if (transfer.status !== 'pending') continue;
      const key = `transfer:${transfer.reference}`;
      const due = settleAt.get(key) ?? { dueAt: now + 300 + random() * 2500 };
      settleAt.set(key, due);
      if (due.dueAt > now) continue;
      const recipient = fake.recipients.get(transfer.recipient);
      const failing = recipient?.account_number.endsWith(FAILING_PHONE.slice(1)) || random() < 0.05;
      fake.setTransfer(transfer.reference, { status: failing ? 'failed' : 'complete' });
      count(`provider transfer ${failing ? 'failed' : 'complete'}`);
      jobs.push(deliver(`transfer.${failing ? 'failed' : 'complete'}`, () => transferOf(transfer)));
    }
    await Promise.all(jobs);
    await sleep(200);
  }
  fake.hangReads(false);
}

/** None (the poller must find it), one, duplicates, or a stale `pending` one after the news. */
async function deliver(event: string, data: () => Record<string, unknown>): Promise<void> {
  const roll = random();
  if (roll < 0.15) {
    count('webhook withheld (left to the poller)');
    return;
  }
  const kind = event.split('.')[0] as string;
  if (roll < 0.25) {
    // Out of order: a stale "pending" arrives first, with today's body (the service re-fetches).
    await sendWebhook(`${kind}.pending`, data());
  }
  await sendWebhook(event, data());
  if (roll > 0.8) await Promise.all([sendWebhook(event, data()), sendWebhook(event, data())]);
}

// ---------------------------------------------------------------------------------------------
// The load.

let loadStop = false;
let adminClient: Client;
const operations = { sent: 0 };

async function signIn(index: number): Promise<Client> {
  const phone = `+2376710${String(10_000 + index).padStart(5, '0')}`;
  const generated = await call(undefined, 'POST', '/api/otp/generate', {
    phone,
    country: 'CM',
    method: 'sms',
  });
  if (generated?.status !== 200 && generated?.status !== 201)
    throw new Error(`otp/generate ${phone}: ${generated?.status}`);
  const line = readFileSync(join(dataDir, 'outbox.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { to: string; text: string })
    .filter((l) => l.to === phone)
    .at(-1);
  const code = /\b(\d{6})\b/.exec(line?.text ?? '')?.[1];
  const verified = await call(undefined, 'POST', '/api/otp/verify', { phone, code });
  if (verified?.status !== 200) throw new Error(`sign-in of ${phone}: ${verified?.status}`);
  return { phone, token: verified.body.data.token, userId: verified.body.user.id };
}

async function clientLoop(
  client: Client,
  godfather: boolean,
  types: { id: number }[],
  packs: { id: number }[],
): Promise<void> {
  while (!loadStop) {
    operations.sent += 1;
    const roll = random();
    const key = randomUUID();
    if (roll < 0.3) {
      const phone = random() < 0.05 ? FAILING_PHONE : client.phone;
      const answer = await call(
        client,
        'POST',
        '/api/user/wallet/checkout',
        { pack_id: pick(packs).id, phone },
        key,
      );
      count(`checkout ${answer?.status ?? 'in flight'}`);
    } else if (roll < (godfather ? 0.6 : 0.75)) {
      const answer = await call(
        client,
        'POST',
        '/api/user/pronostic/create',
        {
          type_id: pick(types).id,
          teams_details: { home: 'Coton Sport', away: 'Canon Yaoundé', league: 'Elite One' },
        },
        key,
      );
      count(`create ${answer?.status ?? 'in flight'}`);
    } else if (roll < 0.8 && godfather) {
      const amount = WITHDRAW_MIN * (1 + Math.floor(random() * 3));
      const phone = random() < 0.1 ? FAILING_PHONE : client.phone;
      const answer = await call(
        client,
        'POST',
        '/api/user/affiliation/withdraw',
        { amount, phone, operator: { name: 'MTN', icon: 'https://example.com/mtn.png' } },
        key,
      );
      count(`withdraw ${answer?.status ?? 'in flight'}`);
    } else {
      const answer = await call(
        client,
        'GET',
        pick(['/api/user/dashboard', '/api/user/pronostics?per_page=5']),
      );
      count(`read ${answer?.status ?? 'in flight'}`);
    }
    await sleep(50 + random() * 150);
  }
}

async function adminLoop(): Promise<void> {
  while (!loadStop) {
    operations.sent += 1;
    await decidePending(random() < 0.7);
    await sleep(300 + random() * 500);
  }
}

/** One decision on one undecided withdrawal (approve or reject); false when none is waiting. */
async function decidePending(approve: boolean): Promise<boolean> {
  const list = await call(adminClient, 'GET', '/api/admin/withdrawals?status=pending&per_page=50');
  const waiting = ((list?.body.data?.withdrawals ?? []) as { id: number; decision: unknown }[]).filter(
    (w) => w.decision === null,
  );
  if (waiting.length === 0) return false;
  const target = pick(waiting);
  const answer = await call(
    adminClient,
    'POST',
    `/api/admin/withdrawals/${target.id}/${approve ? 'approve' : 'reject'}`,
    { message: approve ? 'Validé.' : 'Refusé pour le test.' },
  );
  count(`admin ${approve ? 'approve' : 'reject'} ${answer?.status ?? 'in flight'}`);
  return true;
}

/** Withdrawals need XAF, which only referral commissions give: clients 1..3 are the others' godfathers. */
async function linkGodfathers(clients: Client[]): Promise<void> {
  for (let index = 4; index < clients.length; index++) {
    const godfather = clients[1 + (index % 3)] as Client;
    const code = (await call(godfather, 'GET', '/api/user/dashboard'))?.body.user.affiliation_code;
    const applied = await call(clients[index], 'POST', '/api/user/profile/apply-affiliation', {
      affiliation_code: code,
    });
    if (applied?.status !== 200) throw new Error(`apply-affiliation: ${applied?.status}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The chaos: SIGKILL at random moments, restarts, and one PostgreSQL restart.

const kills = new Map<string, number>();
let pgRestarts = 0;

async function chaosLoop(fake: NotchPayFake, seconds: number, restartPg: boolean): Promise<void> {
  const started = Date.now();
  // Between two kills the service is up (the API answering) for a random while, so that a slow
  // restart does not eat the load; PostgreSQL restarts once, after half the kills.
  const meanGapMs = (seconds * 1000) / (KILLS + 1);
  const sinceStart = () => `${((Date.now() - started) / 1000).toFixed(1)} s`;
  for (let k = 0; k < KILLS; k++) {
    await sleep(meanGapMs * (0.3 + random() * 1.4));
    if (restartPg && k === Math.floor(KILLS / 2)) {
      console.log(`  ${sinceStart()}: PostgreSQL restart (immediate)…`);
      await restartPostgresNow();
      await sleep(meanGapMs * (0.3 + random() * 0.7));
    }
    const name = pick(['api', 'worker-1', 'worker-2', 'api', 'worker-1', 'worker-2', 'all']);
    const victims = name === 'all' ? ['api', 'worker-1', 'worker-2'] : [name];
    await Promise.all(victims.map((victim) => kill9(victim)));
    for (const victim of victims) kills.set(victim, (kills.get(victim) ?? 0) + 1);
    console.log(`  ${sinceStart()}: SIGKILL ${victims.join(', ')}`);
    await sleep(200 + random() * 2000);
    for (const victim of victims) {
      spawnProcess(victim, fake);
      restarts += 1;
    }
    if (victims.includes('api')) await waitForApi();
  }
  if (restartPg && KILLS === 0) await restartPostgresNow();
}

async function restartPostgresNow(): Promise<void> {
  const at = performance.now();
  restartPostgres();
  pgRestarts += 1;
  console.log(`  PostgreSQL back after ${((performance.now() - at) / 1000).toFixed(1)} s`);
}

// ---------------------------------------------------------------------------------------------

/**
 * The operator's part of the drain: an escalated payout the provider holds no transfer for (its one
 * create never reached it) is closed by hand as failed, with override, and refunded.
 */
async function resolveUnsent(fake: NotchPayFake): Promise<void> {
  const list = await call(
    adminClient,
    'GET',
    '/api/admin/withdrawals?status=pending&escalated=true&per_page=50',
  );
  for (const withdrawal of (list?.body.data?.withdrawals ?? []) as { id: number }[]) {
    if (fake.transfers.has(`wd-${withdrawal.id}`)) continue;
    const answer = await call(adminClient, 'POST', `/api/admin/withdrawals/${withdrawal.id}/resolve`, {
      outcome: 'failed',
      message: 'Transfert jamais reçu par le prestataire.',
      override: true,
    });
    count(`drain resolve unsent payout ${answer?.status ?? 'in flight'}`);
  }
}

async function drain(fake: NotchPayFake): Promise<void> {
  const deadline = Date.now() + DRAIN_LIMIT_MS;
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    for (;;) {
      while (await decidePending(true)) count('drain approve');
      await resolveUnsent(fake);
      const busy = (
        await db.query(`SELECT
          (SELECT count(*) FROM pronostics WHERE status = 'processing')::int AS pronostics,
          (SELECT count(*) FROM payments WHERE status = 'pending')::int AS payments,
          (SELECT count(*) FROM withdrawals WHERE status = 'pending')::int AS withdrawals`)
      ).rows[0] as Record<string, number>;
      if (busy.pronostics === 0 && busy.payments === 0 && busy.withdrawals === 0) return;
      if (Date.now() > deadline) {
        console.log(`still busy after ${DRAIN_LIMIT_MS / 1000} s: ${JSON.stringify(busy)}`);
        return;
      }
      await sleep(500);
    }
  } finally {
    await db.end();
  }
}

function cli(args: string[], fake: NotchPayFake): { status: number | null; output: string } {
  const result = spawnSync('npm', ['run', '--silent', 'cli', '--', ...args], {
    env: serviceEnv(fake, 'api'),
    encoding: 'utf8',
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

async function main(): Promise<void> {
  const restartPg = !process.env.CHAOS_DATABASE_URL || options['restart-postgres'];
  console.log(
    `chaos run: seed ${SEED}, ${SECONDS} s of load, ${CLIENTS} clients, ${KILLS} kills, PostgreSQL restart ${restartPg ? 'once' : 'no'}`,
  );
  const fake = await startNotchPayFake();
  let ok = false;
  try {
    await startPostgres();
    apiPort = await freePort();
    url = `http://127.0.0.1:${apiPort}`;
    spawnProcess('api', fake);
    await waitForApi();
    // The API migrated the database; the workers start on it, and the analysis log is installed.
    spawnProcess('worker-1', fake);
    spawnProcess('worker-2', fake);
    {
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      for (const statement of ANALYSIS_LOG_SQL) await db.query(statement);
      await db.end();
    }
    const clients: Client[] = [];
    for (let i = 0; i < CLIENTS; i++) clients.push(await signIn(i));
    adminClient = clients[0] as Client;
    const role = cli(['user:role', adminClient.phone, 'admin'], fake);
    if (role.status !== 0) throw new Error(`user:role: ${role.output}`);
    await linkGodfathers(clients);
    const types = (await call(clients[1], 'GET', '/api/user/pronostic/types'))?.body.data.types;
    const packs = (await call(clients[1], 'GET', '/api/user/wallet/packs'))?.body.data.packs;
    console.log(`${clients.length} clients signed in; load for ${SECONDS} s with SIGKILLs…`);

    const provider = providerLoop(fake);
    const started = performance.now();
    const load = Promise.all([
      ...clients.slice(1).map((client, i) => clientLoop(client, i < 3, types, packs)),
      adminLoop(),
    ]);
    // The load lasts --seconds, and longer if the kills (each waits for the API to be back) take longer.
    await chaosLoop(fake, SECONDS, restartPg);
    await sleep(Math.max(0, started + SECONDS * 1000 - performance.now()));
    loadStop = true;
    await load;
    const loadSeconds = (performance.now() - started) / 1000;

    console.log('load stopped; draining…');
    const drainStarted = performance.now();
    await drain(fake);
    const drainSeconds = (performance.now() - drainStarted) / 1000;
    // Let the last webhooks land before the provider's records are read.
    providerStop = true;
    await provider;

    const db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const report = await checkInvariants(async (text) => (await db.query(text)).rows, {
      payments: [...fake.payments.values()].map((p) => ({
        reference: p.reference,
        status: p.status,
        amount: p.amount,
      })),
      transfers: [...fake.transfers.values()].map((t) => ({
        reference: t.reference,
        status: t.status,
        amount: t.amount,
      })),
    });
    const ledgerRows = (await db.query('SELECT count(*)::int AS n FROM wallet_operations')).rows[0].n;
    const attempts = (
      await db.query(
        'SELECT coalesce(max(attempts), 0)::int AS most, count(*) FILTER (WHERE attempts > 1)::int AS retried FROM pronostics',
      )
    ).rows[0];
    await db.end();
    const verify = cli(['ledger:verify'], fake);
    const transferSends = fake.requests.filter((r) => r.method === 'POST' && r.path === '/transfers').length;

    console.log('\noperations and events:');
    for (const [what, n] of [...counts].sort()) console.log(`  ${what.padEnd(58)} ${n}`);
    console.log(
      `\nclients ${CLIENTS}, operations ${operations.sent}, load ${loadSeconds.toFixed(1)} s, drain ${drainSeconds.toFixed(1)} s`,
    );
    console.log(
      `kills ${[...kills.values()].reduce((a, b) => a + b, 0)} (${[...kills].map(([k, v]) => `${k} ${v}`).join(', ')}), process restarts ${restarts}, PostgreSQL restarts ${pgRestarts}`,
    );
    const f = report.figures;
    console.log(
      `pronostics ${f.pronostics} (analysed ${f.analysed}, cancelled and refunded ${f.cancelledRefunded}; ${attempts.retried} claimed more than once, at most ${attempts.most} claims)`,
    );
    console.log(
      `payments ${f.payments} (credited ${f.paymentsCredited}); withdrawals ${f.withdrawals} (paid ${f.withdrawalsPaid}); transfers at the provider ${f.transfers} (${transferSends} create requests); ledger rows ${ledgerRows}`,
    );
    console.log(`invariant violations: ${report.violations.length}`);
    for (const line of report.violations) console.log(`  ${line}`);
    console.log(`ledger:verify: ${verify.status === 0 ? 'clean' : `FAILED\n${verify.output}`}`);
    console.log(`processes that exited by themselves: ${unexpectedExits.length}`);
    for (const line of unexpectedExits) console.log(`  ${line}`);
    ok = report.violations.length === 0 && verify.status === 0 && unexpectedExits.length === 0;
    console.log(ok ? '\nchaos run: OK' : `\nchaos run: FAILED (process logs in ${logDir})`);
  } finally {
    providerStop = true;
    loadStop = true;
    await stopAll();
    await fake.close();
    await stopPostgres().catch((error: unknown) => console.error(`stopping PostgreSQL: ${error}`));
    if (ok) rmSync(workDir, { recursive: true, force: true });
    else rmSync(join(workDir, 'pg'), { recursive: true, force: true });
    process.exitCode = ok ? 0 : 1;
  }
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

// Whatever happens to this script, the service's processes do not outlive it.
process.on('exit', () => {
  for (const child of processes.values()) if (child.exitCode === null) child.kill('SIGKILL');
});

await main();
