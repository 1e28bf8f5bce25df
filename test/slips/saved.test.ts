// Saved slips through HTTP (issue 53): saved `open`, listed with paging, another user's is a 403;
// they settle by themselves from fixture results (won, lost, void legs at odds 1, all void), each
// with its `slip.settled` event, and the summary sums the settled ones.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock.js';
import { seedFixture } from '../fixtures/seed.js';
import { createTestApp, type SignedIn, signIn, type TestApp } from '../helpers.js';
import { excludeSelf } from '../play/helpers.js';
import { matrixAnalyst } from './analyst.js';

const clock = new ManualClock('2027-03-10T12:00:00Z');
let t: TestApp;
let user: SignedIn;
let stranger: SignedIn;
let played: number;
let awayWin: number;
let neverPlayed: number;

beforeAll(async () => {
  // The clock moves days ahead: the sign-in stays valid meanwhile.
  t = await createTestApp({
    clock,
    analyst: matrixAnalyst,
    config: { tokenIdleTtlSeconds: 30 * 24 * 3600, tokenMaxAgeSeconds: 60 * 24 * 3600 },
  });
  user = await signIn(t, { credits: 100 });
  stranger = await signIn(t, { credits: 10 });
  const arsenal = await seedFixture(t, {
    home: 'Arsenal',
    away: 'Chelsea',
    kickoffAt: '2027-03-14T15:00:00Z',
  });
  const united = await seedFixture(t, {
    home: 'Man United',
    away: 'Fulham',
    kickoffAt: '2027-03-15T16:30:00Z',
  });
  const leeds = await seedFixture(t, { home: 'Leeds', away: 'Everton', kickoffAt: '2027-03-15T19:00:00Z' });
  played = await analysed({ type_id: 6, fixture_id: arsenal });
  awayWin = await analysed({ type_id: 1, fixture_id: united });
  neverPlayed = await analysed({ type_id: 1, fixture_id: leeds });
});
afterAll(() => t.close());

async function analysed(payload: object): Promise<number> {
  const created = await t.app.inject({
    method: 'POST',
    url: '/api/user/pronostic/create',
    headers: user.headers,
    payload,
  });
  expect(created.statusCode, created.body).toBe(201);
  expect(await t.app.runtime.analysisWorker.runOnce()).toBe('success');
  return created.json().data.pronostic.id;
}

async function save(legs: Array<[number, string, string, number]>, stake = 1000) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/api/user/slips',
    headers: user.headers,
    payload: {
      stake,
      legs: legs.map(([pronostic_id, market, pick, odds]) => ({ pronostic_id, market, pick, odds })),
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json().data.slip;
}

const get = (id: number, who: SignedIn = user) =>
  t.app.inject({ method: 'GET', url: `/api/user/slips/${id}`, headers: who.headers });

let won: { id: number; expected_return: number };
let lost: { id: number };
let allVoid: { id: number };
let partlyVoid: { id: number };

describe('POST /api/user/slips', () => {
  it('saves a checked slip as open, with the check’s figures', async () => {
    const check = await t.app.inject({
      method: 'POST',
      url: '/api/user/slips/check',
      headers: user.headers,
      payload: {
        legs: [
          { pronostic_id: played, market: '1x2', pick: 'home', odds: 1.8 },
          { pronostic_id: played, market: 'over_under_2_5', pick: 'over', odds: 2 },
        ],
      },
    });
    won = await save([
      [played, '1x2', 'home', 1.8],
      [played, 'over_under_2_5', 'over', 2],
    ]);
    const { slip: checked } = check.json().data;
    expect(won).toMatchObject({ ...checked, status: 'open', returned: null, settled_at: null });
    expect(won.id).toBeGreaterThan(0);
    lost = await save([
      [played, '1x2', 'home', 1.8],
      [awayWin, '1x2', 'home', 2.5],
    ]);
    allVoid = await save([[neverPlayed, '1x2', 'draw', 3.4]], 500);
    partlyVoid = await save(
      [
        [played, 'btts', 'yes', 1.7],
        [neverPlayed, '1x2', 'home', 2.2],
      ],
      2000,
    );
  });

  it('refuses what a check refuses, on the leg’s field, and saves nothing', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/user/slips',
      headers: user.headers,
      payload: { legs: [{ pronostic_id: played, market: '1x2', pick: 'home', odds: 1.234 }] },
    });
    expect(response.statusCode).toBe(422);
    expect(Object.keys(response.json().errors)).toEqual(['legs.0.odds']);
  });
});

