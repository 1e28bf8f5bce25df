// The season's start and the stake classes as terms of the market rating (issue 56): off unless
// set (neutral), and on simulated leagues they do what they are for; the fitting script's stages
// recover them from prices.
import { describe, expect, it } from 'vitest';
import {
  filterScore,
  fitSeasonEnd,
  fitSeasonStart,
  fitShiftWatch,
  fitStakes,
  type ProtocolData,
} from '../../scripts/engine/rolling-origin.js';
import type { EvaluationMatch } from '../../src/engine/evaluation.js';
import { fitMarketRating, linkSource, marketForecast } from '../../src/engine/market-rating.js';
import { MARKET_SETTINGS } from '../../src/engine/model.js';
import {
  addToTable,
  type SideNeed,
  type StakeClass,
  type Standing,
  stakeClasses,
  stakeNeeds,
  stakeShare,
} from '../../src/engine/stakes.js';
import type { MarketSettings } from '../../src/engine/types.js';

const DAY = 86_400_000;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const TEAMS = Array.from({ length: 12 }, (_, i) => `Club ${String(i).padStart(2, '0')}`);

/** A double round-robin by the circle method, one round a week. */
function rounds(
  season: string,
  start: number,
): { date: number; season: string; pairs: [string, string][] }[] {
  const n = TEAMS.length;
  const out = [];
  for (let round = 0; round < 2 * (n - 1); round++) {
    const leg = round % (n - 1);
    const order = [TEAMS[0]!, ...TEAMS.slice(1).map((_, i) => TEAMS[1 + ((i + leg) % (n - 1))]!)];
    const pairs: [string, string][] = [];
    for (let i = 0; i < n / 2; i++) {
      const [a, b] = [order[i]!, order[n - 1 - i]!];
      pairs.push(round >= n - 1 ? [b, a] : [a, b]);
    }
    out.push({ date: start + round * 7 * DAY, season, pairs });
  }
  return out;
}

/**
 * Seasons priced exactly: ln(pH/pA) = 0.3 + s_home − s_away + κ(home's class) − κ(away's class),
 * the classes read from the table as of each round (the stronger side always wins 1-0); with
 * `ramp` each κ carries its `stakeShare`, with `awayFactor` the away side's is times (1 + it), with
 * `decided` the classes are judged in practice (`MarketSettings.stakesDecided`), with `importance`
 * each side's term adds that times its need for points (`stakeNeeds`, judged at 0.05), with
 * `lines` its title, top-four and top-six needs that much more.
 */
function league(
  seasons: readonly { label: string; start: number; strength: (team: string) => number }[],
  kappa: Partial<Record<StakeClass, number>>,
  homeAdvantage: (date: number) => number = () => 0.3,
  ramp = 0,
  awayFactor = 0,
  decided?: number,
  importance = 0,
  lines: readonly [number, number, number] = [0, 0, 0],
): EvaluationMatch[] {
  const matches: EvaluationMatch[] = [];
  for (const { label, start, strength } of seasons) {
    const table = new Map<string, Standing>();
    for (const round of rounds(label, start)) {
      const classes = stakeClasses(table, decided);
      const needs = importance ? stakeNeeds(table, decided) : new Map<string, SideNeed>();
      const needTerm = (need: SideNeed | undefined) =>
        need
          ? importance * need.total + lines.reduce((sum, weight, l) => sum + weight * need.lines[l]!, 0)
          : 0;
      const k = (team: string) =>
        classes.has(team)
          ? (kappa[classes.get(team)!] ?? 0) * stakeShare(table, team, ramp) + needTerm(needs.get(team))
          : 0;
      const played: EvaluationMatch[] = round.pairs.map(([home, away]) => {
        const y =
          homeAdvantage(round.date) + strength(home) - strength(away) + k(home) - k(away) * (1 + awayFactor);
        const book: [number, number, number] = [0.74 * sigmoid(y), 0.26, 0.74 * (1 - sigmoid(y))];
        const homeWins = strength(home) >= strength(away);
        return {
          league: 'XX',
          season: label,
          date: round.date,
          home,
          away,
          homeGoals: homeWins ? 1 : 0,
          awayGoals: homeWins ? 0 : 1,
          bookmaker: book,
          bookmakerOverUnder: [0.52, 0.48],
          market: { oneXTwo: book, overUnder: [0.52, 0.48] },
        };
      });
      for (const match of played) addToTable(table, match);
      matches.push(...played);
    }
  }
  return matches;
}

