// What a leg may pick of an analysis, kept per process (decision 0168): a check reads an
// analysis's result once; every check still reads whether the caller may use it (owner, success,
// not deleted), so a kept analysis never outlives its deletion or crosses to another account; a
// kept entry answers only for the same finish time. Counted, not timed.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slipMarkets } from '../../src/lib/allowed-values.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import { LegOffers, LegOffersCache } from '../../src/modules/slips/offers.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { recordStatements, type StatementRecorder } from '../performance/statements.js';
import { matrixAnalyst } from './analyst.js';

let t: TestApp;
let owner: SignedIn;
let stranger: SignedIn;
let recorder: StatementRecorder;

beforeAll(async () => {
  t = await createTestApp({ analyst: matrixAnalyst, config: { tokenCacheSeconds: 60 } });
  owner = await signIn(t, { credits: 100 });
  stranger = await signIn(t, { credits: 10 });
  recorder = recordStatements(t.database);
});
afterAll(async () => {
  recorder.stop();
  await t.close();
});

/** A successful full analysis (type 6) of `owner`: its id. */
async function analysed(home: string): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: owner.headers,
    payload: { type_id: 6, teams_details: { home, away: 'Fovu Baham' } },
  });
  expect(created.statusCode, created.body).toBe(201);
  expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
  return created.json().data.pronostic.id as number;
}

function check(who: SignedIn, legs: object[]) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/slips/check',
    headers: who.headers,
    payload: { legs },
  });
}

/** The result reads among the statements run since the last `take`. */
const resultReads = () =>
  recorder.take().filter((run) => /pronostic_leg_results|SELECT id, result/.test(run));

describe('an analysis kept for its legs', () => {
  it('has its result read by the first check only, with the same answer every time', async () => {
    const id = await analysed('Coton Sport');
    const legs = [
      { pronostic_id: id, market: '1x2', pick: 'home', odds: 2.1 },
      { pronostic_id: id, market: 'btts', pick: 'yes', odds: 1.8 },
    ];
    recorder.take();
    const first = await check(owner, legs);
    expect(first.statusCode, first.body).toBe(200);
    expect(resultReads()).toHaveLength(1);
    const again = await check(owner, legs);
    expect(again.body).toBe(first.body);
    expect(resultReads()).toHaveLength(0);
  });

  it('is refused to another account, and once deleted, though kept', async () => {
    const id = await analysed('Union Douala');
    const leg = { pronostic_id: id, market: 'double_chance', pick: 'home_draw', odds: 1.3 };
    expect((await check(owner, [leg])).statusCode).toBe(200);

    const stranger422 = await check(stranger, [leg]);
    expect(stranger422.statusCode).toBe(422);
    expect(stranger422.json().errors).toEqual({ 'legs.0.pronostic_id': [fr.slipTexts.notYours] });

    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/pronostic/${id}`,
      headers: owner.headers,
    });
    expect(deleted.statusCode, deleted.body).toBeLessThan(300);
    const after = await check(owner, [leg]);
    expect(after.statusCode).toBe(422);
    expect(after.json().errors).toEqual({ 'legs.0.pronostic_id': [fr.slipTexts.notYours] });
  });

  it('answers only for the same finish time: another analysis under the id is read again', async () => {
    const id = await analysed('PWD Bamenda');
    const leg = { pronostic_id: id, market: '1x2', pick: 'draw', odds: 3.4 };
    const first = await check(owner, [leg]);
    expect(first.statusCode, first.body).toBe(200);
    const before = first.json().data.slip.legs[0].probability as number;
    // What a database restored from an older backup could hold under the same id.
    await t.app.db.execute(sql`
      UPDATE pronostics
      SET result = json_build_object('market', '1x2', 'probabilities',
                                     json_build_object('home', 0.5, 'draw', 0.125, 'away', 0.375)),
          finished_at = finished_at + interval '1 second'
      WHERE id = ${id}`);
    recorder.take();
    const after = await check(owner, [leg]);
    expect(after.statusCode, after.body).toBe(200);
    expect(resultReads()).toHaveLength(1);
    expect(before).not.toBe(0.125);
    expect(after.json().data.slip.legs[0].probability).toBe(0.125);
  });
});

describe('LegOffers', () => {
  const probabilities = { home: 0.5, draw: 0.3, away: 0.2 };
  it('reads every market of a full analysis, an exact score picking its listed scores', () => {
    const offers = LegOffers.of({
      market: 'full_analysis',
      probabilities: {
        ...probabilities,
        markets: {
          btts: { probabilities: { yes: 0.55, no: 0.45 } },
          exact_score: { probabilities: { '1-0': 0.12, '1-1': 0.11, other: 0.77 } },
        },
      },
      scores: [{ score: '1-0' }, { score: '1-1' }, { score: '2-2' }],
    })!;
    expect(slipMarkets.filter((market) => offers.offers(market))).toEqual(['1x2', 'btts', 'exact_score']);
    expect(['home', 'draw', 'away', 'yes'].map((pick) => offers.probability('1x2', pick))).toEqual([
      0.5,
      0.3,
      0.2,
      undefined,
    ]);
    expect(offers.probability('btts', 'no')).toBe(0.45);
    expect(offers.probability('exact_score', '1-1')).toBe(0.11);
    // Listed without a number, or a number not listed: no pick either way.
    expect(offers.probability('exact_score', '2-2')).toBeUndefined();
    expect(offers.probability('exact_score', 'other')).toBeUndefined();
    expect(offers.probability('double_chance', 'home_draw')).toBeUndefined();
  });

  it('reads only its own market from a one-market result; nothing from no result', () => {
    const offers = LegOffers.of({ market: 'btts', probabilities: { yes: 0.6, no: 'x', maybe: 0.1 } })!;
    expect(slipMarkets.filter((market) => offers.offers(market))).toEqual(['btts']);
    expect(offers.probability('btts', 'yes')).toBe(0.6);
    expect(offers.probability('btts', 'no')).toBeUndefined();
    expect(offers.probability('btts', 'maybe')).toBeUndefined();
    expect(offers.probability('1x2', 'home')).toBeUndefined();
    expect(LegOffers.of(null)).toBeNull();
    expect(slipMarkets.some((market) => LegOffers.of({ market: '1x2' })!.offers(market))).toBe(false);
  });
});

describe('LegOffersCache', () => {
  const offers = LegOffers.of({ market: '1x2', probabilities: { home: 1, draw: 0, away: 0 } });
  it('drops the entry used longest ago beyond its size, and answers only for the same finish time', () => {
    const cache = new LegOffersCache(2);
    cache.set(1, 10, offers);
    cache.set(2, 20, offers);
    expect(cache.get(1, 10)).toBe(offers);
    cache.set(3, 30, offers);
    expect(cache.size).toBe(2);
    expect(cache.get(2, 20)).toBeUndefined();
    expect(cache.get(1, 10)).toBe(offers);
    expect(cache.get(1, 11)).toBeUndefined();
    expect(cache.get(3, 30)).toBe(offers);
  });

  it('keeps nothing at size 0', () => {
    const cache = new LegOffersCache(0);
    cache.set(1, 10, offers);
    expect(cache.get(1, 10)).toBeUndefined();
  });
});
