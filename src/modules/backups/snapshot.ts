// The database's part of a backup: every table of the `public` schema and every sequence, read in
// one REPEATABLE READ transaction, so the copy is one instant's view (a payment, its ledger rows and
// the balances they moved are all in it or all out). Each table becomes one member in PostgreSQL's
// COPY text format (pg_dump's own: a header line of column names, then one line per row, tabs
// between values, `\N` for NULL), its writable columns only; the tables are listed from the
// catalogue, so a table added by a later migration is backed up without a change here.
//
// On PGlite the transaction holds the database's one session (in the service, or through its
// socket for a CLI command) until it commits: requests wait meanwhile. So on an on-disk PGlite the
// database writes each table itself with `COPY … TO` a file in a staging folder of its own data
// directory (no row crosses the protocol: about 2 µs a row against 15 µs as JSON rows through a
// cursor), and everything else (hashing, tar, gzip, the read-back) happens after the commit, on a
// worker thread (archive-pool.ts). Elsewhere (an in-memory PGlite, PostgreSQL: the tests) a cursor
// reads the same columns as text and writes the same bytes. The hold is returned (`snapshotMs`).
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import {
  BackupRefused,
  COPY_SUFFIX,
  type JournalEntry,
  SEQUENCES_MEMBER,
  TABLES_PREFIX,
} from './manifest.js';

/** Rows fetched from the cursor at a time (the portable reader). */
const FETCH_ROWS = 5000;

/** A member written to disk, hashed later (off the main thread). */
export interface SnapshotFile {
  name: string;
  path: string;
}

export interface DatabaseSnapshot {
  createdAt: string;
  migration: string;
  rows: Record<string, number>;
  files: SnapshotFile[];
  /** How long the transaction held the database, milliseconds. */
  snapshotMs: number;
  /** Who wrote the tables' members: the database (COPY … TO a file) or this process (a cursor). */
  readBy: 'copy' | 'cursor';
  /** Removes what the database wrote (the caller's staging is the caller's). */
  cleanup(): Promise<void>;
}

export interface SnapshotOptions {
  /** Where this process writes what it reads itself (the portable reader, the sequences). */
  staging: string;
  /**
   * The on-disk PGlite's data directory as this process sees it (DatabaseHandle.directory): the
   * database then writes each table there itself. Undefined: the portable reader.
   */
  databaseDirectory?: string;
  shipped: JournalEntry[];
  /** Runs inside the transaction, right after the snapshot is taken (the stored files are linked). */
  atSnapshot: () => Promise<void>;
}

type Row = Record<string, unknown>;