const TRUE = new Map(TEAMS.map((team, i) => [team, 0.8 - (1.6 * i) / 11]));
const START = Date.UTC(2016, 7, 6);
// The shipped settings without their own stake classes, need for points and carry from before the
// season's end (fitted and shipped since issue 56), so that "without the term" here is without it.
const {
  stakes: _shippedStakes,
  stakesImportance: _shippedNeed,
  carryBeforeEnd: _shippedCarry,
  ...WITHOUT_STAKES
} = MARKET_SETTINGS;
const SETTINGS: MarketSettings = { ...WITHOUT_STAKES, shiftWatch: { matches: 60, limit: 1e9 } };

describe('the stake classes priced by the market', () => {
  // Sides with nothing left to play for ("safe") priced 0.4 below their strength.
  const kappa = { safe: -0.4 };
  const matches = league([{ label: '2016-17', start: START, strength: (t) => TRUE.get(t)! }], kappa);
  const end = START + 23 * 7 * DAY;
  const error = (settings: MarketSettings) => {
    const rating = fitMarketRating(matches, end, settings)!;
    const mean = TEAMS.reduce((sum, team) => sum + rating.teams.get(team)!.strength, 0) / TEAMS.length;
    return TEAMS.reduce(
      (sum, team) => sum + Math.abs(rating.teams.get(team)!.strength - mean - (TRUE.get(team)! - 0)),
      0,
    );
  };

  it('off by default: the same rating as before, and dead rubbers leak into the strengths', () => {
    // Every term at zero is the rating without them.
    expect(fitMarketRating(matches, end, { ...SETTINGS, stakes: {} })!.teams).toEqual(
      fitMarketRating(matches, end, SETTINGS)!.teams,
    );
    // With the terms, the strengths carried on are nearer the truth than without (0.15 against
    // 0.54 summed over the sides).
    expect(error({ ...SETTINGS, stakes: kappa })).toBeLessThan(0.8 * error(SETTINGS));
  });

  it("prices a fixture of the season with its sides' classes", () => {
    const late = START + 20 * 7 * DAY;
    const rating = fitMarketRating(matches, late, { ...SETTINGS, stakes: kappa })!;
    const safe = TEAMS.filter((team) => rating.stakes?.get(team) === -0.4);
    expect(safe.length).toBeGreaterThan(0);
    const plain = fitMarketRating(matches, late, { ...SETTINGS, stakes: {} })!;
    const side = safe[0]!;
    const other = TEAMS.find((team) => team !== side && !safe.includes(team))!;
    const priced = marketForecast(rating, side, other).oneXTwo[0];
    const unpriced = marketForecast({ ...rating, stakes: plain.stakes! }, side, other).oneXTwo[0];
    expect(priced).toBeLessThan(unpriced);
    // Both sides in their last matches, for the context-aware pool; none of them before, nor
    // without the terms.
    expect(marketForecast(rating, side, other).late).toBe(1);
    const early = fitMarketRating(matches, START + 5 * 7 * DAY, { ...SETTINGS, stakes: kappa })!;
    expect(marketForecast(early, side, other).late).toBe(0);
    expect(marketForecast(fitMarketRating(matches, late, SETTINGS)!, side, other).late).toBe(0);
  });

  it('the fitting stage recovers the term from the prices', () => {
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const fitted = fitStakes(data, SETTINGS, end + DAY, 200);
    expect(fitted.stakes!.safe).toBeLessThan(-0.2);
    expect(Math.abs(fitted.stakes!.title ?? 0)).toBeLessThan(0.15);
  });
});

