// Records the results-only fit's walk-forward predictions (the `dixon-coles-3` part of the
// engine) for every match of the seasons asked, each league walked from the four seasons before
// the first, so the cheap market rating and pooling settings can be fitted on them
// (`fit-market.ts`) without refitting Dixon–Coles for every candidate. The walk-forward is the
// CLI's own (`walkForward` with `fitModel`, market rating off).
//
//   nice -n 10 npx tsx scripts/engine/record-fit.ts ../shared/data/football 2008-09 2017-18 > fit.json
import { pathToFileURL } from 'node:url';
import { walkForward } from '../../src/engine/evaluation.js';
import { DEFAULT_SETTINGS, type FittedModel, fitModel } from '../../src/engine/model.js';
import { loadEvaluationFiles, PROTOCOL_LEAGUES } from '../../src/modules/football/evaluation-data.js';
import { leagueFiles, seasonsBetween } from './seasons.js';

export interface RecordedFit {
  league: string;
  date: number;
  home: string;
  away: string;
  /** The results-only fit's calibrated 1X2 and over 2.5, and its expected goals. */
  fit: [number, number, number];
  over: number;
  goals: [number, number];
}

/** The results-only fit's walk-forward predictions of every match of the seasons `from` to `to`. */
export async function recordFits(dir: string, from: string, to: string): Promise<RecordedFit[]> {
  const settings = { ...DEFAULT_SETTINGS, market: null };
  const recorded: RecordedFit[] = [];
  const tested = seasonsBetween(from, to);
  const training = seasonsBetween(tested[0]!, tested[0]!, -4, -1);
  for (const league of PROTOCOL_LEAGUES) {
    const train = (await loadEvaluationFiles(leagueFiles(dir, league, training))).flatMap(
      (file) => file.matches,
    );
    const test = (await loadEvaluationFiles(leagueFiles(dir, league, tested))).flatMap(
      (file) => file.matches,
    );
    walkForward(train, test, {
      fit(history, asOf, previous) {
        const model = fitModel(history, asOf, settings, previous);
        return {
          ratings: model.ratings,
          predict(home, away, options) {
            const prediction = model.predict(home, away, options);
            const { oneXTwo, overUnder25, expectedGoals } = prediction.markets;
            recorded.push({
              league,
              date: asOf,
              home,
              away,
              fit: [oneXTwo.home, oneXTwo.draw, oneXTwo.away],
              over: overUnder25.over,
              goals: [expectedGoals.home, expectedGoals.away],
            });
            return prediction;
          },
        } satisfies FittedModel;
      },
    });
    process.stderr.write(`results-only fit recorded: ${league}, ${recorded.length} matches so far\n`);
  }
  return recorded;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [dir, from, to] = process.argv.slice(2);
  if (!dir || !from || !to) throw new Error('usage: record-fit.ts <data dir> <first season> <last season>');
  process.stdout.write(JSON.stringify(await recordFits(dir, from, to)));
}
