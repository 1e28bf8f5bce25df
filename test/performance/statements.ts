// A recorder of the SQL statements the app runs, transactions' own BEGIN and COMMIT included, on
// either database: node-postgres (every `Client.query`, pool reads and transactions' connections
// alike) or PGlite (every protocol message that runs something: a simple query, an unnamed Parse,
// a named statement's Bind; a named statement's one-time Parse is not a run). Counted, not timed.
import pg from 'pg';
import type { DatabaseHandle } from '../../src/db/client.js';

export interface StatementRecorder {
  /**
   * The statements run since the last `take`, in order: their SQL text, or a named statement's name
   * when only its name is sent (PGlite's Bind outside a transaction).
   */
  take(): string[];
  stop(): void;
}

/** Reads a NUL-terminated string at `at` in a protocol message. */
function cString(message: Uint8Array, at: number): { text: string; end: number } {
  let end = at;
  while (end < message.length && message[end] !== 0) end += 1;
  return { text: Buffer.from(message.subarray(at, end)).toString('utf8'), end: end + 1 };
}

/** What one frontend message to PGlite runs, if anything (type byte, int32 length, body). */
function embeddedRun(message: Uint8Array): string | undefined {
  const type = String.fromCharCode(message[0] ?? 0);
  if (type === 'Q') return cString(message, 5).text;
  if (type === 'P') {
    const name = cString(message, 5);
    return name.text === '' ? cString(message, name.end).text : undefined;
  }
  if (type === 'B') {
    const portal = cString(message, 5);
    const statement = cString(message, portal.end).text;
    // An unnamed Bind follows its own Parse, already recorded.
    return statement === '' ? undefined : statement;
  }
  return undefined;
}

type Raw = (message: Uint8Array, ...rest: unknown[]) => unknown;

export function recordStatements(handle: DatabaseHandle): StatementRecorder {
  let runs: string[] = [];
  const client = (handle.db as unknown as { $client: unknown }).$client;
  const undo: (() => void)[] = [];
  if (client instanceof pg.Pool) {
    const query = pg.Client.prototype.query;
    pg.Client.prototype.query = function recorded(this: pg.Client, ...args: unknown[]) {
      const [first] = args;
      const config = first as { name?: string; text?: string };
      // A named statement's text when the call carries it, as PGlite's run inside a transaction does.
      runs.push(typeof first === 'string' ? first : (config.text ?? String(config.name)));
      return (query as unknown as (...a: unknown[]) => unknown).apply(this, args);
    } as typeof query;
    undo.push(() => {
      pg.Client.prototype.query = query;
    });
  } else {
    const embedded = client as Record<'execProtocolRaw' | 'execProtocolRawStream', Raw>;
    for (const method of ['execProtocolRaw', 'execProtocolRawStream'] as const) {
      const original = embedded[method];
      embedded[method] = (message: Uint8Array, ...rest: unknown[]) => {
        const run = embeddedRun(message);
        if (run !== undefined) runs.push(run);
        return original.apply(client, [message, ...rest]);
      };
      undo.push(() => {
        embedded[method] = original;
      });
    }
  }
  return {
    take() {
      const taken = runs;
      runs = [];
      return taken;
    },
    stop() {
      for (const step of undo) step();
    },
  };
}
