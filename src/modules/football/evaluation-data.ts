// Turns result files into evaluation matches: the played match for the model, the bookmaker's
// margin-free probabilities beside it (Pinnacle closing, else the market average) for scoring only.
// Any of the three layouts import reads (result-formats.ts), with the same reader and decoding:
// a results-only file takes its league from its name, and has no bookmaker to score.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type EvaluationMatch, impliedProbabilities, type Probabilities3 } from '../../engine/evaluation.js';
import { marginFree } from '../../engine/margin.js';
import type { MatchMarket, PrematchOdds } from '../../engine/types.js';
import { decodeResults } from './import.js';
import { type AsianHandicap, type MarketOdds, prematchOddsOf, type Triple } from './odds-columns.js';
import { fileLeagueSeason, type ResultsFormat } from './result-formats.js';
import { parseResultsCsv, type ResultRow, type SkippedRow } from './results-csv.js';

/**
 * The market's view of a match once it is history (the market rating's input): closing odds
 * where the file has them, else pre-match, Pinnacle before the average, margins removed by the
 * power method (see engine/margin.ts). The one reading of a past match's odds, for result files
 * and stored matches alike. Never read for the match's own prediction: the fit takes only matches
 * before the predicted day.
 */
export function pastMarketOf(market: MarketOdds): MatchMarket | null {
  const { closing, prematch } = market;
  const closingOneXTwo = closing.pinnacle ?? closing.average;
  const prematchOneXTwo = prematch.pinnacle ?? prematch.average;
  const oneXTwo = pastOneXTwoOdds(market);
  if (!oneXTwo) return null;
  const overUnder =
    closing.overUnderPinnacle ??
    closing.overUnderAverage ??
    prematch.overUnderPinnacle ??
    prematch.overUnderAverage;
  return {
    oneXTwo: marginFree(oneXTwo),
    overUnder: overUnder ? marginFree(overUnder) : null,
    asianHandicap: handicapOf(closing.asianHandicap) ?? handicapOf(prematch.asianHandicap),
    // How the price moved before kick-off: only beside a closing 1X2 (a pre-match one is its own).
    prematchOneXTwo: closingOneXTwo && prematchOneXTwo ? marginFree(prematchOneXTwo) : null,
  };
}

/**
 * A past match's 1X2 odds in the one order of precedence: closing before pre-match, Pinnacle
 * before the market average (the rating's input, and the track record's market calibration).
 */
export function pastOneXTwoOdds({ closing, prematch }: MarketOdds): Triple | null {
  return closing.pinnacle ?? closing.average ?? prematch.pinnacle ?? prematch.average;
}

/** A handicap line with the margin-free probability that the home side covers it. */
function handicapOf(handicap: AsianHandicap | null): { line: number; home: number } | null {
  const prices = handicap?.pinnacle ?? handicap?.average;
  return handicap && prices ? { line: handicap.line, home: marginFree(prices)[0] } : null;
}

export function toEvaluationMatch(row: ResultRow): EvaluationMatch {
  // The yardstick the engine is scored against (Pinnacle closing, else the average), with the
  // margin removed proportionally: the outside evaluation compares against exactly these figures,
  // so they must not move with the rating's inputs (which use the power method, above).
  const oneXTwo = row.odds.pinnacleClosing ?? row.odds.average;
  const overUnder = row.odds.overUnderPinnacleClosing ?? row.odds.overUnderAverage;
  return {
    league: row.league,
    date: row.timestamp,
    home: row.homeTeam,
    away: row.awayTeam,
    ...(row.written ? { written: row.written } : {}),
    homeGoals: row.homeGoals,
    awayGoals: row.awayGoals,
    homeShotsOnTarget: row.homeShotsOnTarget,
    awayShotsOnTarget: row.awayShotsOnTarget,
    homeShots: row.homeShots,
    awayShots: row.awayShots,
    homeCorners: row.homeCorners,
    awayCorners: row.awayCorners,
    bookmaker: oneXTwo ? impliedProbabilities<Probabilities3>([...oneXTwo]) : null,
    bookmakerOverUnder: overUnder ? impliedProbabilities<[number, number]>([...overUnder]) : null,
    season: row.season,
    market: pastMarketOf(row.market),
    prematchOdds: prematchOddsOf(row.market.prematch, row.date),
  };
}

export interface LoadedFile {
  file: string;
  format: ResultsFormat | 'cup';
  matches: EvaluationMatch[];
  skipped: SkippedRow[];
}

/**
 * Result files of any layout, as import reads them (Windows-1252 files decoded the same way); a
 * file without a league column (results only) is named by its file (`SC1-2015-16.csv`), else
 * its rows are skipped with the reason.
 */
