// From the international files to the national-team forecaster's inputs and its walk-forward
// forecasts: each match of a test set forecast from every result dated before its day, as
// production would (the evaluate command's `--forecasts` and the validation script read this).
import {
  INTERNATIONAL_SETTINGS,
  type InternationalFixture,
  InternationalModel,
  type InternationalResult,
  type InternationalSettings,
  walkInternational,
} from '../../engine/international.js';
import {
  confederationOf,
  type InternationalMatch,
  type Shootout,
  tournamentClassOf,
} from './international-csv.js';

/** The forecaster's view of a fixture (played or not). */
export function fixtureOf(
  match: Pick<InternationalMatch, 'homeTeam' | 'awayTeam' | 'neutral' | 'competition'> &
    Partial<Pick<InternationalMatch, 'tournament'>>,
): InternationalFixture {
  return {
    ...(match.tournament ? { tournament: match.tournament } : {}),
    home: match.homeTeam,
    away: match.awayTeam,
    neutral: match.neutral,
    tournamentClass: tournamentClassOf(match.competition),
    homeConfederation: confederationOf(match.homeTeam),
    awayConfederation: confederationOf(match.awayTeam),
  };
}

const shootoutKey = (date: string, home: string, away: string) => `${date}|${home}|${away}`;

/**
 * Played matches as the forecaster learns them, in date order (file order within a day); a match
 * with a shoot-out is marked (its goals came in 120 minutes). Scheduled fixtures are left out.
 */
export function internationalResults(
  matches: readonly InternationalMatch[],
  shootouts: readonly Shootout[] = [],
): InternationalResult[] {
  const decided = new Set(shootouts.map((entry) => shootoutKey(entry.date, entry.homeTeam, entry.awayTeam)));
  const seen = new Set<string>();
  return matches
    .filter((match) => match.homeGoals !== null && match.awayGoals !== null)
    .filter((match) => {
      // A match given twice (the same file as training and test) is learnt once.
      const key = shootoutKey(match.date, match.homeTeam, match.awayTeam);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    })
    .map((match, index) => ({ match, index }))
    .sort((a, b) => a.match.timestamp - b.match.timestamp || a.index - b.index)
    .map(({ match }) => ({
      ...fixtureOf(match),
      date: match.timestamp,
      homeGoals: match.homeGoals!,
      awayGoals: match.awayGoals!,
      shootout: decided.has(shootoutKey(match.date, match.homeTeam, match.awayTeam)),
    }));
}

/** The model as of a day: every result dated before `asOf` (epoch ms of a day's 00:00 UTC) learnt. */
export function modelAsOf(
  results: readonly InternationalResult[],
  asOf: number,
  settings: InternationalSettings = INTERNATIONAL_SETTINGS,
): InternationalModel {
  const before = results.filter((result) => result.date < asOf);
  return walkInternational(before, () => {}, settings);
}

/**
 * Forecasts every test match (played or scheduled) from the training results and the test
 * matches' own results dated before its day, walked forward once: the answers come back in the
 * test's order, each the 1X2 of the model as it stood at the start of that match's day, of the
 * outcome the file records (a knockout's after extra time, decision 0159).
 */
export function walkForwardForecasts(
  train: readonly InternationalMatch[],
  test: readonly InternationalMatch[],
  shootouts: readonly Shootout[] = [],
  settings: InternationalSettings = INTERNATIONAL_SETTINGS,
): Array<[number, number, number]> {
  const learnt = internationalResults([...train, ...test], shootouts);
  const order = test
    .map((match, index) => ({ match, index }))
    .sort((a, b) => a.match.timestamp - b.match.timestamp);
  const answers: Array<[number, number, number]> = new Array(test.length);
  const model = new InternationalModel(settings);
  let next = 0;
  for (const { match, index } of order) {
    while (next < learnt.length && learnt[next]!.date < match.timestamp) {
      const day = learnt[next]!.date;
      let end = next;
      while (end < learnt.length && learnt[end]!.date === day) end++;
      model.playDay(learnt.slice(next, end));
      next = end;
    }
    answers[index] = model.recordedOneXTwo(fixtureOf(match), match.timestamp);
  }
  return answers;
}
