// Where every search of the engine's fitting script starts: a fixed, round, neutral point, the
// same for every rolling-origin fold and for the shipped fit. (Until issue 56 the search started
// from the shipped settings, fitted through the last season: every earlier fold inherited the
// later seasons through its starting point.) Nothing here is fitted, and nothing may be: a change
// here is a change of protocol (docs/engine/protocol.md).
import type { BlendWeights, FilterSettings, MarketSettings } from '../../src/engine/types.js';

const filter = (noise: number, shrink: number, league: number): FilterSettings => ({
  noise,
  drift: noise / 30,
  seasonShrink: shrink,
  seasonVariance: noise,
  newcomerVariance: 10 * noise,
  leagueDrift: league / 1000,
  leagueVariance: league,
});

/** Each source weighed alike, no shift, no stakes term. */
const even = (sources: number): BlendWeights => ({
  dc: 1 / sources,
  market: sources > 1 ? 1 / sources : 0,
  prematch: 0,
  stakes: 0,
  ouShift: 0,
  ouDc: 1 / sources,
  ouMarket: sources > 1 ? 1 / sources : 0,
  ouPrematch: 0,
});

export const NEUTRAL_MARKET_SETTINGS: MarketSettings = {
  strength: filter(0.03, 0.8, 0.05),
  goals: filter(0.005, 0.8, 0.01),
  draw: { ...filter(0.005, 0.8, 0), leagueDrift: 0, leagueVariance: 0 },
  flatten: true,
  freshDays: 120,
  drawHalfLifeDays: 730,
  weights: {
    none: { ...even(2), ouSpread: 0, ouDraw: 0, ouInverse: 0 },
    prematch: { ...even(3), prematch: 1 / 3, ouPrematch: 1 / 3, ouDc: 1 / 3, ouMarket: 1 / 3 },
    prematchOnly: { ...even(1), dc: 0.5, prematch: 0.5, ouDc: 0.5, ouPrematch: 0.5 },
  },
};
