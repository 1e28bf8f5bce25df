// The one way a process opens the configured database: the HTTP service, a worker process and the
// CLI all come here. PostgreSQL is opened and migrated as is. An embedded PGlite data directory is
// one process's database, so it is locked: the service takes the lock and shares its database with
// local commands over a Unix socket; a command finds the running service through the lock and
// goes through that socket; any other process that finds the directory held refuses.
import { dirname, join } from 'node:path';
import type { Config } from '../config.js';
import { type DatabaseHandle, databaseUrlOf, openDatabase, openSharedPglite } from './client.js';
import { acquireDataDirLock, DataDirInUse, type DataDirLock, type LockOwner } from './data-dir-lock.js';
import { type PgliteSocketServer, servePgliteOnSocket } from './pglite-socket.js';

/** Who opens: the service shares an embedded database, a command may use a running service's. */
export type Opener = 'service' | 'worker' | 'command';

/** The data directory is held and this process cannot share it: the message is the one line to print. */
export class DatabaseUnavailable extends Error {
  override name = 'DatabaseUnavailable';
}

/** Unix socket paths are limited to about 100 bytes (108 on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;

/** The socket file name node-postgres looks for in a `host=<dir>` directory (port 5432). */
const SOCKET_NAME = '.s.PGSQL.5432';

export interface OpenConfiguredOptions {
  poolSize?: number;
  /** Warnings the opener has for the operator (e.g. a data directory too deep for a socket). */
  warn?: (message: string) => void;
}

export async function openConfiguredDatabase(
  config: Config,
  opener: Opener,
  options: OpenConfiguredOptions = {},
): Promise<DatabaseHandle> {
  const url = databaseUrlOf(config);
  const isEmbeddedDir = config.databaseUrl === undefined;
  if (!isEmbeddedDir) {
    const handle = await openDatabase({
      url,
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      statementTimeoutMs: config.dbStatementTimeoutMs,
    });
    return migrated(handle);
  }

  let lock: DataDirLock;
  try {
    lock = acquireDataDirLock(url);
  } catch (error) {
    if (!(error instanceof DataDirInUse)) throw error;
    if (opener === 'command' && error.owner.socket !== undefined) {
      return reachRunningService(url, error.owner);
    }
    throw new DatabaseUnavailable(inUseMessage(url, error.owner, opener));
  }

  let handle: DatabaseHandle;
  try {
    handle = await migrated(await openDatabase({ url }));
  } catch (error) {
    lock.release();
    throw error;
  }
  if (opener !== 'service') return withRelease(handle, lock, undefined);

  const socketPath = join(dirname(url), SOCKET_NAME);
  if (socketPath.length > MAX_SOCKET_PATH) {
    options.warn?.(
      `${socketPath} is too long for a Unix socket: CLI commands cannot reach this service's database while it runs`,
    );
    return withRelease(handle, lock, undefined);
  }
  let server: PgliteSocketServer;
  try {
    server = await servePgliteOnSocket(handle.embedded!, socketPath, {
      // A command's trigger NOTIFY (e.g. `user:role` invalidating cached tokens) reaches this process's listeners.
      onNotification: (channel, payload) => void handle.notify(channel, payload),
    });
  } catch (error) {
    await handle.close();
    lock.release();
    throw error;
  }
  lock.advertise(socketPath);
  return withRelease(handle, lock, server);
}

async function migrated(handle: DatabaseHandle): Promise<DatabaseHandle> {
  try {
    await handle.migrate();
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Closing the handle stops sharing, closes PGlite, then frees the data directory. */
function withRelease(
  handle: DatabaseHandle,
  lock: DataDirLock,
  server: PgliteSocketServer | undefined,
): DatabaseHandle {
  let closing: Promise<void> | undefined;
  return {
    ...handle,
    close() {
      closing ??= (async () => {
        try {
          await server?.close();
          await handle.close();
        } finally {
          lock.release();
        }
      })();
      return closing;
    },
  };
}

async function reachRunningService(dataDir: string, owner: LockOwner): Promise<DatabaseHandle> {
  const socket = owner.socket as string;
  let handle: DatabaseHandle | undefined;
  try {
    handle = await openSharedPglite(dirname(socket));
    await handle.ping();
    return handle;
  } catch {
    await handle?.close().catch(() => {});
    throw new DatabaseUnavailable(
      `${dataDir} is held by the service running as process ${owner.pid}, but its socket ${socket} does not answer: ` +
        'wait for it to finish starting, or stop it and run the command again',
    );
  }
}

function inUseMessage(dataDir: string, owner: LockOwner, opener: Opener): string {
  const who = `process ${owner.pid}${owner.socket === undefined ? '' : ' (a running service)'}`;
  if (opener === 'command') {
    return `${dataDir} is in use by ${who}, which does not share it: wait for it to finish and run the command again`;
  }
  return (
    `${dataDir} is already in use by ${who}: PGlite is one process's database. ` +
    'Stop the other process, or give this one its own DATA_DIR (or a DATABASE_URL=postgres://…)'
  );
}
