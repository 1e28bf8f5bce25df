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
import { type UserRole, users } from '../src/db/schema/index.js';
import { ManualClock } from '../src/lib/clock.js';
import { issueToken } from '../src/modules/auth/tokens.js';
import { setUserRole } from '../src/modules/users/repository.js';
import { findOrCreateUser } from '../src/modules/users/service.js';
import { ledgerSums, postOperation } from '../src/modules/wallet/ledger.js';

export interface TestDatabase {
  handle: DatabaseHandle;
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

export interface TestApp {
  app: App;
  clock: ManualClock;
  config: Config;
  database: DatabaseHandle;
  close(): Promise<void>;
}

export async function createTestApp(
  options: {
    config?: Partial<Config>;
    clock?: ManualClock;
    database?: TestDatabase;
    /** Adds routes or hooks before the app is ready, e.g. a probe route that throws a domain error. */
    beforeReady?: (app: App) => void | Promise<void>;
  } & Partial<Omit<AppOptions, 'config' | 'database' | 'clock'>> = {},
): Promise<TestApp> {
  const testDatabase = options.database ?? (await createTestDatabase());
  const clock = options.clock ?? new ManualClock();
  const config = testConfig(options.config);
  const { config: _c, clock: _k, database: _d, beforeReady, ...rest } = options;
  const app = await buildApp({
    logger: false,
    worker: false,
    ...rest,
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

/** An account with a token, created straight through the services (tests of sign-in itself use the API). */
export async function signIn(
  t: TestApp,
  options: { phone?: string; credits?: number; role?: UserRole } = {},
): Promise<SignedIn> {
  const phone = options.phone ?? nextPhone();
  const { user } = await findOrCreateUser(t.app.db, t.config, phone, 'CM');
  if (options.credits) {
    await postOperation(t.app.db, {
      userId: user.id,
      type: 'admin_adjustment',
      currency: 'credits',
      amount: options.credits,
      description: 'Crédits de test',
    });
  }
  if (options.role) await setUserRole(t.app.db, user.id, options.role);
  const token = await issueToken(t.app.db, t.config, user.id, t.clock.now());
  return { id: user.id, phone, token, headers: { authorization: `Bearer ${token}` } };
}

/** After each test: every user's balances equal the sums of their ledger rows. */
export async function expectLedgerConsistent(t: TestApp): Promise<void> {
  const rows = await t.app.db
    .select({ id: users.id, credits: users.creditsBalance, money: users.moneyBalance })
    .from(users);
  for (const row of rows) {
    const sums = await ledgerSums(t.app.db, row.id);
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