describe('the stake term growing toward the season’s end', () => {
  it('carries all of κ into a side’s last match and e^−ramp less for each match more', () => {
    const table = new Map<string, Standing>([
      ['A', { points: 9, played: 3 }],
      ['B', { points: 3, played: 1 }],
      ['C', { points: 0, played: 2 }],
    ]);
    // Three sides: four matches each in all; A has one left, B three.
    expect(stakeShare(table, 'A', 0.5)).toBeCloseTo(1, 12);
    expect(stakeShare(table, 'B', 0.5)).toBeCloseTo(Math.exp(-1), 12);
    expect(stakeShare(table, 'B', 0)).toBe(1);
  });

  it('the fitting stage recovers the ramp from prices that price it', () => {
    const matches = league(
      [{ label: '2016-17', start: START, strength: (t) => TRUE.get(t)! }],
      { safe: -0.8 },
      undefined,
      0.4,
    );
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const end = START + 23 * 7 * DAY;
    const flat = fitStakes(data, SETTINGS, end + DAY, 200);
    const ramped = fitStakes(data, SETTINGS, end + DAY, 300, { ramp: true });
    expect(flat.stakesRamp).toBeUndefined();
    expect(ramped.stakesRamp!).toBeGreaterThan(0.2);
    expect(ramped.stakes!.safe).toBeLessThan(-0.5);
    const density = (settings: MarketSettings) => filterScore(data, settings, end + DAY).strength.logDensity;
    expect(density(ramped)).toBeGreaterThan(density(flat));
  });
});

describe('an away side’s stake priced apart', () => {
  it('the fitting stage recovers the away factor, and a fixture is priced with it', () => {
    const matches = league(
      [{ label: '2016-17', start: START, strength: (t) => TRUE.get(t)! }],
      { safe: -0.4 },
      undefined,
      0,
      1,
    );
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const end = START + 23 * 7 * DAY;
    const fitted = fitStakes(data, SETTINGS, end + DAY, 300, { away: true });
    expect(fitted.stakesAway!).toBeGreaterThan(0.5);
    const density = (settings: MarketSettings) => filterScore(data, settings, end + DAY).strength.logDensity;
    expect(density(fitted)).toBeGreaterThan(density({ ...fitted, stakesAway: 0 }));
    // A side with nothing to play for, away: priced further down with the factor than without.
    const late = START + 20 * 7 * DAY;
    const rating = fitMarketRating(matches, late, fitted)!;
    const safe = TEAMS.find((team) => (rating.stakes?.get(team) ?? 0) < -0.1)!;
    const other = TEAMS.find((team) => team !== safe)!;
    const plain = marketForecast({ ...rating, stakesAway: 0 }, other, safe).oneXTwo[0];
    expect(marketForecast(rating, other, safe).oneXTwo[0]).toBeGreaterThan(plain + 0.01);
  });
});

describe('stake classes judged in practice, priced', () => {
  it('prices that price the practical classes are read better with them than by arithmetic', () => {
    const matches = league(
      [{ label: '2016-17', start: START, strength: (t) => TRUE.get(t)! }],
      { safe: -0.6 },
      undefined,
      0,
      0,
      0.05,
    );
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const end = START + 23 * 7 * DAY;
    const arithmetic = fitStakes(data, SETTINGS, end + DAY, 200);
    const practical = fitStakes(data, { ...SETTINGS, stakesDecided: 0.05 }, end + DAY, 200);
    expect(practical.stakesDecided).toBe(0.05);
    expect(practical.stakes!.safe).toBeLessThan(-0.4);
    const density = (settings: MarketSettings) => filterScore(data, settings, end + DAY).strength.logDensity;
    expect(density(practical)).toBeGreaterThan(density(arithmetic) + 1);
    // A fixture of the season reads its sides' practical classes too.
    const late = START + 20 * 7 * DAY;
    const byPractice = fitMarketRating(matches, late, {
      ...SETTINGS,
      stakes: { safe: -0.6 },
      stakesDecided: 0.05,
    })!;
    const byArithmetic = fitMarketRating(matches, late, { ...SETTINGS, stakes: { safe: -0.6 } })!;
    const safe = (rating: typeof byPractice) =>
      TEAMS.filter((team) => rating.stakes?.get(team) === -0.6).length;
    expect(safe(byPractice)).toBeGreaterThan(safe(byArithmetic));
  });
});

