// `npm run cli -- restore FILE`: a backup archive into an empty DATA_DIR, then migrated to this
// code's schema. Nothing is written in DATA_DIR until the archive has been read whole and every
// member matched its sha256 (a first pass), and its schema is one this code knows. The second pass
// builds the database in a staging folder inside DATA_DIR: a new PGlite migrated to the archive's
// own migration, the rows loaded with triggers and foreign-key checks off (they held when the
// snapshot was taken), the sequences set, then the later migrations applied. Only then are the
// database, the stored files and the secrets renamed into place; a failure removes the staging.
import { createReadStream, createWriteStream } from 'node:fs';
import {
  access,
  copyFile,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rename,
  rm,
  rmdir,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve, sep } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder, pgliteExtensions } from '../../db/client.js';
import {
  acquireDataDirLock,
  DataDirInUse,
  type DataDirLock,
  isLive,
  lockFileOf,
  readLockOwner,
} from '../../db/data-dir-lock.js';
import { ensurePrivateDir } from '../../lib/private-files.js';
import { collectAtMost, readArchive } from './archive.js';
import {
  BackupRefused,
  COPY_SUFFIX,
  checkSignature,
  FILES_PREFIX,
  GENERATED_SECRETS,
  type JournalEntry,
  JSONL_SUFFIX,
  knownMigration,
  type Manifest,
  SECRETS_PREFIX,
  SEQUENCES_MEMBER,
  shippedMigrations,
  TABLES_PREFIX,
} from './manifest.js';

/** Rows inserted per statement while loading a table. */
const LOAD_ROWS = 2000;

export interface RestoreOptions {
  file: string;
  dataDir: string;
  /** BACKUP_DIR: when inside DATA_DIR, its presence does not make DATA_DIR non-empty. */
  backupDir: string;
  /** Restore over a non-empty DATA_DIR, its current database, files and secrets set aside first. */
  force?: boolean;
  /** BACKUP_KEY: the archive's manifest must carry its HMAC (unset: the archive must be unsigned). */
  backupKey?: string;
  /** `--force-unsigned`: restore an archive that cannot be authenticated (a warning is logged). */
  forceUnsigned?: boolean;
  log?: (line: string) => void;
}

export interface RestoreResult {
  manifest: Manifest;
  /** The migration the restored database is at now (this code's last). */
  migration: string;
  /** Where the previous contents went (with force), if there were any. */
  setAside?: string;
}

/** What restore puts in DATA_DIR (and, with force, sets aside first). */
const RESTORED = ['pglite', 'files'] as const;
/** The largest sequences member read: one line per sequence, a few kilobytes. */
const SEQUENCES_MAX_BYTES = 1024 * 1024;

