// Settlement: each market's rule on the final score (pure), then the worker's pass on a database —
// matching by alias, the result JSON and the columns written together, idempotent re-runs and
// re-imports, the 7-day void of a fixture never played or never matched, and the results sync
// waking the settlement loop.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brierScore, rankedProbabilityScore, settlePick } from '../../src/engine/settlement.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createResultsSync } from '../../src/runtime/results-sync.js';
import { createSettlementLoop } from '../../src/runtime/settlement-loop.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { importCsv, rowsOf, seedPronostic, seedUser, settlementOf } from './seed.js';

describe('settlement rule of each market', () => {
  const s = (home: number, away: number) => ({ home, away });
  it('1X2 and the full analysis judge the 1X2 result', () => {
    expect(settlePick('1x2', 'home', s(2, 1))).toBe('won');
    expect(settlePick('1x2', 'home', s(1, 1))).toBe('lost');
    expect(settlePick('1x2', 'draw', s(0, 0))).toBe('won');
    expect(settlePick('1x2', 'away', s(0, 3))).toBe('won');
    expect(settlePick('1x2', 'away', s(3, 0))).toBe('lost');
    expect(settlePick('full_analysis', 'home', s(1, 0))).toBe('won');
    expect(settlePick('full_analysis', 'draw', s(1, 0))).toBe('lost');
    expect(settlePick('1x2', 'nobody', s(1, 0))).toBe('void');
  });
  it('double chance wins on either of its two results', () => {
    expect(settlePick('double_chance', 'home_draw', s(1, 1))).toBe('won');
    expect(settlePick('double_chance', 'home_draw', s(2, 0))).toBe('won');
    expect(settlePick('double_chance', 'home_draw', s(0, 1))).toBe('lost');
    expect(settlePick('double_chance', 'home_away', s(1, 1))).toBe('lost');
    expect(settlePick('double_chance', 'home_away', s(0, 1))).toBe('won');
    expect(settlePick('double_chance', 'draw_away', s(2, 2))).toBe('won');
    expect(settlePick('double_chance', 'draw_away', s(2, 1))).toBe('lost');
    expect(settlePick('double_chance', 'home', s(2, 1))).toBe('void');
  });
  it('both teams score', () => {
    expect(settlePick('btts', 'yes', s(1, 1))).toBe('won');
    expect(settlePick('btts', 'yes', s(1, 0))).toBe('lost');
    expect(settlePick('btts', 'no', s(0, 0))).toBe('won');
    expect(settlePick('btts', 'no', s(0, 2))).toBe('won');
    expect(settlePick('btts', 'no', s(2, 2))).toBe('lost');
    expect(settlePick('btts', 'maybe', s(2, 2))).toBe('void');
  });
  it('over/under 2.5: a half-goal line, no push', () => {
    expect(settlePick('over_under_2_5', 'over', s(2, 1))).toBe('won');
    expect(settlePick('over_under_2_5', 'over', s(1, 1))).toBe('lost');
    expect(settlePick('over_under_2_5', 'under', s(2, 0))).toBe('won');
    expect(settlePick('over_under_2_5', 'under', s(0, 3))).toBe('lost');
    expect(settlePick('over_under_2_5', 'push', s(0, 3))).toBe('void');
  });
  it('exact score, including the `other` bucket', () => {
    const listed = ['1-0', '1-1', '2-1', '0-0', '2-0'];
    expect(settlePick('exact_score', '2-1', s(2, 1), listed)).toBe('won');
    expect(settlePick('exact_score', '2-1', s(1, 2), listed)).toBe('lost');
    expect(settlePick('exact_score', 'other', s(4, 3), listed)).toBe('won');
    expect(settlePick('exact_score', 'other', s(1, 1), listed)).toBe('lost');
    expect(settlePick('exact_score', 'two-one', s(2, 1), listed)).toBe('void');
  });
  it('RPS and Brier of a 1X2 forecast', () => {
    const f = { home: 0.5, draw: 0.3, away: 0.2 };
    expect(brierScore(f, 'home')).toBeCloseTo(0.25 + 0.09 + 0.04, 12);
    expect(rankedProbabilityScore(f, 'home')).toBeCloseTo((0.25 + 0.04) / 2, 12);
    expect(rankedProbabilityScore(f, 'away')).toBeCloseTo((0.25 + 0.64) / 2, 12);
    expect(rankedProbabilityScore({ home: 1, draw: 0, away: 0 }, 'home')).toBe(0);
  });
});