describe('GET /api/user/slips and /api/user/slips/{id}', () => {
  it('lists the caller’s slips newest first, with paging and a status filter', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/api/user/slips?per_page=3&page=1',
      headers: user.headers,
    });
    expect(page.statusCode).toBe(200);
    const { slips, meta } = page.json().data;
    expect(slips.map((slip: { id: number }) => slip.id)).toEqual([partlyVoid.id, allVoid.id, lost.id]);
    expect(meta).toEqual({ current_page: 1, last_page: 2, per_page: 3, total: 4, has_more: true });
    const none = await t.app.inject({
      method: 'GET',
      url: '/api/user/slips?status=won',
      headers: user.headers,
    });
    expect(none.json().data.meta.total).toBe(0);
    const theirs = await t.app.inject({ method: 'GET', url: '/api/user/slips', headers: stranger.headers });
    expect(theirs.json().data.slips).toEqual([]);
  });

  it('answers another user’s slip with a 403 and an unknown one with a 404', async () => {
    expect((await get(won.id)).statusCode).toBe(200);
    expect((await get(won.id, stranger)).statusCode).toBe(403);
    expect((await get(999_999)).statusCode).toBe(404);
    const deleting = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/slips/${won.id}`,
      headers: stranger.headers,
    });
    expect(deleting.statusCode).toBe(403);
  });
});

async function settle(at: string) {
  clock.set(at);
  await t.app.services.fixtures.closeFromResults();
  return t.app.runtime.settlement.runOnce();
}

async function settledEvents() {
  const history = await t.app.inject({
    method: 'GET',
    url: '/api/user/events/history?per_page=50',
    headers: user.headers,
  });
  return (history.json().data.events as Array<{ type: string; data: { id: number; status: string } }>).filter(
    (event) => event.type === 'slip.settled',
  );
}

describe('settlement', () => {
  it('settles won and lost slips from the fixtures’ results, each with its event', async () => {
    await t.app.services.football.importText(
      'Div,Date,Time,HomeTeam,AwayTeam,FTHG,FTAG,FTR\n' +
        'E0,14/03/2027,15:00,Arsenal,Chelsea,3,1,H\n' +
        'E0,15/03/2027,16:30,Man United,Fulham,0,2,A',
      'results',
    );
    await settle('2027-03-16T08:00:00Z');
    const shown = (await get(won.id)).json().data.slip;
    expect(shown).toMatchObject({ status: 'won', returned: 3600 });
    expect(shown.legs.map((leg: { outcome: string }) => leg.outcome)).toEqual(['won', 'won']);
    expect(shown.settled_at).not.toBeNull();
    const lostShown = (await get(lost.id)).json().data.slip;
    expect(lostShown).toMatchObject({ status: 'lost', returned: 0 });
    expect(lostShown.legs.map((leg: { outcome: string }) => leg.outcome)).toEqual(['won', 'lost']);
    // The unplayed match is not void yet (three days after its kick-off).
    expect((await get(allVoid.id)).json().data.slip.status).toBe('open');
    expect((await get(partlyVoid.id)).json().data.slip.status).toBe('open');
    const events = await settledEvents();
    expect(events.map((event) => [event.data.id, event.data.status])).toEqual([
      [won.id, 'won'],
      [lost.id, 'lost'],
    ]);
  });

  it('voids a leg whose match is not played SLIP_VOID_DAYS after kick-off: odds 1, or the stake back', async () => {
    await settle('2027-03-18T18:59:00Z');
    expect((await get(allVoid.id)).json().data.slip.status).toBe('open');
    await settle('2027-03-18T19:00:00Z');
    expect((await get(allVoid.id)).json().data.slip).toMatchObject({ status: 'void', returned: 500 });
    const partly = (await get(partlyVoid.id)).json().data.slip;
    // Arsenal 3-1: both scored; the void leg counts at odds 1.
    expect(partly).toMatchObject({ status: 'won', returned: 3400 });
    expect(partly.legs.map((leg: { outcome: string }) => leg.outcome)).toEqual(['won', 'void']);
    expect((await settledEvents()).map((event) => event.data.status)).toEqual(['won', 'lost', 'void', 'won']);
    // Settled once: another pass changes nothing.
    await settle('2027-03-19T00:00:00Z');
    expect(await settledEvents()).toHaveLength(4);
  });

  it('GET /api/user/slips/summary sums the settled slips, a deleted one too', async () => {
    const deleted = await t.app.inject({
      method: 'DELETE',
      url: `/api/user/slips/${lost.id}`,
      headers: user.headers,
    });
    expect(deleted.statusCode).toBe(200);
    expect((await get(lost.id)).statusCode).toBe(404);
    const response = await t.app.inject({
      method: 'GET',
      url: '/api/user/slips/summary',
      headers: user.headers,
    });
    expect(response.statusCode).toBe(200);
    const { summary } = response.json().data;
    const slips = await Promise.all(
      [won.id, allVoid.id, partlyVoid.id].map(async (id) => (await get(id)).json().data.slip),
    );
    const lostExpected = (
      await t.app.inject({ method: 'GET', url: '/api/user/slips', headers: user.headers })
    ).json();
    expect(lostExpected.data.meta.total).toBe(3);
    expect(summary).toMatchObject({
      settled: 4,
      won: 2,
      staked: 1000 + 1000 + 500 + 2000,
      returned: 3600 + 500 + 3400,
    });
    const expectedShown = slips.reduce((sum, slip) => sum + slip.expected_return, 0);
    expect(summary.expected_return).toBeGreaterThan(expectedShown);
  });

  it('puts every slip, a deleted one too, in the account’s export', async () => {
    const answer = await t.app.inject({
      method: 'GET',
      url: '/api/user/account/export',
      headers: user.headers,
    });
    expect(answer.statusCode, answer.body).toBe(200);
    const exported = answer.json().slips as Array<{ id: number; status: string; deleted_at: string | null }>;
    expect(exported.map((slip) => [slip.id, slip.status])).toEqual([
      [won.id, 'won'],
      [lost.id, 'lost'],
      [allVoid.id, 'void'],
      [partlyVoid.id, 'won'],
    ]);
    expect(exported[1]!.deleted_at).not.toBeNull();
  });
});

describe('a self-excluded user (issue 54)', () => {
  it('still checks a slip for free but cannot save one while the pause lasts, and nothing is written', async () => {
    const before = (
      await t.app.inject({ method: 'GET', url: '/api/user/slips', headers: user.headers })
    ).json().data.meta.total;
    expect((await excludeSelf(t, user, 30)).statusCode).toBe(200);
    const legs = [{ pronostic_id: awayWin, market: '1x2', pick: 'away', odds: 3.1 }];
    const checked = await t.app.inject({
      method: 'POST',
      url: '/api/user/slips/check',
      headers: user.headers,
      payload: { legs },
    });
    expect(checked.statusCode, checked.body).toBe(200);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/user/slips',
      headers: { ...user.headers, 'accept-language': 'en' },
      payload: { legs },
    });
    expect(refused.statusCode, refused.body).toBe(403);
    expect(refused.json().data.reason).toBe('self_excluded');
    expect(refused.json().message).toContain('break from play');
    const after = (
      await t.app.inject({ method: 'GET', url: '/api/user/slips', headers: user.headers })
    ).json().data.meta.total;
    expect(after).toBe(before);
  });
});
