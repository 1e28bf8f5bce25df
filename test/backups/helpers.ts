// Shared by the backup tests: a CLI run captured in memory, a restored database opened, and
// archives rewritten (a manifest changed, with checksums that still match) to plant bad backups.
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { vi } from 'vitest';
import { createCliContext } from '../../src/cli/context.js';
import { runCli } from '../../src/cli/index.js';
import type { Config } from '../../src/config.js';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import type { ManualClock } from '../../src/lib/clock.js';

export function scratchDir(prefix = 'pronostics-backup-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** The names in a directory, or null when it does not exist: what "untouched" is checked against. */
export function listing(dir: string): string[] | null {
  try {
    return readdirSync(dir, { recursive: true }).map(String).sort();
  } catch {
    return null;
  }
}

/** Runs one CLI command in this process; returns its exit code, output lines and error lines. */
export async function cli(
  config: Config,
  argv: string[],
  options: { database?: DatabaseHandle; clock?: ManualClock } = {},
): Promise<{ code: number; out: string[]; err: string[] }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void err.push(args.join(' ')));
  try {
    const code = await runCli(
      argv,
      createCliContext(config, {
        ...(options.database ? { database: options.database } : {}),
        ...(options.clock ? { clock: options.clock } : {}),
        out: (line) => out.push(line),
      }),
    );
    return { code, out, err };
  } finally {
    vi.restoreAllMocks();
  }
}

/** The restored embedded database of `dataDir`, opened (and migrated, as every process does). */
export async function openRestored(dataDir: string): Promise<DatabaseHandle> {
  const database = await openDatabase({ url: join(dataDir, 'pglite') });
  await database.migrate();
  return database;
}

/**
 * Copies an archive, giving `change` its manifest to edit; members are copied as they are, and
 * `member` may replace one's bytes (the manifest's sha256 then updated to match, so only the
 * planted fault remains).
 */
export async function rewriteArchive(
  from: string,
  to: string,
  change: (manifest: Record<string, unknown>) => void,
  member?: { name: string; bytes: Buffer },
): Promise<void> {
  const entries: { name: string; bytes: Buffer }[] = [];
  const extract = tar.extract();
  const reading = pipeline(createReadStream(from), createGunzip(), extract);
  for await (const entry of extract) {
    const parts: Buffer[] = [];
    for await (const chunk of entry as AsyncIterable<Buffer>) parts.push(chunk);
    entries.push({ name: entry.header.name, bytes: Buffer.concat(parts) });
  }
  await reading;
  const manifest = JSON.parse(entries[0]!.bytes.toString('utf8'));
  if (member) {
    const found = entries.find((entry) => entry.name === member.name)!;
    found.bytes = member.bytes;
    manifest.members[member.name] = {
      sha256: createHash('sha256').update(member.bytes).digest('hex'),
      bytes: member.bytes.length,
    };
  }
  change(manifest);
  entries[0]!.bytes = Buffer.from(JSON.stringify(manifest));
  await writeTarGz(to, entries);
}

export async function writeTarGz(to: string, entries: { name: string; bytes: Buffer }[]): Promise<void> {
  const pack = tar.pack();
  const writing = pipeline(pack, createGzip(), createWriteStream(to));
  for (const entry of entries) pack.entry({ name: entry.name }, entry.bytes);
  pack.finalize();
  await writing;
}