describe('the settlement pass', () => {
  let t: TestApp;
  const clock = new ManualClock('2026-03-10T12:00:00.000Z');
  let userId: number;
  const ids: Record<string, number> = {};

  beforeAll(async () => {
    t = await createTestApp({ clock });
    userId = await seedUser(t);
    await importCsv(t, [
      'E0,07/03/2026,15:00,Arsenal,Man United,2,1,H',
      'E0,08/03/2026,15:00,Chelsea,Man City,1,1,D',
      'E0,08/03/2026,17:30,Liverpool,Everton,4,3,H',
    ]);
    const p = (name: string, seed: Omit<Parameters<typeof seedPronostic>[1], 'userId'>) =>
      seedPronostic(t, { userId, ...seed }).then((id) => {
        ids[name] = id;
      });
    // "Manchester United" and "Premier League" are aliases; the case and accents are the client's.
    await p('alias1x2', {
      slug: '1x2',
      details: { home: 'arsenal', away: 'Manchester United', league: 'Premier League', date: '2026-03-07' },
      pick: 'home',
      confidence: 0.55,
      probabilities: { home: 0.55, draw: 0.25, away: 0.2 },
    });
    await p('dcLost', {
      slug: 'double-chance',
      details: { home: 'Arsenal', away: 'Man Utd', date: '2026-03-07T15:00:00Z' },
      pick: 'draw_away',
      confidence: 0.45,
    });
    await p('bttsWon', {
      slug: 'btts',
      details: { home: 'Chelsea', away: 'Manchester City', date: '2026-03-08' },
      pick: 'yes',
      confidence: 0.52,
    });
    await p('overWon', {
      slug: 'over-under-2-5',
      details: { home: 'Liverpool', away: 'Everton', date: '2026-03-08' },
      pick: 'over',
      confidence: 0.6,
    });
    await p('otherWon', {
      slug: 'exact-score',
      details: { home: 'Liverpool', away: 'Everton', date: '2026-03-08' },
      pick: 'other',
      confidence: 0.5,
      probabilities: { '1-0': 0.1, '1-1': 0.1, '2-1': 0.1, '0-0': 0.1, '2-0': 0.1, other: 0.5 },
    });
    await p('exactLost', {
      slug: 'exact-score',
      details: { home: 'Chelsea', away: 'Man City', date: '2026-03-08' },
      pick: '1-0',
      confidence: 0.12,
      probabilities: { '1-0': 0.12, '1-1': 0.11, '0-0': 0.1, '2-1': 0.09, '0-1': 0.08, other: 0.5 },
    });
    await p('fullDraw', {
      slug: 'full-analysis',
      details: { home: 'Chelsea', away: 'Man City', league: 'E0', date: '2026-03-08' },
      pick: 'draw',
      confidence: 0.3,
      probabilities: { home: 0.35, draw: 0.3, away: 0.35 },
    });
    // Wrong league named: a league we know restricts the match, so this one is never found.
    await p('wrongLeague', {
      slug: '1x2',
      details: { home: 'Arsenal', away: 'Man United', league: 'SP1', date: '2026-03-07' },
      pick: 'home',
      confidence: 0.5,
    });
    await p('notYetPlayed', {
      slug: '1x2',
      details: { home: 'Everton', away: 'Arsenal', date: '2026-03-09' },
      pick: 'away',
      confidence: 0.5,
    });
    await p('unknownTeams', {
      slug: 'btts',
      details: { home: 'Coton Sport', away: 'Canon Yaoundé', date: '2026-03-01' },
      pick: 'yes',
      confidence: 0.5,
    });
    await p('processing', {
      slug: '1x2',
      details: { home: 'Arsenal', away: 'Man United', date: '2026-03-07' },
      pick: 'home',
      confidence: 0.5,
      status: 'processing',
    });
  });
  afterAll(() => t.close());

  it('settles each played fixture with its market rule, by alias, result JSON and columns together', async () => {
    const report = await t.app.services.trackRecord.settleDue({ batchSize: 3 });
    expect(report).toMatchObject({ scanned: 10, settled: 8, won: 5, lost: 2, void: 1 });
    const expected: Record<string, [string, string]> = {
      alias1x2: ['won', '2-1'],
      dcLost: ['lost', '2-1'],
      bttsWon: ['won', '1-1'],
      overWon: ['won', '4-3'],
      otherWon: ['won', '4-3'],
      exactLost: ['lost', '1-1'],
      fullDraw: ['won', '1-1'],
    };
    for (const [name, [outcome, score]] of Object.entries(expected)) {
      const stored = await settlementOf(t, ids[name]!);
      expect(stored.outcome, name).toBe(outcome);
      expect(stored.status, name).toBe('success');
      expect(stored.settlement, name).toEqual({ outcome, score, settled_at: '2026-03-10T12:00:00.000000Z' });
      expect(stored.settledAt, name).toMatch(/^2026-03-10 12:00:00/);
    }
    // Dated 2026-03-01, teams unknown: its window (to the 8th) is over, so void at once.
    expect(await settlementOf(t, ids.unknownTeams!)).toMatchObject({
      outcome: 'void',
      settlement: { outcome: 'void', score: null },
    });
    for (const name of ['wrongLeague', 'notYetPlayed', 'processing']) {
      const stored = await settlementOf(t, ids[name]!);
      expect(stored.outcome, name).toBeNull();
      expect(stored.settlement, name).toBeUndefined();
    }
  });

  it('is idempotent: a second pass and a re-import change nothing', async () => {
    const before = rowsOf(
      await t.app.db.execute(sql`SELECT id, result, outcome, settled_at::text FROM pronostics ORDER BY id`),
    );
    clock.advance(3_600_000);
    expect(await importCsv(t, ['E0,07/03/2026,15:00,Arsenal,Man United,2,1,H'])).toBe(0);
    const report = await t.app.services.trackRecord.settleDue();
    expect(report).toMatchObject({ scanned: 2, settled: 0 });
    const after = rowsOf(
      await t.app.db.execute(sql`SELECT id, result, outcome, settled_at::text FROM pronostics ORDER BY id`),
    );
    expect(after).toEqual(before);
  });

  it('a result that arrives later settles; an unplayed fixture is void only after its 7 days', async () => {
    clock.set('2026-03-14T12:00:00.000Z');
    await t.app.services.trackRecord.settleDue();
    expect((await settlementOf(t, ids.notYetPlayed!)).outcome).toBeNull();
    // The window of a fixture dated the 7th runs to the 14th inclusive: void from the 15th.
    expect((await settlementOf(t, ids.wrongLeague!)).outcome).toBeNull();
    clock.set('2026-03-15T00:00:00.000Z');
    await t.app.services.trackRecord.settleDue();
    expect((await settlementOf(t, ids.wrongLeague!)).outcome).toBe('void');
    clock.set('2026-03-16T23:59:59.000Z');
    await t.app.services.trackRecord.settleDue();
    expect((await settlementOf(t, ids.notYetPlayed!)).outcome).toBeNull();
    // A postponed match played within the window (on the 12th, dated the 9th) settles on its result.
    await importCsv(t, ['E0,12/03/2026,20:00,Everton,Arsenal,0,1,A']);
    await t.app.services.trackRecord.settleDue();
    expect(await settlementOf(t, ids.notYetPlayed!)).toMatchObject({
      outcome: 'won',
      settlement: { outcome: 'won', score: '0-1' },
    });
  });

  it('the 7-day void: pending on the last day of the window, void the day after', async () => {
    const id = await seedPronostic(t, {
      userId,
      slug: '1x2',
      details: { home: 'Man City', away: 'Liverpool', date: '2026-03-20' },
      pick: 'home',
      confidence: 0.5,
    });
    clock.set('2026-03-27T23:59:59.000Z');
    await t.app.services.trackRecord.settleDue();
    expect((await settlementOf(t, id)).outcome).toBeNull();
    clock.set('2026-03-28T00:00:00.000Z');
    await t.app.services.trackRecord.settleDue();
    expect(await settlementOf(t, id)).toMatchObject({ outcome: 'void', settlement: { score: null } });
  });

  it('the worker loop settles when woken by a results sync that stored new matches', async () => {
    const id = await seedPronostic(t, {
      userId,
      slug: 'btts',
      details: { home: 'Everton', away: 'Chelsea', date: '2026-03-28' },
      pick: 'no',
      confidence: 0.5,
    });
    clock.set('2026-03-29T08:00:00.000Z');
    const loop = createSettlementLoop({
      settler: t.app.services.trackRecord,
      logger: t.app.log,
      options: { intervalMs: 3_600_000 },
    });
    const sync = createResultsSync({
      source: {
        syncCurrentSeason: async () => {
          const inserted = await importCsv(t, ['E0,28/03/2026,15:00,Everton,Chelsea,0,0,D']);
          return { season: '2526', url: 'local', rows: 1, inserted, duplicates: 1 - inserted, skipped: [] };
        },
      },
      clock,
      logger: t.app.log,
      options: { leagues: ['E0'] },
      settlement: loop,
    });
    loop.start();
    await loop.runOnce();
    expect((await settlementOf(t, id)).outcome).toBeNull();
    await sync.runOnce();
    await loop.stop();
    expect(await settlementOf(t, id)).toMatchObject({ outcome: 'won', settlement: { score: '0-0' } });
  });
});

