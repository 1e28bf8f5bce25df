// Opens the database the configuration names: embedded PGlite (on disk or in memory) or PostgreSQL
// through node-postgres. Both give the same Drizzle API, so nothing above this file knows which.

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
import { serialize } from 'pg-protocol';
import type { BackendMessage, NotificationResponseMessage } from 'pg-protocol/dist/messages.js';
import { Parser } from 'pg-protocol/dist/parser.js';
import { ensurePrivateDir } from '../lib/private-files.js';
import * as schema from './schema/index.js';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = PgTransaction<PgQueryResultHKT, Schema, ExtractTablesWithRelations<Schema>>;
/** Either the database or an open transaction: repositories accept both. */
export type Executor = Database | Transaction;

export type Notification = (payload: string) => void;

/**
 * Told when notifications may have been missed: the LISTEN connection was lost (`lost`), and when
 * a new one listens again (`restored`). A cache invalidated by notifications stops trusting itself
 * in between.
 */
export interface ListenGaps {
  lost(): void;
  restored(): void;
}

/**
 * How callers wait for the database (the metrics read it): node-postgres's pool, or PGlite's one
 * connection, whose queries queue behind its transaction mutex. Counters only grow.
 */
export interface PoolStats {
  /** Connections the pool may open (1 for PGlite). */
  max: number;
  /** Connections open now, and idle among them. */
  open: number;
  idle: number;
  /** Callers waiting for a connection now. */
  waiting: number;
  /** Connections handed out since the start, and the seconds callers waited for them in all. */
  acquires: number;
  acquireSeconds: number;
}

/** Counts acquisitions and the time waited for them; `asked` is a performance.now() reading. */
function acquisitionCounter() {
  const stats = { acquires: 0, acquireSeconds: 0 };
  return {
    stats,
    acquired(asked: number): void {
      stats.acquires += 1;
      stats.acquireSeconds += (performance.now() - asked) / 1000;
    },
  };
}

export interface DatabaseHandle {
  readonly db: Database;
  readonly kind: 'pglite' | 'postgres';
  /** The PGlite instance behind an embedded handle (to share it over a socket); absent otherwise. */
  readonly embedded?: PGlite;
  /**
   * An on-disk PGlite's data directory on this machine (its own, or a running service's reached
   * over its socket): a file the database writes there (COPY … TO) is readable here. Absent for an
   * in-memory PGlite and PostgreSQL.
   */
  readonly directory?: string;
  /** A trivial query; throws when the database does not answer. */
  ping(): Promise<void>;
  /** The connection pool's state and waits, now. */
  poolStats(): PoolStats;
  /**
   * Subscribes to a channel: LISTEN/NOTIFY on PostgreSQL; on PGlite, `notify` stays in-process and
   * the database's own NOTIFY (a trigger's) is delivered too.
   */
  listen(channel: string, onMessage: Notification, gaps?: ListenGaps): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  /** Applies the pending SQL migrations (safe when several processes start at once). */
  migrate(): Promise<void>;
  close(): Promise<void>;
}

export const migrationsFolder = fileURLToPath(new URL('./migrations', import.meta.url));

/** A fixed statement of a hot read: its text, and the name PostgreSQL prepares it under. */
export interface NamedStatement {
  name: string;
  text: string;
}

/**
 * Runs a hot read's fixed statement on the driver itself, rows as the driver gives them. On
 * PostgreSQL it is a named statement, parsed and planned once per connection; on PGlite, one
 * `query`. Drizzle would build and compile the same SQL again on every call (~15 % of a list
 * request's CPU), so the few hottest reads skip it; everything else goes through Drizzle.
 */
export async function namedQuery<Row>(
  db: Executor,
  statement: NamedStatement,
  values: unknown[],
): Promise<Row[]> {
  // The database's driver, or in a transaction the connection (PostgreSQL) or the transaction (PGlite) it holds.
  const client =
    '$client' in db
      ? (db as unknown as { $client: unknown }).$client
      : (db as unknown as { session: { client: unknown } }).session.client;
  if (client instanceof pg.Pool || client instanceof pg.Client) {
    const result = await client.query({ name: statement.name, text: statement.text, values });
    return result.rows as Row[];
  }
  if (client instanceof PGlite) return embeddedNamedQuery<Row>(client, statement, values);
  // A PGlite transaction: its statements run in its own turn, through its `query`.
  const inTransaction = client as Pick<PGlite, 'query'>;
  return (await inTransaction.query<Row>(statement.text, values)).rows;
}

