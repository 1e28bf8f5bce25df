import { asc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Config } from '../../src/config.js';
import { testConfig } from '../../src/config.js';
import { pronosticTypes } from '../../src/db/schema/index.js';
import { marginFree } from '../../src/engine/margin.js';
import { MARKET_OF } from '../../src/engine/result.js';
import type { PlayedMatch } from '../../src/engine/types.js';
import { pronosticTypeSlugs } from '../../src/lib/allowed-values.js';
import { ManualClock } from '../../src/lib/clock.js';
import { createAnalyst } from '../../src/modules/football/analyst.js';
import { pastMarketOf } from '../../src/modules/football/evaluation-data.js';
import { inlineFitter, threadFitter } from '../../src/modules/football/fit-pool.js';
import { packMatches, unpackMatches } from '../../src/modules/football/packed-matches.js';
import type { ResultRow } from '../../src/modules/football/results-csv.js';
import { createFootballService, type FootballService } from '../../src/modules/football/service.js';
import { createNarrator } from '../../src/providers/ai/index.js';
import { simulateLeague } from '../engine/simulate.js';
import { type FakeOpenAi, OPENAI_API_KEY, OPENAI_MODEL, startFakeOpenAi } from '../fakes/openai.js';
import { createTestDatabase, type TestDatabase } from '../helpers.js';

const silent = { warn() {}, info() {}, error() {}, debug() {}, child: () => silent } as never;
const narratorOf = (config: Config) => createNarrator(config, { logger: silent });
// Accented names for the test of case- and accent-insensitive lookup.
const NAMES: Record<string, string> = { 'Team 00': 'Atlético Norte', 'Team 11': 'Real Sur' };

const NO_ODDS = {
  pinnacle: null,
  average: null,
  overUnderPinnacle: null,
  overUnderAverage: null,
  asianHandicap: null,
};

function rowsFor(league: string, seed: number, start: number): ResultRow[] {
  const { matches } = simulateLeague({ teams: 12, seasons: 2, seed, start });
  return matches.map((match, i) => {
    const date = new Date(match.date).toISOString().slice(0, 10);
    return {
      line: i + 2,
      league,
      season: '2023-24',
      date,
      timestamp: match.date,
      kickoff: null,
      homeTeam: `${league === 'E0' ? '' : `${league} `}${NAMES[match.home] ?? match.home}`,
      awayTeam: `${league === 'E0' ? '' : `${league} `}${NAMES[match.away] ?? match.away}`,
      homeGoals: match.homeGoals,
      awayGoals: match.awayGoals,
      halfTimeHomeGoals: null,
      halfTimeAwayGoals: null,
      homeShots: null,
      awayShots: null,
      homeShotsOnTarget: match.homeShotsOnTarget ?? null,
      awayShotsOnTarget: match.awayShotsOnTarget ?? null,
      homeCorners: null,
      awayCorners: null,
      odds: { pinnacleClosing: null, average: null, overUnderPinnacleClosing: null, overUnderAverage: null },
      market: { prematch: NO_ODDS, closing: NO_ODDS },
    };
  });
}

const START = Date.UTC(2023, 7, 12);
// A few weeks after the simulated seasons' last results: the data is current.
const clock = new ManualClock('2024-11-15T12:00:00Z');
let database: TestDatabase;
let football: FootballService;
let fake: FakeOpenAi;

beforeAll(async () => {
  database = await createTestDatabase();
  football = createFootballService({ db: database.handle.db, config: testConfig() });
  fake = await startFakeOpenAi();
});
afterAll(async () => {
  await fake.close();
  await database.drop();
});

describe('pronostic types', () => {
  it("the seeded pronostic_types rows are the engine's slug list, in order", async () => {
    const rows = await database.handle.db
      .select({ slug: pronosticTypes.slug })
      .from(pronosticTypes)
      .orderBy(asc(pronosticTypes.id));
    expect(rows.map((row) => row.slug)).toEqual([...pronosticTypeSlugs]);
  });
});

