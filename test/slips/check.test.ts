// Checking a slip through HTTP (issue 53, DESIGN "Slips"): one leg gives the analysis's probability
// at the given odds; two legs of one match are summed from the stored score matrix (not the product);
// legs of different matches multiply; every refusal is a 422 on the leg's field.
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pronosticMatrices } from '../../src/db/schema/pronostics.js';
import { decodeMatrix } from '../../src/engine/score-matrix.js';
import { fr } from '../../src/lib/catalogues/fr.js';
import { ManualClock } from '../../src/lib/clock.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { matrixAnalyst } from './analyst.js';

/** The parts of a result the tests read. */
interface ShownResult {
  probabilities: Record<string, number> & {
    markets: Record<string, { probabilities: Record<string, number> }>;
  };
  scores: Array<{ score: string }>;
}

const clock = new ManualClock('2027-03-10T12:00:00Z');
let t: TestApp;
let user: SignedIn;
let stranger: SignedIn;

beforeAll(async () => {
  t = await createTestApp({ clock, analyst: matrixAnalyst });
  user = await signIn(t, { credits: 500 });
  stranger = await signIn(t, { credits: 50 });
});
afterAll(() => t.close());

/** A successful pronostic of `type_id` (1: 1X2, 5: exact score, 6: full analysis) and its result. */
async function analysed(who: SignedIn, payload: object): Promise<{ id: number; result: ShownResult }> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: who.headers,
    payload,
  });
  expect(created.statusCode, created.body).toBe(201);
  const id = created.json().data.pronostic.id as number;
  expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
  const shown = await t.app.inject({ method: 'GET', url: `/api/user/pronostic/${id}`, headers: who.headers });
  return { id, result: shown.json().data.pronostic.result };
}

const match = (n: number, rates: { lambda?: number; mu?: number } = {}) => ({
  teams_details: { home: `Home ${n}`, away: `Away ${n}`, ...rates },
});

function check(legs: object[], extra: object = {}, who: SignedIn = user) {
  return t.app.inject({
    method: 'POST',
    url: '/api/user/slips/check',
    headers: who.headers,
    payload: { legs, ...extra },
  });
}

