// Which football-data.co.uk columns hold which bookmaker odds. The files carry two views of the
// market: odds taken days before kick-off (pre-match) and at kick-off (closing). They are kept in
// two groups that never borrow from each other: closing odds are what the engine is scored
// against, so a closing value read as pre-match would leak the answer into the model's input.
// Fixture files (upcoming matches) carry only the pre-match columns.

export type Triple = [home: number, draw: number, away: number];
export type Pair = [over: number, under: number];

/** One view of the market: 1X2 and over/under 2.5, Pinnacle's and the market average. */
export interface OddsGroup {
  pinnacle: Triple | null;
  average: Triple | null;
  overUnderPinnacle: Pair | null;
  overUnderAverage: Pair | null;
}

export interface MarketOdds {
  prematch: OddsGroup;
  closing: OddsGroup;
}

type ColumnSets = { [K in keyof OddsGroup]: readonly (readonly string[])[] };

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
};

const CLOSING_COLUMNS: ColumnSets = {
  pinnacle: [['PSCH', 'PSCD', 'PSCA']],
  average: [['AvgCH', 'AvgCD', 'AvgCA']],
  overUnderPinnacle: [['PC_2_5', 'PC_2_5_1']],
  overUnderAverage: [['AvgC_2_5', 'AvgC_2_5_1']],
};

/** Every closing column name: what a leak test poisons, and what a pre-match reader never opens. */
export const CLOSING_COLUMN_NAMES: readonly string[] = Object.values(CLOSING_COLUMNS).flat(2);

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
  };
}

/** Reads only the pre-match columns (a fixture file, or a test match's input). */
export function readPrematchOdds(get: (column: string) => string | undefined): OddsGroup {
  return readGroup(PREMATCH_COLUMNS, get);
}

/** Reads both groups of a row; `get` takes a canonical column name (see `canonicalColumn`). */
export function readMarketOdds(get: (column: string) => string | undefined): MarketOdds {
  return { prematch: readGroup(PREMATCH_COLUMNS, get), closing: readGroup(CLOSING_COLUMNS, get) };
}
