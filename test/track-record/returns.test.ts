// The track record in money (issue 53, decision 0129): seeded analyses with known stored odds and
// results; `GET /api/track-record` answers each market's and month's flat 1,000 XAF bets, their
// returns and 95 % interval, beside the bookmaker's favourite on the same matches.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureOdds } from '../../src/db/schema/fixtures.js';
import { en } from '../../src/lib/catalogues/en.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import { ManualClock } from '../../src/lib/clock.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { importCsv, seedPronostic, seedUser } from './seed.js';

const clock = new ManualClock('2027-05-01T12:00:00Z');
let t: TestApp;

async function odds(fixtureId: number, values: Partial<typeof fixtureOdds.$inferInsert>): Promise<number> {
  const [row] = await t.database.db
    .insert(fixtureOdds)
    .values({ fixtureId, collectedAt: '2027-03-01T00:00:00Z', ...values })
    .returning({ id: fixtureOdds.id });
  return row!.id;
}

/** The figures `returns.ts` must give for per-bet returns (in stakes), computed here from the definition. */
function expected(backs: number[]) {
  const n = backs.length;
  const mean = backs.reduce((a, b) => a + b, 0) / n;
  const variance = backs.reduce((sum, back) => sum + (back - mean) ** 2, 0) / (n - 1);
  const margin = 1.96 * Math.sqrt(variance / n);
  const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
  return {
    bets: n,
    staked: n * 1000,
    returned: Math.round(backs.reduce((a, b) => a + b, 0) * 1000),
    roi: round4(mean - 1),
    roi_low: round4(mean - 1 - margin),
    roi_high: round4(mean - 1 + margin),
  };
}

beforeAll(async () => {
  t = await createTestApp({ clock });
  const user = await seedUser(t);
  const arsenal = await seedFixture(t, {
    home: 'Arsenal',
    away: 'Chelsea',
    kickoffAt: '2027-03-14T15:00:00Z',
  });
  const leeds = await seedFixture(t, { home: 'Leeds', away: 'Everton', kickoffAt: '2027-04-10T15:00:00Z' });
  // Arsenal: the market average (and Pinnacle, unused); Leeds: Pinnacle only.
  const march = await odds(arsenal, {
    averageHome: 2,
    averageDraw: 3.4,
    averageAway: 3.8,
    pinnacleHome: 2.1,
    pinnacleDraw: 3.5,
    pinnacleAway: 3.9,
    overUnderAverageOver: 1.9,
    overUnderAverageUnder: 1.95,
  });
  const april = await odds(leeds, {
    pinnacleHome: 2.5,
    pinnacleDraw: 3.2,
    pinnacleAway: 2.9,
    overUnderPinnacleOver: 2.2,
    overUnderPinnacleUnder: 1.7,
  });
  const a = { home: 'Arsenal', away: 'Chelsea', date: '2027-03-14', league: 'E0' };
  const l = { home: 'Leeds', away: 'Everton', date: '2027-04-10', league: 'E0' };
  const priced: Array<[Parameters<typeof seedPronostic>[1]['slug'], typeof a, string, number | null]> = [
    ['1x2', a, 'home', march], // won at 2.00; favourite home won
    ['full-analysis', a, 'away', march], // lost; favourite home won
    ['1x2', l, 'draw', april], // won at Pinnacle's 3.20; favourite home (2.50) lost
    ['over-under-2-5', a, 'over', march], // won at 1.90; favourite over (1.90) won
    ['over-under-2-5', l, 'over', april], // lost; favourite under (1.70) won
    ['btts', a, 'yes', march], // no stored odds for that market
    ['1x2', a, 'home', null], // given no odds
  ];
  for (const [slug, details, pick, oddsId] of priced) {
    const id = await seedPronostic(t, { userId: user, slug, details, pick, confidence: 0.5 });
    if (oddsId !== null)
      await t.app.db.execute(sql`UPDATE pronostics SET fixture_odds_id = ${oddsId} WHERE id = ${id}`);
  }
  await importCsv(t, [
    'E0,14/03/2027,15:00,Arsenal,Chelsea,2,1,H',
    'E0,10/04/2027,15:00,Leeds,Everton,0,0,D',
  ]);
  expect(await t.app.services.trackRecord.settleDue()).toMatchObject({ settled: 7, void: 0 });
});
afterAll(() => t.close());

describe('GET /api/track-record: data.returns', () => {
  it('counts each priced pick as a flat 1,000 XAF bet at its stored odds, with the favourite beside it', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/api/track-record' });
    expect(response.statusCode, response.body).toBe(200);
    const { returns } = response.json().data;
    expect(returns.stake).toBe(1000);
    const market = (name: string) =>
      returns.markets.find((entry: { market: string }) => entry.market === name);
    expect(market('1x2')).toEqual({
      market: '1x2',
      analyses: expected([2, 0, 3.2]),
      favourite: expected([2, 2, 0]),
    });
    expect(market('1x2').analyses).toMatchObject({ bets: 3, staked: 3000, returned: 5200, roi: 0.7333 });
    expect(market('over_under_2_5')).toEqual({
      market: 'over_under_2_5',
      analyses: expected([1.9, 0]),
      favourite: expected([1.9, 1.7]),
    });
    for (const name of ['double_chance', 'btts', 'exact_score']) {
      expect(market(name).analyses).toEqual({
        bets: 0,
        staked: 0,
        returned: 0,
        roi: null,
        roi_low: null,
        roi_high: null,
      });
    }
    expect(returns.months).toEqual([
      { month: '2027-03', analyses: expected([2, 0, 1.9]), favourite: expected([2, 2, 1.9]) },
      { month: '2027-04', analyses: expected([3.2, 0]), favourite: expected([0, 1.7]) },
    ]);
    expect(returns.all.analyses).toEqual(expected([2, 0, 3.2, 1.9, 0]));
  });
});

describe('GET /track-record: the money section', () => {
  it('has its heading, chart and table texts in the reader’s language', async () => {
    const french = await t.app.inject({ method: 'GET', url: '/track-record' });
    expect(french.body).toContain(`<h2>${fr.slipTexts.trackRecordMoney.title}</h2>`);
    expect(french.body).toContain('<div id="returns" class="wide"></div>');
    const english = await t.app.inject({ method: 'GET', url: '/track-record?lang=en' });
    expect(english.body).toContain(`<h2>${en.slipTexts.trackRecordMoney.title}</h2>`);
    const script = await t.app.inject({ method: 'GET', url: '/track-record/app.js?lang=en' });
    expect(script.body).toContain(en.slipTexts.trackRecordMoney.chart);
    expect(script.body).toContain('renderReturns(body.data.returns)');
  });
});