describe("a side's need for points, priced", () => {
  it('the fitting stage recovers the importance term, and a fixture is priced with it', () => {
    // Sides priced up by 0.8 times their need for points (three more points: what it changes).
    const matches = league(
      [{ label: '2016-17', start: START, strength: (t) => TRUE.get(t)! }],
      {},
      undefined,
      0,
      0,
      undefined,
      0.8,
    );
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const end = START + 23 * 7 * DAY;
    const fitted = fitStakes(data, SETTINGS, end + DAY, 300, { importance: true });
    expect(fitted.stakesImportance!).toBeGreaterThan(0.6);
    expect(fitted.stakesImportance!).toBeLessThan(1);
    const density = (settings: MarketSettings) => filterScore(data, settings, end + DAY).strength.logDensity;
    expect(density(fitted)).toBeGreaterThan(density({ ...fitted, stakesImportance: 0 }));
    // A fixture late in the season carries each side's need in its stake term.
    const late = START + 20 * 7 * DAY;
    const needy = fitMarketRating(matches, late, { ...SETTINGS, stakes: {}, stakesImportance: 0.8 })!;
    const plain = fitMarketRating(matches, late, { ...SETTINGS, stakes: {} })!;
    expect([...needy.stakes!.values()].some((term) => term > 0.1)).toBe(true);
    expect([...plain.stakes!.values()].every((term) => term === 0)).toBe(true);
  });

  it("weighs a line's need apart when the prices do, and its weights at zero change nothing", () => {
    // Sides priced up by 0.3 times their need, and 1.2 more times their need for the title.
    const matches = league(
      [{ label: '2016-17', start: START, strength: (t) => TRUE.get(t)! }],
      {},
      undefined,
      0,
      0,
      undefined,
      0.3,
      [1.2, 0, 0],
    );
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const end = START + 23 * 7 * DAY;
    const fitted = fitStakes(data, SETTINGS, end + DAY, 400, { importance: true, lines: true });
    expect(fitted.stakesNeedTitle!).toBeGreaterThan(0.6);
    const density = (settings: MarketSettings) => filterScore(data, settings, end + DAY).strength.logDensity;
    expect(density(fitted)).toBeGreaterThan(density({ ...fitted, stakesNeedTitle: 0 }));
    const late = START + 20 * 7 * DAY;
    const plain = { ...SETTINGS, stakes: {}, stakesImportance: 0.3 };
    const zero = { ...plain, stakesNeedTitle: 0, stakesNeedChampions: 0, stakesNeedEurope: 0 };
    expect(fitMarketRating(matches, late, zero)!.stakes).toEqual(
      fitMarketRating(matches, late, plain)!.stakes,
    );
    // Each side's lines add up to its need.
    const table = new Map<string, Standing>();
    for (const match of matches.filter((m) => m.date < late))
      addToTable(table, match as Required<EvaluationMatch>);
    for (const need of stakeNeeds(table).values())
      expect(need.lines.reduce((sum, line) => sum + line, 0)).toBeCloseTo(need.total, 12);
  });
});

