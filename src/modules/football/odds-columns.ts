// Which football-data.co.uk columns hold which bookmaker odds. The files carry two views of the
// market: odds taken days before kick-off (pre-match) and at kick-off (closing). They are kept in
// two groups that never borrow from each other: closing odds are what the engine is scored
// against, so a closing value read as pre-match would leak the answer into the model's input.
// Fixture files (upcoming matches) carry only the pre-match columns.
import type { PrematchOdds } from '../../engine/types.js';

export type Triple = [home: number, draw: number, away: number];
export type Pair = [over: number, under: number];
export type Sides = [home: number, away: number];

/**
 * The Asian handicap market: `line` is the home side's handicap in goals (−0.5: the home side
 * gives half a goal), the prices are on the home side covering it and on the away side.
 */
export interface AsianHandicap {
  line: number;
  pinnacle: Sides | null;
  average: Sides | null;
}

/** One view of the market: 1X2, over/under 2.5 and Asian handicap, Pinnacle's and the market average. */
export interface OddsGroup {
  pinnacle: Triple | null;
  average: Triple | null;
  overUnderPinnacle: Pair | null;
  overUnderAverage: Pair | null;
  asianHandicap: AsianHandicap | null;
}

export interface MarketOdds {
  prematch: OddsGroup;
  closing: OddsGroup;
}

type ColumnSets = {
  [K in Exclude<keyof OddsGroup, 'asianHandicap'>]: readonly (readonly string[])[];
} & {
  /** One set per era: its line column and its price pairs (a handicap's prices mean nothing on another line). */
  asianHandicap: ReadonlyArray<{
    line: string;
    pinnacle: readonly [string, string] | null;
    average: readonly [string, string];
  }>;
};

/**
 * Column names per group, the current spelling first. Until 2018-19 the market average and
 * maximum came from BetBrain (`BbAv…`, `BbMx…`), taken when the file was written, days before the
 * match: pre-match. The closing columns (`…C…`) start in 2012-13 for Pinnacle and in 2019-20
 * for the average and the over/under.
 */
const PREMATCH_COLUMNS: ColumnSets = {
  pinnacle: [['PSH', 'PSD', 'PSA']],
  average: [
    ['AvgH', 'AvgD', 'AvgA'],
    ['BbAvH', 'BbAvD', 'BbAvA'],
  ],
  overUnderPinnacle: [['P_2_5', 'P_2_5_1']],
  overUnderAverage: [
    ['Avg_2_5', 'Avg_2_5_1'],
    ['BbAv_2_5', 'BbAv_2_5_1'],
  ],
  // From 2019-20 the market's line with Pinnacle's and the average's prices; before, BetBrain's
  // line and average (no Pinnacle).
  asianHandicap: [
    { line: 'AHh', pinnacle: ['PAHH', 'PAHA'], average: ['AvgAHH', 'AvgAHA'] },
    { line: 'BbAHh', pinnacle: null, average: ['BbAvAHH', 'BbAvAHA'] },
  ],
};

const CLOSING_COLUMNS: ColumnSets = {
  pinnacle: [['PSCH', 'PSCD', 'PSCA']],
  average: [['AvgCH', 'AvgCD', 'AvgCA']],
  overUnderPinnacle: [['PC_2_5', 'PC_2_5_1']],
  overUnderAverage: [['AvgC_2_5', 'AvgC_2_5_1']],
  asianHandicap: [{ line: 'AHCh', pinnacle: ['PCAHH', 'PCAHA'], average: ['AvgCAHH', 'AvgCAHA'] }],
};

/** Every closing column name: what a leak test poisons, and what a pre-match reader never opens. */
export const CLOSING_COLUMN_NAMES: readonly string[] = [
  ...[
    CLOSING_COLUMNS.pinnacle,
    CLOSING_COLUMNS.average,
    CLOSING_COLUMNS.overUnderPinnacle,
    CLOSING_COLUMNS.overUnderAverage,
  ].flat(2),
  ...CLOSING_COLUMNS.asianHandicap.flatMap((set) => [set.line, ...(set.pinnacle ?? []), ...set.average]),
];

