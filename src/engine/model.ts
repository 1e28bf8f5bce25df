// The engine's model as one object: fit on past matches as of a date, then predict fixtures.
// Its name and version go into `ai_model`; change MODEL_NAME when the settings change the figures.
import { DAY_MS, DEFAULT_FIT, type FitOptions, fitDixonColes } from './dixon-coles.js';
import { globalRatings, type Prediction, predictFixture } from './predict.js';
import type { TotalsCalibration } from './score-matrix.js';
import { seasonStakes } from './stakes.js';
import type { PlayedMatch, Ratings } from './types.js';

export const MODEL_NAME = 'dixon-coles-3';

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
};

export const DEFAULT_SETTINGS: ModelSettings = {
  ...DEFAULT_FIT,
  motivation: 0.07,
  totals: { shift: 0, scale: 0.85 },
};

export interface FittedModel {
  readonly ratings: Ratings;
  predict(home: string, away: string): Prediction;
}

/** A model from ratings fitted elsewhere (the analyst's fit thread). */
export function modelFromRatings(ratings: Ratings): FittedModel {
  return wrap(ratings);
}

function wrap(ratings: Ratings): FittedModel {
  return { ratings, predict: (home, away) => predictFixture(ratings, home, away) };
}

/**
 * Fits the model on the matches played before `asOf` (epoch ms). `previous`, a fit of nearly the
 * same data, only speeds convergence: the optimum reached is the same.
 */
export function fitModel(
  matches: readonly PlayedMatch[],
  asOf: number,
  settings: ModelSettings = DEFAULT_SETTINGS,
  previous?: FittedModel,
): FittedModel {
  const when = Number.isFinite(asOf) ? asOf : Date.now();
  const ratings = fitDixonColes(matches, { ...settings, asOf: when, warmStart: previous?.ratings });
  if (ratings.matches === 0) return wrap(globalRatings(when));
  return wrap({
    ...ratings,
    stakes: seasonStakes(matches, when),
    motivation: settings.motivation,
    totals: settings.totals,
  });
}

/** The model for a league with no data at all: global priors, home advantage included. */
export function globalModel(asOf: number): FittedModel {
  return wrap(globalRatings(asOf));
}

/** Start of the UTC day of an instant: fits are shared by every request of one day. */
export function dayOf(instant: number): number {
  return Math.floor(instant / DAY_MS) * DAY_MS;
}
