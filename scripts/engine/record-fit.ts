// Records the results-only fit's walk-forward predictions (the `dixon-coles-3` part of the engine)
// over protocol blocks, so the cheap market-rating and pooling settings can be tuned on them
// without refitting Dixon–Coles for every candidate. The walk-forward is the CLI's own
// (`walkForward` with `fitModel`, market rating off); each prediction is stored with its match.
//
//   nice -n 10 npx tsx scripts/engine/record-fit.ts ../shared/data/football tune validation > fit.json
import { type EvaluationMatch, walkForward } from '../../src/engine/evaluation.js';
import { DEFAULT_SETTINGS, type FittedModel, fitModel } from '../../src/engine/model.js';
import {
  loadEvaluationFiles,
  type ProtocolBlock,
  protocolFiles,
} from '../../src/modules/football/evaluation-data.js';

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

const [dir, ...blocks] = process.argv.slice(2);
if (!dir || blocks.length === 0) throw new Error('usage: record-fit.ts <data dir> <block…>');
const protocol = protocolFiles(dir, blocks as ProtocolBlock[]);
const train = (await loadEvaluationFiles(protocol.train)).flatMap((file) => file.matches);
const test = (await loadEvaluationFiles(protocol.test)).flatMap((file) => file.matches);
const settings = { ...DEFAULT_SETTINGS, market: null };
const recorded: RecordedFit[] = [];
const byLeague = new Map<string, EvaluationMatch[]>();
for (const match of test) byLeague.set(match.league, [...(byLeague.get(match.league) ?? []), match]);
walkForward(
  train,
  test,
  {
    fit(history, asOf, previous) {
      const model = fitModel(history, asOf, settings, previous);
      const league = test.find((match) => match.home === history.at(-1)?.home)?.league ?? '';
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
  },
  (done, total) => {
    if (done % 500 === 0) process.stderr.write(`${done}/${total}\n`);
  },
);
process.stdout.write(JSON.stringify(recorded));
