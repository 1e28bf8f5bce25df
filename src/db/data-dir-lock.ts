// The lock on an embedded PGlite data directory: PGlite is one process's database, and a second
// process opening the same files writes changes the first never sees (and overwrites at its next
// sync). The lock is a file beside the directory, created exclusively, holding its owner's pid and,
// once a service shares its database with local commands, the socket they reach it on.

import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';

export interface LockOwner {
  pid: number;
  host: string;
  /** The Unix socket a running service answers local commands on; absent while it starts. */
  socket?: string;
  /** Which run of the process wrote it: a lock with this process's pid is its own only with its nonce. */
  nonce?: string;
}

/**
 * This process's nonce, written in the locks it takes. A lock naming this pid but another nonce
 * was left by an earlier process that had the same pid (a container's pid 1 restarted): stale.
 */
const PROCESS_NONCE = randomUUID();

export interface DataDirLock {
  readonly file: string;
  /** Records the socket local commands may use (written atomically, the lock stays held). */
  advertise(socket: string): void;
  release(): void;
}

/** The data directory is held by another live process: `owner` says which. */
export class DataDirInUse extends Error {
  override name = 'DataDirInUse';
  constructor(
    readonly dataDir: string,
    readonly owner: LockOwner,
  ) {
    super(`${dataDir} is in use by process ${owner.pid}`);
  }
}

export function lockFileOf(dataDir: string): string {
  return `${dataDir}.lock`;
}

/** The owner recorded in a lock file, or undefined when there is none (or it is unreadable). */
export function readLockOwner(file: string): LockOwner | undefined {
  try {
    const owner = JSON.parse(readFileSync(file, 'utf8')) as LockOwner;
    return Number.isInteger(owner.pid) ? owner : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote a lock still runs (a lock written on another host counts as live). */
export function isLive(owner: LockOwner): boolean {
  if (owner.host !== hostname()) return true;
  if (owner.pid === process.pid) return owner.nonce === PROCESS_NONCE;
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function createExclusive(file: string, owner: LockOwner): boolean {
  try {
    const fd = openSync(file, 'wx', 0o600);
    try {
      writeFileSync(fd, JSON.stringify(owner));
    } finally {
      closeSync(fd);
    }
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

/**
 * Removes a lock left by a dead process. Two processes may find the same stale lock: the removal
 * is itself guarded by an exclusive `.takeover` file, so only one of them deletes it, and the
 * other then meets the winner's fresh lock.
 */
function removeStale(file: string, stale: LockOwner): void {
  const guard = `${file}.takeover`;
  if (!createExclusive(guard, { pid: process.pid, host: hostname(), nonce: PROCESS_NONCE })) {
    const holder = readLockOwner(guard);
    // A takeover interrupted by a crash leaves its guard behind; a dead holder's guard is cleared.
    if (holder === undefined || !isLive(holder)) unlinkSync(guard);
    return;
  }
  try {
    const current = readLockOwner(file);
    if (current?.pid === stale.pid && current.host === stale.host) unlinkSync(file);
  } finally {
    unlinkSync(guard);
  }
}

/** Takes the lock on a PGlite data directory, or throws DataDirInUse naming the live owner. */
export function acquireDataDirLock(dataDir: string): DataDirLock {
  const file = lockFileOf(dataDir);
  const mine: LockOwner = { pid: process.pid, host: hostname(), nonce: PROCESS_NONCE };
  for (let attempt = 0; attempt < 5; attempt++) {
    if (createExclusive(file, mine)) {
      let held = true;
      return {
        file,
        advertise(socket) {
          const next = `${file}.${process.pid}.tmp`;
          writeFileSync(next, JSON.stringify({ ...mine, socket }), { mode: 0o600 });
          renameSync(next, file);
        },
        release() {
          if (!held) return;
          held = false;
          const owner = readLockOwner(file);
          if (owner?.pid === process.pid && owner.host === mine.host) unlinkSync(file);
        },
      };
    }
    const owner = readLockOwner(file);
    // Unreadable: its writer is between creating and filling it; look again.
    if (owner === undefined) continue;
    if (isLive(owner)) throw new DataDirInUse(dataDir, owner);
    removeStale(file, owner);
  }
  const owner = readLockOwner(file);
  throw new DataDirInUse(dataDir, owner ?? { pid: 0, host: hostname() });
}
