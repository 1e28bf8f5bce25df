// The two track-record endpoints on a seeded, settled set, checked against figures computed here
// independently from the seed (windows by match day, void apart, RPS and Brier against the league's
// frequencies), plus the minute's cache, authentication, and the list's outcome filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import {
  RECORD_CASES,
  RECORD_MATCHES,
  RECORD_NOW,
  type RecordCase,
  seedPronostic,
  seedRecord,
} from './seed.js';

type Outcome = 'home' | 'draw' | 'away';
const DAY = 86_400_000;
const today = Date.parse(RECORD_NOW.slice(0, 10));
const windows = {
  last_30_days: 30,
  last_90_days: 90,
  last_365_days: 365,
  all_time: Number.POSITIVE_INFINITY,
};

function matchOf(c: RecordCase) {
  return RECORD_MATCHES.find((m) => m.key === c.match);
}
function resultOf(score: readonly number[]): Outcome {
  return score[0]! > score[1]! ? 'home' : score[0] === score[1] ? 'draw' : 'away';
}
/** The league's frequencies over the seeded results: the baseline forecast. */
function frequencies(league: string) {
  const results = RECORD_MATCHES.filter((m) => m.league === league).map((m) => resultOf(m.score));
  const share = (o: Outcome) => results.filter((r) => r === o).length / results.length;
  return { home: share('home'), draw: share('draw'), away: share('away') };
}
function brier(f: Record<Outcome, number>, r: Outcome) {
  return (['home', 'draw', 'away'] as const).reduce((sum, k) => sum + (f[k] - (k === r ? 1 : 0)) ** 2, 0);
}
function rps(f: Record<Outcome, number>, r: Outcome) {
  const c1 = f.home - (r === 'home' ? 1 : 0);
  const c2 = f.home + f.draw - (r === 'away' ? 0 : 1);
  return (c1 ** 2 + c2 ** 2) / 2;
}
function dayOf(c: RecordCase): number {
  const match = matchOf(c);
  return match ? Date.parse(match.day) : today;
}
function expectedFigures(cases: RecordCase[], days: number) {
  const inWindow = cases.filter((c) => dayOf(c) > today - days * DAY);
  const judged = inWindow.filter((c) => c.outcome !== 'void');
  const won = judged.filter((c) => c.outcome === 'won').length;
  const scored = judged.filter((c) => (c.slug === '1x2' || c.slug === 'full-analysis') && c.probabilities);
  const mean = (f: (c: RecordCase) => number) => scored.reduce((s, c) => s + f(c), 0) / scored.length;
  const actual = (c: RecordCase) => resultOf(matchOf(c)!.score);
  return {
    settled: inWindow.length,
    won,
    lost: judged.length - won,
    void: inWindow.length - judged.length,
    hit_rate: judged.length ? won / judged.length : null,
    mean_confidence: judged.length ? judged.reduce((s, c) => s + c.confidence, 0) / judged.length : null,
    scores: scored.length
      ? {
          count: scored.length,
          rps: mean((c) => rps(c.probabilities!, actual(c))),
          brier: mean((c) => brier(c.probabilities!, actual(c))),
          baseline_rps: mean((c) => rps(frequencies(matchOf(c)!.league), actual(c))),
          baseline_brier: mean((c) => brier(frequencies(matchOf(c)!.league), actual(c))),
        }
      : null,
  };
}

interface Figures {
  settled: number;
  won: number;
  lost: number;
  void: number;
  hit_rate: number | null;
  mean_confidence: number | null;
  one_x_two: null | {
    count: number;
    rps: number;
    brier: number;
    baseline_rps: number;
    baseline_brier: number;
  };
}

