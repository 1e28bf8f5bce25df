// The evaluation of the engine, as the CLI's `evaluate` runs it: walk-forward over result files
// (the model refitted before each match day on everything earlier), scored beside a naive baseline
// and the bookmaker's closing odds, which a match is scored against and never predicted from (earlier
// matches' odds train the market rating; `--prematch-odds` adds each match's own pre-match
// odds as an input). It reads CSV files of any results layout and needs no database: a published
// interface of the football module beside its service. `forecastsOf` is the forecasts file.
import {
  type DetailedReport,
  defaultForecaster,
  type ScoredMatch,
  summarise,
  walkForward,
} from '../../engine/evaluation.js';
import { DEFAULT_SETTINGS, MODEL_VERSIONS, type ModelSettings } from '../../engine/model.js';
import { evaluationPlot } from '../../engine/plot.js';
import { evaluateCups, partitionCupFiles } from './cup-evaluation.js';
import {
  type LoadedFile,
  loadEvaluationFiles,
  PROTOCOL_BLOCKS,
  PROTOCOL_LEAGUES,
  type ProtocolBlock,
  protocolFiles,
} from './evaluation-data.js';
import { type ForecastLine, forecastDate, forecastsCsv } from './forecasts-csv.js';

export type { DetailedReport, GroupScores, Scores } from '../../engine/evaluation.js';
export { PROTOCOL_BLOCKS, PROTOCOL_LEAGUES, type ProtocolBlock };

export type EvaluationFiles =
  | { train: string[]; test: string[] }
  | { data: string; blocks: ProtocolBlock[]; leagues?: string[] | undefined };

export interface Evaluation {
  report: DetailedReport;
  /** Every test match with its forecasts (for the plot and the forecasts file), priced or not. */
  scored: ScoredMatch[];
  files: LoadedFile[];
  trainMatches: number;
}

/** The model versions `evaluate --model` knows (the shipped one and the earlier ones). */
export const MODEL_VERSION_NAMES = Object.keys(MODEL_VERSIONS);

/** A version's settings (the shipped one by default) overridden by a JSON object (experiments). */
export function settingsFrom(json: string | undefined, model?: string): ModelSettings {
  let base = DEFAULT_SETTINGS;
  if (model !== undefined) {
    const named = MODEL_VERSIONS[model];
    if (!named) throw new Error(`unknown --model ${model} (known: ${MODEL_VERSION_NAMES.join(', ')})`);
    base = named;
  }
  if (!json) return base;
  const overrides = JSON.parse(json) as Partial<ModelSettings>;
  if (typeof overrides !== 'object' || overrides === null)
    throw new Error('--settings must be a JSON object');
  return { ...base, ...overrides };
}

export async function evaluate(
  files: EvaluationFiles,
  settings: ModelSettings,
  onProgress?: (done: number, total: number) => void,
  options: { prematchOdds?: boolean } = {},
): Promise<Evaluation> {
  let trainFiles: string[];
  let testFiles: string[];
  let blockOf: Map<string, string> | undefined;
  if ('data' in files) {
    const unknown = files.blocks.filter((block) => !(block in PROTOCOL_BLOCKS));
    if (unknown.length > 0) throw new Error(`unknown --block ${unknown.join(', ')}`);
    const protocol = protocolFiles(files.data, files.blocks, files.leagues);
    trainFiles = protocol.train;
    testFiles = protocol.test;
    blockOf = protocol.blockOf;
  } else {
    trainFiles = files.train;
    testFiles = files.test;
  }
  // European cup files (either format) go to the one-scale rating; the others to the league model.
  const [trainCups, testCups] = [await partitionCupFiles(trainFiles), await partitionCupFiles(testFiles)];
  const train = await loadEvaluationFiles(trainCups.others);
  const test = await loadEvaluationFiles(testCups.others);
  const trainMatches = train.flatMap((file) => file.matches);
  const testMatches = test.flatMap((file) => file.matches);
  if (blockOf) for (const match of testMatches) match.block = blockOf.get(match.season ?? '') ?? null;
  const cupScored = evaluateCups([...trainMatches, ...testMatches], trainCups.cups, testCups.cups);
  if (testMatches.length === 0 && cupScored.length === 0) throw new Error('no test match could be read');
  let scored = [
    ...(testMatches.length > 0
      ? walkForward(trainMatches, testMatches, defaultForecaster(settings), onProgress, options)
      : []),
    ...cupScored,
  ];
  // In a protocol run, seasons between two asked blocks are walked through but not reported.
  if (blockOf) scored = scored.filter((match) => match.block !== null);
  const cupFiles = [...trainCups.cups, ...testCups.cups].map(({ file, skipped }) => ({
    file,
    format: 'cup' as const,
    matches: [],
    skipped,
  }));
  return {
    report: summarise(scored),
    scored,
    files: [...train, ...test, ...cupFiles],
    trainMatches: trainMatches.length,
  };
}

/** A reliability diagram and a per-season ratio chart, as SVG. */
export function plotOf(evaluation: Evaluation): string {
  return evaluationPlot(evaluation.scored);
}

/**
 * Every test match's forecast as the forecasts file lists them: in date order, then by
 * competition code, then in the test files' order (the walk-forward's own order, day by day).
 */
export function forecastLines(evaluation: Evaluation): ForecastLine[] {
  return [...evaluation.scored]
    .sort((a, b) => a.date - b.date)
    .map((match) => ({
      date: forecastDate(match.date),
      competition: match.league,
      homeTeam: match.home,
      awayTeam: match.away,
      pHome: match.engine[0],
      pDraw: match.engine[1],
      pAway: match.engine[2],
    }));
}

/** The forecasts file (`evaluate --forecasts`): `date,competition,home_team,away_team,p_home,p_draw,p_away`. */
export function forecastsOf(evaluation: Evaluation): string {
  return forecastsCsv(forecastLines(evaluation));
}

export { forecastsCsv } from './forecasts-csv.js';
// The national teams' evaluation (issue 52), published with the leagues' for the CLI's `evaluate`.
export { evaluateInternational, isInternationalFile } from './international-evaluation.js';