describe('analyst on an empty database', () => {
  it('still answers from global priors, marked low, and describes no results', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    expect(analyst.modelName).toBe('dixon-coles-7');
    expect(await analyst.describe()).toEqual({ matches: 0, leagues: 0 });
    const { result, aiModel } = await analyst.analyse({ home: 'Alpha', away: 'Beta' }, '1x2');
    expect(aiModel).toBe('dixon-coles-7');
    expect(result.data_quality).toEqual({ home_matches: 0, away_matches: 0, level: 'low', odds: 'none' });
    const probabilities = result.probabilities as { home: number; away: number };
    expect(probabilities.home).toBeGreaterThan(probabilities.away);
    // With no results at all, a fixture's own pre-match odds are the best view of the match: used.
    const withOdds = await analyst.analyse({ home: 'Alpha', away: 'Beta' }, '1x2', undefined, {
      prematchOdds: { collected_at: '2024-11-14T09:00:00Z', pinnacle: [6, 4.5, 1.55] },
    });
    expect(withOdds.result.data_quality).toMatchObject({ odds: 'prematch' });
    const favoured = withOdds.result.probabilities as { home: number; away: number };
    expect(favoured.away).toBeGreaterThan(favoured.home + 0.3);
  });
});

describe('analyst with results', () => {
  beforeAll(async () => {
    await football.importRows(rowsFor('E0', 11, START));
    await football.importRows(rowsFor('SP1', 12, START));
  });

  it('finds league and teams whatever the case and accents, and answers every type', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    expect(await analyst.describe()).toEqual({ matches: 528, leagues: 2 });
    for (const type of pronosticTypeSlugs) {
      const { result, aiModel } = await analyst.analyse(
        { home: 'ATLETICO norte', away: 'real sur', league: 'premier league' },
        type,
      );
      expect(aiModel).toBe('dixon-coles-7');
      // Results without odds: at most medium, and the text says so (issue 50).
      expect(result.data_quality).toMatchObject({ level: 'medium' });
      expect(result.analysis).toContain('ATLETICO norte');
      expect(result.analysis).toContain('Real Sur');
      expect(result.market).toBe(MARKET_OF[type]);
    }
    const { result } = await analyst.analyse({ home: 'Atlético Norte', away: 'Real Sur' }, '1x2');
    // The strongest simulated side at home to the weakest.
    expect((result.probabilities as { home: number }).home).toBeGreaterThan(0.6);
  });

  it('infers the league from the teams and uses aliases', async () => {
    await football.addTeamAlias('SP1 Team 03', 'Club Trois');
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const { result } = await analyst.analyse({ home: 'club trois', away: 'SP1 Team 04' }, 'btts');
    expect(result.data_quality).toMatchObject({ level: 'medium' });
  });

  it('rates a side from another league with its own league figures (a cup tie)', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const { result } = await analyst.analyse(
      { home: 'Real Sur', away: 'SP1 Atlético Norte', league: 'Ligue des champions' },
      '1x2',
    );
    expect(result.data_quality).toMatchObject({ home_matches: 44, away_matches: 44, level: 'medium' });
    expect(result.analysis).not.toContain('ne figure pas');
    // The weakest E0 side at home to the strongest SP1 side.
    expect((result.probabilities as { away: number }).away).toBeGreaterThan(0.5);
  });

  it('plays an unknown team as a newcomer and says so', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const { result } = await analyst.analyse({ home: 'Inconnu FC', away: 'Team 05', league: 'E0' }, '1x2');
    expect(result.data_quality).toMatchObject({ home_matches: 0, level: 'low' });
    expect(result.analysis).toContain('Inconnu FC ne figure pas dans nos données');
  });

  it('uses the fixture’s pre-match odds when given, and says which mode it used', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const fixture = { home: 'Team 05', away: 'Team 06', league: 'E0' };
    const without = await analyst.analyse(fixture, '1x2');
    expect(without.result.data_quality).toMatchObject({ odds: 'none' });
    // The market makes the away side a clear favourite; the analysis follows it.
    const odds = {
      collected_at: '2024-11-14T09:00:00Z',
      pinnacle: [6, 4.5, 1.55] as [number, number, number],
    };
    const withOdds = await analyst.analyse(fixture, '1x2', undefined, { prematchOdds: odds });
    expect(withOdds.result.data_quality).toMatchObject({ odds: 'prematch' });
    const away = (result: typeof without.result) => (result.probabilities as { away: number }).away;
    expect(away(withOdds.result)).toBeGreaterThan(away(without.result) + 0.1);
    // Malformed odds are ignored, not trusted.
    const malformed = await analyst.analyse(fixture, '1x2', undefined, {
      prematchOdds: { collected_at: 'x', pinnacle: [6, 'x', 1.5] } as never,
    });
    expect(malformed.result.data_quality).toMatchObject({ odds: 'none' });
    // Odds a user writes into teams_details (their own free text) are never an input.
    const planted = await analyst.analyse({ ...fixture, prematchOdds: odds }, '1x2');
    expect(planted.result.data_quality).toMatchObject({ odds: 'none' });
    expect(away(planted.result)).toBeCloseTo(away(without.result), 10);
  });

  it('learns from the stored odds of past matches: a market that rates the sides the other way round moves the forecast', async () => {
    // The same simulated results as E0, in another league, with closing odds that call the
    // weakest sides the strongest (team 11 best): the market rating follows the prices.
    const index = (name: string) => Number(/Team (\d+)/.exec(name)?.[1] ?? (name.includes('Norte') ? 0 : 11));
    const rows = rowsFor('D1', 11, START).map((row) => {
      const x = 0.3 + (index(row.homeTeam) - index(row.awayTeam)) * 0.15;
      const home = 0.74 / (1 + Math.exp(-x));
      const odds: [number, number, number] = [1 / home, 1 / 0.26, 1 / (0.74 - home)];
      return { ...row, market: { prematch: NO_ODDS, closing: { ...NO_ODDS, pinnacle: odds } } };
    });
    await football.importRows(rows);
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const home = async (fixture: Record<string, unknown>) =>
      ((await analyst.analyse(fixture, '1x2')).result.probabilities as { home: number }).home;
    const resultsOnly = await home({ home: 'Atlético Norte', away: 'Real Sur', league: 'E0' });
    const withMarket = await home({ home: 'D1 Atlético Norte', away: 'D1 Real Sur', league: 'D1' });
    expect(resultsOnly).toBeGreaterThan(0.6);
    expect(withMarket).toBeLessThan(resultsOnly - 0.2);
  });

  it('uses a past date as "as of": only earlier matches count', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const early = await analyst.analyse(
      { home: 'Team 05', away: 'Team 06', league: 'E0', date: '2023-10-01' },
      '1x2',
    );
    const late = await analyst.analyse(
      { home: 'Team 05', away: 'Team 06', league: 'E0', date: '2030-01-01' },
      '1x2',
    );
    const earlyMatches = (early.result.data_quality as { home_matches: number }).home_matches;
    const lateMatches = (late.result.data_quality as { home_matches: number }).home_matches;
    expect(earlyMatches).toBeGreaterThan(0);
    expect(earlyMatches).toBeLessThan(lateMatches);
    expect(lateMatches).toBe(44);
  });

  it('is deterministic and never throws on strange input', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const first = await analyst.analyse({ home: 'Team 01', away: 'Team 02', league: 'E0' }, 'full-analysis');
    const second = await analyst.analyse({ home: 'Team 01', away: 'Team 02', league: 'E0' }, 'full-analysis');
    expect(second).toEqual(first);
    const odd = [
      { home: 42, away: null, league: 7, date: 'not a date' },
      { home: '', away: '   ', date: '1800-01-01' },
      { home: 'Team 01', away: 'team 01', league: 'Ligue des nations' },
    ] as never[];
    for (const details of odd) {
      const { result } = await analyst.analyse(details, 'weird-type' as never);
      expect(typeof result.analysis).toBe('string');
    }
  });

  it('refits when new results arrive', async () => {
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const before = await analyst.analyse({ home: 'Team 07', away: 'Team 08', league: 'E0' }, '1x2');
    const extra = rowsFor('E0', 99, Date.UTC(2024, 9, 20)).slice(0, 30);
    await football.importRows(extra);
    clock.advanceSeconds(10);
    const after = await analyst.analyse({ home: 'Team 07', away: 'Team 08', league: 'E0' }, '1x2');
    expect(after.result.data_quality).not.toEqual(before.result.data_quality);
  });

  it('lets the LLM rewrite the text only, and falls back to the statistical text when it fails', async () => {
    const config = testConfig({
      aiDriver: 'openai',
      ai: {
        baseUrl: fake.baseUrl,
        apiKey: OPENAI_API_KEY,
        model: OPENAI_MODEL,
        timeoutMs: 300,
        narrativeDeadlineMs: 5000,
      },
    });
    const plain = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const withLlm = createAnalyst({
      football,
      narrator: narratorOf(config),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    expect(withLlm.modelName).toBe(`dixon-coles-7+${OPENAI_MODEL}`);
    const details = { home: 'Team 03', away: 'Team 09', league: 'E0' };
    const statistical = await plain.analyse(details, 'over-under-2-5');

    fake.modes = ['ok'];
    const rewritten = await withLlm.analyse(details, 'over-under-2-5');
    expect(rewritten.aiModel).toBe(`dixon-coles-7+${OPENAI_MODEL}`);
    expect(rewritten.result.analysis).toBe(fake.analysis);
    expect({ ...rewritten.result, analysis: '' }).toEqual({ ...statistical.result, analysis: '' });

    fake.modes = ['malformed'];
    const fallback = await withLlm.analyse(details, 'over-under-2-5');
    expect(fallback).toEqual(statistical);
  });
});