function expectFigures(actual: Figures, cases: RecordCase[], days: number, label: string, withScores = true) {
  const e = expectedFigures(cases, days);
  expect({ settled: actual.settled, won: actual.won, lost: actual.lost, void: actual.void }, label).toEqual({
    settled: e.settled,
    won: e.won,
    lost: e.lost,
    void: e.void,
  });
  if (e.hit_rate === null) expect(actual.hit_rate, label).toBeNull();
  else expect(actual.hit_rate, label).toBeCloseTo(e.hit_rate, 3);
  if (e.mean_confidence === null) expect(actual.mean_confidence, label).toBeNull();
  else expect(actual.mean_confidence, label).toBeCloseTo(e.mean_confidence, 3);
  if (!withScores || !e.scores) {
    expect(actual.one_x_two, label).toBeNull();
    return;
  }
  expect(actual.one_x_two!.count, label).toBe(e.scores.count);
  for (const key of ['rps', 'brier', 'baseline_rps', 'baseline_brier'] as const) {
    expect(actual.one_x_two![key], `${label} ${key}`).toBeCloseTo(e.scores[key], 3);
  }
}

let t: TestApp;
let owner: SignedIn;
let other: SignedIn;
let ids: number[];

beforeAll(async () => {
  t = await createTestApp({ clock: new ManualClock(RECORD_NOW) });
  owner = await signIn(t);
  other = await signIn(t);
  ids = await seedRecord(t, [owner.id, other.id]);
});
afterAll(() => t.close());

async function publicRecord() {
  const response = await t.app.inject({ method: 'GET', url: '/api/track-record' });
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('GET /api/track-record', () => {
  it('counts every settled analysis: overall, per type, per league, by window', async () => {
    const body = await publicRecord();
    expect(body.user).toBeNull();
    expect(body.message).toBe('Bilan de toutes nos analyses réglées.');
    const record = body.data.track_record;
    for (const [window, days] of Object.entries(windows)) {
      expectFigures(record.overall[window], RECORD_CASES, days, `overall ${window}`);
    }
    const slugs = [...new Set(RECORD_CASES.map((c) => c.slug))];
    expect(record.by_type.map((row: { type: string }) => row.type).sort()).toEqual(slugs.sort());
    for (const row of record.by_type) {
      const cases = RECORD_CASES.filter((c) => c.slug === row.type);
      for (const [window, days] of Object.entries(windows)) {
        expectFigures(
          row.windows[window],
          cases,
          days,
          `${row.type} ${window}`,
          row.type === '1x2' || row.type === 'full-analysis',
        );
      }
    }
    expect(
      record.by_league.map((row: { league: { code: string } | null }) => row.league?.code ?? null),
    ).toEqual(['E0', 'SP1', null]);
    for (const row of record.by_league) {
      const cases = RECORD_CASES.filter((c) => (matchOf(c)?.league ?? null) === (row.league?.code ?? null));
      for (const [window, days] of Object.entries(windows)) {
        expectFigures(row.windows[window], cases, days, `${row.league?.code} ${window}`);
      }
    }
  });

  it('the calibration bins and the monthly series', async () => {
    const record = (await publicRecord()).data.track_record;
    const judged = RECORD_CASES.filter((c) => c.outcome !== 'void');
    const bins = new Map<number, RecordCase[]>();
    for (const c of judged) {
      const bin = Math.min(Math.floor(c.confidence * 10), 9);
      bins.set(bin, [...(bins.get(bin) ?? []), c]);
    }
    expect(record.calibration).toHaveLength(bins.size);
    for (const row of record.calibration) {
      const cases = bins.get(Math.round(row.from * 10))!;
      expect(row.count).toBe(cases.length);
      expect(row.hit_rate).toBeCloseTo(cases.filter((c) => c.outcome === 'won').length / cases.length, 3);
      expect(row.mean_confidence).toBeCloseTo(cases.reduce((s, c) => s + c.confidence, 0) / cases.length, 3);
    }
    const months = new Map<string, RecordCase[]>();
    for (const c of RECORD_CASES) {
      const month = new Date(dayOf(c)).toISOString().slice(0, 7);
      months.set(month, [...(months.get(month) ?? []), c]);
    }
    expect(record.monthly.map((m: { month: string }) => m.month)).toEqual([...months.keys()].sort());
    for (const row of record.monthly) {
      const e = expectedFigures(months.get(row.month)!, Number.POSITIVE_INFINITY);
      expect(row).toMatchObject({ settled: e.settled, won: e.won, lost: e.lost, void: e.void });
    }
    expect(record.baseline).toMatch(/Fréquences historiques/);
  });

  it('is cached for a minute: a second request within it is not recomputed, one after it is', async () => {
    t.clock.advance(61_000);
    const first = (await publicRecord()).data.track_record;
    const before = first.overall.all_time.settled;
    await seedPronostic(t, {
      userId: other.id,
      slug: 'btts',
      details: { home: 'Barcelona', away: 'Sevilla', date: '2026-03-02' },
      pick: 'yes',
      confidence: 0.5,
    });
    await t.app.services.trackRecord.settleDue();
    t.clock.advance(59_000);
    const within = (await publicRecord()).data.track_record;
    // The same computation (its timestamp), so the analysis settled meanwhile is not in it yet.
    expect(within.generated_at).toBe(first.generated_at);
    expect(within.overall.all_time.settled).toBe(before);
    t.clock.advance(2_000);
    const after = (await publicRecord()).data.track_record;
    expect(after.generated_at).toBe(t.clock.now().toISOString());
    expect(after.overall.all_time.settled).toBe(before + 1);
  });

  it('tells browsers and proxies to keep the figures and the page a minute', async () => {
    const api = await t.app.inject({ method: 'GET', url: '/api/track-record' });
    expect(api.headers['cache-control']).toBe('public, max-age=60');
    const page = await t.app.inject({ method: 'GET', url: '/track-record' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['cache-control']).toBe('public, max-age=60');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
  });
});

describe('GET /api/user/track-record', () => {
  it('the same figures over the caller’s own analyses only', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/track-record',
      headers: owner.headers,
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.user).toEqual({ id: owner.id });
    const own = RECORD_CASES.filter((c) => c.owner === 0);
    for (const [window, days] of Object.entries(windows)) {
      expectFigures(body.data.track_record.overall[window], own, days, `own ${window}`);
    }
  });

  it('needs a token', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/user/track-record' });
    expect(response.statusCode).toBe(401);
  });
});

