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
    const database = await openDatabase({
      url,
      ...(options.poolSize ? { poolSize: options.poolSize } : {}),
      statementTimeoutMs: config.dbStatementTimeoutMs,
    });
    return migrated(database);
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

  let database: DatabaseHandle;
  try {
    database = await migrated(await openDatabase({ url, sharedBuffersMb: config.pgliteSharedBuffersMb }));
  } catch (error) {
    lock.release();
    throw error;
  }
  if (opener !== 'service') return withRelease(database, lock, undefined);

  const socketPath = join(dirname(url), SOCKET_NAME);
  if (socketPath.length > MAX_SOCKET_PATH) {
    options.warn?.(
      `${socketPath} is too long for a Unix socket: CLI commands cannot reach this service's database while it runs`,
    );
    return withRelease(database, lock, undefined);
  }
  let server: PgliteSocketServer;
  try {
    server = await servePgliteOnSocket(database.embedded!, socketPath, {
      // A command's trigger NOTIFY (e.g. `user:role` invalidating cached tokens) reaches this process's listeners.
      onNotification: (channel, payload) => void database.notify(channel, payload),
    });
  } catch (error) {
    await database.close();
    lock.release();
    throw error;
  }
  lock.advertise(socketPath);
  return withRelease(database, lock, server);
}

async function migrated(database: DatabaseHandle): Promise<DatabaseHandle> {
  try {
    await database.migrate();
    return database;
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** Closing the database stops sharing, closes PGlite, then frees the data directory. */
function withRelease(
  database: DatabaseHandle,
  lock: DataDirLock,
  server: PgliteSocketServer | undefined,
): DatabaseHandle {
  let closing: Promise<void> | undefined;
  return {
    ...database,
    close() {
      closing ??= (async () => {
        try {
          await server?.close();
          await database.close();
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
  let database: DatabaseHandle | undefined;
  try {
    database = await openSharedPglite(dirname(socket));
    await database.ping();
    return { ...database, directory: dataDir };
  } catch {
    await database?.close().catch(() => {});
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