export async function loadEvaluationFiles(files: readonly string[]): Promise<LoadedFile[]> {
  const loaded: LoadedFile[] = [];
  for (const file of files) {
    const league = fileLeagueSeason(basename(file))?.league;
    const parsed = parseResultsCsv(decodeResults(await readFile(file)), league ? { league } : {});
    loaded.push({
      file: basename(file),
      format: parsed.format,
      matches: parsed.rows.map(toEvaluationMatch),
      skipped: parsed.skipped,
    });
  }
  return loaded;
}

/**
 * The honest protocol (docs/engine/protocol.md): settings are tuned on seasons up to 2015-16, chosen on the
 * validation block, and the final block is reported once, never used to choose anything.
 */
export const PROTOCOL_BLOCKS = {
  tune: ['2013-14', '2014-15', '2015-16'],
  validation: ['2016-17', '2017-18'],
  final: ['2018-19', '2019-20'],
} as const;
export type ProtocolBlock = keyof typeof PROTOCOL_BLOCKS;
export const PROTOCOL_LEAGUES = ['E0', 'SP1', 'D1', 'I1', 'F1'] as const;
/** Seasons of training data before the first predicted one: the fit's window is four years. */
const TRAINING_SEASONS = 4;

function shiftSeason(season: string, by: number): string {
  const start = Number(season.slice(0, 4)) + by;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

export interface ProtocolFiles {
  train: string[];
  test: string[];
  /** Season → block, for the seasons reported. */
  blockOf: Map<string, ProtocolBlock>;
}

/**
 * The files of a protocol run in `dir` (`<league>-<season>.csv`, else
 * `results-only/<league>-<season>.csv`): the walk-forward starts at the earliest block asked for,
 * trained on the four seasons before it, and runs to the latest one; the seasons in between are
 * predicted too but reported only if their block was asked for.
 */
export function protocolFiles(
  dir: string,
  blocks: readonly ProtocolBlock[],
  leagues: readonly string[] = PROTOCOL_LEAGUES,
): ProtocolFiles {
  const order: ProtocolBlock[] = ['tune', 'validation', 'final'];
  const asked = order.filter((block) => blocks.includes(block));
  if (asked.length === 0) throw new Error('no protocol block asked for');
  const seasons = order
    .slice(order.indexOf(asked[0]!), order.indexOf(asked.at(-1)!) + 1)
    .flatMap((block) => [...PROTOCOL_BLOCKS[block]]);
  const first = seasons[0]!;
  const training = Array.from({ length: TRAINING_SEASONS }, (_, i) =>
    shiftSeason(first, i - TRAINING_SEASONS),
  );
  const root = dir.replace(/\/+$/, '');
  // A season without an odds file is read from `results-only/` (forecast, not scored against a price).
  const file = (league: string, season: string) => {
    const main = `${root}/${league}-${season}.csv`;
    const resultsOnly = `${root}/results-only/${league}-${season}.csv`;
    return !existsSync(main) && existsSync(resultsOnly) ? resultsOnly : main;
  };
  const blockOf = new Map<string, ProtocolBlock>();
  for (const block of asked) for (const season of PROTOCOL_BLOCKS[block]) blockOf.set(season, block);
  return {
    // Earlier seasons a league lacks are simply not there to train on; a reported one must exist.
    train: leagues.flatMap((league) => training.map((season) => file(league, season))).filter(existsSync),
    test: leagues.flatMap((league) => seasons.map((season) => file(league, season))),
    blockOf,
  };
}

const isOdd = (value: unknown): value is number =>
  typeof value === 'number' && Number.isFinite(value) && value > 1;
const oddsList = (value: unknown, length: number): number[] | undefined =>
  Array.isArray(value) && value.length === length && value.every(isOdd) ? [...value] : undefined;

/**
 * A fixture's pre-match odds as an analysis input carries them (`prematchOdds`), kept only when
 * well formed: decimal odds above 1, three for 1X2, two for over/under. Anything else is ignored,
 * and the analysis runs without them (`data_quality.odds` is then `market` or `none`).
 */
export function prematchOddsFrom(value: unknown): PrematchOdds | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const raw = value as Record<string, unknown>;
  const pinnacle = oddsList(raw.pinnacle, 3) as [number, number, number] | undefined;
  const average = oddsList(raw.average, 3) as [number, number, number] | undefined;
  const ouPinnacle = oddsList(raw.ou_pinnacle, 2) as [number, number] | undefined;
  const ouAverage = oddsList(raw.ou_average, 2) as [number, number] | undefined;
  if (!pinnacle && !average && !ouPinnacle && !ouAverage) return undefined;
  return {
    collected_at: typeof raw.collected_at === 'string' ? raw.collected_at : '',
    ...(pinnacle ? { pinnacle } : {}),
    ...(average ? { average } : {}),
    ...(ouPinnacle ? { ou_pinnacle: ouPinnacle } : {}),
    ...(ouAverage ? { ou_average: ouAverage } : {}),
  };
}