describe("the season's start", () => {
  // A second season where every side's strength jumped over the summer (order reversed).
  const seasons = [
    { label: '2016-17', start: START, strength: (t: string) => TRUE.get(t)! },
    { label: '2017-18', start: START + 250 * DAY, strength: (t: string) => -TRUE.get(t)! },
  ];
  const matches = league(seasons, {});
  const early = START + 250 * DAY + 3 * 7 * DAY;

  it('off unless set: a noise factor of 1 changes nothing', () => {
    expect(fitMarketRating(matches, early, { ...SETTINGS, seasonStart: { matches: 6, noise: 1 } })).toEqual(
      fitMarketRating(matches, early, SETTINGS),
    );
  });

  it('believing the first prices faster learns a changed side sooner, and the fit finds it', () => {
    const gap = (settings: MarketSettings) => {
      const rating = fitMarketRating(matches, early, settings)!;
      return Math.abs(rating.teams.get('Club 00')!.strength - rating.teams.get('Club 11')!.strength - -1.6);
    };
    expect(gap({ ...SETTINGS, seasonStart: { matches: 6, noise: 0.2 } })).toBeLessThan(gap(SETTINGS));
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const fitted = fitSeasonStart(data, SETTINGS, START + 250 * DAY + 9 * 7 * DAY, 80);
    expect(fitted.seasonStart!.noise).toBeLessThan(0.5);
    expect(fitted.seasonStart!.noise).toBeGreaterThanOrEqual(0.05);
  });
});

describe("the season's end", () => {
  const season = [{ label: '2016-17', start: START, strength: (t: string) => TRUE.get(t)! }];
  // The stakes' table is kept when `stakes` is set: a 12-side double round-robin, 22 rounds a week
  // apart; a side has five matches or fewer left from the 18th round (index 17).
  const WITH_TABLE: MarketSettings = { ...SETTINGS, stakes: {} };
  const LATE_ROUND = 17;
  const end = START + 22 * 7 * DAY;
  const strengths = (matches: readonly EvaluationMatch[], asOf: number, settings: MarketSettings) =>
    TEAMS.map((team) => fitMarketRating(matches, asOf, settings)!.teams.get(team)!.strength);

  // A late shock: from the 18th round on, Club 00 priced 1.5 weaker than it is.
  const shocked = league(season, {}).map((match) => {
    if (match.date < START + LATE_ROUND * 7 * DAY) return match;
    const shift = (match.home === TEAMS[0] ? -1.5 : 0) + (match.away === TEAMS[0] ? 1.5 : 0);
    const [pH, , pA] = match.bookmaker!;
    const y = Math.log(pH / pA) + shift;
    const book: [number, number, number] = [0.74 * sigmoid(y), 0.26, 0.74 * (1 - sigmoid(y))];
    return { ...match, bookmaker: book, market: { ...match.market!, oneXTwo: book } };
  });

  it('off at a factor of one and no drift; late prices ignored at a large noise factor', () => {
    const matches = shocked;
    expect(strengths(matches, end, { ...WITH_TABLE, seasonEnd: { matches: 5, noise: 1, drift: 0 } })).toEqual(
      strengths(matches, end, WITH_TABLE),
    );
    const plain = strengths(matches, end, WITH_TABLE);
    const deaf = strengths(matches, end, { ...WITH_TABLE, seasonEnd: { matches: 5, noise: 1e6, drift: 0 } });
    const before = strengths(matches, START + LATE_ROUND * 7 * DAY, WITH_TABLE);
    // Club 00 followed its late prices down without the term, and kept its strength of the 17th round with it.
    expect(plain[0]! - before[0]!).toBeLessThan(-0.5);
    for (const [i, strength] of deaf.entries()) expect(strength).toBeCloseTo(before[i]!, 3);
    // A drift opened before each late price: Club 00 follows the shock further than without.
    const quick = strengths(matches, end, { ...WITH_TABLE, seasonEnd: { matches: 5, noise: 1, drift: 0.2 } });
    expect(quick[0]!).toBeLessThan(plain[0]! - 0.1);
  });

  it('carries into the next season the strength a side had before its last matches, when asked', () => {
    const summer = end + 60 * DAY;
    const next = (settings: MarketSettings) =>
      marketForecast(fitMarketRating(shocked, summer, settings)!, TEAMS[0]!, TEAMS[1]!, '2017-18').oneXTwo[0];
    const withCarry = { ...WITH_TABLE, carryBeforeEnd: 5 };
    // The season's own last forecasts still read the shock: the same rating as of its last round.
    expect(fitMarketRating(shocked, end, withCarry)!.teams.get(TEAMS[0]!)!.strength).toBe(
      fitMarketRating(shocked, end, WITH_TABLE)!.teams.get(TEAMS[0]!)!.strength,
    );
    // The next season starts Club 00 from before the shock: favoured again against Club 01; the
    // rule keeps its own table, with or without the stakes.
    expect(next(withCarry)).toBeGreaterThan(next(WITH_TABLE) + 0.1);
    expect(next({ ...SETTINGS, carryBeforeEnd: 5 })).toBeGreaterThan(next(SETTINGS) + 0.1);
    // Read into the next season by the filter, the same carry.
    const opening = league([{ label: '2017-18', start: summer, strength: (t) => TRUE.get(t)! }], {}).slice(
      0,
      6,
    );
    const opened = (settings: MarketSettings) =>
      fitMarketRating([...shocked, ...opening], summer + DAY, settings)!.teams.get(TEAMS[0]!)!.strength;
    expect(opened(withCarry)).toBeGreaterThan(opened(WITH_TABLE) + 0.3);
    // Leaving for another division before this one's next season starts: its latest strength
    // (measured both ways, decision 0171), as without the rule.
    const leaving = (settings: MarketSettings) =>
      linkSource('XX', shocked, settings, summer).departing(TEAMS[0]!, summer, '2017-18')!.strength.mean;
    expect(leaving(withCarry)).toBe(leaving(WITH_TABLE));
  });

  it("the fitting stage reads late prices' passing news as noise", () => {
    // Every late price moved by news that passes: ±0.6 on ln(pH/pA), alternating by match.
    let index = 0;
    const matches = league(season, {}).map((match) => {
      if (match.date < START + LATE_ROUND * 7 * DAY) return match;
      const [pH, , pA] = match.bookmaker!;
      const y = Math.log(pH / pA) + (index++ % 2 === 0 ? 0.6 : -0.6);
      const book: [number, number, number] = [0.74 * sigmoid(y), 0.26, 0.74 * (1 - sigmoid(y))];
      return { ...match, bookmaker: book, market: { ...match.market!, oneXTwo: book } };
    });
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const fitted = fitSeasonEnd(data, WITH_TABLE, end + DAY, 120);
    expect(fitted.seasonEnd!.matches).toBe(5);
    expect(fitted.seasonEnd!.noise).toBeGreaterThan(3);
    const density = (settings: MarketSettings) => filterScore(data, settings, end + DAY).strength.logDensity;
    expect(density(fitted)).toBeGreaterThan(density(WITH_TABLE));
  });
});