async function rowsOf<R extends Row>(db: Executor, text: string): Promise<R[]> {
  return ((await db.execute(sql.raw(text))) as unknown as { rows: R[] }).rows;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;
const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** Reads the whole database within one transaction; the staged files are the caller's to remove. */
export async function snapshotDatabase(db: Database, options: SnapshotOptions): Promise<DatabaseSnapshot> {
  // Made before the transaction: the database writes into it, this process reads it afterwards.
  const copies =
    options.databaseDirectory === undefined
      ? undefined
      : await mkdtemp(join(options.databaseDirectory, 'backup-copy-'));
  const cleanup = async () => {
    if (copies !== undefined) await rm(copies, { recursive: true, force: true });
  };
  try {
    return { ...(await readSnapshot(db, options, copies)), cleanup };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

async function readSnapshot(
  db: Database,
  options: SnapshotOptions,
  copies: string | undefined,
): Promise<Omit<DatabaseSnapshot, 'cleanup'>> {
  // From the transaction's start (once it has the session), not from the wait for it.
  let started = Number.NaN;
  const result = await db.transaction(
    async (tx) => {
      started = performance.now();
      // The first statement fixes the snapshot of a REPEATABLE READ transaction.
      const [instant] = await rowsOf<{ at: string; directory: string | null }>(
        tx,
        `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at,
                ${copies === undefined ? 'NULL' : "current_setting('data_directory')"} AS directory`,
      );
      await options.atSnapshot();
      const migration = await lastMigration(tx, options.shipped);
      const tables = await tablesOf(tx);
      const sequences = await rowsOf<{ name: string; last_value: string | null }>(
        tx,
        `SELECT sequencename AS name, last_value::text AS last_value FROM pg_sequences
         WHERE schemaname = 'public' ORDER BY sequencename`,
      );
      const rows: Record<string, number> = {};
      const files: SnapshotFile[] = [];
      for (const [table, columns] of tables) {
        const name = `${TABLES_PREFIX}${table}${COPY_SUFFIX}`;
        const file = `${files.length}${COPY_SUFFIX}`;
        if (copies === undefined) {
          const path = join(options.staging, file);
          rows[table] = await readThroughCursor(tx, table, columns, path);
          files.push({ name, path });
        } else {
          // The database's own path to the folder made above (its data directory as it sees it).
          const target = `${instant!.directory}/${basename(copies)}/${file}`;
          const copied = await tx.execute(
            sql.raw(
              `COPY ${quoted(table)} (${columns.map(quoted).join(', ')}) TO ${literal(target)} WITH (FORMAT text, HEADER true)`,
            ),
          );
          rows[table] = countOf(copied);
          files.push({ name, path: join(copies, file) });
        }
      }
      return { createdAt: instant!.at, migration, rows, files, sequences };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const snapshotMs = performance.now() - started;
  // Written after the commit: nothing but the tables themselves is written while the session is held.
  const sequencesPath = join(options.staging, 'sequences.json');
  await writeText(
    sequencesPath,
    JSON.stringify(Object.fromEntries(result.sequences.map((s) => [s.name, s.last_value]))),
  );
  result.files.push({ name: SEQUENCES_MEMBER, path: sequencesPath });
  if (copies !== undefined) {
    // The database and this process must see one folder (a PGlite whose directory is elsewhere would not).
    for (const file of result.files) {
      await stat(file.path).catch(() => {
        throw new BackupRefused(
          `the database wrote its copy of a table where this process cannot read it (${file.path} is missing)`,
        );
      });
    }
  }
  return {
    createdAt: result.createdAt,
    migration: result.migration,
    rows: result.rows,
    files: result.files,
    snapshotMs,
    readBy: copies === undefined ? 'cursor' : 'copy',
  };
}

/** The rows a COPY wrote (node-postgres: rowCount; PGlite: affectedRows). */
function countOf(result: unknown): number {
  const { rowCount, affectedRows } = result as { rowCount?: number | null; affectedRows?: number };
  const count = rowCount ?? affectedRows;
  if (typeof count !== 'number') throw new Error('COPY did not say how many rows it wrote');
  return count;
}

/** The public tables and their writable columns in order (generated ones are computed again). */
async function tablesOf(tx: Executor): Promise<Map<string, string[]>> {
  const found = await rowsOf<{ table: string; column: string }>(
    tx,
    `SELECT c.relname AS table, a.attname AS column
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attgenerated = ''
     ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, string[]>();
  for (const { table, column } of found) tables.set(table, [...(tables.get(table) ?? []), column]);
  return tables;
}

/** COPY text format's escapes (PostgreSQL's CopyAttributeOutText): backslash and control characters. */
const ESCAPES: Record<string, string> = {
  '\\': '\\\\',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
};

export function copyField(value: string | null): string {
  return value === null ? '\\N' : value.replace(/[\\\b\f\n\r\t\v]/g, (c) => ESCAPES[c]!);
}

/** The portable reader: the columns as text through a cursor, written as COPY would write them. */
async function readThroughCursor(
  tx: Executor,
  table: string,
  columns: string[],
  path: string,
): Promise<number> {
  const out = openFile(path);
  await out.write(`${columns.map(copyField).join('\t')}\n`);
  // format('%s') is the type's output function, as COPY uses (`::text` would write a boolean `true`).
  const list = columns
    .map(
      (column, i) =>
        `CASE WHEN ${quoted(column)} IS NULL THEN NULL ELSE format('%s', ${quoted(column)}) END AS c${i}`,
    )
    .join(', ');
  await tx.execute(sql.raw(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT ${list} FROM ${quoted(table)}`));
  let count = 0;
  for (;;) {
    const page = await rowsOf<Record<string, string | null>>(tx, `FETCH ${FETCH_ROWS} FROM backup_rows`);
    if (page.length > 0) {
      const lines = page.map((row) => columns.map((_, i) => copyField(row[`c${i}`] ?? null)).join('\t'));
      await out.write(`${lines.join('\n')}\n`);
    }
    count += page.length;
    if (page.length < FETCH_ROWS) break;
  }
  await tx.execute(sql.raw('CLOSE backup_rows'));
  await out.close();
  return count;
}

/** The last migration the database has applied, as its journal tag. */
async function lastMigration(tx: Executor, shipped: JournalEntry[]): Promise<string> {
  const [last] = await rowsOf<{ created_at: string | null }>(
    tx,
    'SELECT max(created_at)::text AS created_at FROM drizzle.__drizzle_migrations',
  );
  const when = Number(last?.created_at);
  const entry = shipped.find((candidate) => candidate.when === when);
  if (!entry) {
    throw new BackupRefused(
      `the database's last migration (created_at ${last?.created_at}) is not one this code ships: back it up with the release that migrated it`,
    );
  }
  return entry.tag;
}

async function writeText(path: string, text: string): Promise<void> {
  const out = openFile(path);
  await out.write(text);
  await out.close();
}

function openFile(path: string) {
  const out: WriteStream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  return {
    async write(text: string): Promise<void> {
      if (!out.write(text)) await new Promise<void>((resolve) => out.once('drain', resolve));
    },
    close(): Promise<void> {
      return new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
    },
  };
}
