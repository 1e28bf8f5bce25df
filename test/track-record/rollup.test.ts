// The figures' rollups: the settlement keeps them in the statement that settles each batch, so they
// hold every settled row exactly once (checked against the seed and against the rows' own figure
// columns), re-running, re-importing and two passes at once add nothing, and migration 0016's
// backfill rebuilds the columns and rollups of rows settled before them, to the same figures.
import { readFileSync } from 'node:fs';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrationsFolder } from '../../src/db/client.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, type TestApp } from '../helpers.js';
import {
  importCsv,
  RECORD_CASES,
  RECORD_MATCHES,
  RECORD_NOW,
  rowsOf,
  seedPronostic,
  seedRecord,
  seedUser,
} from './seed.js';

let t: TestApp;
let owners: [number, number];

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(RECORD_NOW) });
  owners = [await seedUser(t), await seedUser(t)];
  await seedRecord(t, owners);
});
afterAll(() => t.close());

const num = (value: unknown) => Number(value);

async function rollupTotals() {
  const [days] = rowsOf(
    await t.app.db.execute(sql`
      SELECT coalesce(sum(won), 0) AS won, coalesce(sum(lost), 0) AS lost, coalesce(sum(void), 0) AS void,
             coalesce(sum(scored_home + scored_draw + scored_away), 0) AS scored,
             coalesce(sum(confidence_sum), 0) AS confidence_sum
      FROM track_record_days`),
  );
  const [bins] = rowsOf(
    await t.app.db.execute(sql`
      SELECT coalesce(sum(count), 0) AS count, coalesce(sum(won), 0) AS won FROM track_record_calibration`),
  );
  return {
    won: num(days!.won),
    lost: num(days!.lost),
    void: num(days!.void),
    scored: num(days!.scored),
    confidenceSum: num(days!.confidence_sum),
    binned: num(bins!.count),
    binnedWon: num(bins!.won),
  };
}

/** Each rollup row equals the same group counted afresh over the settled rows' figure columns. */
async function expectRollupMatchesRows() {
  const key = (row: Record<string, unknown>) =>
    `${String(row.day).slice(0, 10)}|${row.type_id}|${row.league_id}`;
  const stored = rowsOf(
    await t.app.db.execute(sql`
      SELECT day::text AS day, type_id, league_id, won, lost, void, scored_home, scored_draw, scored_away,
             brier_sum, rps_sum FROM track_record_days`),
  );
  const fresh = rowsOf(
    await t.app.db.execute(sql`
      SELECT settled_day::text AS day, type_id, settled_league_id AS league_id,
             count(*) FILTER (WHERE outcome = 'won') AS won, count(*) FILTER (WHERE outcome = 'lost') AS lost,
             count(*) FILTER (WHERE outcome = 'void') AS void,
             count(*) FILTER (WHERE settled_actual = 'home') AS scored_home,
             count(*) FILTER (WHERE settled_actual = 'draw') AS scored_draw,
             count(*) FILTER (WHERE settled_actual = 'away') AS scored_away,
             coalesce(sum(settled_brier), 0) AS brier_sum, coalesce(sum(settled_rps), 0) AS rps_sum
      FROM pronostics WHERE outcome IS NOT NULL GROUP BY 1, 2, 3`),
  );
  expect(stored.map(key).sort()).toEqual(fresh.map(key).sort());
  const byKey = new Map(fresh.map((row) => [key(row), row]));
  for (const row of stored) {
    const other = byKey.get(key(row))!;
    for (const column of ['won', 'lost', 'void', 'scored_home', 'scored_draw', 'scored_away']) {
      expect(num(row[column]), `${key(row)} ${column}`).toBe(num(other[column]));
    }
    expect(num(row.brier_sum)).toBeCloseTo(num(other.brier_sum), 9);
    expect(num(row.rps_sum)).toBeCloseTo(num(other.rps_sum), 9);
  }
}

/** Everything a reader can see of the figures (the cache passed), and the rollups themselves. */
async function snapshot() {
  t.clock.advance(61_000);
  const { generated_at: _public, ...publicRecord } = await t.app.services.trackRecord.publicRecord();
  const { generated_at: _user, ...userRecord } = await t.app.services.trackRecord.userRecord(owners[0]);
  const days = rowsOf(await t.app.db.execute(sql`SELECT * FROM track_record_days ORDER BY 1, 2, 3`));
  const bins = rowsOf(await t.app.db.execute(sql`SELECT * FROM track_record_calibration ORDER BY 1, 2`));
  const matches = rowsOf(await t.app.db.execute(sql`SELECT * FROM track_record_matches ORDER BY 1`));
  return { publicRecord, userRecord, days, bins, matches };
}

const judged = RECORD_CASES.filter((c) => c.outcome !== 'void');

