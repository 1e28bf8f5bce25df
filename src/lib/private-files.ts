// The service's own files are its own: DATA_DIR and what it creates under it (the database, the
// generated secret, uploads, the development outbox, the lock file) are readable by the service's
// user alone, so another local account can neither read personal data nor reach the embedded
// database's socket.
import { chmodSync, mkdirSync, statSync } from 'node:fs';

/** Directories: owner only. */
export const PRIVATE_DIR_MODE = 0o700;
/** Files: owner read and write only. */
export const PRIVATE_FILE_MODE = 0o600;

/**
 * Creates `dir` (and missing parents) owner-only; an existing directory the service owns loses any
 * group or other access it had (an operator's own mount point owned by someone else is left alone).
 */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const stat = statSync(dir);
  if ((stat.mode & 0o077) !== 0 && stat.uid === process.getuid?.()) chmodSync(dir, stat.mode & 0o700);
}
