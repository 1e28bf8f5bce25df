// Linked divisions (issue 50): a side promoted or relegated between linked divisions starts from
// its rating in the division it left, moved by the link's offset, not from the generic promoted
// side's prior; the fitting script recovers a planted offset from the prices.
import { describe, expect, it } from 'vitest';
import { fitDivisionLinks, fitKey, type ProtocolData, rowsFor } from '../../scripts/engine/rolling-origin.js';
import { DIVISION_LINKS, linkedDivisions } from '../../src/engine/divisions.js';
import {
  defaultForecaster,
  type EvaluationMatch,
  isPriced,
  walkForward,
} from '../../src/engine/evaluation.js';
import { fitMarketRating, marketForecast } from '../../src/engine/market-rating.js';
import { DEFAULT_SETTINGS, MARKET_SETTINGS } from '../../src/engine/model.js';
import type { MarketSettings } from '../../src/engine/types.js';
import { DAY, DOWN, HOME, label, pyramid, seasonStartOf, UP } from './pyramid.js';

/** The shipped rating, its season carry-over off (the planted moves keep each side's distance to its mean). */
const SETTINGS: MarketSettings = {
  ...MARKET_SETTINGS,
  strength: { ...MARKET_SETTINGS.strength, seasonShrink: 1, seasonVariance: 0.002 },
  stakes: undefined,
  seasonStart: undefined,
  divisions: { variance: 0.002, offsets: { 'E1>E0': UP, 'E0>E1': DOWN } },
};
const of = (matches: readonly EvaluationMatch[], league: string) =>
  matches.filter((m) => m.league === league);

