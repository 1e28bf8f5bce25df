// Test harness: a fresh migrated database per test file (a copy of the run's template), and the
// app built by the same buildApp() as production, with a manual clock.
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { inject } from 'vitest';
import { type App, type AppOptions, buildApp } from '../src/app.js';
import { type Config, testConfig } from '../src/config.js';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';
import { users } from '../src/db/schema/index.js';
import type { UserRole } from '../src/lib/allowed-values.js';
import { ManualClock } from '../src/lib/clock.js';
import type { CodeMessage, Messenger } from '../src/providers/messaging/index.js';

export interface TestDatabase {
  handle: DatabaseHandle;
  /** On PostgreSQL, the copy's URL (for a process of its own, such as a worker); undefined on PGlite. */
  url?: string;
  /** Closes the connection and drops the copy. */
  drop(): Promise<void>;
}

export function usingPostgres(): boolean {
  return inject('postgresTemplate') !== '';
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const template = inject('postgresTemplate');
  if (template) {
    const base = process.env.TEST_DATABASE_URL as string;
    const name = `pronostics_test_${randomBytes(6).toString('hex')}`;
    const admin = new pg.Client({ connectionString: base });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template}`);
    const url = new URL(base);
    url.pathname = `/${name}`;
    const handle = await openDatabase({ url: url.toString(), poolSize: 20 });
    return {
      handle,
      url: url.toString(),
      async drop() {
        await handle.close();
        await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await admin.end();
      },
    };
  }
  const dump = readFileSync(inject('pgliteTemplate'));
  const handle = await openDatabase({ url: 'memory://', loadDataDir: new Blob([dump]) });
  return { handle, drop: () => handle.close() };
}

/** The test app's default messenger: it keeps every code it is asked to send, so tests can sign in. */
export interface TestOutbox extends Messenger {
  sent: CodeMessage[];
  /** The code of the last message to `phone`. */
  lastCode(phone: string): string;
}

export function testOutbox(): TestOutbox {
  const sent: CodeMessage[] = [];
  return {
    sent,
    async send(message) {
      sent.push(message);
    },
    lastCode(phone) {
      const message = sent.filter((m) => m.to === phone).at(-1);
      if (!message) throw new Error(`no code was sent to ${phone}`);
      return message.code;
    },
  };
}

/**
 * The test's database, with a counter of the statements the app sends on it outside transactions
 * (each one a `query` of the driver: node-postgres's pool or PGlite, whether Drizzle builds it, runs
 * a statement it prepared once, or a hot read calls the driver itself; on PGlite a hot read's named
 * statement is one protocol message, counted when it runs) and of the transactions it
 * opens (each counted once, whatever it holds).
 */
export async function countingDatabase(): Promise<{ database: TestDatabase; queries: () => number }> {
  const inner = await createTestDatabase();
  let queries = 0;
  const driver = (inner.handle.db as unknown as { $client: { query: (...args: unknown[]) => unknown } })
    .$client;
  const query = driver.query;
  driver.query = (...args: unknown[]) => {
    queries += 1;
    return query.apply(driver, args);
  };
  // PGlite runs a hot read's named statement as one protocol message starting with its Bind ('B');
  // its preparation (Parse, once) is not a statement run.
  const embedded = driver as unknown as {
    execProtocolRawStream?: (message: Uint8Array, ...rest: unknown[]) => unknown;
  };
  const execProtocolRawStream = embedded.execProtocolRawStream;
  if (typeof execProtocolRawStream === 'function') {
    embedded.execProtocolRawStream = (message: Uint8Array, ...rest: unknown[]) => {
      if (message[0] === 0x42) queries += 1;
      return execProtocolRawStream.apply(driver, [message, ...rest]);
    };
  }
  const db = new Proxy(inner.handle.db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver);
      if (property !== 'transaction' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        queries += 1;
        return value.apply(target, args);
      };
    },
  });
  const handle = new Proxy(inner.handle, {
    get: (target, property, receiver) => (property === 'db' ? db : Reflect.get(target, property, receiver)),
  });
  return { database: { handle, drop: inner.drop }, queries: () => queries };
}

export interface TestApp {
  app: App;
  clock: ManualClock;
  config: Config;
  database: DatabaseHandle;
  /** Where signIn() reads codes: the default outbox, or a messenger of the test's that keeps codes too. */
  outbox: Pick<TestOutbox, 'lastCode'> | undefined;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    config?: Partial<Config>;
    clock?: ManualClock;
    database?: TestDatabase;
    /** Adds routes or hooks before the app is ready, e.g. a probe route that throws a domain error. */
    beforeReady?: (app: App) => void | Promise<void>;
    /** Send codes through the drivers the configuration names (driver tests) instead of the test outbox. */
    configuredMessenger?: boolean;
  } & Partial<Omit<AppOptions, 'config' | 'database' | 'clock'>> = {},
): Promise<TestApp> {
  const testDatabase = options.database ?? (await createTestDatabase());
  const clock = options.clock ?? new ManualClock();
  const config = testConfig(options.config);
  const { config: _c, clock: _k, database: _d, beforeReady, configuredMessenger, ...rest } = options;
  const messenger = configuredMessenger ? undefined : (options.messenger ?? testOutbox());
  const outbox =
    messenger && 'lastCode' in messenger ? (messenger as Pick<TestOutbox, 'lastCode'>) : undefined;
  const app = await buildApp({
    logger: false,
    runLoops: false,
    ...rest,
    ...(messenger ? { messenger } : {}),
    config,
    clock,
    database: testDatabase.handle,
  });
  await beforeReady?.(app);
  await app.ready();
  return {
    app,
    clock,
    config,
    database: testDatabase.handle,
    outbox,
    async close() {
      await app.close();
      if (!options.database) await testDatabase.drop();
    },
  };
}

let phoneCounter = 0;

/** A fresh Cameroonian mobile number per call (valid for libphonenumber). */
export function nextPhone(): string {
  phoneCounter += 1;
  // +237 67x xxx xxx is an MTN Cameroon mobile range, valid for libphonenumber's full metadata.
  return `+23767${String((process.pid * 1000 + phoneCounter) % 10_000_000).padStart(7, '0')}`;
}

export interface SignedIn {
  id: number;
  phone: string;
  token: string;
  headers: { authorization: string };
}

let clientCounter = 0;

/** A client address of its own per sign-in (TEST-NET-3), so the per-network sign-in caps never add up across tests. */
function nextClientAddress(): string {
  clientCounter += 1;
  return `203.0.${Math.floor(clientCounter / 250) % 250}.${(clientCounter % 250) + 1}`;
}

/**
 * Signs in through the API as a client does: a code by SMS (read from the test outbox), then verify.
 * Credits and the admin role are given the way an operator gives them (the CLI's services), as no
 * API route gives them yet.
 */
export async function signIn(
  t: TestApp,
  options: { phone?: string; credits?: number; role?: UserRole } = {},
): Promise<SignedIn> {
  if (!t.outbox)
    throw new Error('signIn() reads codes from the test outbox: pass a messenger with lastCode()');
  const phone = options.phone ?? nextPhone();
  const remoteAddress = nextClientAddress();
  const generated = await t.app.inject({
    method: 'POST',
    url: '/api/otp/generate',
    payload: { phone, country: 'CM', method: 'sms' },
    remoteAddress,
  });
  if (generated.statusCode !== 200) {
    throw new Error(`signIn: generate answered ${generated.statusCode}: ${generated.body}`);
  }
  const verified = await t.app.inject({
    method: 'POST',
    url: '/api/otp/verify',
    payload: { phone, code: t.outbox.lastCode(phone) },
    remoteAddress,
  });
  if (verified.statusCode !== 200) {
    throw new Error(`signIn: verify answered ${verified.statusCode}: ${verified.body}`);
  }
  const { user, data } = verified.json() as { user: { id: number }; data: { token: string } };
  if (options.credits) await grantCredits(t, user.id, options.credits);
  if (options.role) await t.app.services.users.changeRole(user.id, options.role);
  return { id: user.id, phone, token: data.token, headers: { authorization: `Bearer ${data.token}` } };
}

/** Gives credits as an operator does (`credits:grant`): an `admin_adjustment` ledger row. */
export async function grantCredits(t: TestApp, userId: number, credits: number): Promise<void> {
  const account = await t.app.services.users.findById(userId);
  if (!account) throw new Error(`no user ${userId}`);
  await t.app.services.wallet.grantCredits(account, credits, 'Crédits de test');
}

/** After each test: every user's balances equal the sums of their ledger rows. */
export async function expectLedgerConsistent(t: TestApp): Promise<void> {
  const rows = await t.app.db
    .select({ id: users.id, credits: users.creditsBalance, money: users.moneyBalance })
    .from(users);
  for (const row of rows) {
    const sums = await t.app.services.ledger.sums(t.app.db, row.id);
    if (sums.credits !== row.credits || sums.money !== row.money) {
      throw new Error(
        `user ${row.id}: balances ${row.credits}/${row.money} but ledger ${sums.credits}/${sums.money}`,
      );
    }
  }
}

/** The URL of a test app's own PostgreSQL database (for a second pool or another process). */
export async function postgresUrlOf(t: TestApp): Promise<string> {
  const result = await t.app.db.execute(sql`SELECT current_database() AS name`);
  const name = (result as unknown as { rows: { name: string }[] }).rows[0]!.name;
  const url = new URL(process.env.TEST_DATABASE_URL as string);
  url.pathname = `/${name}`;
  return url.toString();
}