export async function restoreBackup(options: RestoreOptions): Promise<RestoreResult> {
  const file = resolve(options.file);
  const dataDir = resolve(options.dataDir);
  const log = options.log ?? (() => {});
  const present = await occupiedEntries(dataDir, resolve(options.backupDir));
  if (present.length > 0 && !options.force) {
    throw new BackupRefused(
      `${dataDir} is not empty (it holds ${present.slice(0, 5).join(', ')}${present.length > 5 ? ', …' : ''}): restore into an empty DATA_DIR, or add --force to set its database, files and secrets aside`,
    );
  }
  const owner = readLockOwner(lockFileOf(join(dataDir, 'pglite')));
  if (owner && isLive(owner)) {
    throw new BackupRefused(
      `${dataDir} is in use by process ${owner.pid}: stop the service before restoring`,
    );
  }

  const shipped = shippedMigrations();
  let target: JournalEntry | undefined;
  // First pass: the whole archive checked, nothing written anywhere.
  const manifest = await readArchive(file, (read) => {
    // The signature first: a forged manifest is refused before its members are even read.
    checkSignature(file, read, {
      key: options.backupKey,
      forceUnsigned: options.forceUnsigned === true,
      warn: log,
    });
    target = knownMigration(file, read, shipped);
  });
  log(
    `${file}: backup of ${manifest.created_at} by release ${manifest.version} at migration ${manifest.migration}, checksums OK`,
  );

  const createdDataDir = !(await exists(dataDir));
  ensurePrivateDir(dataDir);
  // Held from the first write to the last: a service started meanwhile refuses the directory
  // instead of opening a database half restored (and one already running stops the restore).
  let lock: DataDirLock;
  try {
    lock = acquireDataDirLock(join(dataDir, 'pglite'));
  } catch (error) {
    if (createdDataDir) await rmdir(dataDir).catch(() => {});
    if (!(error instanceof DataDirInUse)) throw error;
    throw new BackupRefused(
      `${dataDir} is in use by process ${error.owner.pid}: stop the service before restoring`,
    );
  }
  const staging = await mkdtemp(join(dataDir, '.restore-staging-'));
  const migrations = await mkdtemp(join(tmpdir(), 'pronostics-restore-migrations-'));
  let client: PGlite | undefined;
  try {
    await migrationsUpTo(target!, migrations);
    client = await PGlite.create({ dataDir: join(staging, 'pglite'), extensions: pgliteExtensions });
    await client.exec(`SET TIME ZONE 'UTC'`);
    const db = drizzle(client);
    await migrate(db, { migrationsFolder: migrations });
    const tables = await tablesOf(client);
    // Rows a migration seeds (packs, types) are replaced by the snapshot's.
    if (tables.size > 0) {
      await client.exec(`TRUNCATE ${[...tables.keys()].map(quoted).join(', ')} RESTART IDENTITY`);
    }
    await client.exec('SET session_replication_role = replica');
    const loaded: Record<string, number> = {};
    await readArchive(
      file,
      () => {},
      async (name, chunks) => {
        if (name.startsWith(TABLES_PREFIX)) {
          const copy = name.endsWith(COPY_SUFFIX);
          const table = name.slice(TABLES_PREFIX.length, -(copy ? COPY_SUFFIX : JSONL_SUFFIX).length);
          const columns = tables.get(table);
          if (!columns || !(copy || name.endsWith(JSONL_SUFFIX)))
            throw new BackupRefused(`${file} holds rows of ${table}, a table its schema does not have`);
          loaded[table] = copy
            ? await copyTable(client!, join(staging, 'pglite'), table, columns, chunks, file)
            : await loadTable(client!, table, columns, chunks);
        } else if (name === SEQUENCES_MEMBER) {
          const text = await collectAtMost(chunks, SEQUENCES_MAX_BYTES, file, name);
          await setSequences(client!, JSON.parse(text.toString('utf8')));
        } else if (name.startsWith(FILES_PREFIX)) {
          await writeMember(join(staging, 'files'), name.slice(FILES_PREFIX.length), chunks);
        } else if (name.startsWith(SECRETS_PREFIX)) {
          await writeMember(join(staging, 'secrets'), name.slice(SECRETS_PREFIX.length), chunks);
        } else {
          throw new BackupRefused(`${file} holds ${name}, which this release does not know how to restore`);
        }
      },
    );
    for (const [table, rows] of Object.entries(manifest.rows)) {
      if ((loaded[table] ?? 0) !== rows) {
        throw new BackupRefused(
          `${file}: ${table} loaded ${loaded[table] ?? 0} rows, the manifest says ${rows}`,
        );
      }
    }
    await client.exec('RESET session_replication_role');
    await migrate(db, { migrationsFolder });
    await client.close();
    client = undefined;

    const setAside = present.length > 0 ? await setAsideCurrent(dataDir) : undefined;
    await rename(join(staging, 'pglite'), join(dataDir, 'pglite'));
    if (await exists(join(staging, 'files'))) await rename(join(staging, 'files'), join(dataDir, 'files'));
    for (const secret of manifest.secrets) {
      await rename(join(staging, 'secrets', secret), join(dataDir, secret));
    }
    if (manifest.secrets.length === 0) {
      log('the archive holds no generated secret: set APP_SECRET as it was when the backup was made');
    }
    await rm(staging, { recursive: true, force: true });
    return { manifest, migration: shipped.at(-1)!.tag, ...(setAside ? { setAside } : {}) };
  } catch (error) {
    await client?.close().catch(() => {});
    await rm(staging, { recursive: true, force: true });
    lock.release();
    if (createdDataDir) await rmdir(dataDir).catch(() => {});
    throw error;
  } finally {
    lock.release();
    await rm(migrations, { recursive: true, force: true });
  }
}

/** DATA_DIR's entries that make it non-empty: anything but BACKUP_DIR (and the lock of no one). */
async function occupiedEntries(dataDir: string, backupDir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dataDir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  return names.filter((name) => join(dataDir, name) !== backupDir).sort();
}

/** With --force: the current database, files and secrets moved to DATA_DIR/replaced-<instant>/. */
async function setAsideCurrent(dataDir: string): Promise<string> {
  const aside = join(dataDir, `replaced-${new Date().toISOString().replace(/[-:.]/g, '')}`);
  await mkdir(aside, { mode: 0o700 });
  for (const name of [...RESTORED, ...GENERATED_SECRETS]) {
    if (await exists(join(dataDir, name))) await rename(join(dataDir, name), join(aside, name));
  }
  return aside;
}