describe('the shift watch fitted on a restart behind closed doors', () => {
  it('picks a watch that follows a home advantage gone mid-season better than the default', () => {
    const seasons = [
      { label: '2016-17', start: START, strength: (t: string) => TRUE.get(t)! },
      { label: '2017-18', start: START + 250 * DAY, strength: (t: string) => TRUE.get(t)! },
    ];
    const closedFrom = START + 250 * DAY + 8 * 7 * DAY;
    const matches = league(seasons, {}, (date) => (date >= closedFrom ? 0 : 0.35));
    const data: ProtocolData = { leagues: new Map([['XX', matches]]), recorded: new Map() };
    const settings = { ...MARKET_SETTINGS };
    const to = START + 250 * DAY + 22 * 7 * DAY;
    const fitted = fitShiftWatch(data, settings, closedFrom, to);
    const densityOf = (shiftWatch: { matches: number; limit: number }) => {
      const candidate = { ...settings, shiftWatch };
      const after = filterScore(data, candidate, to);
      const before = filterScore(data, candidate, closedFrom);
      return (
        after.strength.logDensity -
        before.strength.logDensity +
        after.goals.logDensity -
        before.goals.logDensity
      );
    };
    expect(fitted.logDensity).toBeCloseTo(densityOf(fitted), 6);
    // A quicker watch than the default (60 matches, four standard errors), and a better one.
    expect(fitted.matches < 60 || fitted.limit < 4).toBe(true);
    expect(fitted.logDensity).toBeGreaterThan(densityOf({ matches: 60, limit: 4 }));
  });
});