/** `PC>2.5` and `PC_2_5` name the same column; so do `PC<2.5` and `PC_2_5_1`. */
export function canonicalColumn(name: string): string {
  return name
    .trim()
    .replace(/>2\.5$/, '_2_5')
    .replace(/<2\.5$/, '_2_5_1');
}

/** A decimal odd, or null when empty, unreadable or not above 1 (a price of 1 pays nothing). */
export function readOdd(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const number = Number(text.trim());
  return Number.isFinite(number) && number > 1 ? number : null;
}

/** A handicap line in goals (any sign, quarter goals), or null when empty or unreadable. */
export function readLine(text: string | undefined): number | null {
  if (text === undefined || text.trim() === '') return null;
  const number = Number(text.trim());
  return Number.isFinite(number) && Number.isInteger(number * 4) ? number : null;
}

function readGroup(sets: ColumnSets, get: (column: string) => string | undefined): OddsGroup {
  // The first spelling whose columns are all readable; a half-filled set counts as absent.
  const first = (candidates: readonly (readonly string[])[]) => {
    for (const columns of candidates) {
      const values = columns.map((column) => readOdd(get(column)));
      if (values.every((value) => value !== null)) return values as number[];
    }
    return null;
  };
  return {
    pinnacle: first(sets.pinnacle) as Triple | null,
    average: first(sets.average) as Triple | null,
    overUnderPinnacle: first(sets.overUnderPinnacle) as Pair | null,
    overUnderAverage: first(sets.overUnderAverage) as Pair | null,
    asianHandicap: readAsianHandicap(sets.asianHandicap, get),
  };
}

/** The first era's set with a readable line and at least one complete pair of prices. */
function readAsianHandicap(
  sets: ColumnSets['asianHandicap'],
  get: (column: string) => string | undefined,
): AsianHandicap | null {
  const pair = (columns: readonly [string, string] | null): Sides | null => {
    if (!columns) return null;
    const home = readOdd(get(columns[0]));
    const away = readOdd(get(columns[1]));
    return home !== null && away !== null ? [home, away] : null;
  };
  for (const set of sets) {
    const line = readLine(get(set.line));
    if (line === null) continue;
    const pinnacle = pair(set.pinnacle);
    const average = pair(set.average);
    if (pinnacle || average) return { line, pinnacle, average };
  }
  return null;
}

/** Reads only the pre-match columns (a fixture file, or a test match's input). */
export function readPrematchOdds(get: (column: string) => string | undefined): OddsGroup {
  return readGroup(PREMATCH_COLUMNS, get);
}

/** Reads both groups of a row; `get` takes a canonical column name (see `canonicalColumn`). */
export function readMarketOdds(get: (column: string) => string | undefined): MarketOdds {
  return { prematch: readGroup(PREMATCH_COLUMNS, get), closing: readGroup(CLOSING_COLUMNS, get) };
}

/**
 * A pre-match group as the engine's input (a fixture's stored odds, or a past match's pre-match
 * columns in the evaluation's `--prematch-odds` mode): decimal odds, complete sets only; null
 * when none is complete. The Asian handicap is not an input of a prediction.
 */
export function prematchOddsOf(group: OddsGroup, collectedAt: string): PrematchOdds | null {
  if (!group.pinnacle && !group.average && !group.overUnderPinnacle && !group.overUnderAverage) return null;
  return {
    collected_at: collectedAt,
    ...(group.pinnacle ? { pinnacle: group.pinnacle } : {}),
    ...(group.average ? { average: group.average } : {}),
    ...(group.overUnderPinnacle ? { ou_pinnacle: group.overUnderPinnacle } : {}),
    ...(group.overUnderAverage ? { ou_average: group.overUnderAverage } : {}),
  };
}
