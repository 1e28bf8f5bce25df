// Backups of the embedded database and its files: `npm run cli -- backup [FILE]` and the runtime's
// scheduled backups (BACKUP_INTERVAL_HOURS) write one archive (archive.ts) holding a one-transaction
// snapshot of every table (snapshot.ts), the stored files of that instant (local storage), DATA_DIR's
// generated secrets and a manifest; the archive is written, read back and its checksums checked on
// a worker thread once the snapshot's transaction has committed (archive.ts). `restore`
// (restore.ts) is re-exported here for the CLI. On PostgreSQL the database's own tools do this
// (docs/operations.md, "Backups"): `backupRefusal` says so in one line.
import { copyFile, link, mkdir, mkdtemp, readdir, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { ensurePrivateDir } from '../../lib/private-files.js';
import { API_VERSION } from '../../lib/version.js';
import { readArchive, writeArchiveOffThread } from './archive.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_FORMAT_VERSION,
  BackupRefused,
  checkSignature,
  FILES_PREFIX,
  GENERATED_SECRETS,
  knownMigration,
  type Manifest,
  SECRETS_PREFIX,
  shippedMigrations,
} from './manifest.js';
import { type DatabaseSnapshot, snapshotDatabase } from './snapshot.js';

export { BackupRefused, type Manifest } from './manifest.js';
export { type RestoreResult, restoreBackup } from './restore.js';

/** Scheduled backups' names: `backup-<UTC instant>.tar.gz`, the only files pruning touches. */
const SCHEDULED_NAME = /^backup-\d{8}T\d{6}\d{3}Z(?:-\d+)?\.tar\.gz$/;

/** Why `backup` cannot run with this configuration, or undefined when it can. */
export function backupRefusal(config: Pick<Config, 'databaseUrl'>): string | undefined {
  if (config.databaseUrl === undefined) return undefined;
  if (config.databaseUrl === 'memory://') {
    return 'DATABASE_URL=memory:// is a throw-away database: there is nothing to back up';
  }
  return 'backup is for the embedded database: on PostgreSQL use pg_dump or base backups with WAL archiving, and back up the files at the same instant (docs/operations.md, "Backups")';
}

export interface BackupResult {
  file: string;
  manifest: Manifest;
  /** How long the snapshot's transaction held the database, and the whole backup, milliseconds. */
  snapshotMs: number;
  totalMs: number;
}

export interface BackupStats {
  succeeded: number;
  failed: number;
  /** Epoch seconds of the last verified scheduled backup; null before the first. */
  lastSuccessAt: number | null;
}

export interface BackupsDeps {
  database: DatabaseHandle;
  config: Pick<
    Config,
    'dataDir' | 'backupDir' | 'backupKeep' | 'backupKey' | 'storageDriver' | 's3' | 'databaseUrl'
  >;
  clock: Clock;
  logger: FastifyBaseLogger;
}

