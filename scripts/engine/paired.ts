// Paired comparisons of the rolling origin's forecasts, match days resampled (src/engine/bootstrap.ts):
// the engine against the naive baseline, the results-only fit and Pinnacle's pre-match price, by
// month; and one run against another (`SCORES_OUT` writes a run's per-match losses, `compare` reads
// two), each as a gap of ratios to Pinnacle's closing RPS on the matches both forecast; and runs
// split by folds or leagues read as one (`pool`).
import { readFileSync } from 'node:fs';
import { dayClusteredRatio, pairedRatioGap } from '../../src/engine/bootstrap.js';
import { logLoss, rps } from '../../src/engine/evaluation.js';
import type { Forecast } from './pools.js';

/** One match's losses: every forecaster's RPS (null where it had nothing), over/under log-losses. */
export interface MatchLosses {
  key: string;
  league: string;
  date: number;
  engine: number;
  book: number;
  naive: number;
  fit: number;
  pre: number | null;
  ouEngine: number | null;
  ouBook: number | null;
}

export function lossesOf({ row, oneXTwo, over }: Forecast): MatchLosses {
  const side = row.over ? 0 : 1;
  return {
    key: `${row.league}|${row.date}|${row.home}|${row.away}`,
    league: row.league,
    date: row.date,
    engine: rps(oneXTwo, row.outcome),
    book: rps(row.book, row.outcome),
    naive: rps(row.baseline, row.outcome),
    fit: rps(row.fit, row.outcome),
    pre: row.pre ? rps(row.pre, row.outcome) : null,
    ouEngine: row.bookOver ? logLoss([over, 1 - over], side) : null,
    ouBook: row.bookOver ? logLoss(row.bookOver, side) : null,
  };
}

const figure = (value: number) => value.toFixed(4);

/** "gap (low–high)": (Σ a − Σ b) / Σ yardstick over the matches, match days resampled. */
function gapLine(
  matches: readonly MatchLosses[],
  a: (m: MatchLosses) => number,
  b: (m: MatchLosses) => number,
  yardstick: (m: MatchLosses) => number,
): string {
  const { gap, ci } = pairedRatioGap(
    matches.map((m) => m.date),
    matches.map(a),
    matches.map(b),
    matches.map(yardstick),
  );
  return `${gap >= 0 ? '+' : ''}${figure(gap)} (${figure(ci[0])} to ${figure(ci[1])})`;
}

const monthOf = (m: MatchLosses) => new Date(m.date).toISOString().slice(5, 7);

