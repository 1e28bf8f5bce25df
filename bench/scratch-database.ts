// A scratch database for a benchmark: a fresh database on the PostgreSQL server `postgresBase`
// names (BENCH_DATABASE_URL), dropped at the end; or, without one, PGlite in memory.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type DatabaseHandle, openDatabase } from '../src/db/client.js';

export interface ScratchDatabase {
  handle: DatabaseHandle;
  /** The PostgreSQL URL, for child processes; undefined for PGlite in memory. */
  url: string | undefined;
  kind: 'PostgreSQL' | 'PGlite (memory)';
  drop(): Promise<void>;
}

export async function openScratchDatabase(
  postgresBase: string | undefined,
  options: { prefix: string; poolSize: number },
): Promise<ScratchDatabase> {
  if (!postgresBase) {
    const handle = await openDatabase({ url: 'memory://' });
    return { handle, url: undefined, kind: 'PGlite (memory)', drop: () => handle.close() };
  }
  const name = `${options.prefix}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresBase });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  const url = new URL(postgresBase);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ url: url.toString(), poolSize: options.poolSize });
  return {
    handle,
    url: url.toString(),
    kind: 'PostgreSQL',
    async drop() {
      await handle.close().catch(() => {});
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await admin.end();
    },
  };
}
