// Linked divisions in production (issue 50): the analysis of a promoted side's first match reads
// the division below's history, the fit (on the fit thread as inline) starts the side from its
// rating there, and the forecast uses it rather than a promoted side's prior or a borrowed rating.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../src/config.js';
import type { LinkedHistory } from '../../src/engine/divisions.js';
import { MARKET_SETTINGS } from '../../src/engine/model.js';
import { predictFixture } from '../../src/engine/predict.js';
import type { PlayedMatch, Ratings } from '../../src/engine/types.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createAnalyst } from '../../src/modules/football/analyst.js';
import { inlineFitter, type LeagueFitter, threadFitter } from '../../src/modules/football/fit-pool.js';
import type { ResultRow } from '../../src/modules/football/results-csv.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { createNarrator } from '../../src/providers/ai/index.js';
import { label, pyramid } from '../engine/pyramid.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const NO_ODDS = {
  pinnacle: null,
  average: null,
  overUnderPinnacle: null,
  overUnderAverage: null,
  asianHandicap: null,
};

const { matches, moves } = pyramid(4);
const { promoted } = moves.find((move) => move.season === 3)!;

/** The simulated seasons before the fourth as stored results, the closing prices as decimal odds. */
function rowsOf(league: string): ResultRow[] {
  return matches
    .filter((match) => match.league === league && match.season! < label(3))
    .map((match, i) => {
      const odds = match.bookmaker!.map((p) => 1 / p) as [number, number, number];
      return {
        line: i + 2,
        league,
        season: match.season!,
        date: new Date(match.date).toISOString().slice(0, 10),
        timestamp: match.date,
        kickoff: null,
        homeTeam: match.home,
        awayTeam: match.away,
        homeGoals: match.homeGoals,
        awayGoals: match.awayGoals,
        halfTimeHomeGoals: null,
        halfTimeAwayGoals: null,
        homeShots: null,
        awayShots: null,
        homeShotsOnTarget: null,
        awayShotsOnTarget: null,
        homeCorners: null,
        awayCorners: null,
        odds: {
          pinnacleClosing: odds,
          average: null,
          overUnderPinnacleClosing: null,
          overUnderAverage: null,
        },
        market: { prematch: NO_ODDS, closing: { ...NO_ODDS, pinnacle: odds } },
      };
    });
}

let database: TestDatabase;
let football: FootballService;

beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  await football.importRows(rowsOf('E0'));
  await football.importRows(rowsOf('E1'));
});
afterAll(async () => {
  await database.drop();
});

describe('linked divisions in the analysis', () => {
  it.skipIf(!MARKET_SETTINGS.divisions?.offsets['E1>E0'])(
    "forecasts a promoted side's first match from its rating in the division below",
    async () => {
      const fits: { linked: LinkedHistory<PlayedMatch> | undefined; ratings: Ratings }[] = [];
      const inline = inlineFitter();
      const spy: LeagueFitter = {
        async fit(played, asOf, linked) {
          const ratings = await inline.fit(played, asOf, linked);
          fits.push({ linked, ratings });
          return ratings;
        },
        rateCups: (matches) => inline.rateCups(matches),
        close: () => inline.close(),
      };
      const analyst = createAnalyst({
        football,
        narrator: createNarrator(testConfig(), { logger: silent }),
        logger: silent,
        clock: new ManualClock('2013-07-20T12:00:00Z'),
        fitter: spy,
      });
      const host = promoted[0]!;
      const { result } = await analyst.analyse(
        { home: host, away: 'Upper 0', league: 'E0', date: '2013-08-07' },
        '1x2',
      );
      const fit = fits.find((each) => each.linked?.league === 'E0')!;
      // E0's fit read E1's history beside its own.
      expect(fit.linked!.neighbours.map((n) => n.league)).toEqual(['E1']);
      expect(fit.linked!.neighbours[0]!.matches.length).toBe(rowsOf('E1').length);
      const [hostTeam, visitorTeam] = await football.resolveTeams([host, 'Upper 0']);
      const [homeKey, awayKey] = [`team:${hostTeam!.id}`, `team:${visitorTeam!.id}`];
      expect(fit.ratings.market!.arrivals!.get(homeKey)?.from).toBe('E1');
      // The analysis is the linked rating's forecast, not one with the side as a newcomer.
      const linked = predictFixture(fit.ratings, homeKey, awayKey, { season: label(3) }).markets.oneXTwo;
      const arrivals = new Map(fit.ratings.market!.arrivals);
      arrivals.delete(homeKey);
      const newcomer = predictFixture(
        { ...fit.ratings, market: { ...fit.ratings.market!, arrivals } },
        homeKey,
        awayKey,
        { season: label(3) },
      ).markets.oneXTwo;
      const said = result.probabilities as { home: number; away: number };
      expect(said.home).toBeCloseTo(linked.home, 2);
      expect(said.away).toBeCloseTo(linked.away, 2);
      expect(Math.abs(linked.home - newcomer.home)).toBeGreaterThan(0.03);
    },
  );

  it('fits the same linked ratings on the fit thread as inline', async () => {
    const history = async (code: string) => {
      const league = (await football.resolveLeague(code))!;
      return (await football.playedMatches(league.id, '2010-01-01', '2013-08-01')).map(
        (row): PlayedMatch => ({
          date: Date.parse(`${row.playedOn}T00:00:00Z`),
          season: row.season,
          home: `team:${row.homeTeamId}`,
          away: `team:${row.awayTeamId}`,
          homeGoals: row.homeGoals,
          awayGoals: row.awayGoals,
          market: { oneXTwo: [0.5, 0.25, 0.25], overUnder: null },
        }),
      );
    };
    const upper = await history('E0');
    const linked = { league: 'E0', neighbours: [{ league: 'E1', matches: await history('E1') }] };
    const asOf = Date.UTC(2013, 7, 1);
    const thread = threadFitter();
    try {
      const [threaded, inline] = await Promise.all([
        thread.fit(upper, asOf, linked),
        inlineFitter().fit(upper, asOf, linked),
      ]);
      expect(threaded).toEqual(inline);
      if (MARKET_SETTINGS.divisions?.offsets['E1>E0'] !== undefined)
        expect(threaded.market!.arrivals!.size).toBeGreaterThan(0);
    } finally {
      await thread.close();
    }
  });
});
