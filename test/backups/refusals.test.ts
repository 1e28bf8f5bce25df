// What `restore` refuses, each with one line and DATA_DIR left as it was (not even created, no
// generated secret): a corrupted member, a truncated file, a foreign archive or file, a backup
// from a newer schema, a non-empty DATA_DIR (unless --force, which sets the old contents aside).
// `backup` refuses PostgreSQL and memory:// with one line pointing to docs/operations.md.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireDataDirLock, DataDirInUse, lockFileOf } from '../../src/db/data-dir-lock.js';
import { restoreBackup } from '../../src/modules/backups/service.js';
import { createTestApp, signIn, type TestApp } from '../helpers.js';
import { cli, listing, openRestored, rewriteArchive, scratchDir, writeTarGz } from './helpers.js';

let t: TestApp;
let good: string;
let work: string;

beforeAll(async () => {
  const dataDir = scratchDir();
  t = await createTestApp({ config: { dataDir, backupDir: join(dataDir, 'backups') } });
  await signIn(t, { credits: 3 });
  work = scratchDir('pronostics-archives-');
  good = join(work, 'good.tar.gz');
  await t.app.services.backups.backup(good);
});
afterAll(() => t.close());

/** An archive's manifest.json as written. */
async function manifestOf(file: string): Promise<Buffer> {
  const extract = tar.extract();
  const reading = pipeline(createReadStream(file), createGunzip(), extract);
  reading.catch(() => {});
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const chunk of entry as AsyncIterable<Buffer>) parts.push(chunk);
    extract.destroy();
    return Buffer.concat(parts);
  }
  throw new Error('empty archive');
}

/** `restore` into `dataDir` through the CLI: the exit code and the error lines. */
async function restore(dataDir: string, file: string, ...flags: string[]) {
  return cli({ ...t.config, databaseUrl: undefined, dataDir, backupDir: join(dataDir, 'backups') }, [
    'restore',
    file,
    ...flags,
  ]);
}

/** Refused with exactly one line matching `message`, and `dataDir` exactly as before. */
async function expectRefused(file: string, message: RegExp, dataDir = join(scratchDir(), 'data')) {
  const before = listing(dataDir);
  const { code, err, out } = await restore(dataDir, file);
  expect(code).toBe(1);
  expect(out).toEqual([]);
  expect(err).toHaveLength(1);
  expect(err[0]).toMatch(/^Error: /);
  expect(err[0]).not.toContain('\n');
  expect(err[0]).toMatch(message);
  expect(listing(dataDir)).toEqual(before);
}