describe('POST /api/user/slips/check', () => {
  it('gives one leg the analysis’s probability at the given odds, for free', async () => {
    const { id, result } = await analysed(user, { type_id: 1, ...match(1) });
    const p = result.probabilities.home!;
    const before = (
      await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers })
    ).json();
    const response = await check([{ pronostic_id: id, market: '1x2', pick: 'home', odds: 2.1 }], {
      stake: 2000,
    });
    expect(response.statusCode, response.body).toBe(200);
    const slip = response.json().data.slip;
    expect(slip.legs).toEqual([
      {
        pronostic_id: id,
        market: '1x2',
        pick: 'home',
        probability: p,
        odds: 2.1,
        implied_probability: Number((1 / 2.1).toPrecision(6)),
        edge: Math.round((p * 2.1 - 1) * 10_000) / 10_000,
      },
    ]);
    expect(slip.probability).toBe(p);
    expect(slip.odds).toBe(2.1);
    expect(slip.fair_odds).toBe(Math.round((1 / p) * 100) / 100);
    const expected = Math.floor(2000 * p * 2.1 + 0.5);
    expect(slip).toMatchObject({ stake: 2000, expected_return: expected, expected_gain: expected - 2000 });
    const gain = p * 2.1 - 1;
    expect(slip.verdict).toBe(gain > 0.02 ? 'value' : gain < -0.02 ? 'negative' : 'fair');
    expect(slip.verdict_text).toBe(fr.slipTexts.verdict[slip.verdict as 'fair'](expected, 2000));
    // Free: the credits did not move.
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/user/profile', headers: user.headers })
    ).json();
    expect(after.user.credits_balance).toBe(before.user.credits_balance);
  });

  it('sums two legs of one match over the stored matrix, which differs from their product', async () => {
    const { id, result } = await analysed(user, { type_id: 6, ...match(2, { lambda: 1.9, mu: 0.8 }) });
    const [stored] = await t.database.db
      .select()
      .from(pronosticMatrices)
      .where(eq(pronosticMatrices.pronosticId, id));
    const matrix = decodeMatrix(stored!.matrix)!;
    let joint = 0;
    for (let x = 0; x < matrix.size; x++) {
      for (let y = 0; y < matrix.size; y++) if (x > y && x + y > 2) joint += matrix.p[x * matrix.size + y]!;
    }
    const response = await check([
      { pronostic_id: id, market: '1x2', pick: 'home', odds: 1.8 },
      { pronostic_id: id, market: 'over_under_2_5', pick: 'over', odds: 1.9 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const slip = response.json().data.slip;
    const home = result.probabilities.home!;
    const over = result.probabilities.markets.over_under_2_5!.probabilities.over!;
    expect(slip.legs.map((leg: { probability: number }) => leg.probability)).toEqual([home, over]);
    expect(slip.probability).toBeCloseTo(joint, 5);
    expect(Math.abs(slip.probability - home * over)).toBeGreaterThan(0.01);
    expect(slip.odds).toBe(3.42);
    expect(slip.expected_return).toBe(Math.floor(1000 * joint * 1.8 * 1.9 + 0.5));
  });

  it('multiplies ten legs of ten matches', async () => {
    const legs: object[] = [];
    let product = 1;
    for (let n = 0; n < 10; n++) {
      const { id, result } = await analysed(user, { type_id: 1, ...match(100 + n, { lambda: 1 + n / 10 }) });
      legs.push({ pronostic_id: id, market: '1x2', pick: 'home', odds: 1.5 });
      product *= result.probabilities.home!;
    }
    const response = await check(legs);
    expect(response.statusCode, response.body).toBe(200);
    const slip = response.json().data.slip;
    expect(slip.probability).toBe(Number(product.toPrecision(6)));
    expect(slip.odds).toBe(Math.round(1.5 ** 10 * 100) / 100);
    expect(slip.expected_return).toBe(Math.floor(1000 * product * 1.5 ** 10 + 0.5));
    expect(slip.verdict).toBe('negative');
  });

  describe('refusals: a 422 on the leg’s field', () => {
    let oneXTwo: number;
    let full: { id: number; result: ShownResult };
    let exact: { id: number; result: ShownResult };
    let theirs: number;
    let fixtureA: number;
    let fixtureB: number;
    let legacy: number;

    beforeAll(async () => {
      oneXTwo = (await analysed(user, { type_id: 1, ...match(20) })).id;
      full = await analysed(user, { type_id: 6, ...match(21) });
      exact = await analysed(user, { type_id: 5, ...match(22) });
      theirs = (await analysed(stranger, { type_id: 1, ...match(23) })).id;
      const fixture = await seedFixture(t, {
        home: 'Arsenal',
        away: 'Chelsea',
        kickoffAt: '2027-03-14T15:00:00Z',
      });
      fixtureA = (await analysed(user, { type_id: 1, fixture_id: fixture })).id;
      fixtureB = (await analysed(user, { type_id: 6, fixture_id: fixture })).id;
      // Analysed before the matrices were stored: none.
      legacy = (await analysed(user, { type_id: 6, ...match(24) })).id;
      await t.database.db.execute(sql`DELETE FROM pronostic_matrices WHERE pronostic_id = ${legacy}`);
    });

    const leg = (over: object) => ({ pronostic_id: oneXTwo, market: '1x2', pick: 'home', odds: 2, ...over });

    async function refused(legs: object[], field: string, text?: string, extra: object = {}) {
      const response = await check(legs, extra);
      expect(response.statusCode, response.body).toBe(422);
      const errors = response.json().errors as Record<string, string[]>;
      expect(Object.keys(errors), response.body).toEqual([field]);
      if (text) expect(errors[field]).toEqual([text]);
    }

    it('odds: below 1.01, above 1000, more than two decimals', async () => {
      await refused([leg({}), leg({ odds: 1.005 })], 'legs.1.odds');
      await refused([leg({ odds: 1000.5 })], 'legs.0.odds');
      await refused([leg({ odds: 2.345 })], 'legs.0.odds', fr.slipTexts.badOdds);
      await refused([leg({}), leg({ odds: 'x' })], 'legs.1.odds');
    });

    it('legs: none, or more than twenty; stake outside 100..10,000,000 or not whole', async () => {
      await refused([], 'legs');
      await refused(
        Array.from({ length: 21 }, () => leg({})),
        'legs',
      );
      await refused([leg({})], 'stake', undefined, { stake: 99 });
      await refused([leg({})], 'stake', undefined, { stake: 10_000_001 });
      await refused([leg({})], 'stake', undefined, { stake: 150.5 });
    });

    it('pronostic_id: another user’s, unknown, or not a success (never a hint it exists)', async () => {
      await refused([leg({ pronostic_id: theirs })], 'legs.0.pronostic_id', fr.slipTexts.notYours);
      await refused([leg({}), leg({ pronostic_id: 999_999 })], 'legs.1.pronostic_id', fr.slipTexts.notYours);
    });

    it('market: unknown, or one the analysis does not offer', async () => {
      await refused([leg({ market: 'corners' })], 'legs.0.market');
      await refused([leg({ market: 'btts', pick: 'yes' })], 'legs.0.market', fr.slipTexts.marketNotOffered);
    });

    it('pick: not the market’s, or an exact score the analysis does not list', async () => {
      await refused([leg({ pick: 'yes' })], 'legs.0.pick', fr.slipTexts.unknownPick);
      const listed = exact.result.scores.map((score: { score: string }) => score.score) as string[];
      const unlisted = ['0-0', '1-0', '0-1', '1-1', '2-1', '2-0', '1-2', '3-0', '5-5'].find(
        (s) => !listed.includes(s),
      );
      const exactLeg = { pronostic_id: exact.id, market: 'exact_score', odds: 7 };
      expect((await check([{ ...exactLeg, pick: listed[0] }])).statusCode).toBe(200);
      await refused([{ ...exactLeg, pick: unlisted }], 'legs.0.pick', fr.slipTexts.unknownPick);
      await refused([{ ...exactLeg, pick: 'other' }], 'legs.0.pick');
    });

    it('two pronostics of one fixture: the second’s pronostic_id', async () => {
      await refused(
        [leg({ pronostic_id: fixtureA }), leg({ pronostic_id: fixtureB })],
        'legs.1.pronostic_id',
        fr.slipTexts.sameFixture,
      );
    });

    it('two legs of one match that cannot both win: the second’s pick', async () => {
      const fullLeg = (market: string, pick: string) => ({ pronostic_id: full.id, market, pick, odds: 2 });
      await refused(
        [fullLeg('1x2', 'home'), fullLeg('1x2', 'away')],
        'legs.1.pick',
        fr.slipTexts.cannotBothWin,
      );
      await refused(
        [fullLeg('1x2', 'home'), fullLeg('btts', 'yes'), fullLeg('over_under_2_5', 'under')],
        'legs.2.pick',
        fr.slipTexts.cannotBothWin,
      );
      await refused(
        [fullLeg('btts', 'yes'), fullLeg('btts', 'yes')],
        'legs.1.pick',
        fr.slipTexts.duplicateLeg,
      );
      const ok = await check([
        fullLeg('1x2', 'home'),
        fullLeg('double_chance', 'home_draw'),
        fullLeg('btts', 'no'),
      ]);
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('a second leg on an analysis without a stored matrix: its pronostic_id', async () => {
      const legacyLeg = (market: string, pick: string) => ({ pronostic_id: legacy, market, pick, odds: 2 });
      expect((await check([legacyLeg('1x2', 'home')])).statusCode).toBe(200);
      await refused(
        [legacyLeg('1x2', 'home'), legacyLeg('btts', 'yes')],
        'legs.1.pronostic_id',
        fr.slipTexts.noMatrix,
      );
    });
  });
});

describe('GET /api/admin/stats: the console’s slip counts', () => {
  it('counts the slips checked and saved per day, and nothing else of them', async () => {
    // Rows are stamped by the database's clock: the console's window around the real today.
    clock.set(new Date().toISOString());
    const admin = await signIn(t, { role: 'admin' });
    const { id } = await analysed(user, { type_id: 1, ...match(300) });
    const legs = [{ pronostic_id: id, market: '1x2', pick: 'home', odds: 2 }];
    const before = (
      await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: admin.headers })
    ).json().data;
    await check(legs);
    const saved = await t.app.inject({
      method: 'POST',
      url: '/api/user/slips',
      headers: user.headers,
      payload: { legs },
    });
    expect(saved.statusCode).toBe(201);
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/admin/stats', headers: admin.headers })
    ).json().data;
    expect(after.today.slips).toEqual({
      checked: before.today.slips.checked + 1,
      saved: before.today.slips.saved + 1,
    });
    expect(after.last_30_days.slips.saved).toBe(1);
    expect(after.series.at(-1)).toMatchObject({ slips_checked: after.today.slips.checked, slips_saved: 1 });
  });
});