describe('the settlement written into the stored result', () => {
  it('keeps every key of the stored text, nested and spaced alike, and adds its own once', async () => {
    const t = await createTestApp({ clock: new ManualClock('2026-03-10T12:00:00.000Z') });
    try {
      const userId = await seedUser(t);
      await importCsv(t, ['E0,07/03/2026,15:00,Arsenal,Man United,2,1,H']);
      // Texts the json column keeps as written: a closing brace inside strings and nested objects,
      // spaces and a newline after the last one, an empty object, none at all.
      const texts: Record<string, string | null> = {
        nested:
          '{"market":"1x2","pick":"home","confidence":0.5,"probabilities":{"home":0.5,"draw":0.3,"away":0.2},"notes":["a}","{b"]}',
        spaced: '{ "market" : "1x2", "pick": "away", "confidence": 0.4, "text": "fin }" }\n  ',
        empty: '{ }',
        none: null,
      };
      const ids: Record<string, number> = {};
      for (const [name, text] of Object.entries(texts)) {
        const [row] = rowsOf(
          await t.app.db.execute(sql`
            INSERT INTO pronostics (user_id, type_id, status, credits_cost, teams_details, result, ai_model,
                                    search_text, run_after, deadline_at, created_at)
            VALUES (${userId}, (SELECT id FROM pronostic_types WHERE slug = '1x2'), 'success', 1,
                    '{"home":"Arsenal","away":"Man United","date":"2026-03-07"}'::json, ${text}::json,
                    'x', 'x', now(), now(), '2026-03-07T10:00:00Z'::timestamptz)
            RETURNING id`),
        );
        ids[name] = Number(row!.id);
      }
      expect(await t.app.services.trackRecord.settleDue()).toMatchObject({
        settled: 4,
        won: 1,
        lost: 1,
        void: 2,
      });
      const outcomes: Record<string, string> = { nested: 'won', spaced: 'lost', empty: 'void', none: 'void' };
      for (const [name, text] of Object.entries(texts)) {
        const [row] = rowsOf(
          await t.app.db.execute(sql`SELECT result::text AS result FROM pronostics WHERE id = ${ids[name]!}`),
        );
        const outcome = outcomes[name]!;
        expect(JSON.parse(String(row!.result)), name).toEqual({
          ...JSON.parse(text ?? '{}'),
          settlement: { outcome, score: '2-1', settled_at: '2026-03-10T12:00:00.000000Z' },
        });
        expect(String(row!.result).match(/"settlement"/g), name).toHaveLength(1);
      }
    } finally {
      await t.close();
    }
  });
});

