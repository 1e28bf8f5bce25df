// `evaluate` with European cup files (issue 51): a cup file (Football.TXT `.txt`, or footballcsv's
// cup CSV) is told apart from a league file by its form; the cup matches of the test files are
// forecast walked forward by the one-scale rating, which reads every domestic result (train and
// test files, earlier days only) and every cup result of earlier days.
import type { EvaluationMatch, Outcome, Probabilities3 } from '../../engine/evaluation.js';
import type { LoadedCupFile } from './cup-files.js';
import { type DomesticMatch, forecastCups } from './cup-forecasts.js';

export { type LoadedCupFile, partitionCupFiles } from './cup-files.js';

/** One forecast test cup match, scored as a league match is (no bookmaker: the cup files have no prices). */
export interface ScoredCupMatch {
  league: string;
  season: string;
  month: string;
  block: null;
  date: number;
  home: string;
  away: string;
  outcome: Outcome;
  engine: Probabilities3;
  baseline: Probabilities3;
  bookmaker: null;
  overUnder: null;
  /** How each side is known (`league`, `cups`, `new`): an analysis says when a side is rated from cups alone. */
  basis: [string, string];
}

const domesticOf = (match: EvaluationMatch): DomesticMatch => ({
  league: match.league,
  date: match.date,
  home: match.home,
  away: match.away,
  homeGoals: match.homeGoals,
  awayGoals: match.awayGoals,
  market: match.market?.oneXTwo ? ([...match.market.oneXTwo] as Probabilities3) : null,
});

const outcomeOf = (home: number, away: number): Outcome => (home > away ? 0 : home === away ? 1 : 2);

/**
 * Walk-forward forecasts of every played test cup match. The domestic matches (train and test)
 * and the training cup matches are history; each forecast reads only results of earlier days.
 */
export function evaluateCups(
  domestic: readonly EvaluationMatch[],
  trainCups: readonly LoadedCupFile[],
  testCups: readonly LoadedCupFile[],
): ScoredCupMatch[] {
  const train = trainCups.flatMap((file) => file.matches);
  const test = new Set(testCups.flatMap((file) => file.matches).filter((match) => match.score !== null));
  // The naive baseline: the training cup matches' home/draw/away shares (a third each without any).
  const counts: Probabilities3 = [1, 1, 1];
  for (const match of train) if (match.score) counts[outcomeOf(match.score.home, match.score.away)]++;
  const total = counts[0] + counts[1] + counts[2];
  const baseline: Probabilities3 = [counts[0] / total, counts[1] / total, counts[2] / total];
  const lines = forecastCups(domestic.map(domesticOf), [...train, ...test], (match) => test.has(match));
  return lines.map(({ match, forecast }) => {
    const date = Date.parse(`${match.date}T00:00:00Z`);
    return {
      league: match.competition,
      season: match.season,
      month: match.date.slice(0, 7),
      block: null,
      date,
      home: match.home,
      away: match.away,
      outcome: outcomeOf(match.score!.home, match.score!.away),
      engine: forecast.probabilities,
      baseline,
      bookmaker: null,
      overUnder: null,
      basis: [forecast.homeBasis, forecast.awayBasis],
    };
  });
}
