// What a backup says about itself (`manifest.json`, the archive's first member), and the schema
// versions it is compared with: the migrations this code ships (the drizzle journal).
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { VAPID_KEYS_FILE } from '../../config.js';
import { migrationsFolder } from '../../db/client.js';
import { sameDigest } from '../../lib/crypto.js';

/** A refusal with the one line the operator reads (nothing was written when it is thrown). */
export class BackupRefused extends Error {
  override name = 'BackupRefused';
}

export const MANIFEST_NAME = 'manifest.json';
/** Marks an archive as this service's; `format_version` changes when the layout below does. */
export const ARCHIVE_FORMAT = 'pronostics-backup';
export const ARCHIVE_FORMAT_VERSION = 2;
/** Layouts this code restores: 1 held the tables as JSON lines, 2 in COPY text format. */
const READABLE_FORMAT_VERSIONS = [1, 2];

/** Members: `database/tables/<table>.copy` (COPY text format with a header line; layout 1:
 * `<table>.jsonl`, one `row_to_json` line per row), `database/sequences.json`, `files/<storage key>`
 * (local storage), `secrets/<file>` (DATA_DIR's generated secrets). */
export const TABLES_PREFIX = 'database/tables/';
export const COPY_SUFFIX = '.copy';
export const JSONL_SUFFIX = '.jsonl';
export const SEQUENCES_MEMBER = 'database/sequences.json';
export const FILES_PREFIX = 'files/';
export const SECRETS_PREFIX = 'secrets/';

/**
 * DATA_DIR's generated secrets: config.ts writes `app-secret` when APP_SECRET is unset, and the
 * VAPID key pair in development when WEBPUSH_VAPID_* are unset. A restore takes no other name.
 */
export const GENERATED_SECRETS = ['app-secret', VAPID_KEYS_FILE] as const;

export interface Manifest {
  format: typeof ARCHIVE_FORMAT;
  format_version: number;
  /** The release that wrote it (package version, as the health route shows). */
  version: string;
  /** The last migration applied to the database when the snapshot was taken (its journal tag). */
  migration: string;
  /** The snapshot's instant: the database's `now()` in the backup's transaction, microseconds, UTC. */
  created_at: string;
  database: {
    kind: 'pglite' | 'postgres';
    snapshot: 'repeatable read, one transaction';
    /** Layout 2: `copy` when the database wrote the tables itself, `cursor` when this process read them. */
    tables_read_by?: 'copy' | 'cursor';
  };
  /** Rows of each table in the snapshot. */
  rows: Record<string, number>;
  files:
    | { storage: 'local'; count: number; bytes: number }
    | { storage: 's3'; bucket: string | undefined; note: string };
  /** DATA_DIR's generated secrets in the archive (file names under `secrets/`). */
  secrets: string[];
  /** Every other member: its sha256 (hex) and size. */
  members: Record<string, { sha256: string; bytes: number }>;
  /** With BACKUP_KEY: HMAC-SHA256 (hex) of the manifest without this key (`signedBytes`). */
  hmac?: string;
}

/**
 * What the HMAC covers (DESIGN, "Backups"): the manifest without its `hmac` key, as JSON with the
 * keys of every object sorted and no spaces, so a reader re-serializing it gets the same bytes.
 */
export function signedBytes(manifest: Manifest): string {
  const { hmac: _ignored, ...rest } = manifest;
  return JSON.stringify(sortedKeys(rest));
}

function sortedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortedKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, sortedKeys((value as Record<string, unknown>)[key])]),
  );
}

/** The manifest's HMAC under `key`. */
export function manifestHmac(manifest: Manifest, key: string): string {
  return createHmac('sha256', key).update(signedBytes(manifest)).digest('hex');
}

/** How a reader treats the manifest's signature: the key it checks with, and whether to go on without. */
export interface SignaturePolicy {
  /** BACKUP_KEY; undefined when none is configured. */
  key: string | undefined;
  /** `--force-unsigned`: an archive that cannot be authenticated is read all the same. */
  forceUnsigned?: boolean;
  /** Told when an archive is read although it could not be authenticated. */
  warn?: (line: string) => void;
}

