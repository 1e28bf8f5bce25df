// The backup archive on disk: a gzip-compressed tar (readable by `tar -xzf`), `manifest.json`
// first, then the members it lists with their sha256. Writing goes to a `.partial` file beside the
// target (owner-only), flushed and renamed into place, so a crash never leaves half an archive
// under a backup's name. Reading streams the archive once, checks every member against the
// manifest, and turns what a damaged or foreign file does to gzip and tar into one line. A backup
// writes its archive on a worker thread (`writeArchiveOffThread`, archive-thread.ts).
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { chmod, open, rename, rm } from 'node:fs/promises';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { Worker } from 'node:worker_threads';
import { createGunzip, createGzip } from 'node:zlib';
import tar from 'tar-stream';
import {
  BackupRefused,
  checkSignature,
  MANIFEST_NAME,
  type Manifest,
  manifestHmac,
  readManifest,
} from './manifest.js';

/** A member staged on disk, with what the manifest records of it. */
export interface StagedMember {
  name: string;
  path: string;
  sha256: string;
  bytes: number;
}

/** What the archive thread is given: the manifest but its members, and the staged members. */
export interface ArchiveJob {
  target: string;
  manifest: Omit<Manifest, 'members'>;
  members: { name: string; path: string }[];
  /** BACKUP_KEY: the manifest is signed with it (it goes to the thread in memory, never to disk). */
  backupKey?: string;
}

export type ArchiveJobResult = { manifest: Manifest } | { error: string; refused: boolean };

/** Hashes every member, writes the archive at `target` and reads it back; returns its manifest. */
export async function buildArchive(job: ArchiveJob): Promise<Manifest> {
  const staged: StagedMember[] = [];
  for (const member of job.members) staged.push(await hashMember(member.path, member.name));
  const manifest: Manifest = {
    ...job.manifest,
    members: Object.fromEntries(staged.map((m) => [m.name, { sha256: m.sha256, bytes: m.bytes }])),
  };
  if (job.backupKey !== undefined) manifest.hmac = manifestHmac(manifest, job.backupKey);
  await writeArchive(job.target, manifest, staged);
  await readArchive(job.target, (read) => checkSignature(job.target, read, { key: job.backupKey }));
  return manifest;
}

/**
 * `buildArchive` on a worker thread of its own (archive-thread.ts), so the service's event loop
 * keeps answering while a large backup is compressed. Under tsx (development, tests) the thread
 * runs the TypeScript entry with tsx's loader; built, the compiled one.
 */
export function writeArchiveOffThread(job: ArchiveJob): Promise<Manifest> {
  const typescript = import.meta.url.endsWith('.ts');
  const entry = new URL(typescript ? './archive-thread.ts' : './archive-thread.js', import.meta.url);
  const thread = typescript
    ? new Worker(
        `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`,
        { eval: true },
      )
    : new Worker(entry);
  return new Promise<Manifest>((resolve, reject) => {
    let answered = false;
    thread.once('message', (answer: ArchiveJobResult) => {
      answered = true;
      if ('manifest' in answer) resolve(answer.manifest);
      else reject(answer.refused ? new BackupRefused(answer.error) : new Error(answer.error));
      void thread.terminate();
    });
    thread.once('error', (error) => {
      answered = true;
      reject(error);
    });
    thread.once('exit', (code) => {
      if (!answered) reject(new Error(`the archive thread exited with code ${code}`));
    });
    thread.postMessage(job);
  });
}

/** A staged file's manifest entry: its sha256 and size. */
export async function hashMember(path: string, name: string): Promise<StagedMember> {
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of createReadStream(path) as AsyncIterable<Buffer>) {
    hash.update(chunk);
    bytes += chunk.length;
  }
  return { name, path, sha256: hash.digest('hex'), bytes };
}