describe('a settlement pass that fails', () => {
  it('stops with the error of the batch it could not write; what was written stays, the next pass settles the rest', async () => {
    const t = await createTestApp({ clock: new ManualClock('2026-03-10T12:00:00.000Z') });
    try {
      const userId = await seedUser(t);
      await importCsv(t, ['E0,07/03/2026,15:00,Arsenal,Man United,2,1,H']);
      const ids: number[] = [];
      for (let i = 0; i < 6; i++) {
        ids.push(
          await seedPronostic(t, {
            userId,
            slug: '1x2',
            details: { home: 'Arsenal', away: 'Man United', date: '2026-03-07' },
            pick: 'home',
            confidence: 0.5,
          }),
        );
      }
      // The second batch (rows 3 and 4) cannot be written; the third is read meanwhile.
      await t.app.db.execute(
        sql.raw(`
        CREATE FUNCTION refuse_settlement() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN
          IF NEW.id = ${ids[3]} AND NEW.outcome IS NOT NULL THEN RAISE EXCEPTION 'disk full (test)'; END IF;
          RETURN NEW;
        END $$`),
      );
      await t.app.db.execute(
        sql`CREATE TRIGGER refuse_settlement BEFORE UPDATE ON pronostics FOR EACH ROW EXECUTE FUNCTION refuse_settlement()`,
      );
      const failure = await t.app.services.trackRecord
        .settleDue({ batchSize: 2 })
        .catch((error: Error) => error);
      // The driver's error, wrapped by the query builder with the statement.
      expect((failure as Error & { cause?: Error }).cause?.message).toMatch(/disk full/);
      const outcomes = async () => {
        const result = await t.app.db.execute(
          sql`SELECT outcome FROM pronostics WHERE id IN ${sql.raw(`(${ids.join(',')})`)} ORDER BY id`,
        );
        return rowsOf(result).map((row) => row.outcome ?? null);
      };
      expect(await outcomes()).toEqual(['won', 'won', null, null, null, null]);
      await t.app.db.execute(sql`DROP TRIGGER refuse_settlement ON pronostics`);
      expect(await t.app.services.trackRecord.settleDue({ batchSize: 2 })).toMatchObject({ settled: 4 });
      expect(await outcomes()).toEqual(['won', 'won', 'won', 'won', 'won', 'won']);
      const record = await t.app.services.trackRecord.userRecord(userId);
      expect(record.overall.all_time.settled).toBe(6);
    } finally {
      await t.close();
    }
  });
});