/** A migrations folder holding this code's migrations up to `last` (the archive's schema). */
async function migrationsUpTo(last: JournalEntry, folder: string): Promise<void> {
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const entries = journal.entries.filter((entry) => entry.idx <= last.idx);
  await mkdir(join(folder, 'meta'), { recursive: true });
  await writeFile(join(folder, 'meta', '_journal.json'), JSON.stringify({ ...journal, entries }));
  for (const entry of entries) {
    await copyFile(join(migrationsFolder, `${entry.tag}.sql`), join(folder, `${entry.tag}.sql`));
  }
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/** The public tables and their writable columns (generated ones are computed again). */
async function tablesOf(client: PGlite): Promise<Map<string, string[]>> {
  const { rows } = await client.query<{ table: string; column: string }>(
    `SELECT c.relname AS table, a.attname AS column
     FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind = 'r' AND a.attgenerated = ''
     ORDER BY c.relname, a.attnum`,
  );
  const tables = new Map<string, string[]>();
  for (const { table, column } of rows) {
    const columns = tables.get(table) ?? [];
    columns.push(column);
    tables.set(table, columns);
  }
  return tables;
}

/**
 * Loads one table's COPY text member (layout 2): written into the staging database's own folder,
 * then read by the database with `COPY … FROM`, the columns its header names (each one the table
 * has; `HEADER match` checks the file says the same). Returns the rows loaded.
 */
async function copyTable(
  client: PGlite,
  directory: string,
  table: string,
  columns: string[],
  chunks: AsyncIterable<Buffer>,
  file: string,
): Promise<number> {
  const name = `restore-${table}${COPY_SUFFIX}`;
  const path = join(directory, name);
  await pipeline(chunks, createWriteStream(path, { flags: 'wx', mode: 0o600 }));
  try {
    const header = await firstLine(path);
    const named = header.split('\t');
    const unknown = named.find((column) => !columns.includes(column));
    if (unknown !== undefined || named.length === 0) {
      throw new BackupRefused(
        `${file} holds a column ${unknown ?? '(none)'} of ${table}, which its schema does not have`,
      );
    }
    const {
      rows: [where],
    } = await client.query<{ directory: string }>(`SELECT current_setting('data_directory') AS directory`);
    const [result] = await client.exec(
      `COPY ${quoted(table)} (${named.map(quoted).join(', ')}) FROM '${`${where!.directory}/${name}`.replaceAll("'", "''")}' WITH (FORMAT text, HEADER match)`,
    );
    return result?.affectedRows ?? 0;
  } finally {
    await rm(path, { force: true });
  }
}

/** The first line of a file (a COPY member's header), without reading the rest. */
async function firstLine(path: string): Promise<string> {
  let line = '';
  for await (const chunk of createReadStream(path, { encoding: 'utf8', highWaterMark: 4096 })) {
    const newline = (chunk as string).indexOf('\n');
    line += newline === -1 ? chunk : (chunk as string).slice(0, newline);
    if (newline !== -1 || line.length > 65536) break;
  }
  return line;
}

/** Inserts one table's `row_to_json` lines, LOAD_ROWS per statement; returns the rows loaded. */
async function loadTable(
  client: PGlite,
  table: string,
  columns: string[],
  chunks: AsyncIterable<Buffer>,
): Promise<number> {
  const list = columns.map(quoted).join(', ');
  const insert = `INSERT INTO ${quoted(table)} (${list}) OVERRIDING SYSTEM VALUE
    SELECT ${list} FROM json_populate_recordset(NULL::${quoted(table)}, $1::json)`;
  let count = 0;
  await client.transaction(async (tx) => {
    let batch: string[] = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await tx.query(insert, [`[${batch.join(',')}]`]);
      count += batch.length;
      batch = [];
    };
    for await (const line of lines(chunks)) {
      batch.push(line);
      if (batch.length >= LOAD_ROWS) await flush();
    }
    await flush();
  });
  return count;
}

/** The non-empty lines of a UTF-8 stream (a line may span chunks). */
async function* lines(chunks: AsyncIterable<Buffer>): AsyncGenerator<string> {
  let rest = Buffer.alloc(0);
  for await (const chunk of chunks) {
    let buffer = rest.length > 0 ? Buffer.concat([rest, chunk]) : chunk;
    let newline = buffer.indexOf(0x0a);
    while (newline !== -1) {
      if (newline > 0) yield buffer.subarray(0, newline).toString('utf8');
      buffer = buffer.subarray(newline + 1);
      newline = buffer.indexOf(0x0a);
    }
    rest = Buffer.from(buffer);
  }
  if (rest.length > 0) yield rest.toString('utf8');
}

async function setSequences(client: PGlite, sequences: Record<string, string | null>): Promise<void> {
  for (const [name, value] of Object.entries(sequences)) {
    if (value === null) continue;
    await client.query(`SELECT setval(format('public.%I', $1::text)::regclass, $2::bigint, true)`, [
      name,
      value,
    ]);
  }
}

/** A stored file or secret, written under `root` at its member path (never outside it). */
async function writeMember(root: string, relativeName: string, chunks: AsyncIterable<Buffer>): Promise<void> {
  const target = resolve(root, ...relativeName.split('/'));
  if (!target.startsWith(`${resolve(root)}${sep}`)) {
    throw new BackupRefused(
      `the archive names a file outside its folder (${relativeName}): not an archive to trust`,
    );
  }
  await mkdir(dirname(target), { recursive: true, mode: 0o700 });
  await pipeline(chunks, createWriteStream(target, { flags: 'wx', mode: 0o600 }));
}

function exists(path: string): Promise<boolean> {
  return access(path).then(
    () => true,
    () => false,
  );
}
