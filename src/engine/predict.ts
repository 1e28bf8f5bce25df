// From fitted ratings to a prediction for one fixture: expected goals, the score matrix, the
// markets. A team the ratings do not know plays with the newcomer rating (the league's typical
// promoted side, or an average side under the global priors).
import { DEFAULT_FIT, NO_DRAW_BALANCE } from './dixon-coles.js';
import {
  inverseOver,
  type MarketForecast,
  marketForecast,
  pool1x2,
  poolOver,
  prematchForecast,
} from './market-rating.js';
import { type Markets, marketsFrom } from './markets.js';
import { calibrateTotals, rakeMatrix, type ScoreMatrix, scoreMatrix } from './score-matrix.js';
import type { Stake } from './stakes.js';
import type { BlendWeights, OddsMode, PrematchOdds, Ratings, TeamRating } from './types.js';

export interface Prediction {
  matrix: ScoreMatrix;
  markets: Markets;
  known: { home: boolean; away: boolean };
  ratings: { home: TeamRating; away: TeamRating };
  /** End-of-season stakes of each side, when judged. */
  stakes: { home: Stake | null; away: Stake | null };
  /** Which market input the prediction used (see `PredictOptions.prematchOdds`). */
  odds: OddsMode;
}

export interface PredictOptions {
  /**
   * The match's own pre-match odds, when known (a fixture's, collected before kick-off): pooled
   * with the fit and the market rating (`odds: 'prematch'`). Never closing odds.
   */
  prematchOdds?: PrematchOdds;
  /**
   * The fixture's season (`2020-21`), when known: a fixture of a season the ratings have not seen
   * yet is forecast with every side carried into it (pulled toward the league's mean, less sure;
   * promoted sides as newcomers). Absent: the ratings' latest season.
   */
  season?: string;
}

/** Ratings for a league the data does not know: average sides, with a usual home advantage. */
export function globalRatings(asOf: number): Ratings {
  return {
    teams: new Map(),
    intercept: DEFAULT_FIT.baseline.intercept,
    homeAdvantage: DEFAULT_FIT.baseline.homeAdvantage,
    rho: DEFAULT_FIT.baseline.rho,
    draw: NO_DRAW_BALANCE,
    newcomer: { attack: 0, defence: 0 },
    asOf,
    matches: 0,
  };
}

export function rates(ratings: Ratings, home: TeamRating, away: TeamRating): { lambda: number; mu: number } {
  return {
    lambda: Math.exp(ratings.intercept + ratings.homeAdvantage + home.attack - away.defence),
    mu: Math.exp(ratings.intercept + away.attack - home.defence),
  };
}

/**
 * Puts a side rated in another league on this league's scale, so it scores and concedes against
 * an average opponent what it did at home in its own league (a cup tie, say). League strengths
 * are unknown to the model, so both leagues count as equal.
 */
export function borrowRating(target: Ratings, source: Ratings, rating: TeamRating): TeamRating {
  const shift = source.intercept - target.intercept;
  return { attack: rating.attack + shift, defence: rating.defence - shift, matches: rating.matches };
}

export function predictFixture(
  ratings: Ratings,
  home: string,
  away: string,
  options: PredictOptions = {},
): Prediction {
  const newcomer: TeamRating = { ...ratings.newcomer, matches: 0 };
  const homeRating = ratings.teams.get(home);
  const awayRating = ratings.teams.get(away);
  const homeUsed = homeRating ?? newcomer;
  const awayUsed = awayRating ?? newcomer;
  const stakes = { home: ratings.stakes?.get(home) ?? null, away: ratings.stakes?.get(away) ?? null };
  const shift = motivationShift(stakes, ratings.motivation ?? 0);
  const { lambda, mu } = rates(
    ratings,
    { ...homeUsed, attack: homeUsed.attack + shift, defence: homeUsed.defence + shift },
    { ...awayUsed, attack: awayUsed.attack - shift, defence: awayUsed.defence - shift },
  );
  const raw = scoreMatrix(lambda, mu, ratings.rho, ratings.draw);
  const calibrated = ratings.totals ? calibrateTotals(raw, ratings.totals) : raw;
  const { matrix, odds } = withMarket(ratings, calibrated, home, away, options, stakes);
  return {
    matrix,
    markets: marketsFrom(matrix),
    known: { home: homeRating !== undefined, away: awayRating !== undefined },
    ratings: { home: homeUsed, away: awayUsed },
    stakes,
    odds,
  };
}

