// The database handle's pool figures (what the metrics show): connections handed out, callers
// waiting now, and the time they waited, for node-postgres's pool and PGlite's one connection.
import { sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client.js';
import { usingPostgres } from '../helpers.js';

/** A database of one connection, so concurrent statements queue. */
async function oneConnection(): Promise<DatabaseHandle> {
  if (usingPostgres()) return openDatabase({ url: process.env.TEST_DATABASE_URL as string, poolSize: 1 });
  return openDatabase({ url: 'memory://' });
}

describe('pool stats', () => {
  it('count acquisitions, the callers queued and the time they waited', async () => {
    const database = await oneConnection();
    try {
      await database.ping();
      const before = database.poolStats();
      expect(before).toMatchObject({ max: 1, waiting: 0 });
      // Drizzle's queries start when awaited: `then` starts all four now.
      const sleeps = Array.from({ length: 4 }, () =>
        database.db.execute(sql`SELECT pg_sleep(0.05)`).then(() => undefined),
      );
      if (database.kind === 'postgres') {
        // The first holds the one connection; the other three queue behind it.
        await vi.waitFor(() => expect(database.poolStats().waiting).toBe(3), { timeout: 40, interval: 1 });
      }
      await Promise.all(sleeps);
      const after = database.poolStats();
      expect(after.waiting).toBe(0);
      expect(after.acquires - before.acquires).toBeGreaterThanOrEqual(4);
      // Each waited for the ones before it: 0 + 50 + 100 + 150 ms at least.
      expect(after.acquireSeconds - before.acquireSeconds).toBeGreaterThan(0.25);
      expect(after.open).toBe(1);
      expect(after.idle).toBe(1);
    } finally {
      await database.close();
    }
  });
});