describe('GET /api/user/pronostics?outcome=', () => {
  const list = async (query: string) =>
    t.app.inject({ method: 'GET', url: `/api/user/pronostics?${query}`, headers: owner.headers });

  it('filters by settled outcome and by pending, with the total of the filter', async () => {
    const ownIds = (outcome: string) =>
      RECORD_CASES.map((c, index) => ({ c, id: ids[index]! }))
        .filter(({ c }) => c.owner === 0 && c.outcome === outcome)
        .map(({ id }) => id)
        .sort((a, b) => b - a);
    for (const outcome of ['won', 'lost', 'void']) {
      const response = await list(`outcome=${outcome}`);
      expect(response.statusCode).toBe(200);
      const data = response.json().data;
      expect(data.pronostics.map((p: { id: number }) => p.id).sort((a: number, b: number) => b - a)).toEqual(
        ownIds(outcome),
      );
      expect(data.meta.total).toBe(ownIds(outcome).length);
      for (const p of data.pronostics) expect(p.result.settlement.outcome).toBe(outcome);
    }
    const pendingId = await seedPronostic(t, {
      userId: owner.id,
      slug: '1x2',
      details: { home: 'Arsenal', away: 'Everton', date: '2026-04-01' },
      pick: 'home',
      confidence: 0.5,
    });
    const pending = (await list('outcome=pending')).json().data;
    expect(pending.pronostics.map((p: { id: number }) => p.id)).toEqual([pendingId]);
    expect(pending.meta.total).toBe(1);
  });

  it('422 naming the field on an unknown outcome', async () => {
    const response = await list('outcome=maybe');
    expect(response.statusCode).toBe(422);
    expect(JSON.stringify(response.json().errors)).toContain('outcome');
  });
});
