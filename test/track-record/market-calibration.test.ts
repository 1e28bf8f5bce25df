// The bookmakers' calibration beside ours: the pure binning (deciles merged until each bin holds at
// least 30 matches, never a bin that would give one match's odds away), the market's pick of a
// match, and the public figures over exactly the matches the analyses were settled on.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import {
  MARKET_BIN_MIN,
  type MarketPoint,
  marketBins,
  marketPoint,
} from '../../src/modules/track-record/market-calibration.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { importCsv, RECORD_NOW, rowsOf, seedMarket, seedRecord, seedUser } from './seed.js';

const points = (probability: number, count: number, won: number): MarketPoint[] =>
  Array.from({ length: count }, (_, i) => ({ probability, won: i < won }));

describe('marketBins (pure)', () => {
  it('keeps a decile of 30 or more as it is, with its mean probability and hit rate', () => {
    const bins = marketBins([...points(0.45, 30, 12), ...points(0.72, 40, 30)]);
    expect(bins).toEqual([
      { from: 0.4, to: 0.5, count: 30, mean_probability: 0.45, hit_rate: 0.4 },
      { from: 0.7, to: 0.8, count: 40, mean_probability: 0.72, hit_rate: 0.75 },
    ]);
  });

  it('merges small deciles with the next until the bin holds 30', () => {
    const bins = marketBins([...points(0.35, 10, 3), ...points(0.45, 15, 6), ...points(0.55, 10, 5)]);
    expect(bins).toHaveLength(1);
    expect(bins[0]).toMatchObject({ from: 0.3, to: 0.6, count: 35 });
    expect(bins[0]!.hit_rate).toBeCloseTo(14 / 35, 4);
    expect(bins[0]!.mean_probability).toBeCloseTo((0.35 * 10 + 0.45 * 15 + 0.55 * 10) / 35, 4);
  });

  it('folds a short remainder into the last full bin', () => {
    const bins = marketBins([...points(0.42, 31, 10), ...points(0.61, 30, 15), ...points(0.93, 5, 5)]);
    expect(bins.map((b) => [b.from, b.to, b.count])).toEqual([
      [0.4, 0.5, 31],
      [0.6, 1, 35],
    ]);
  });

  it('publishes nothing under 30 matches in all, and every bin of any input holds at least 30', () => {
    expect(marketBins(points(0.5, MARKET_BIN_MIN - 1, 10))).toEqual([]);
    expect(marketBins([])).toEqual([]);
    // A spread of inputs: every bin ≥ 30, nothing lost, the bins in order and not overlapping.
    for (let n = 30; n < 400; n += 37) {
      const input = Array.from({ length: n }, (_, i) => ({
        probability: ((i * 7919) % 1000) / 1000,
        won: i % 2 === 0,
      }));
      const bins = marketBins(input);
      expect(bins.every((b) => b.count >= MARKET_BIN_MIN)).toBe(true);
      expect(bins.reduce((sum, b) => sum + b.count, 0)).toBe(n);
      bins.forEach((b, i) => {
        expect(b.to).toBeGreaterThan(b.from);
        if (i > 0) expect(b.from).toBeGreaterThanOrEqual(bins[i - 1]!.to);
      });
    }
  });

  it('counts a probability of exactly 1 in the last decile and refuses a bin size under 1', () => {
    expect(marketBins(points(1, 30, 30))).toEqual([
      { from: 0.9, to: 1, count: 30, mean_probability: 1, hit_rate: 1 },
    ]);
    expect(() => marketBins([], 0)).toThrow(RangeError);
  });
});

describe('marketPoint (pure)', () => {
  it('is the likeliest outcome and whether it happened', () => {
    expect(marketPoint([0.5, 0.3, 0.2], 'home')).toEqual({ probability: 0.5, won: true });
    expect(marketPoint([0.2, 0.3, 0.5], 'home')).toEqual({ probability: 0.5, won: false });
    expect(marketPoint([0.3, 0.4, 0.3], 'draw')).toEqual({ probability: 0.4, won: true });
  });
});

describe('market_calibration in GET /api/track-record', () => {
  let t: TestApp;
  let owner: number;
  let other: number;
  let expected: Array<{ probability: number; won: boolean }>;

  beforeAll(async () => {
    t = await createTestApp({ clock: new ManualClock(RECORD_NOW) });
    owner = await seedUser(t);
    other = await seedUser(t);
    // The seeded record's matches have no odds; 64 priced matches and 5 unpriced ones with an
    // analysis each (owner), and priced matches nobody analysed (not ours: never counted).
    await seedRecord(t, [other, other]);
    expected = await seedMarket(t, owner, 64, 5);
    await importCsv(t, [
      'I1,01/02/2026,18:00,Nobody Home,Nobody Away,1,0,H',
      'I1,02/02/2026,18:00,Nobody Away,Nobody Home,0,0,D',
    ]);
    await t.app.db.execute(sql`
      UPDATE football_matches SET close_pinnacle_home = 1.5, close_pinnacle_draw = 4, close_pinnacle_away = 6
      WHERE home_team_id IN (SELECT id FROM football_teams WHERE name LIKE 'Nobody%')`);
  });
  afterAll(() => t?.close());

  it('bins the settled matches’ odds (≥ 30 a bin), only those, and never a match’s own odds', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/track-record' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('public, max-age=60');
    const market = response.json().data.track_record.market_calibration;
    expect(market.min_bin).toBe(30);
    expect(market.matches).toBe(expected.length);
    expect(market.bins.length).toBeGreaterThan(0);
    expect(market.bins.every((b: { count: number }) => b.count >= 30)).toBe(true);
    expect(market.bins.reduce((sum: number, b: { count: number }) => sum + b.count, 0)).toBe(expected.length);
    // Each bin's figures are the seeded odds' own (computed here, independently of the service).
    for (const bin of market.bins) {
      const inside = expected.filter(
        (e) => e.probability >= bin.from && (e.probability < bin.to || (bin.to === 1 && e.probability <= 1)),
      );
      expect(inside.length, `${bin.from}-${bin.to}`).toBe(bin.count);
      expect(bin.hit_rate).toBeCloseTo(inside.filter((e) => e.won).length / inside.length, 4);
      expect(bin.mean_probability).toBeCloseTo(
        inside.reduce((sum, e) => sum + e.probability, 0) / inside.length,
        4,
      );
    }
    // No per-match odds anywhere in the answer.
    expect(JSON.stringify(response.json())).not.toMatch(/pinnacle|odds/i);
  });

  it('a user’s own record bins the matches of their own analyses only', async () => {
    const own = await t.app.services.trackRecord.userRecord(owner);
    expect(own.market_calibration.matches).toBe(expected.length);
    const theirs = await t.app.services.trackRecord.userRecord(other);
    expect(theirs.market_calibration).toEqual({ min_bin: 30, matches: 0, bins: [] });
  });

  it('the settled-matches rollup holds each match its analyses were settled on, with their count', async () => {
    const stored = rowsOf(
      await t.app.db.execute(sql`SELECT match_id, settled FROM track_record_matches ORDER BY 1`),
    );
    const fresh = rowsOf(
      await t.app.db.execute(sql`
        SELECT settled_match_id AS match_id, count(*) AS settled FROM pronostics
        WHERE outcome IS NOT NULL AND settled_match_id IS NOT NULL GROUP BY 1 ORDER BY 1`),
    );
    expect(stored.map((r) => [Number(r.match_id), Number(r.settled)])).toEqual(
      fresh.map((r) => [Number(r.match_id), Number(r.settled)]),
    );
    expect(stored.length).toBeGreaterThanOrEqual(expected.length + 5);
  });
});
