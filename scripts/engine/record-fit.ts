// Records the results-only fit's walk-forward predictions (the `dixon-coles-3` part of the
// engine) for every match of the seasons asked, each league walked from the four seasons before
// the first, so the cheap market rating and pooling settings can be fitted on them
// (`fit-market.ts`) without refitting Dixon–Coles for every candidate. The walk-forward is the
// CLI's own (`walkForward` with `fitModel`, market rating off).
//
//   nice -n 10 npx tsx scripts/engine/record-fit.ts ../shared/data/football 2008-09 2019-20 > fit.json
// `RESULTS='<json>'` records it with other settings of the results-only fit (fit-market.ts reads
// the same variable: the switch that shows how much those settings matter).
import { pathToFileURL } from 'node:url';
import { walkForward } from '../../src/engine/evaluation.js';
import { DEFAULT_SETTINGS, type FittedModel, fitModel, type ModelSettings } from '../../src/engine/model.js';
import { MAX_GOALS, type ScoreMatrix } from '../../src/engine/score-matrix.js';
import { PROTOCOL_LEAGUES } from '../../src/modules/football/evaluation-data.js';
import { leagueMatches, seasonsBetween } from './seasons.js';

export interface RecordedFit {
  league: string;
  date: number;
  home: string;
  away: string;
  /** The results-only fit's calibrated 1X2 and over 2.5, and its expected goals. */
  fit: [number, number, number];
  over: number;
  goals: [number, number];
  /**
   * The fit's score matrix (calibrated, before any pooling), scores 0 to RECORDED_GOALS a side,
   * row-major by home goals, rounded to 1e-6: what BTTS and the exact score are read from.
   */
  matrix?: number[];
}

/** Goals a side the recorded matrix keeps (beyond it, under 0.1 % of a match's mass). */
export const RECORDED_GOALS = 8;

/** The recorded matrix as the engine's (zeros beyond RECORDED_GOALS, renormalised); null if absent. */
export function recordedMatrix(fit: RecordedFit): ScoreMatrix | null {
  if (!fit.matrix) return null;
  const size = MAX_GOALS + 1;
  const p = new Float64Array(size * size);
  let total = 0;
  for (let x = 0; x <= RECORDED_GOALS; x++)
    for (let y = 0; y <= RECORDED_GOALS; y++) {
      const value = fit.matrix[x * (RECORDED_GOALS + 1) + y] ?? 0;
      p[x * size + y] = value;
      total += value;
    }
  for (let i = 0; i < p.length; i++) p[i] = p[i]! / total;
  return { p, size, lambda: fit.goals[0], mu: fit.goals[1] };
}

/** The results-only fit's walk-forward predictions of every match of the seasons `from` to `to`. */
export async function recordFits(
  dir: string,
  from: string,
  to: string,
  overrides: Partial<ModelSettings> = {},
  leagues: readonly string[] = PROTOCOL_LEAGUES,
): Promise<RecordedFit[]> {
  const settings: ModelSettings = { ...DEFAULT_SETTINGS, ...overrides, market: null };
  const recorded: RecordedFit[] = [];
  const tested = seasonsBetween(from, to);
  const training = seasonsBetween(tested[0]!, tested[0]!, -4, -1);
  for (const league of leagues) {
    const train = await leagueMatches(dir, league, training);
    const test = await leagueMatches(dir, league, tested);
    walkForward(train, test, {
      fit(history, asOf, previous) {
        const model = fitModel(history, asOf, settings, previous);
        return {
          ratings: model.ratings,
          predict(home, away, options) {
            const prediction = model.predict(home, away, options);
            const { oneXTwo, overUnder25, expectedGoals } = prediction.markets;
            const { p, size } = prediction.matrix;
            const matrix: number[] = [];
            for (let x = 0; x <= RECORDED_GOALS; x++)
              for (let y = 0; y <= RECORDED_GOALS; y++) matrix.push(Math.round(p[x * size + y]! * 1e6) / 1e6);
            recorded.push({
              league,
              date: asOf,
              home,
              away,
              fit: [oneXTwo.home, oneXTwo.draw, oneXTwo.away],
              over: overUnder25.over,
              goals: [expectedGoals.home, expectedGoals.away],
              matrix,
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
  const overrides = JSON.parse(process.env.RESULTS ?? '{}') as Partial<ModelSettings>;
  process.stdout.write(JSON.stringify(await recordFits(dir, from, to, overrides)));
}