/**
 * Pools the fit's 1X2 and over/under with the market rating's (learnt from past matches' odds)
 * and, when given, the fixture's own pre-match odds, then rakes the matrix onto the pooled
 * figures. Without a market rating and without pre-match odds the fit answers alone.
 */
function withMarket(
  ratings: Ratings,
  matrix: ScoreMatrix,
  home: string,
  away: string,
  { prematchOdds, season }: PredictOptions,
  stakes: Prediction['stakes'],
): { matrix: ScoreMatrix; odds: OddsMode } {
  const prematch = prematchForecast(prematchOdds);
  const market = ratings.market ? marketForecast(ratings.market, home, away, season) : null;
  const usesPrematch = prematch.oneXTwo !== null || prematch.over !== null;
  if (!ratings.blend || (!market && !usesPrematch)) return { matrix, odds: 'none' };
  const weights = !usesPrematch
    ? ratings.blend.none
    : market
      ? ratings.blend.prematch
      : ratings.blend.prematchOnly;
  const fit = marketsFrom(matrix);
  const fitOneXTwo: [number, number, number] = [fit.oneXTwo.home, fit.oneXTwo.draw, fit.oneXTwo.away];
  // A missing piece (no over/under price, say) falls back to the mode without it for that market.
  const chosen = prematch.oneXTwo ? weights : market ? ratings.blend.none : null;
  const oneXTwoWeights = chosen && contextWeights(chosen, market);
  const overWeights = prematch.over !== null ? weights : market ? ratings.blend.none : null;
  const oneXTwo = oneXTwoWeights
    ? pool1x2(
        [
          { p: fitOneXTwo, weight: oneXTwoWeights.dc },
          {
            p: market?.oneXTwo ?? null,
            weight: oneXTwoWeights.market,
          },
          { p: prematch.oneXTwo, weight: oneXTwoWeights.prematch },
        ],
        poolShift(oneXTwoWeights, stakeSign(stakes), market?.steam ?? 0),
      )
    : fitOneXTwo;
  const over = overWeights
    ? poolOver(
        overWeights.ouShift +
          (market
            ? (overWeights.ouSpread ?? 0) * market.spread + (overWeights.ouDraw ?? 0) * market.drawTendency
            : 0),
        [
          { p: fit.overUnder25.over, weight: overWeights.ouDc },
          { p: market?.over ?? null, weight: overWeights.ouMarket },
          { p: prematch.over, weight: overWeights.ouPrematch },
          // Read only where weighed: the inversion is a few Newton steps per prediction.
          {
            p: market && overWeights.ouInverse ? inverseOver(market) : null,
            weight: overWeights.ouInverse ?? 0,
          },
        ],
      )
    : fit.overUnder25.over;
  return { matrix: rakeMatrix(matrix, oneXTwo, over), odds: usesPrematch ? 'prematch' : 'market' };
}

/**
 * The 1X2 weights for one fixture (`BlendWeights.dcUncertain`…): the fit's and the rating's moved
 * by the rating's uncertainty and by how many of the sides are in their season's last matches.
 * Without a rating, or without those terms, the weights as they are.
 */
export function contextWeights(weights: BlendWeights, market: MarketForecast | null): BlendWeights {
  if (!market) return weights;
  const { dcUncertain = 0, marketUncertain = 0, dcLate = 0, marketLate = 0 } = weights;
  if (dcUncertain === 0 && marketUncertain === 0 && dcLate === 0 && marketLate === 0) return weights;
  return {
    ...weights,
    dc: weights.dc + dcUncertain * market.variance + dcLate * market.late,
    market: weights.market + marketUncertain * market.variance + marketLate * market.late,
  };
}

/** +motivation when only the home side still plays for something, − when only the away side does. */
function motivationShift(stakes: Prediction['stakes'], motivation: number): number {
  return motivation * stakeSign(stakes);
}

/**
 * The pooled 1X2's log-probabilities moved by the end-of-season stakes (`BlendWeights.stakes`; a
 * draw term and a home term per side with nothing to play for gained nothing on validation) and
 * by the sides' recent price moves (`BlendWeights.steam`).
 */
export function poolShift(weights: BlendWeights, stake: number, steam: number): [number, number, number] {
  const split = (weights.stakes ?? 0) * stake + (weights.steam ?? 0) * steam;
  return [split / 2, 0, -split / 2];
}

/** +1 when only the home side still plays for something, −1 when only the away side does, else 0. */
export function stakeSign(stakes: Prediction['stakes']): number {
  if (stakes.home === 'live' && stakes.away === 'dead') return 1;
  if (stakes.home === 'dead' && stakes.away === 'live') return -1;
  return 0;
}