// A restore builds a PGlite and runs the migrations twice: tens of seconds on a busy machine.
describe('restore refuses', { timeout: 180_000 }, () => {
  it('a corrupted member (its sha256 does not match)', async () => {
    const file = join(work, 'corrupted.tar.gz');
    await rewriteArchive(good, file, (manifest) => {
      const members = manifest.members as Record<string, { sha256: string }>;
      members['database/tables/users.copy']!.sha256 = '0'.repeat(64);
    });
    await expectRefused(file, /is corrupted: database\/tables\/users\.copy does not match its sha256/);
  });

  it('a file damaged on disk (a byte changed in the middle)', async () => {
    const bytes = readFileSync(good);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0xff;
    const file = join(work, 'damaged.tar.gz');
    writeFileSync(file, bytes);
    await expectRefused(file, /is (truncated or )?corrupted/);
  });

  it('a truncated archive', async () => {
    const bytes = readFileSync(good);
    const file = join(work, 'truncated.tar.gz');
    writeFileSync(file, bytes.subarray(0, Math.floor(bytes.length * 0.6)));
    await expectRefused(file, /is truncated or corrupted/);
  });

  it('an archive missing a member its manifest lists', async () => {
    const file = join(work, 'incomplete.tar.gz');
    await rewriteArchive(good, file, (manifest) => {
      (manifest.members as Record<string, unknown>)['database/tables/ghost.jsonl'] = {
        sha256: '0'.repeat(64),
        bytes: 0,
      };
    });
    await expectRefused(file, /is incomplete: database\/tables\/ghost\.jsonl/);
  });

  it('a foreign tar.gz and a file that is no archive at all', async () => {
    const foreign = join(work, 'foreign.tar.gz');
    await writeTarGz(foreign, [{ name: 'notes.txt', bytes: Buffer.from('hello') }]);
    await expectRefused(foreign, /is not a backup of this service: its first member is notes\.txt/);
    const other = join(work, 'other.tar.gz');
    await writeTarGz(other, [{ name: 'manifest.json', bytes: Buffer.from('{"format":"someone-else"}') }]);
    await expectRefused(other, /is not a backup of this service: manifest\.json is not pronostics-backup's/);
    const text = join(work, 'plain.txt');
    writeFileSync(text, 'just text\n');
    await expectRefused(text, /is not a backup of this service: it is not a gzip-compressed tar/);
    await expectRefused(join(work, 'absent.tar.gz'), /cannot read .*absent\.tar\.gz: ENOENT/);
  });

  it('a manifest naming a secret config.ts never writes (a path out of DATA_DIR)', async () => {
    const file = join(work, 'crafted-secret.tar.gz');
    await rewriteArchive(good, file, (manifest) => {
      manifest.secrets = ['../../etc/cron.d/evil'];
    });
    await expectRefused(file, /has a manifest\.json with missing or malformed fields/);
  });

  it('a member larger than its manifest says: refused before it is read', async () => {
    const file = join(work, 'oversized.tar.gz');
    const bytes = Buffer.from('{}'.padEnd(5000, ' '));
    await rewriteArchive(
      good,
      file,
      (manifest) => {
        (manifest.members as Record<string, { bytes: number }>)['database/sequences.json']!.bytes = 2;
      },
      { name: 'database/sequences.json', bytes },
    );
    await expectRefused(file, /is corrupted: database\/sequences\.json is larger than manifest\.json says/);
  });

  it('a gzip bomb: stopped once it decompresses past what its manifest declares', async () => {
    const manifest = await manifestOf(good);
    const file = join(work, 'bomb.tar.gz');
    const pack = tar.pack();
    pack.entry({ name: 'manifest.json' }, manifest);
    pack.finalize();
    const tarBytes: Buffer[] = [];
    for await (const chunk of pack as AsyncIterable<Buffer>) tarBytes.push(chunk);
    // The manifest, then 256 MiB of zeros: a few hundred kilobytes on disk.
    const zeros = Buffer.alloc(1024 * 1024);
    async function* body() {
      yield Buffer.concat(tarBytes);
      for (let i = 0; i < 256; i++) yield zeros;
    }
    await pipeline(Readable.from(body()), createGzip({ level: 1 }), createWriteStream(file));
    await expectRefused(file, /decompresses to more than its manifest\.json declares/);
  });

  it('a backup from a newer schema than the code', async () => {
    const file = join(work, 'newer.tar.gz');
    await rewriteArchive(good, file, (manifest) => {
      manifest.migration = '0099_from_the_future';
      manifest.version = '9.0.0';
    });
    await expectRefused(
      file,
      /written at migration 0099_from_the_future by release 9\.0\.0, newer than this code's last migration \d{4}_\w+: restore it with release 9\.0\.0 or later/,
    );
  });

  it('a non-empty DATA_DIR, unless --force, which sets its contents aside', async () => {
    const dataDir = scratchDir();
    mkdirSync(join(dataDir, 'files'));
    writeFileSync(join(dataDir, 'files', 'kept.txt'), 'old');
    writeFileSync(join(dataDir, 'app-secret'), 'old-secret\n');
    await expectRefused(
      good,
      /is not empty \(it holds app-secret, files\): restore into an empty DATA_DIR, or add --force/,
      dataDir,
    );

    const forced = await restore(dataDir, good, '--force');
    expect(forced.err).toEqual([]);
    expect(forced.code).toBe(0);
    const aside = forced.out.find((line) => line.startsWith('The previous database'))!;
    const asideDir = /in (\S+)\.$/.exec(aside)![1]!;
    expect(readFileSync(join(asideDir, 'files', 'kept.txt'), 'utf8')).toBe('old');
    expect(readFileSync(join(asideDir, 'app-secret'), 'utf8')).toBe('old-secret\n');
    const database = await openRestored(dataDir);
    await database.close();
  });

  it('nothing in DATA_DIR but BACKUP_DIR counts as empty (restoring from DATA_DIR/backups)', async () => {
    const dataDir = scratchDir();
    mkdirSync(join(dataDir, 'backups'));
    const file = join(dataDir, 'backups', 'latest.tar.gz');
    copyFileSync(good, file);
    const result = await restoreBackup({ file, dataDir, backupDir: join(dataDir, 'backups') });
    expect(result.manifest.migration).toMatch(/^\d{4}_/);
    expect(listing(dataDir)).toContain('pglite');
  });
});

describe('backup refuses', () => {
  it('a backup to a named file in a shared folder: the file 0600, the folder left as it was', async () => {
    const shared = join(scratchDir('pronostics-shared-'), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    const file = join(shared, 'x.tar.gz');
    await t.app.services.backups.backup(file);
    expect(statSync(shared).mode & 0o7777).toBe(0o1777);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a restore holds the DATA_DIR lock while it writes: a service starting meanwhile is refused', async () => {
    const dataDir = join(scratchDir(), 'data');
    const database = join(dataDir, 'pglite');
    let settled = false;
    const restoring = restoreBackup({ file: good, dataDir, backupDir: join(dataDir, 'backups') }).finally(
      () => {
        settled = true;
      },
    );
    let refused: unknown;
    while (!settled && refused === undefined) {
      // Only while the lock is there: taking it first would make the restore the one refused.
      if (existsSync(lockFileOf(database))) {
        try {
          acquireDataDirLock(database).release();
          refused = 'opened';
        } catch (error) {
          refused = error;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await restoring;
    expect(refused).toBeInstanceOf(DataDirInUse);
    // Released at the end: the service opens what was restored.
    expect(existsSync(lockFileOf(database))).toBe(false);
    acquireDataDirLock(database).release();
  });

  it('PostgreSQL and memory:// with one line', async () => {
    const postgres = await cli({ ...t.config, databaseUrl: 'postgres://db.example/app' }, ['backup']);
    expect(postgres.code).toBe(1);
    expect(postgres.err).toEqual([
      'Error: backup is for the embedded database: on PostgreSQL use pg_dump or base backups with WAL archiving, and back up the files at the same instant (docs/operations.md, "Backups")',
    ]);
    const memory = await cli({ ...t.config, databaseUrl: 'memory://' }, ['backup']);
    expect(memory.err).toEqual([
      'Error: DATABASE_URL=memory:// is a throw-away database: there is nothing to back up',
    ]);
  });
});

describe('npm run cli -- restore, as a process', { timeout: 60_000 }, () => {
  it('refuses a damaged archive without generating APP_SECRET into DATA_DIR', async () => {
    const dataDir = scratchDir();
    const file = join(work, 'truncated-for-process.tar.gz');
    writeFileSync(file, readFileSync(good).subarray(0, 200));
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: dataDir,
      APP_ENV: 'development',
      LOG_LEVEL: 'silent',
    };
    delete env.DATABASE_URL;
    delete env.APP_SECRET;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/index.ts', 'restore', file], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).toBe(1);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^Error: .*truncated-for-process\.tar\.gz is truncated or corrupted/);
    expect(listing(dataDir)).toEqual([]);
  });
});