export function createBackupsService(deps: BackupsDeps) {
  const { database, config, clock, logger } = deps;
  const stats: BackupStats = { succeeded: 0, failed: 0, lastSuccessAt: null };

  async function backup(target?: string): Promise<BackupResult> {
    const started = performance.now();
    const file = resolve(target ?? (await freeName()));
    // Only BACKUP_DIR is ours to make private: a named file's folder may be shared (/tmp, a mount
    // point), and is left as it is; the archive itself is created 0600 in any case.
    if (target === undefined) ensurePrivateDir(config.backupDir);
    else await mkdir(dirname(file), { recursive: true, mode: 0o700 });
    try {
      await stat(file);
      throw new BackupRefused(`${file} already exists: name another file`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    // Staged beside the archive, so the files' hard links stay on one file system when they can.
    const staging = await mkdtemp(join(dirname(file), '.backup-staging-'));
    let snapshot: DatabaseSnapshot | undefined;
    try {
      const shipped = shippedMigrations();
      const filesDir = join(config.dataDir, 'files');
      const linked: { name: string; path: string }[] = [];
      snapshot = await snapshotDatabase(database.db, {
        staging,
        ...(database.directory !== undefined ? { databaseDirectory: database.directory } : {}),
        shipped,
        atSnapshot: async () => {
          if (config.storageDriver === 'local') {
            linked.push(
              ...(await linkTree(filesDir, join(staging, 'files'), [resolve(config.backupDir), staging])),
            );
          }
        },
      });
      const members = [...snapshot.files];
      let fileBytes = 0;
      for (const entry of linked) {
        fileBytes += (await stat(entry.path)).size;
        members.push({ name: `${FILES_PREFIX}${entry.name}`, path: entry.path });
      }
      const secrets: string[] = [];
      for (const name of GENERATED_SECRETS) {
        const path = join(config.dataDir, name);
        const staged = join(staging, `secret-${name}`);
        try {
          await copyFile(path, staged);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
          throw error;
        }
        secrets.push(name);
        members.push({ name: `${SECRETS_PREFIX}${name}`, path: staged });
      }
      const manifest = await writeArchiveOffThread({
        target: file,
        manifest: {
          format: ARCHIVE_FORMAT,
          format_version: ARCHIVE_FORMAT_VERSION,
          version: API_VERSION,
          migration: snapshot.migration,
          created_at: snapshot.createdAt,
          database: {
            kind: database.kind,
            snapshot: 'repeatable read, one transaction',
            tables_read_by: snapshot.readBy,
          },
          rows: snapshot.rows,
          files:
            config.storageDriver === 'local'
              ? { storage: 'local', count: linked.length, bytes: fileBytes }
              : {
                  storage: 's3',
                  bucket: config.s3.bucket,
                  note: 'the stored files are not in this archive: the bucket is backed up by its own versioning',
                },
          secrets,
        },
        members,
        ...(config.backupKey !== undefined ? { backupKey: config.backupKey } : {}),
      });
      knownMigration(file, manifest, shipped);
      return { file, manifest, snapshotMs: snapshot.snapshotMs, totalMs: performance.now() - started };
    } finally {
      await snapshot?.cleanup();
      await rm(staging, { recursive: true, force: true });
    }
  }

  /** Reads `file` back: its signature (BACKUP_KEY), its manifest, every member's sha256, a schema this code knows. */
  function verify(file: string): Promise<Manifest> {
    const shipped = shippedMigrations();
    return readArchive(file, (manifest) => {
      checkSignature(file, manifest, { key: config.backupKey });
      knownMigration(file, manifest, shipped);
    });
  }

  /** A name in BACKUP_DIR for a backup made now. */
  async function freeName(): Promise<string> {
    ensurePrivateDir(config.backupDir);
    const stamp = clock.now().toISOString().replace(/[-:.]/g, '');
    for (let n = 1; ; n++) {
      const name = join(config.backupDir, `backup-${stamp}${n === 1 ? '' : `-${n}`}.tar.gz`);
      try {
        await stat(name);
      } catch {
        return name;
      }
    }
  }

  /** Deletes scheduled backups beyond the newest BACKUP_KEEP; returns the names deleted. */
  async function prune(): Promise<string[]> {
    const found = await scheduledBackups();
    const removed: string[] = [];
    for (const old of found.slice(0, Math.max(0, found.length - config.backupKeep))) {
      await unlink(old.path);
      removed.push(old.path);
    }
    return removed;
  }

  /** BACKUP_DIR's scheduled backups, oldest first. */
  async function scheduledBackups(): Promise<{ path: string; mtimeMs: number }[]> {
    let names: string[];
    try {
      names = await readdir(config.backupDir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
    const found = await Promise.all(
      names
        .filter((name) => SCHEDULED_NAME.test(name))
        .map(async (name) => {
          const path = join(config.backupDir, name);
          return { path, mtimeMs: (await stat(path)).mtimeMs };
        }),
    );
    return found.sort((a, b) => a.mtimeMs - b.mtimeMs || a.path.localeCompare(b.path));
  }

  return {
    backup,
    verify,
    prune,

    /** When the newest scheduled backup was written (epoch ms), or undefined when there is none. */
    async lastScheduledAt(): Promise<number | undefined> {
      return (await scheduledBackups()).at(-1)?.mtimeMs;
    },

    /**
     * One scheduled backup: written into BACKUP_DIR, verified, then older ones pruned. A failure is
     * logged at `error` and counted (`/metrics`); it never throws.
     */
    async runScheduled(): Promise<BackupResult | undefined> {
      try {
        const result = await backup();
        const removed = await prune();
        stats.succeeded += 1;
        stats.lastSuccessAt = clock.now().getTime() / 1000;
        logger.info(
          {
            file: result.file,
            rows: Object.values(result.manifest.rows).reduce((a, b) => a + b, 0),
            files: result.manifest.files.storage === 'local' ? result.manifest.files.count : undefined,
            snapshotMs: Math.round(result.snapshotMs),
            totalMs: Math.round(result.totalMs),
            pruned: removed.length,
          },
          'backup written and verified',
        );
        return result;
      } catch (error) {
        stats.failed += 1;
        logger.error(
          { err: error, backupDir: config.backupDir },
          `BACKUP FAILED: ${(error as Error).message} (the previous backups are kept)`,
        );
        return undefined;
      }
    },

    /** Scheduled backups that succeeded and failed in this process (the metrics read them). */
    backupStats(): BackupStats {
      return { ...stats };
    },
  };
}

export type BackupsService = ReturnType<typeof createBackupsService>;

/**
 * Hard-links every stored file under `from` into `to` (a copy when linking fails, e.g. across file
 * systems). Files are written to a temporary name and renamed (providers/storage/local.ts), never
 * changed in place, so a link is the file as it is now. Dot-files (uploads in progress) and the
 * `skip` directories are left out.
 */
async function linkTree(from: string, to: string, skip: string[]): Promise<{ name: string; path: string }[]> {
  const linked: { name: string; path: string }[] = [];
  async function walk(dir: string): Promise<void> {
    let entries: import('node:fs').Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.name.startsWith('.')) continue;
      const source = join(dir, entry.name);
      if (skip.some((path) => source === path || source.startsWith(`${path}${sep}`))) continue;
      if (entry.isDirectory()) {
        await walk(source);
        continue;
      }
      if (!entry.isFile()) continue;
      const name = relative(from, source).split(sep).join('/');
      const target = join(to, ...name.split('/'));
      await mkdir(dirname(target), { recursive: true, mode: 0o700 });
      try {
        await link(source, target);
      } catch (error) {
        // Removed since it was listed: not part of this instant.
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
        await copyFile(source, target);
      }
      linked.push({ name, path: target });
    }
  }
  await walk(from);
  return linked.sort((a, b) => a.name.localeCompare(b.name));
}