function byMonth(matches: readonly MatchLosses[]): Map<string, MatchLosses[]> {
  const months = new Map<string, MatchLosses[]>();
  for (const m of matches) months.set(monthOf(m), [...(months.get(monthOf(m)) ?? []), m]);
  return new Map([...months].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** The engine against the naive baseline, the results-only fit, and the pre-match price by month. */
export function pairedReport(matches: readonly MatchLosses[]): string[] {
  const book = (m: MatchLosses) => m.book;
  const priced = matches.filter((m) => m.pre !== null);
  const ratio = (list: readonly MatchLosses[], read: (m: MatchLosses) => number) =>
    list.reduce((sum, m) => sum + read(m), 0) / list.reduce((sum, m) => sum + m.book, 0);
  const lines = [
    "Paired intervals (match days resampled, 95 %), gaps of RPS ratios to Pinnacle's closing price:",
    `  engine − naive baseline        ${gapLine(
      matches,
      (m) => m.engine,
      (m) => m.naive,
      book,
    )}`,
    `  engine − results-only fit      ${gapLine(
      matches,
      (m) => m.engine,
      (m) => m.fit,
      book,
    )}`,
    `  engine − Pinnacle pre-match    ${gapLine(
      priced,
      (m) => m.engine,
      (m) => m.pre!,
      book,
    )}  (${priced.length} matches with it)`,
    'The engine-minus-pre-match gap by calendar month:',
    'month  engine   pre-match  gap (95 %)                     matches',
  ];
  for (const [month, list] of byMonth(priced))
    lines.push(
      `${month}     ${figure(ratio(list, (m) => m.engine))}   ${figure(ratio(list, (m) => m.pre!))}     ${gapLine(
        list,
        (m) => m.engine,
        (m) => m.pre!,
        book,
      ).padEnd(30)} ${list.length}`,
    );
  return lines;
}

/**
 * Run `a` against run `b` (each a file `SCORES_OUT` wrote, one mode), paired on the matches both
 * forecast: the gaps of their RPS and over/under ratios, pooled, per league and per month.
 */
export function compareRuns(fileA: string, fileB: string): string[] {
  const a = JSON.parse(readFileSync(fileA, 'utf8')) as MatchLosses[];
  const b = new Map((JSON.parse(readFileSync(fileB, 'utf8')) as MatchLosses[]).map((m) => [m.key, m]));
  const pairs = a
    .filter((m) => b.has(m.key))
    .map((m) => ({ ...m, other: b.get(m.key)!.engine, otherOu: b.get(m.key)!.ouEngine }));
  type Pair = (typeof pairs)[number];
  const rpsGap = (list: readonly Pair[]) =>
    gapLine(
      list,
      (m) => m.engine,
      (m) => (m as Pair).other,
      (m) => m.book,
    );
  const ouPairs = pairs.filter((m) => m.ouEngine !== null && m.otherOu !== null);
  const lines = [
    `${fileA} − ${fileB}, ${pairs.length} matches in both (negative: the first is better):`,
    `  RPS ratio gap        ${rpsGap(pairs)}`,
    `  over/under gap       ${gapLine(
      ouPairs,
      (m) => m.ouEngine!,
      (m) => (m as Pair).otherOu!,
      (m) => m.ouBook!,
    )}  (${ouPairs.length})`,
  ];
  for (const league of [...new Set(pairs.map((m) => m.league))].sort())
    lines.push(`  ${league.padEnd(18)} ${rpsGap(pairs.filter((m) => m.league === league))}`);
  for (const [month, list] of byMonth(pairs))
    lines.push(`  month ${month}           ${rpsGap(list as Pair[])}`);
  return lines;
}

/** "ratio (low–high)  matches" of Σ engine / Σ Pinnacle's closing RPS, match days resampled. */
function ratioLine(matches: readonly MatchLosses[]): string {
  const engine = matches.reduce((sum, m) => sum + m.engine, 0);
  const book = matches.reduce((sum, m) => sum + m.book, 0);
  const [low, high] = dayClusteredRatio(
    matches.map((m) => m.date),
    matches.map((m) => m.engine),
    matches.map((m) => m.book),
  );
  return `${figure(engine / book)} (${figure(low)}–${figure(high)})  ${matches.length}`;
}

/**
 * Runs split by folds or by leagues (each `SCORES_OUT` file), read as one: the RPS ratio to
 * Pinnacle's closing price pooled, by group (`groups`: a name and its league codes) and by league,
 * each with its interval. A match in two files counts once.
 */
export function poolRuns(
  files: readonly string[],
  groups: ReadonlyArray<[string, readonly string[]]>,
): string[] {
  const byKey = new Map<string, MatchLosses>();
  for (const file of files)
    for (const m of JSON.parse(readFileSync(file, 'utf8')) as MatchLosses[])
      if (!byKey.has(m.key)) byKey.set(m.key, m);
  const matches = [...byKey.values()];
  const lines = [
    `${files.length} runs, ${matches.length} matches: RPS ratio to Pinnacle's closing price (95 %, match days resampled)  matches`,
    `  pooled                  ${ratioLine(matches)}`,
  ];
  for (const [name, codes] of groups) {
    const inGroup = matches.filter((m) => codes.includes(m.league));
    if (inGroup.length > 0) lines.push(`  ${name.padEnd(23)} ${ratioLine(inGroup)}`);
  }
  for (const league of [...new Set(matches.map((m) => m.league))].sort())
    lines.push(`  ${league.padEnd(23)} ${ratioLine(matches.filter((m) => m.league === league))}`);
  return lines;
}