/** The inline fitter, counting its fits and keeping what each was given. */
function countingFitter() {
  const inner = inlineFitter();
  const calls: Array<{ matches: PlayedMatch[]; asOf: number }> = [];
  return {
    calls,
    fit(matches: PlayedMatch[], asOf: number) {
      calls.push({ matches, asOf });
      return inner.fit(matches, asOf);
    },
    rateCups: inner.rateCups,
    close: () => inner.close(),
  };
}

describe('analyst fits', () => {
  it('two requests that miss the cache at once share one fit; an import of another league keeps it', async () => {
    const fitter = countingFitter();
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter,
    });
    const details = { home: 'Team 05', away: 'Team 06', league: 'E0', date: '2024-11-20' };
    const [first, second] = await Promise.all([
      analyst.analyse(details, '1x2'),
      analyst.analyse({ ...details, home: 'Team 07' }, 'btts'),
    ]);
    expect(fitter.calls).toHaveLength(1);
    expect(first.result.data_quality).toMatchObject({ level: 'medium' });
    expect(second.result.data_quality).toMatchObject({ level: 'medium' });

    // Results of another league arrive: this league's fit stays.
    await football.importRows(rowsFor('SP1', 77, Date.UTC(2024, 9, 25)).slice(0, 12));
    clock.advanceSeconds(10);
    await analyst.analyse(details, 'exact-score');
    expect(fitter.calls).toHaveLength(1);
    // Results of this league arrive: it is fitted again, once.
    await football.importRows(rowsFor('E0', 78, Date.UTC(2024, 10, 8)).slice(0, 6));
    clock.advanceSeconds(10);
    await Promise.all([analyst.analyse(details, '1x2'), analyst.analyse(details, 'btts')]);
    expect(fitter.calls).toHaveLength(2);
  });

  it('fits a fixture on the results of earlier days only, never its own day', async () => {
    const fitter = countingFitter();
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter,
    });
    // A day with E0 matches in the simulated second season.
    const day = '2024-08-18';
    const dayStart = Date.parse(`${day}T00:00:00Z`);
    const stored = await football.playedMatches(1, day, '2024-08-19');
    expect(stored.length).toBeGreaterThan(0);
    await analyst.analyse(
      { home: 'Team 05', away: 'Team 06', league: 'E0', date: `${day}T19:00:00Z` },
      '1x2',
    );
    expect(fitter.calls).toHaveLength(1);
    expect(fitter.calls[0]!.asOf).toBe(dayStart);
    expect(Math.max(...fitter.calls[0]!.matches.map((match) => match.date))).toBeLessThan(dayStart);
  });

  it('hands the fit each stored match with its season label and its market view, read one way', async () => {
    // Two simulated seasons in another league, labelled as a results file labels them, with
    // closing and pre-match 1X2 and a closing Asian handicap.
    const closing: [number, number, number] = [1.8, 3.6, 4.6];
    const prematch: [number, number, number] = [1.9, 3.5, 4.2];
    const handicap = { line: -0.5, pinnacle: [1.85, 2.05] as [number, number], average: null };
    const rows = rowsFor('F1', 21, START).map((row) => ({
      ...row,
      season: row.date < '2024-07-01' ? '2023-24' : '2024-25',
      market: {
        prematch: { ...NO_ODDS, average: prematch },
        closing: { ...NO_ODDS, pinnacle: closing, asianHandicap: handicap },
      },
    }));
    await football.importRows(rows);
    const fitter = countingFitter();
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter,
    });
    await analyst.analyse({ home: 'F1 Team 01', away: 'F1 Team 02', league: 'F1' }, '1x2');
    const fitted = fitter.calls[0]!.matches;
    expect(fitted).toHaveLength(rows.length);
    const seasons = new Map<string, number>();
    for (const match of fitted) {
      const season = match.season ?? 'none';
      seasons.set(season, (seasons.get(season) ?? 0) + 1);
    }
    expect(Object.fromEntries(seasons)).toEqual({ '2023-24': rows.length / 2, '2024-25': rows.length / 2 });
    expect(fitted[0]!.market).toEqual(pastMarketOf(rows[0]!.market));
    expect(fitted[0]!.market).toEqual({
      oneXTwo: marginFree(closing),
      overUnder: null,
      asianHandicap: { line: -0.5, home: marginFree(handicap.pinnacle)[0] },
      prematchOneXTwo: marginFree(prematch),
    });
  });

  it('says when the league has no recent results: stale data in data_quality and in the text', async () => {
    const later = new ManualClock('2026-03-01T12:00:00Z');
    const analyst = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock: later,
      fitter: inlineFitter(),
    });
    const { result } = await analyst.analyse(
      { home: 'Team 05', away: 'Team 06', league: 'E0' },
      'full-analysis',
    );
    const latest = (await football.leagueVersion(1, '2026-03-02')).latestBefore;
    expect(latest).toMatch(/^2024-11-/);
    expect(result.data_quality).toMatchObject({ level: 'low', stale: true, latest_result: latest });
    expect(result.analysis).toContain('nos derniers résultats de');
    expect(result.analysis).toContain('2024');
    // With current data, no such flag.
    const current = createAnalyst({
      football,
      narrator: narratorOf(testConfig()),
      logger: silent,
      clock,
      fitter: inlineFitter(),
    });
    const fresh = await current.analyse({ home: 'Team 05', away: 'Team 06', league: 'E0' }, '1x2');
    expect(fresh.result.data_quality).not.toHaveProperty('stale');
    expect(fresh.result.analysis).not.toContain('nos derniers résultats');
  });

  it('the worker thread fits exactly what the inline fit gives, the matches packed into typed arrays', async () => {
    const simulated = simulateLeague({ teams: 10, seasons: 2, seed: 5 }).matches;
    // Every shape a stored match can have: priced or not (null or absent), with or without over/
    // under, handicap, pre-match 1X2, shots and a season label.
    const matches: PlayedMatch[] = simulated.map((match, i) => ({
      ...match,
      ...(i % 3 === 0 ? {} : { season: i < simulated.length / 2 ? '2015-16' : '2016-17' }),
      // Counts as the database gives them: a number or null.
      homeShots: i % 4 === 0 ? null : 10,
      awayShots: i % 4 === 0 ? null : 8,
      homeCorners: null,
      awayCorners: i % 2 ? 4 : null,
      market:
        i % 5 === 0
          ? null
          : i % 5 === 1
            ? undefined
            : {
                oneXTwo: [0.45, 0.27, 0.28],
                overUnder: i % 2 ? [0.52, 0.48] : null,
                asianHandicap: i % 3 ? { line: -0.25, home: 0.51 } : null,
                prematchOneXTwo: i % 4 ? [0.44, 0.28, 0.28] : null,
              },
    }));
    expect(unpackMatches(packMatches(matches))).toEqual(
      matches.map(({ market, ...match }) => (market === undefined ? match : { ...match, market })),
    );
    const asOf = matches.at(-1)!.date + 86_400_000;
    const thread = threadFitter();
    try {
      const [threaded, inline] = await Promise.all([
        thread.fit(matches, asOf),
        inlineFitter().fit(matches, asOf),
      ]);
      expect(threaded).toEqual(inline);
    } finally {
      await thread.close();
    }
  });
});
