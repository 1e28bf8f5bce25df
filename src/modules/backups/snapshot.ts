// The database's part of a backup: every table of the `public` schema and every sequence, read in
// one REPEATABLE READ transaction, so the copy is one instant's view (a payment, its ledger rows and
// the balances they moved are all in it or all out). Each table is read through a cursor, a page
// of rows at a time, as `row_to_json` lines written to a staged file; the tables are listed from
// the catalogue, so a table added by a later migration is backed up without a change here.
//
// On PGlite the transaction holds the database's one session (in the service, or through its
// socket for a CLI command) until it commits: requests wait meanwhile. That time is returned
// (`snapshotMs`) and logged, and the files are copied outside it.
import { createHash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import type { Database, Executor } from '../../db/client.js';
import type { StagedMember } from './archive.js';
import { BackupRefused, type JournalEntry, SEQUENCES_MEMBER, TABLES_PREFIX } from './manifest.js';

/** Rows fetched from the cursor at a time: a few MB of text at most for the widest table. */
const FETCH_ROWS = 5000;

export interface DatabaseSnapshot {
  createdAt: string;
  migration: string;
  rows: Record<string, number>;
  members: StagedMember[];
  /** How long the transaction held the database, milliseconds. */
  snapshotMs: number;
}

type Row = Record<string, unknown>;

async function rowsOf<R extends Row>(db: Executor, text: string): Promise<R[]> {
  return ((await db.execute(sql.raw(text))) as unknown as { rows: R[] }).rows;
}

const quoted = (name: string) => `"${name.replaceAll('"', '""')}"`;

/**
 * Reads the whole database into `staging` (one file per table, one for the sequences) within one
 * transaction. `atSnapshot` runs inside it, right after the snapshot is taken: the stored files
 * are linked then, so they are those of the same instant.
 */
export async function snapshotDatabase(
  db: Database,
  staging: string,
  shipped: JournalEntry[],
  atSnapshot: () => Promise<void>,
): Promise<DatabaseSnapshot> {
  const started = performance.now();
  const result = await db.transaction(
    async (tx) => {
      // The first statement fixes the snapshot of a REPEATABLE READ transaction.
      const [instant] = await rowsOf<{ at: string }>(
        tx,
        `SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS at`,
      );
      await atSnapshot();
      const migration = await lastMigration(tx, shipped);
      const tables = await rowsOf<{ name: string }>(
        tx,
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY c.relname`,
      );
      const sequences = await rowsOf<{ name: string; last_value: string | null }>(
        tx,
        `SELECT sequencename AS name, last_value::text AS last_value FROM pg_sequences
         WHERE schemaname = 'public' ORDER BY sequencename`,
      );
      const rows: Record<string, number> = {};
      const members: StagedMember[] = [];
      for (const { name } of tables) {
        const member = `${TABLES_PREFIX}${name}.jsonl`;
        const staged = stagedFile(join(staging, `${members.length}.jsonl`), member);
        await tx.execute(
          sql.raw(
            `DECLARE backup_rows NO SCROLL CURSOR FOR SELECT row_to_json(t)::text AS line FROM ${quoted(name)} t`,
          ),
        );
        let count = 0;
        for (;;) {
          const page = await rowsOf<{ line: string }>(tx, `FETCH ${FETCH_ROWS} FROM backup_rows`);
          if (page.length > 0) await staged.write(`${page.map((row) => row.line).join('\n')}\n`);
          count += page.length;
          if (page.length < FETCH_ROWS) break;
        }
        await tx.execute(sql.raw('CLOSE backup_rows'));
        rows[name] = count;
        members.push(await staged.close());
      }
      const sequencesFile = stagedFile(join(staging, 'sequences.json'), SEQUENCES_MEMBER);
      await sequencesFile.write(
        JSON.stringify(Object.fromEntries(sequences.map((s) => [s.name, s.last_value]))),
      );
      members.push(await sequencesFile.close());
      return { createdAt: instant!.at, migration, rows, members };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  return { ...result, snapshotMs: performance.now() - started };
}

/** The last migration the database has applied, as its journal tag. */
async function lastMigration(tx: Executor, shipped: JournalEntry[]): Promise<string> {
  const [last] = await rowsOf<{ created_at: string | null }>(
    tx,
    'SELECT max(created_at)::text AS created_at FROM drizzle.__drizzle_migrations',
  );
  const when = Number(last?.created_at);
  const entry = shipped.find((candidate) => candidate.when === when);
  if (!entry) {
    throw new BackupRefused(
      `the database's last migration (created_at ${last?.created_at}) is not one this code ships: back it up with the release that migrated it`,
    );
  }
  return entry.tag;
}

/** A member written while hashed; `close` gives its manifest entry. */
function stagedFile(path: string, name: string) {
  const out: WriteStream = createWriteStream(path, { flags: 'wx', mode: 0o600 });
  const hash = createHash('sha256');
  let bytes = 0;
  return {
    async write(text: string): Promise<void> {
      const chunk = Buffer.from(text);
      hash.update(chunk);
      bytes += chunk.length;
      if (!out.write(chunk)) await new Promise<void>((resolve) => out.once('drain', resolve));
    },
    async close(): Promise<StagedMember> {
      await new Promise<void>((resolve, reject) =>
        out.end((error?: Error | null) => (error ? reject(error) : resolve())),
      );
      return { name, path, sha256: hash.digest('hex'), bytes };
    },
  };
}