describe('the figures’ rollups', () => {
  it('hold every settled analysis once: the seed’s counts, and each group as the rows give it', async () => {
    const totals = await rollupTotals();
    expect(totals).toMatchObject({
      won: RECORD_CASES.filter((c) => c.outcome === 'won').length,
      lost: RECORD_CASES.filter((c) => c.outcome === 'lost').length,
      void: RECORD_CASES.filter((c) => c.outcome === 'void').length,
      scored: judged.filter((c) => (c.slug === '1x2' || c.slug === 'full-analysis') && c.probabilities)
        .length,
      binned: judged.length,
      binnedWon: judged.filter((c) => c.outcome === 'won').length,
    });
    expect(totals.confidenceSum).toBeCloseTo(
      judged.reduce((sum, c) => sum + c.confidence, 0),
      9,
    );
    await expectRollupMatchesRows();
  });

  it('is idempotent: a second pass, a re-import and two passes at once change no figure', async () => {
    const before = await snapshot();
    await t.app.services.trackRecord.settleDue();
    expect(
      await importCsv(
        t,
        RECORD_MATCHES.map((m) => m.line),
      ),
    ).toBe(0);
    await Promise.all([t.app.services.trackRecord.settleDue(), t.app.services.trackRecord.settleDue()]);
    expect(await snapshot()).toEqual(before);
  });

  it('two passes at once over new analyses count each of them once', async () => {
    const before = await rollupTotals();
    const added = [
      { home: 'Arsenal', away: 'Chelsea', league: 'E0', date: '2026-03-01', pick: 'home', outcome: 'won' },
      { home: 'Liverpool', away: 'Everton', league: 'E0', date: '2026-02-20', pick: 'away', outcome: 'lost' },
      { home: 'Barcelona', away: 'Sevilla', league: 'SP1', date: '2026-03-02', pick: 'home', outcome: 'won' },
    ];
    for (const a of added) {
      await seedPronostic(t, {
        userId: owners[1],
        slug: '1x2',
        details: { home: a.home, away: a.away, league: a.league, date: a.date },
        pick: a.pick,
        confidence: 0.5,
        probabilities: { home: 0.5, draw: 0.3, away: 0.2 },
      });
    }
    const reports = await Promise.all([
      t.app.services.trackRecord.settleDue({ batchSize: 1 }),
      t.app.services.trackRecord.settleDue({ batchSize: 2 }),
    ]);
    expect(reports[0]!.settled + reports[1]!.settled).toBe(added.length);
    const after = await rollupTotals();
    expect(after.won - before.won).toBe(2);
    expect(after.lost - before.lost).toBe(1);
    expect(after.scored - before.scored).toBe(3);
    expect(after.binned - before.binned).toBe(3);
    await expectRollupMatchesRows();
  });

  it('migration 0016 backfills the columns and rollups of rows settled before them, to the same figures', async () => {
    const before = await snapshot();
    const columns = rowsOf(
      await t.app.db.execute(sql`
        SELECT id, settled_day::text AS settled_day, settled_league_id, settled_confidence, settled_actual,
               settled_brier, settled_rps
        FROM pronostics WHERE outcome IS NOT NULL ORDER BY id`),
    );
    // As the rows were after 0014: settled, with no figure columns and no rollups.
    await t.app.db.execute(sql`
      UPDATE pronostics SET settled_day = NULL, settled_league_id = NULL, settled_confidence = NULL,
                            settled_actual = NULL, settled_brier = NULL, settled_rps = NULL`);
    await t.app.db.execute(sql`DELETE FROM track_record_days`);
    await t.app.db.execute(sql`DELETE FROM track_record_calibration`);
    const empty = await snapshot();
    expect(empty.publicRecord.overall.all_time.settled).toBe(0);

    // As the columns were then too: jsonb until 0029.
    await t.app.db.execute(sql`
      ALTER TABLE pronostics ALTER COLUMN teams_details TYPE jsonb USING teams_details::jsonb,
                             ALTER COLUMN result TYPE jsonb USING result::jsonb`);
    for (const file of ['0016_track_record_backfill.sql', '0029_pronostic_json_text.sql']) {
      const migration = readFileSync(`${migrationsFolder}/${file}`, 'utf8');
      for (const statement of migration.split('--> statement-breakpoint')) {
        await t.app.db.execute(sql.raw(statement));
      }
    }
    const backfilled = rowsOf(
      await t.app.db.execute(sql`
        SELECT id, settled_day::text AS settled_day, settled_league_id, settled_confidence, settled_actual,
               settled_brier, settled_rps
        FROM pronostics WHERE outcome IS NOT NULL ORDER BY id`),
    );
    expect(backfilled).toHaveLength(columns.length);
    backfilled.forEach((row, index) => {
      const settled = columns[index]!;
      expect({ ...row, settled_brier: undefined, settled_rps: undefined }).toEqual({
        ...settled,
        settled_brier: undefined,
        settled_rps: undefined,
      });
      for (const column of ['settled_brier', 'settled_rps']) {
        if (settled[column] === null) expect(row[column]).toBeNull();
        else expect(num(row[column]), `${row.id} ${column}`).toBeCloseTo(num(settled[column]), 12);
      }
    });
    await expectRollupMatchesRows();
    const after = await snapshot();
    expect(after.publicRecord).toEqual(before.publicRecord);
    expect(after.userRecord).toEqual(before.userRecord);
  });

  it('migration 0025 backfills the settled matches of rows settled before it, to the same figures', async () => {
    const before = await snapshot();
    const matches = rowsOf(await t.app.db.execute(sql`SELECT * FROM track_record_matches ORDER BY 1`));
    expect(matches.length).toBeGreaterThan(0);
    await t.app.db.execute(sql`DELETE FROM track_record_matches`);
    const migration = readFileSync(`${migrationsFolder}/0025_track_record_matches_backfill.sql`, 'utf8');
    for (const statement of migration.split('--> statement-breakpoint')) {
      await t.app.db.execute(sql.raw(statement));
    }
    expect(rowsOf(await t.app.db.execute(sql`SELECT * FROM track_record_matches ORDER BY 1`))).toEqual(
      matches,
    );
    expect((await snapshot()).publicRecord).toEqual(before.publicRecord);
  });
});
