// Shares a running service's embedded PGlite with local commands over a Unix socket, speaking the
// PostgreSQL wire protocol so the commands use node-postgres as on a real server.
//
// PGlite is one backend with one session, so a client's turn must not interleave with the
// service's own queries: a turn holds PGlite's transaction mutex (the one its query(), exec() and
// transaction() take) from the client's first message until the backend is idle again, i.e. until
// a ReadyForQuery with status 'I'. An extended-protocol exchange (Parse … Sync) or an explicit
// transaction therefore runs whole, and the service's requests wait for it, as they would for a row
// lock. (@electric-sql/pglite-socket takes only the per-message lock, so the service's queries
// could run inside a command's transaction; it also pins another PGlite version.)
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import type { PGlite } from '@electric-sql/pglite';

const SSL_REQUEST = 80877103;
const PROTOCOL_3 = 196608;
const READY_FOR_QUERY = 0x5a; // 'Z'
const TERMINATE = 0x58; // 'X'
const IDLE = 0x49; // 'I'
const NOTIFICATION_RESPONSE = 0x41; // 'A'

export interface SocketServerOptions {
  /** A client that holds the database in a transaction and sends nothing for this long is cut off. */
  idleInTransactionMs?: number;
  /**
   * A NOTIFY raised by a command's statement (a trigger's): the one session's notifications come
   * back in that command's answer, so they are handed to the service's listeners from here.
   */
  onNotification?: (channel: string, payload: string) => void;
}

export interface PgliteSocketServer {
  readonly path: string;
  close(): Promise<void>;
}

/** A simple-protocol query message (`Q`), for the ROLLBACK of an abandoned transaction. */
function queryMessage(sql: string): Uint8Array {
  const text = Buffer.from(`${sql}\0`, 'utf8');
  const message = Buffer.alloc(5 + text.length);
  message[0] = 0x51;
  message.writeInt32BE(4 + text.length, 1);
  text.copy(message, 5);
  return message;
}

/** The length of the next complete message in `buffer`, or 0 when it is not all there yet. */
function nextMessageLength(buffer: Buffer, typed: boolean): number {
  if (!typed) {
    if (buffer.length < 4) return 0;
    const length = buffer.readInt32BE(0);
    return buffer.length >= length ? length : 0;
  }
  if (buffer.length < 5) return 0;
  const length = 1 + buffer.readInt32BE(1);
  return buffer.length >= length ? length : 0;
}

/** Whether the backend's answer ends on ReadyForQuery 'I': no transaction is open any more. */
function endsIdle(chunks: Uint8Array[]): boolean {
  const answer = Buffer.concat(chunks);
  const n = answer.length;
  return n >= 6 && answer[n - 6] === READY_FOR_QUERY && answer[n - 1] === IDLE;
}

/** The NotificationResponse messages ('A': pid, channel, payload) in a backend's answer. */
export function notificationsIn(answer: Buffer): { channel: string; payload: string }[] {
  const found: { channel: string; payload: string }[] = [];
  let at = 0;
  while (at + 5 <= answer.length) {
    const length = answer.readInt32BE(at + 1);
    if (answer[at] === NOTIFICATION_RESPONSE) {
      const body = answer.subarray(at + 9, at + 1 + length);
      const end = body.indexOf(0);
      found.push({
        channel: body.subarray(0, end).toString('utf8'),
        payload: body.subarray(end + 1, body.indexOf(0, end + 1)).toString('utf8'),
      });
    }
    at += 1 + length;
  }
  return found;
}

export async function servePgliteOnSocket(
  pglite: PGlite,
  path: string,
  options: SocketServerOptions = {},
): Promise<PgliteSocketServer> {
  const idleInTransactionMs = options.idleInTransactionMs ?? 30_000;
  const connections = new Set<Socket>();

  /** Waits for the database and returns the function that gives it back. */
  function takeTurn(): Promise<() => void> {
    return new Promise((granted) => {
      void pglite._runExclusiveTransaction(() => new Promise<void>((release) => granted(() => release())));
    });
  }

  async function execute(message: Uint8Array): Promise<Uint8Array[]> {
    const chunks: Uint8Array[] = [];
    await pglite.runExclusive(() =>
      pglite.execProtocolRawStream(message, { onRawData: (data) => chunks.push(data.slice()) }),
    );
    return chunks;
  }

  function serve(socket: Socket): void {
    connections.add(socket);
    let buffer = Buffer.alloc(0);
    // The first messages (SSLRequest, StartupMessage) have no type byte; every later one has.
    let typed = false;
    let release: (() => void) | undefined;
    // Messages of one connection run one after the other.
    let queue: Promise<void> = Promise.resolve();

    async function handle(message: Buffer, untyped: boolean): Promise<void> {
      if (socket.destroyed) return;
      if (untyped) {
        const code = message.readInt32BE(4);
        if (code === SSL_REQUEST) {
          socket.write('N');
          return;
        }
        if (code !== PROTOCOL_3) {
          // A CancelRequest (there is no other backend to interrupt) or an unknown protocol.
          socket.end();
          return;
        }
      } else if (message[0] === TERMINATE) {
        socket.end();
        return;
      }
      release ??= await takeTurn();
      const answer = await execute(message);
      for (const chunk of answer) socket.write(chunk);
      if (options.onNotification) {
        for (const { channel, payload } of notificationsIn(Buffer.concat(answer))) {
          options.onNotification(channel, payload);
        }
      }
      if (endsIdle(answer)) {
        release();
        release = undefined;
      }
    }

    /** A connection that leaves mid-transaction has it rolled back before the service goes on. */
    async function finish(): Promise<void> {
      connections.delete(socket);
      if (!release) return;
      try {
        if (pglite.isInTransaction()) await execute(queryMessage('ROLLBACK'));
      } finally {
        release();
        release = undefined;
      }
    }

    socket.setNoDelay(true);
    socket.on('data', (data: Buffer) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        const length = nextMessageLength(buffer, typed);
        if (length === 0) break;
        const message = buffer.subarray(0, length);
        buffer = buffer.subarray(length);
        const untyped = !typed;
        if (untyped && message.length >= 8 && message.readInt32BE(4) === PROTOCOL_3) typed = true;
        queue = queue
          .then(() => handle(message, untyped))
          .catch(() => {
            socket.destroy();
          });
      }
    });
    socket.setTimeout(idleInTransactionMs, () => {
      if (release) socket.destroy();
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      queue = queue.then(finish, finish);
    });
  }

  // Only this process holds the data-directory lock, so a socket file left here is a dead one's.
  rmSync(path, { force: true });
  const server: Server = createServer(serve);
  // Only the service's own user may connect: the socket bypasses every rule of the API. It is
  // created owner-only (the umask is narrowed while it is bound), so no other local user can
  // connect in a window before a chmod; the chmod stays for file systems that ignore the umask.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const umask = process.umask(0o177);
    try {
      server.listen(path, () => {
        server.off('error', reject);
        resolve();
      });
    } finally {
      process.umask(umask);
    }
  });
  chmodSync(path, 0o600);

  return {
    path,
    async close() {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      for (const socket of connections) socket.destroy();
      await closed;
    },
  };
}