/** Writes `manifest` then each member into a new archive at `target` (mode 0600). */
export async function writeArchive(
  target: string,
  manifest: Manifest,
  members: StagedMember[],
): Promise<void> {
  const partial = `${target}.partial`;
  const pack = tar.pack();
  const written = pipeline(
    pack,
    createGzip({ level: 6 }),
    createWriteStream(partial, { flags: 'wx', mode: 0o600 }),
  );
  const mtime = new Date(manifest.created_at);
  try {
    const manifestBytes = Buffer.from(`${JSON.stringify(manifest, null, 2)}\n`);
    await entry(pack, { name: MANIFEST_NAME, size: manifestBytes.length, mode: 0o600, mtime }, manifestBytes);
    for (const member of members) {
      await entry(pack, { name: member.name, size: member.bytes, mode: 0o600, mtime }, member.path);
    }
    pack.finalize();
    await written;
    const handle = await open(partial, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await chmod(partial, 0o600);
    await rename(partial, target);
  } catch (error) {
    pack.destroy();
    await written.catch(() => {});
    await rm(partial, { force: true });
    throw error;
  }
}

function entry(
  pack: tar.Pack,
  header: Parameters<tar.Pack['entry']>[0],
  content: Buffer | string,
): Promise<void> {
  return new Promise((resolve, reject) => {
    if (Buffer.isBuffer(content)) {
      pack.entry(header, content, (error) => (error ? reject(error) : resolve()));
      return;
    }
    const sink = pack.entry(header, (error) => (error ? reject(error) : resolve()));
    pipeline(createReadStream(content), sink).catch(reject);
  });
}

/** What a reader does with each member once the manifest is known (its bytes, in order). */
export type MemberVisitor = (name: string, chunks: AsyncIterable<Buffer>) => Promise<void>;

/**
 * Reads the archive at `file` once: the manifest (checked by `accept` before any member is read),
 * then every member, each hashed while `visit` (if any) reads it. Throws BackupRefused with one
 * line when the file is not gzip, is cut short or damaged, lacks its manifest, or when a member is
 * missing, unlisted or does not match its sha256. The visitor's own effects happen before the
 * archive is known to be whole: a caller that must not act on a bad archive reads it twice.
 */
/** The largest manifest.json read: a real one is a few kilobytes. */
export const MANIFEST_MAX_BYTES = 1024 * 1024;
/** What tar adds around the members it holds: headers, padding, the end blocks. */
const TAR_OVERHEAD_BYTES = 64 * 1024;

export async function readArchive(
  file: string,
  accept: (manifest: Manifest) => void,
  visit?: MemberVisitor,
): Promise<Manifest> {
  await refuseNonGzip(file);
  const extract = tar.extract();
  // The whole archive decompresses to at most what its manifest declares, and to at most a
  // manifest's size before it is read: a gzip bomb is stopped there, not when the disk is full.
  let allowed = MANIFEST_MAX_BYTES + TAR_OVERHEAD_BYTES;
  let inflated = 0;
  let tooLarge = false;
  const bounded = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      inflated += chunk.length;
      if (inflated > allowed) {
        tooLarge = true;
        done(new Error('decompressed past its manifest'));
      } else done(null, chunk);
    },
  });
  const feeding = pipeline(createReadStream(file), createGunzip(), bounded, extract);
  feeding.catch(() => {});
  let manifest: Manifest | undefined;
  const seen = new Set<string>();
  try {
    for await (const member of extract) {
      const name = member.header.name;
      if (manifest === undefined) {
        if (name !== MANIFEST_NAME) {
          throw new BackupRefused(
            `${file} is not a backup of this service: its first member is ${name}, not ${MANIFEST_NAME}`,
          );
        }
        const bytes = await collectAtMost(member as AsyncIterable<Buffer>, MANIFEST_MAX_BYTES, file, name);
        manifest = readManifest(file, bytes);
        accept(manifest);
        const declared = Object.values(manifest.members).reduce((sum, entry) => sum + entry.bytes, 0);
        allowed = bytes.length + declared + TAR_OVERHEAD_BYTES * (2 + Object.keys(manifest.members).length);
        continue;
      }
      const expected = manifest.members[name];
      if (!expected || member.header.type !== 'file') {
        throw new BackupRefused(
          `${file} holds ${name}, which its manifest does not list: not an archive to trust`,
        );
      }
      if (seen.has(name)) throw new BackupRefused(`${file} holds ${name} twice: not an archive to trust`);
      seen.add(name);
      const hash = createHash('sha256');
      let bytes = 0;
      const larger = () =>
        new BackupRefused(`${file} is corrupted: ${name} is larger than ${MANIFEST_NAME} says`);
      if ((member.header.size ?? 0) > expected.bytes) throw larger();
      const hashed = (async function* () {
        for await (const chunk of member as AsyncIterable<Buffer>) {
          bytes += chunk.length;
          // Never read past the declared size, whatever the tar header says.
          if (bytes > expected.bytes) throw larger();
          hash.update(chunk);
          yield chunk;
        }
      })();
      if (visit) await visit(name, hashed);
      // Whatever the visitor left unread is still hashed.
      for await (const _ of hashed);
      if (hash.digest('hex') !== expected.sha256 || bytes !== expected.bytes) {
        throw new BackupRefused(
          `${file} is corrupted: ${name} does not match its sha256 in ${MANIFEST_NAME}`,
        );
      }
    }
    await feeding;
  } catch (error) {
    extract.destroy();
    if (error instanceof BackupRefused) throw error;
    if (tooLarge) {
      throw new BackupRefused(
        `${file} decompresses to more than its ${MANIFEST_NAME} declares: not an archive to trust`,
      );
    }
    throw new BackupRefused(`${file} is truncated or corrupted: ${describe(error)}`);
  }
  if (manifest === undefined) throw new BackupRefused(`${file} is not a backup of this service: it is empty`);
  const missing = Object.keys(manifest.members).find((name) => !seen.has(name));
  if (missing !== undefined) {
    throw new BackupRefused(`${file} is incomplete: ${missing}, listed in ${MANIFEST_NAME}, is not in it`);
  }
  return manifest;
}

async function refuseNonGzip(file: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    throw new BackupRefused(
      `cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? describe(error)}`,
    );
  }
  try {
    const head = Buffer.alloc(2);
    const { bytesRead } = await handle.read(head, 0, 2, 0);
    if (bytesRead < 2 || head[0] !== 0x1f || head[1] !== 0x8b) {
      throw new BackupRefused(`${file} is not a backup of this service: it is not a gzip-compressed tar`);
    }
  } finally {
    await handle.close();
  }
}

/** A member read whole, refused past `max` bytes (before anything parses it). */
export async function collectAtMost(
  chunks: AsyncIterable<Buffer>,
  max: number,
  file: string,
  name: string,
): Promise<Buffer> {
  const parts: Buffer[] = [];
  let total = 0;
  for await (const chunk of chunks) {
    total += chunk.length;
    if (total > max)
      throw new BackupRefused(`${file} holds a ${name} over ${max} bytes: not an archive to trust`);
    parts.push(chunk);
  }
  return Buffer.concat(parts);
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0] ?? message;
}
