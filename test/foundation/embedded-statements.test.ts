// A hot read's named statement on PGlite (`namedQuery`): prepared once in PGlite's one session and
// then run as one protocol message. It must give what PGlite's own `query` gives, wait for another
// caller's open transaction instead of reading inside it, and survive the session forgetting it.

import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type NamedStatement, namedQuery } from '../../src/db/client.js';
import { createTestApp, type TestApp, usingPostgres } from '../helpers.js';

const statement: NamedStatement = {
  name: 'embedded_statement_probe',
  text: `SELECT $1::int AS n, $2::text AS word, $3::text[] AS words, $4::jsonb AS doc,
      $5::timestamptz AS at, NULL::int AS nothing, (SELECT count(*) FROM users)::int AS users`,
};
const values = [7, 'été', ['a', 'b,c', 'd"e'], { k: [1, 'x'] }, '2026-03-10 12:00:00.123456+00'];

describe.skipIf(usingPostgres())('named statements on PGlite', () => {
  let t: TestApp;
  let client: PGlite;

  beforeAll(async () => {
    t = await createTestApp();
    client = t.app.database.embedded as PGlite;
  });
  afterAll(() => t.close());

  it('gives the rows PGlite’s own query gives, parameters and column types alike', async () => {
    const expected = (await client.query(statement.text, values)).rows;
    expect(await namedQuery(t.app.db, statement, values)).toEqual(expected);
    // Again, now prepared: same answer.
    expect(await namedQuery(t.app.db, statement, values)).toEqual(expected);
    expect(expected[0]).toMatchObject({ n: 7, word: 'été', words: ['a', 'b,c', 'd"e'], nothing: null });
  });

  it('waits for another caller’s transaction instead of reading inside it', async () => {
    const before = (await namedQuery<{ users: number }>(t.app.db, statement, values))[0]!.users;
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => {
      inserted = resolve;
    });
    const transaction = t.app.db
      .transaction(async (tx) => {
        await tx.execute(
          sql`INSERT INTO users (phone, country, affiliation_code) VALUES ('+237600000999', 'CM', 'PROBE1')`,
        );
        inserted();
        await held;
        tx.rollback();
      })
      .catch(() => undefined);
    await insertedYet;
    const read = namedQuery<{ users: number }>(t.app.db, statement, values);
    release();
    await transaction;
    // The row the transaction inserted, then rolled back, was never seen.
    expect((await read)[0]!.users).toBe(before);
  });

  it('prepares again when the session has forgotten its statements', async () => {
    await namedQuery(t.app.db, statement, values);
    await client.exec('DEALLOCATE ALL');
    expect((await namedQuery<{ n: number }>(t.app.db, statement, values))[0]!.n).toBe(7);
  });

  it('reports a statement’s error and stays usable', async () => {
    const failing: NamedStatement = { name: 'embedded_statement_failing', text: 'SELECT 1 / $1::int AS q' };
    await expect(namedQuery(t.app.db, failing, [0])).rejects.toMatchObject({
      code: '22012',
      message: expect.stringMatching(/division by zero/),
    });
    expect(await namedQuery(t.app.db, failing, [1])).toEqual([{ q: 1 }]);
    expect((await client.query('SELECT 2 AS two')).rows).toEqual([{ two: 2 }]);
  });

  it('reads an answer that arrives in many pieces, messages cut across them', async () => {
    const wide: NamedStatement = {
      name: 'embedded_statement_wide',
      text: `SELECT g AS n, repeat(chr(233) || 'x', (g % 97) + 1) AS filler, NULL::text AS nothing
        FROM generate_series(1, $1::int) AS g`,
    };
    const expected = (await client.query(wide.text, [20_000])).rows;
    const rows = await namedQuery<{ n: number; filler: string }>(t.app.db, wide, [20_000]);
    expect(rows).toHaveLength(20_000);
    expect(rows).toEqual(expected);
  });

  it('hands a notification its statement commits to the database’s listeners', async () => {
    const notifying: NamedStatement = {
      name: 'embedded_statement_notifying',
      text: 'SELECT pg_notify($1, $2) AS sent',
    };
    const heard: string[] = [];
    const unlisten = await t.app.database.listen('embedded_probe', (payload) => heard.push(payload));
    try {
      await namedQuery(t.app.db, notifying, ['embedded_probe', 'token:42']);
      await new Promise((resolve) => setTimeout(resolve, 10));
      expect(heard).toEqual(['token:42']);
    } finally {
      await unlisten();
    }
  });
});
