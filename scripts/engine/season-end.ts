// Where a season's end is read worse than the rest, and by whom: each rolling-origin forecast
// (`FORECASTS_OUT` writes a run's) beside the closing and pre-match prices, by days to its
// league's last match day of the season. The spread of ln(pH/pA) between two forecasters says how
// much one knows that the other does not: the closing price against the pre-match price is what
// arrives in the last days (team news), the pre-match price against the engine what was public
// days before kick-off and not in the engine's inputs.
import { type Probabilities3, rps } from '../../src/engine/evaluation.js';
import type { Forecast } from './pools.js';

/** One match's forecasts beside its prices and result, as `FORECASTS_OUT` writes them. */
export interface ForecastLine {
  league: string;
  season: string;
  date: number;
  home: string;
  away: string;
  outcome: 0 | 1 | 2;
  engine: Probabilities3;
  book: Probabilities3;
  pre: Probabilities3 | null;
  fit: Probabilities3;
  /** The market rating's own 1X2, before pooling (null: the league had no fresh rating). */
  market: Probabilities3 | null;
  /** +1: only the home side still plays for something; −1: only the away side; else 0. */
  stake: number;
}

export function forecastLine({ row, oneXTwo }: Forecast): ForecastLine {
  return {
    league: row.league,
    season: row.season,
    date: row.date,
    home: row.home,
    away: row.away,
    outcome: row.outcome,
    engine: oneXTwo,
    book: row.book,
    pre: row.pre,
    fit: row.fit,
    market: row.market?.oneXTwo ?? null,
    stake: row.stake,
  };
}

const DAY_MS = 86_400_000;
/** The blocks by days to the league's last match day: that day, the week before, the three before, the rest. */
const BLOCKS = [
  { name: 'last day', upTo: 0 },
  { name: '1-7 days', upTo: 7 },
  { name: '8-28 days', upTo: 28 },
  { name: 'the rest', upTo: Number.POSITIVE_INFINITY },
] as const;

const logRatio = (p: Probabilities3) => Math.log(Math.max(p[0], 1e-6) / Math.max(p[2], 1e-6));

/** Root mean square of ln(pH/pA) between two forecasters over the lines. */
function spread(
  lines: readonly ForecastLine[],
  a: (line: ForecastLine) => Probabilities3,
  b: (line: ForecastLine) => Probabilities3,
): number {
  const sum = lines.reduce((total, line) => total + (logRatio(a(line)) - logRatio(b(line))) ** 2, 0);
  return Math.sqrt(sum / lines.length);
}

/** Σ RPS of `forecast` over Σ RPS of the closing price, on the lines. */
function ratio(lines: readonly ForecastLine[], forecast: (line: ForecastLine) => Probabilities3): number {
  const closing = lines.reduce((total, line) => total + rps(line.book, line.outcome), 0);
  return lines.reduce((total, line) => total + rps(forecast(line), line.outcome), 0) / closing;
}

/**
 * Lines grouped by days to the last match day of their league's season (the latest date of that
 * league and season among the lines), read on the matches with a pre-match price and a rating.
 */
export function seasonEndReport(lines: readonly ForecastLine[]): string[] {
  const lastDay = new Map<string, number>();
  for (const line of lines) {
    const key = `${line.league}|${line.season}`;
    lastDay.set(key, Math.max(lastDay.get(key) ?? line.date, line.date));
  }
  const read = lines.filter((line) => line.pre && line.market);
  const blockOf = (line: ForecastLine) => {
    const days = Math.round((lastDay.get(`${line.league}|${line.season}`)! - line.date) / DAY_MS);
    return BLOCKS.findIndex((block) => days <= block.upTo);
  };
  const report = [
    'days to the last match day  matches  RPS ratio: engine  rating  pre-match   spread of ln(pH/pA): closing-engine  closing-rating  closing-pre  pre-engine',
  ];
  const figure = (value: number) => value.toFixed(4);
  const pre = (line: ForecastLine) => line.pre!;
  const market = (line: ForecastLine) => line.market!;
  const book = (line: ForecastLine) => line.book;
  const engine = (line: ForecastLine) => line.engine;
  BLOCKS.forEach((block, index) => {
    const inBlock = read.filter((line) => blockOf(line) === index);
    if (inBlock.length === 0) return;
    report.push(
      [
        block.name.padEnd(27),
        String(inBlock.length).padStart(7),
        figure(ratio(inBlock, engine)).padStart(18),
        figure(ratio(inBlock, market)).padStart(7),
        figure(ratio(inBlock, pre)).padStart(10),
        figure(spread(inBlock, book, engine)).padStart(39),
        figure(spread(inBlock, book, market)).padStart(15),
        figure(spread(inBlock, book, pre)).padStart(12),
        figure(spread(inBlock, pre, engine)).padStart(11),
      ].join(' '),
    );
  });
  return report;
}
