// Opens the database the configuration names: embedded PGlite (on disk or in memory) or PostgreSQL
// through node-postgres. Both give the same Drizzle API, so nothing above this file knows which.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { ExtractTablesWithRelations } from 'drizzle-orm';
import { drizzle as drizzlePostgres } from 'drizzle-orm/node-postgres';
import { migrate as migratePostgres } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT, PgTransaction } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Database | Transaction;

export type Notification = (payload: string) => void;

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: 'pglite' | 'postgres';
  /** A trivial query; throws when the database does not answer. */
  ping(): Promise<void>;
  /** Subscribes to a channel: LISTEN/NOTIFY on PostgreSQL, in-process on PGlite. */
  listen(channel: string, onMessage: Notification): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Applies the pending SQL migrations (safe when several processes start at once). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** Key of the advisory lock that serialises migrations across processes sharing one PostgreSQL. */
const MIGRATION_LOCK = 727_001;

export const pgliteExtensions = { pg_trgm };

export interface OpenOptions {
  /** `postgres://…`, `memory://`, or a PGlite data directory. */
  url: string;
  /** A dump of a PGlite data directory to start from (tests copy one migrated template). */
  loadDataDir?: Blob;
  poolSize?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.url.startsWith('postgres://') || options.url.startsWith('postgresql://')) {
    return openPostgres(options.url, options.poolSize ?? 10);
  }
  return openPglite(options);
}

/** The database URL of a configuration: PGlite under DATA_DIR when none is set. */
export function databaseUrlOf(config: { databaseUrl: string | undefined; dataDir: string }): string {
  if (config.databaseUrl !== undefined) return config.databaseUrl;
  const dir = join(config.dataDir, 'pglite');
  mkdirSync(dir, { recursive: true });
  return dir;
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  const dataDir = options.url === 'memory://' ? undefined : options.url;
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    extensions: pgliteExtensions,
  });
  // Timestamps are read as text; UTC keeps their offset at +00 (see lib/time.ts).
  await client.exec(`SET TIME ZONE 'UTC'`);
  const pgliteDb = drizzlePglite(client, { schema });
  const db = pgliteDb as unknown as Database;
  const listeners = new Map<string, Set<Notification>>();
  let closed = false;
  return {
    db,
    kind: 'pglite',
    async ping() {
      if (closed) throw new Error('database closed');
      await client.query('SELECT 1');
    },
    async listen(channel, onMessage) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
      };
    },
    async notify(channel, payload) {
      // One process owns a PGlite database, so a wake-up never needs to leave it.
      for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(payload));
    },
    async migrate() {
      await migratePglite(pgliteDb, { migrationsFolder });
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      await client.close();
    },
  };
}

async function openPostgres(url: string, poolSize: number): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    options: '-c TimeZone=UTC',
    connectionTimeoutMillis: 5000,
  });
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  const db = drizzlePostgres(pool, { schema }) as unknown as Database;
  let listenClient: pg.PoolClient | undefined;
  const listeners = new Map<string, Set<Notification>>();
  let closed = false;

  async function listenConnection(): Promise<pg.PoolClient> {
    if (listenClient) return listenClient;
    const client = await pool.connect();
    client.on('notification', (message) => {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    client.on('error', () => {
      // A lost LISTEN connection is replaced on the next subscription; the worker's poll covers the gap.
      listenClient = undefined;
    });
    listenClient = client;
    return client;
  }

  return {
    db,
    kind: 'postgres',
    async ping() {
      await pool.query('SELECT 1');
    },
    async listen(channel, onMessage) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
      const client = await listenConnection();
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
        await client.query(`LISTEN ${channel}`);
      }
      set.add(onMessage);
      return async () => {
        set.delete(onMessage);
      };
    },
    async notify(channel, payload) {
      await pool.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    async migrate() {
      // A session-level lock needs one connection for lock, migrations and unlock.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        await migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      listeners.clear();
      listenClient?.release();
      listenClient = undefined;
      await pool.end();
    },
  };
}