/**
 * Refuses (before any member is read) an archive the policy cannot authenticate: with a key, an
 * unsigned manifest or a wrong HMAC; without one, a signed manifest (it cannot be checked).
 * `--force-unsigned` turns each refusal into a warning.
 */
export function checkSignature(file: string, manifest: Manifest, policy: SignaturePolicy): void {
  let fault: string | undefined;
  const signed = manifest.hmac !== undefined;
  if (policy.key === undefined) {
    if (signed) {
      fault = `${file} is signed (its ${MANIFEST_NAME} has an hmac) but BACKUP_KEY is not set, so it cannot be authenticated`;
    }
  } else if (!signed) {
    fault = `${file} is not signed (its ${MANIFEST_NAME} has no hmac) while BACKUP_KEY is set`;
  } else if (
    typeof manifest.hmac !== 'string' ||
    !/^[0-9a-f]{64}$/.test(manifest.hmac) ||
    !sameDigest(manifest.hmac, manifestHmac(manifest, policy.key))
  ) {
    fault = `${file} has a ${MANIFEST_NAME} whose hmac does not match under BACKUP_KEY: forged, changed or signed with another key`;
  }
  if (fault === undefined) return;
  if (!policy.forceUnsigned) {
    throw new BackupRefused(
      `${fault}: restore it with --force-unsigned only if you trust where it came from`,
    );
  }
  policy.warn?.(`${fault}; restored as asked (--force-unsigned)`);
}

/** Parses and checks manifest.json: JSON, this service's format, the fields restore relies on. */
export function readManifest(file: string, bytes: Buffer): Manifest {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw new BackupRefused(`${file} is not a backup of this service: ${MANIFEST_NAME} is not JSON`);
  }
  const manifest = parsed as Partial<Manifest> | null;
  if (manifest?.format !== ARCHIVE_FORMAT) {
    throw new BackupRefused(
      `${file} is not a backup of this service: ${MANIFEST_NAME} is not ${ARCHIVE_FORMAT}'s`,
    );
  }
  if (!READABLE_FORMAT_VERSIONS.includes(manifest.format_version as number)) {
    throw new BackupRefused(
      `${file} is a backup of layout ${manifest.format_version}, this code reads layouts ${READABLE_FORMAT_VERSIONS.join(' and ')}: restore it with the release that made it (${manifest.version})`,
    );
  }
  const wellFormed =
    typeof manifest.migration === 'string' &&
    typeof manifest.version === 'string' &&
    typeof manifest.created_at === 'string' &&
    typeof manifest.members === 'object' &&
    manifest.members !== null &&
    Object.values(manifest.members).every(
      (member) => typeof member?.sha256 === 'string' && Number.isInteger(member?.bytes),
    ) &&
    typeof manifest.rows === 'object' &&
    Array.isArray(manifest.secrets) &&
    // Only the names config.ts writes: a crafted name (`../…`) never reaches a rename in DATA_DIR.
    manifest.secrets.every((name) => (GENERATED_SECRETS as readonly unknown[]).includes(name));
  if (!wellFormed) throw new BackupRefused(`${file} has a ${MANIFEST_NAME} with missing or malformed fields`);
  return manifest as Manifest;
}

export interface JournalEntry {
  idx: number;
  tag: string;
  /** drizzle's `created_at` of the migration: how its table records what was applied. */
  when: number;
}

/** The migrations this code ships, in order. */
export function shippedMigrations(folder: string = migrationsFolder): JournalEntry[] {
  const journal = JSON.parse(readFileSync(join(folder, 'meta', '_journal.json'), 'utf8')) as {
    entries: JournalEntry[];
  };
  return journal.entries.map(({ idx, tag, when }) => ({ idx, tag, when }));
}

/** Refuses an archive whose schema this code does not know (written by a newer release). */
export function knownMigration(file: string, manifest: Manifest, shipped: JournalEntry[]): JournalEntry {
  const found = shipped.find((entry) => entry.tag === manifest.migration);
  if (found) return found;
  const last = shipped.at(-1)?.tag ?? 'none';
  throw new BackupRefused(
    `${file} was written at migration ${manifest.migration} by release ${manifest.version}, newer than this code's last migration ${last}: restore it with release ${manifest.version} or later`,
  );
}