type EmbeddedColumn = { name: string; dataTypeID: number };
/** What a prepared statement takes and gives: its parameters' type OIDs and its columns. */
type EmbeddedStatement = { parameterTypes: number[]; columns: EmbeddedColumn[] };

/** The statements prepared on a PGlite instance, by statement name. */
const embeddedStatements = new WeakMap<PGlite, Map<string, EmbeddedStatement>>();

/** PostgreSQL's SQLSTATEs for a statement name the session does not know, and one it already has. */
const UNKNOWN_STATEMENT = '26000';
const DUPLICATE_STATEMENT = '42P05';

const codeOf = (error: unknown) => (error as { code?: string }).code;

/** Where a notification read by `exchange` goes: the handle's listeners (set by `openPglite`). */
const embeddedNotificationSinks = new WeakMap<PGlite, (channel: string, payload: string) => void>();

/**
 * Sends `message` to PGlite and reads its answer with pg-protocol's parser, which decodes each
 * field straight from the reply; PGlite's own parser copies every field out of it first (about
 * 13 % of a list request's CPU on PGlite, docs/performance.md). The answer arrives in chunks that
 * are views of PGlite's memory, reused by its next write, so each is copied before it is read. An
 * error answer is thrown, as PGlite's `execProtocol` does; a notification (a trigger's `pg_notify`
 * committed by this statement) goes to the handle's listeners, as PGlite's would have.
 */
async function exchange(client: PGlite, message: Uint8Array): Promise<BackendMessage[]> {
  const parser = new Parser();
  const messages: BackendMessage[] = [];
  await client.execProtocolRawStream(message, {
    syncToFs: true,
    onRawData: (chunk) => parser.parse(Buffer.from(chunk), (read) => messages.push(read)),
  });
  const error = messages.find((read) => read.name === 'error');
  if (error) throw error;
  for (const read of messages) {
    if (read.name !== 'notification') continue;
    const { channel, payload } = read as NotificationResponseMessage;
    embeddedNotificationSinks.get(client)?.(channel, payload);
  }
  return messages;
}

/**
 * A named statement on PGlite, in one call into its WebAssembly instead of six. PGlite's `query`
 * sends Parse, Describe, Bind, Describe, Execute and Sync one call each, and parses and plans the
 * text every time; its one session keeps a named statement, so the text is parsed once (Parse and
 * Describe, its columns kept here) and each later call is Bind, Execute and Sync in one message.
 * It takes the same two turns as `query` (no transaction open, no other statement running), so it
 * never runs inside another caller's transaction, and reads rows with the same type parsers.
 */