describe('linked divisions', () => {
  it('knows the pyramids: E1 links to E0 and E2, D2 to D1, a league outside them to none', () => {
    expect(linkedDivisions('E1')).toEqual(['E0', 'E2']);
    expect(linkedDivisions('D2')).toEqual(['D1']);
    expect(linkedDivisions('N1')).toEqual([]);
    expect(DIVISION_LINKS).toContain('EC>E3');
    expect(DIVISION_LINKS).toContain('SC0>SC1');
  });

  it("forecasts a promoted side's first match from its rating below plus the offset, not the newcomer prior", () => {
    const { matches, moves } = pyramid(4);
    const upper = of(matches, 'E0');
    const lower = of(matches, 'E1');
    // As of the last summer: the new season's fixtures are not read yet.
    const asOf = seasonStartOf(3) - DAY;
    const linked = fitMarketRating(upper, asOf, SETTINGS, {
      league: 'E0',
      neighbours: [{ league: 'E1', matches: lower }],
    })!;
    const alone = fitMarketRating(upper, asOf, SETTINGS)!;
    const { promoted } = moves.find((move) => move.season === 3)!;
    const strength = pyramid(4).during[3]!;
    // The promoted side at home to the strongest side that stayed up, as the market priced it then.
    const host = promoted[0]!;
    const visitor = 'Upper 0';
    const truth = HOME + strength.get(host)! - strength.get(visitor)!;
    const read = (rating: typeof linked) => {
      const [pH, , pA] = marketForecast(rating, host, visitor, label(3)).oneXTwo;
      return Math.log(pH / pA);
    };
    // The flattened split reads a little short of the price: compare the errors' sizes.
    expect(Math.abs(read(linked) - truth)).toBeLessThan(0.15);
    expect(Math.abs(read(alone) - truth)).toBeGreaterThan(2 * Math.abs(read(linked) - truth));
    expect(linked.arrivals?.get(host)?.from).toBe('E1');
  });

  it("walks a promoted side's first matches from its rating below: the engine's forecasts of them are closer to the price", () => {
    const { matches, moves } = pyramid(4);
    const { promoted } = moves.find((move) => move.season === 3)!;
    // The rating alone (the results-only fit reads nothing of the division below).
    const alone: MarketSettings = {
      ...SETTINGS,
      weights: { ...SETTINGS.weights, none: { ...SETTINGS.weights.none, dc: 0, market: 1, stakes: 0 } },
    };
    const linkedSettings = { ...DEFAULT_SETTINGS, market: alone };
    const unlinked = { ...DEFAULT_SETTINGS, market: { ...alone, divisions: undefined } };
    const first = (m: EvaluationMatch) =>
      m.league === 'E0' &&
      m.season === label(3) &&
      m.date < seasonStartOf(3) + 60 * DAY &&
      (promoted.includes(m.home) || promoted.includes(m.away));
    const train = matches.filter((m) => !first(m));
    const test = matches.filter(first);
    const errorOf = (settings: typeof linkedSettings) => {
      const scored = walkForward(train, test, defaultForecaster(settings)).filter(isPriced);
      const gap = (p: readonly number[]) => Math.log(p[0]! / p[2]!);
      return scored.reduce((sum, m) => sum + Math.abs(gap(m.engine) - gap(m.bookmaker)), 0) / scored.length;
    };
    const [linked, newcomer] = [errorOf(linkedSettings), errorOf(unlinked)];
    expect(linked).toBeLessThan(newcomer / 2);
  });

  it("gives the fitting script's forecasts of a promoted side the engine's linked rating", () => {
    const { matches, moves } = pyramid(4);
    const host = moves.find((move) => move.season === 3)!.promoted[0]!;
    const first = of(matches, 'E0').find((m) => m.season === label(3) && m.home === host)!;
    const recorded = new Map([
      [
        fitKey('E0', first.date, first.home, first.away),
        {
          league: 'E0',
          date: first.date,
          home: first.home,
          away: first.away,
          fit: [0.4, 0.3, 0.3],
          over: 0.5,
          goals: [1.4, 1.1],
        },
      ],
    ]) as ProtocolData['recorded'];
    const divisions = new Map([
      ['E0', of(matches, 'E0')],
      ['E1', of(matches, 'E1')],
    ]);
    const data: ProtocolData = { leagues: new Map([['E0', of(matches, 'E0')]]), recorded, divisions };
    const [row] = rowsFor(data, SETTINGS);
    const rating = fitMarketRating(of(matches, 'E0'), first.date, SETTINGS, {
      league: 'E0',
      neighbours: [{ league: 'E1', matches: of(matches, 'E1') }],
    })!;
    expect(row!.home).toBe(host);
    expect(row!.market!.oneXTwo).toEqual(marketForecast(rating, first.home, first.away, label(3)).oneXTwo);
    const [alone] = rowsFor(
      { ...data, divisions: undefined, leagues: data.leagues },
      { ...SETTINGS, divisions: undefined },
    );
    expect(alone!.market!.oneXTwo).not.toEqual(row!.market!.oneXTwo);
  });

  it('recovers planted offsets from the prices of both divisions', () => {
    const { matches } = pyramid(7);
    const divisions = new Map([
      ['E0', of(matches, 'E0')],
      ['E1', of(matches, 'E1')],
    ]);
    const data: ProtocolData = { leagues: new Map(), recorded: new Map(), divisions };
    const fitted = fitDivisionLinks(
      data,
      { ...SETTINGS, divisions: undefined },
      Number.POSITIVE_INFINITY,
      80,
    );
    expect(fitted.divisions!.offsets['E1>E0']).toBeCloseTo(UP, 1);
    expect(fitted.divisions!.offsets['E0>E1']).toBeCloseTo(DOWN, 1);
    // A link without data keeps no offset: its sides stay newcomers.
    expect(fitted.divisions!.offsets).not.toHaveProperty('E2>E1');
  });

  it('fits the offsets of a fold on the seasons before it only: later prices change nothing', () => {
    const { matches } = pyramid(5);
    const twisted = matches.map((m) =>
      m.season! >= label(3)
        ? { ...m, market: { oneXTwo: [0.2, 0.3, 0.5] as [number, number, number], overUnder: null } }
        : m,
    );
    const offsetsOf = (all: typeof matches) =>
      fitDivisionLinks(
        {
          leagues: new Map(),
          recorded: new Map(),
          divisions: new Map([
            ['E0', of(all, 'E0')],
            ['E1', of(all, 'E1')],
          ]),
        },
        { ...SETTINGS, divisions: undefined },
        seasonStartOf(3),
        40,
      ).divisions;
    const fitted = offsetsOf(matches)!;
    expect(fitted.offsets['E1>E0']).toBeLessThan(-0.3);
    expect(offsetsOf(twisted)).toEqual(fitted);
  });
});
