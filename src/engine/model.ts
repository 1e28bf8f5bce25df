// The engine's model as one object: fit on past matches as of a date, then predict fixtures.
// Its name and version go into `ai_model`; change MODEL_NAME when the settings change the figures.

import type { LinkedHistory } from './divisions.js';
import { DEFAULT_FIT, type FitOptions, fitDixonColes } from './dixon-coles.js';
import { fitMarketRating, type MarketSettings } from './market-rating.js';
import { FITTED_MARKET_SETTINGS } from './market-settings.js';
import { globalRatings, type Prediction, type PredictOptions, predictFixture } from './predict.js';
import type { TotalsCalibration } from './score-matrix.js';
import { DAY_MS } from './season.js';
import { seasonStakes } from './stakes.js';
import type { PlayedMatch, Ratings } from './types.js';

export const MODEL_NAME = 'dixon-coles-7';

export type ModelSettings = Omit<FitOptions, 'asOf' | 'warmStart'> & {
  /**
   * Near the end of a season, a side that still needs points against one with nothing to play
   * for: attack and defence each shifted by this much (log scale), up for one and down for the other.
   */
  motivation: number;
  /**
   * The over/under 2.5 recalibration applied to every score matrix (see `calibrateTotals`):
   * chosen on the validation block, where the fitted rates were too sure of the goal total.
   */
  totals: TotalsCalibration;
  /** The market rating learnt from past matches' odds and how it is pooled (null: results only). */
  market: MarketSettings | null;
};

/**
 * `dixon-coles-7`'s market rating (issue 44): filtered beliefs per side, seasons by their label.
 * Every figure is written by `npm run engine:fit` (scripts/engine/fit-market.ts, see
 * docs/engine/protocol.md): the filters' settings maximise the predictive density of the market's own
 * figures, the pooling weights minimise the forecasts' RPS and log-loss, on every season up to
 * 2017-18. The Asian handicap and the pre-match-to-closing moves are options of the rating, off:
 * on the rolling origin they gained nothing (docs/engine/figures.md).
 */
export const MARKET_SETTINGS: MarketSettings = FITTED_MARKET_SETTINGS;

export const DEFAULT_SETTINGS: ModelSettings = {
  ...DEFAULT_FIT,
  motivation: 0.07,
  totals: { shift: 0, scale: 0.85 },
  market: MARKET_SETTINGS,
};

/** Earlier versions, still evaluable (`evaluate --model <name>`); the shipped one is `MODEL_NAME`. */
export const MODEL_VERSIONS: Readonly<Record<string, ModelSettings>> = {
  'dixon-coles-3': { ...DEFAULT_SETTINGS, market: null },
  [MODEL_NAME]: DEFAULT_SETTINGS,
};

export interface FittedModel {
  readonly ratings: Ratings;
  predict(home: string, away: string, options?: PredictOptions): Prediction;
}

/** A model from ratings fitted elsewhere (the analyst's fit thread). */
export function modelFromRatings(ratings: Ratings): FittedModel {
  return wrap(ratings);
}

function wrap(ratings: Ratings): FittedModel {
  return { ratings, predict: (home, away, options) => predictFixture(ratings, home, away, options) };
}

/**
 * Fits the model on the matches played before `asOf` (epoch ms). `previous`, a fit of nearly the
 * same data, only speeds convergence: the optimum reached is the same. `linked`, the league's code
 * and its neighbouring divisions' matches: the market rating starts a side promoted or relegated
 * from one of them at its rating there (`MarketSettings.divisions`); the results-only fit reads
 * the league's own matches only.
 */
export function fitModel(
  matches: readonly PlayedMatch[],
  asOf: number,
  settings: ModelSettings = DEFAULT_SETTINGS,
  previous?: FittedModel,
  linked?: LinkedHistory<PlayedMatch>,
): FittedModel {
  const when = Number.isFinite(asOf) ? asOf : Date.now();
  const ratings = fitDixonColes(matches, { ...settings, asOf: when, warmStart: previous?.ratings });
  const blend = settings.market?.weights;
  // Past matches' odds only (the fit's day excluded); null without recent priced matches.
  const market = settings.market ? fitMarketRating(matches, when, settings.market, linked) : null;
  if (ratings.matches === 0) return wrap({ ...globalRatings(when), market, ...(blend ? { blend } : {}) });
  return wrap({
    ...ratings,
    stakes: seasonStakes(matches, when),
    motivation: settings.motivation,
    totals: settings.totals,
    market,
    ...(blend ? { blend } : {}),
  });
}

/**
 * The model for a league with no data at all: global priors, home advantage included. It keeps the
 * pooling weights, so a fixture's own pre-match odds still inform it (they are the best view there is
 * of a match we have no results for).
 */
export function globalModel(asOf: number, settings: ModelSettings = DEFAULT_SETTINGS): FittedModel {
  const blend = settings.market?.weights;
  return wrap({ ...globalRatings(asOf), ...(blend ? { blend } : {}) });
}

/** Start of the UTC day of an instant: fits are shared by every request of one day. */
export function dayOf(instant: number): number {
  return Math.floor(instant / DAY_MS) * DAY_MS;
}