async function embeddedNamedQuery<Row>(
  client: PGlite,
  statement: NamedStatement,
  values: unknown[],
): Promise<Row[]> {
  let known = embeddedStatements.get(client);
  if (!known) {
    known = new Map();
    embeddedStatements.set(client, known);
  }
  const statements = known;

  async function prepare(): Promise<EmbeddedStatement> {
    const message = Buffer.concat([
      serialize.parse({ name: statement.name, text: statement.text }),
      serialize.describe({ type: 'S', name: statement.name }),
      serialize.sync(),
    ]);
    let messages: BackendMessage[];
    try {
      messages = await exchange(client, message);
    } catch (error) {
      // Prepared by an earlier call whose columns were lost with it: closed, then prepared again.
      if (codeOf(error) !== DUPLICATE_STATEMENT) throw error;
      await exchange(
        client,
        Buffer.concat([serialize.close({ type: 'S', name: statement.name }), serialize.sync()]),
      );
      messages = await exchange(client, message);
    }
    const parameters = messages.find((found) => found.name === 'parameterDescription') as
      | { dataTypeIDs: number[] }
      | undefined;
    const description = messages.find((found) => found.name === 'rowDescription') as
      | { fields: EmbeddedColumn[] }
      | undefined;
    const prepared = {
      parameterTypes: parameters?.dataTypeIDs ?? [],
      columns: (description?.fields ?? []).map(({ name, dataTypeID }) => ({ name, dataTypeID })),
    };
    statements.set(statement.name, prepared);
    return prepared;
  }

  async function run(): Promise<Row[]> {
    const { parameterTypes, columns } = statements.get(statement.name) ?? (await prepare());
    // Each value as PGlite's `query` writes it: its type's serializer (arrays, JSON, dates), else its text.
    const texts = values.map((value, i) => {
      if (value === null || value === undefined) return null;
      const serializer = client.serializers[parameterTypes[i] ?? 0];
      return serializer ? serializer(value) : String(value);
    });
    const messages = await exchange(
      client,
      Buffer.concat([
        serialize.bind({ statement: statement.name, values: texts }),
        serialize.execute({}),
        serialize.sync(),
      ]),
    );
    const rows: Row[] = [];
    for (const message of messages) {
      if (message.name !== 'dataRow') continue;
      const fields = (message as unknown as { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < columns.length; i++) {
        const { name, dataTypeID } = columns[i]!;
        const text = fields[i] ?? null;
        const parser = client.parsers[dataTypeID];
        row[name] = text === null ? null : parser ? parser(text, dataTypeID) : text;
      }
      rows.push(row as Row);
    }
    return rows;
  }

  const turn = () => client._runExclusiveTransaction(() => client._runExclusiveQuery(run));
  try {
    return await turn();
  } catch (error) {
    // The session lost the statement (a client on a shared socket deallocated it): prepared again.
    if (codeOf(error) !== UNKNOWN_STATEMENT) throw error;
    statements.delete(statement.name);
    return turn();
  }
}

const preparedByDatabase = new WeakMap<object, Map<string, unknown>>();

/**
 * A Drizzle query prepared once per database under `name` and reused: its values are placeholders,
 * so its SQL depends only on the name (callers put the shape of an optional filter in it). Drizzle
 * would otherwise build and compile the same SQL on every call. In a transaction (whose prepared
 * queries would outlive it) it is built for the one call.
 */
export function preparedOnce<Prepared>(db: Executor, name: string, prepare: () => Prepared): Prepared {
  if (!('$client' in db)) return prepare();
  let byName = preparedByDatabase.get(db);
  if (!byName) {
    byName = new Map();
    preparedByDatabase.set(db, byName);
  }
  let prepared = byName.get(name) as Prepared | undefined;
  if (prepared === undefined) {
    prepared = prepare();
    byName.set(name, prepared);
  }
  return prepared;
}

/** Key of the advisory lock that serialises migrations across processes sharing one PostgreSQL. */
const MIGRATION_LOCK = 727_001;

export const pgliteExtensions = { pg_trgm };

export interface OpenOptions {
  /** `postgres://…`, `memory://`, or a PGlite data directory. */
  url: string;
  /** A dump of a PGlite data directory to start from (tests copy one migrated template). */
  loadDataDir?: Blob;
  poolSize?: number;
  /** PostgreSQL: the longest a statement may run (0: no limit); migrations run without it. */
  statementTimeoutMs?: number;
  /** PGlite: its buffer cache, in MB (PGlite's own default, 128, when absent: the tests). */
  sharedBuffersMb?: number;
}

export async function openDatabase(options: OpenOptions): Promise<DatabaseHandle> {
  if (options.url.startsWith('postgres://') || options.url.startsWith('postgresql://')) {
    return openPostgres(options.url, {
      poolSize: options.poolSize ?? 10,
      sessionOptions: `-c TimeZone=UTC -c statement_timeout=${options.statementTimeoutMs ?? 0}`,
    });
  }
  return openPglite(options);
}

/**
 * A running service's embedded PGlite, reached over its local socket (see pglite-socket.ts). One
 * connection: the service serialises its clients anyway. The session is the service's own, already
 * in UTC, so this client sets nothing on it.
 */
export async function openSharedPglite(socketDir: string): Promise<DatabaseHandle> {
  const url = `postgres://postgres@${encodeURIComponent(socketDir)}/postgres`;
  const database = await openPostgres(url, { poolSize: 1, sessionOptions: undefined });
  return { ...database, kind: 'pglite' };
}

/** The database URL of a configuration: PGlite under DATA_DIR when none is set. */
export function databaseUrlOf(config: { databaseUrl: string | undefined; dataDir: string }): string {
  if (config.databaseUrl !== undefined) return config.databaseUrl;
  ensurePrivateDir(config.dataDir);
  const dir = join(config.dataDir, 'pglite');
  ensurePrivateDir(dir);
  return dir;
}

async function openPglite(options: OpenOptions): Promise<DatabaseHandle> {
  const dataDir = options.url === 'memory://' ? undefined : options.url;
  const client = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    ...(options.sharedBuffersMb
      ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${options.sharedBuffersMb}MB`] }
      : {}),
    extensions: pgliteExtensions,
  });
  // Timestamps are read as text; UTC keeps their offset at +00 (see lib/time.ts).
  await client.exec(`SET TIME ZONE 'UTC'`);
  const queue = measurePgliteQueue(client);
  const pgliteDb = drizzlePglite(client, { schema });
  const db = pgliteDb as unknown as Database;
  const listeners = new Map<string, Set<Notification>>();
  let closed = false;
  // One process owns a PGlite database, so a wake-up never needs to leave it.
  const wake = (channel: string, payload: string) => {
    for (const listener of listeners.get(channel) ?? []) queueMicrotask(() => listener(payload));
  };
  embeddedNotificationSinks.set(client, wake);
  const database: DatabaseHandle = {
    db,
    kind: 'pglite',
    embedded: client,
    ...(dataDir ? { directory: dataDir } : {}),
    async ping() {
      if (closed) throw new Error('database closed');
      await client.query('SELECT 1');
    },
    poolStats: () => queue.stats(),
    async listen(channel, onMessage) {
      let set = listeners.get(channel);
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(onMessage);
      // A trigger's pg_notify, delivered when its statement commits (before the query resolves).
      const unlistenDatabase = await client.listen(channel, onMessage);
      return async () => {
        set.delete(onMessage);
        if (!closed) await unlistenDatabase();
      };
    },
    async notify(channel, payload) {
      wake(channel, payload);
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
  return database;
}

/**
 * PGlite runs one statement or transaction at a time: `query`, `exec` and `transaction` each wait
 * for its transaction mutex through `_runExclusiveTransaction`. Wrapping that one method of our own
 * instance counts the callers queued and the time each waited, at the cost of two clock readings.
 * Should a PGlite release rename it, the queue reads as empty rather than breaking the database.
 */
function measurePgliteQueue(client: PGlite): { stats(): PoolStats } {
  const counter = acquisitionCounter();
  let queued = 0;
  let running = 0;
  const original = client._runExclusiveTransaction;
  if (typeof original === 'function') {
    const run = original.bind(client);
    client._runExclusiveTransaction = <T>(fn: () => Promise<T>): Promise<T> => {
      const asked = performance.now();
      queued += 1;
      return run(async () => {
        queued -= 1;
        running += 1;
        counter.acquired(asked);
        try {
          return await fn();
        } finally {
          running -= 1;
        }
      });
    };
  }
  return {
    stats: () => ({ max: 1, open: 1, idle: running > 0 ? 0 : 1, waiting: queued, ...counter.stats }),
  };
}

/**
 * node-postgres's pool hands out connections through `connect`, which `pool.query` calls too (with
 * a callback) and transactions call (for a promise): wrapping it on our own pool times every wait.
 */
function measurePoolWaits(pool: pg.Pool): { stats(): PoolStats } {
  const counter = acquisitionCounter();
  const connect = pool.connect.bind(pool) as (
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => void,
  ) => Promise<pg.PoolClient> | undefined;
  const measured = (
    callback?: (error: Error | undefined, client: pg.PoolClient | undefined, done: unknown) => void,
  ) => {
    const asked = performance.now();
    if (callback) {
      return connect((error, client, done) => {
        if (!error) counter.acquired(asked);
        callback(error, client, done);
      });
    }
    return (connect() as Promise<pg.PoolClient>).then((client) => {
      counter.acquired(asked);
      return client;
    });
  };
  pool.connect = measured as typeof pool.connect;
  return {
    stats: () => ({
      max: pool.options.max,
      open: pool.totalCount,
      idle: pool.idleCount,
      waiting: pool.waitingCount,
      ...counter.stats,
    }),
  };
}

/** First and longest wait before re-opening a lost LISTEN connection. */
const LISTEN_RETRY_MS = { first: 250, max: 10_000 };

async function openPostgres(
  url: string,
  options: { poolSize: number; sessionOptions: string | undefined },
): Promise<DatabaseHandle> {
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize,
    ...(options.sessionOptions ? { options: options.sessionOptions } : {}),
    connectionTimeoutMillis: 5000,
  });
  const waits = measurePoolWaits(pool);
  // An idle client that loses its server must not crash the process; the next query reconnects.
  pool.on('error', () => {});
  // Nor one checked out (a transaction between two queries, a PostgreSQL restart): pg emits 'error'
  // on the client, and the pool listens only while it is idle. The running query or transaction
  // fails with the error; the pool drops the dead client on release.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const db = drizzlePostgres(pool, { schema }) as unknown as Database;
  const listeners = new Map<string, Set<Notification>>();
  const gapWatchers = new Set<ListenGaps>();
  /** A connection was lost since the last one listened: the next one that does says so. */
  let inGap = false;
  let listenClient: pg.PoolClient | undefined;
  let connecting: Promise<pg.PoolClient> | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let retryMs = LISTEN_RETRY_MS.first;
  let closed = false;
  const notifying = new Set<Promise<void>>();

  /** One connection LISTENs on every channel that has listeners. */
  async function connectListener(): Promise<pg.PoolClient> {
    const client = await pool.connect();
    client.on('notification', (message) => {
      for (const listener of listeners.get(message.channel) ?? []) listener(message.payload ?? '');
    });
    client.on('error', () => lost(client));
    client.on('end', () => lost(client));
    try {
      for (const channel of listeners.keys()) await client.query(`LISTEN ${channel}`);
    } catch (error) {
      client.release(true);
      throw error;
    }
    listenClient = client;
    retryMs = LISTEN_RETRY_MS.first;
    if (inGap) {
      inGap = false;
      for (const watcher of gapWatchers) watcher.restored();
    }
    return client;
  }

  function listenConnection(): Promise<pg.PoolClient> {
    if (listenClient) return Promise.resolve(listenClient);
    connecting ??= connectListener().finally(() => {
      connecting = undefined;
    });
    return connecting;
  }

  /**
   * The LISTEN connection died (a PostgreSQL restart, an administrator's terminate): open another
   * and LISTEN again on every channel, retrying with a growing wait, so wake-ups do not fall back
   * to the workers' poll for good. Notifications sent in the gap are lost; the poll finds their rows.
   */
  function lost(client: pg.PoolClient): void {
    if (listenClient !== client) return;
    listenClient = undefined;
    client.release(true);
    inGap = true;
    for (const watcher of gapWatchers) watcher.lost();
    scheduleReconnect();
  }

  function scheduleReconnect(): void {
    if (closed || retryTimer !== undefined) return;
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      listenConnection().catch(() => {
        retryMs = Math.min(retryMs * 2, LISTEN_RETRY_MS.max);
        scheduleReconnect();
      });
    }, retryMs);
    retryTimer.unref();
  }

  return {
    db,
    kind: 'postgres',
    async ping() {
      await pool.query('SELECT 1');
    },
    poolStats: () => waits.stats(),
    async listen(channel, onMessage, gaps) {
      if (!/^[a-z_][a-z0-9_]*$/.test(channel)) throw new Error(`invalid channel name ${channel}`);
      if (gaps) gapWatchers.add(gaps);
      let set = listeners.get(channel);
      const isNew = set === undefined;
      if (!set) {
        set = new Set();
        listeners.set(channel, set);
      }
      set.add(onMessage);
      const client = await listenConnection();
      // A connection opened before this channel existed does not LISTEN on it yet (a second LISTEN is a no-op).
      if (isNew) await client.query(`LISTEN ${channel}`);
      return async () => {
        set.delete(onMessage);
        if (gaps) gapWatchers.delete(gaps);
      };
    },
    async notify(channel, payload) {
      // Wake-ups are sent without waiting for them (a 201 does not wait for its worker's), so
      // close lets the ones under way go out before it ends the pool; once closed, a wake-up is
      // dropped: every listener also polls.
      if (closed) return;
      const sending = pool.query('SELECT pg_notify($1, $2)', [channel, payload]).then(() => undefined);
      notifying.add(sending);
      try {
        await sending;
      } finally {
        notifying.delete(sending);
      }
    },
    async migrate() {
      // A session-level lock needs one connection for lock, migrations and unlock.
      const client = await pool.connect();
      try {
        await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
        // An index build may outlast the statement timeout that guards the service's queries.
        await client.query('SET statement_timeout = 0');
        await migratePostgres(drizzlePostgres(client, { schema }), { migrationsFolder });
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
        await client.query('RESET statement_timeout').catch(() => {});
        client.release();
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearTimeout(retryTimer);
      listeners.clear();
      gapWatchers.clear();
      const client = listenClient ?? (await connecting?.catch(() => undefined));
      listenClient = undefined;
      client?.release();
      await Promise.allSettled([...notifying]);
      await pool.end();
    },
  };
}
