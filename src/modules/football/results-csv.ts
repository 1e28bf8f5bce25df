// Reads football-data.co.uk result files into typed rows, and says which rows it skipped and why.
// The quirks it absorbs: dates as dd/mm/yy or dd/mm/yyyy, counts written as decimals (`2.0`),
// trailing empty rows, and over/under columns spelled `PC>2.5` or `PC_2_5` (`PC<2.5` or `PC_2_5_1`).
// The extra leagues' country files and the results-only files are read too (result-formats.ts).
import type { OddsColumn } from '../../db/schema/football.js';
import { parseCsv } from './csv.js';
import { type MarketOdds, type OddsGroup, type Pair, readMarketOdds, type Triple } from './odds-columns.js';
import { mainLayout, type ResultsFormat } from './result-formats.js';

export type { Pair, Triple } from './odds-columns.js';
export type { ResultsFormat } from './result-formats.js';

export interface ResultRow {
  /** Line in the file, for reports. */
  line: number;
  league: string;
  season: string;
  /** Match day, `yyyy-mm-dd`. */
  date: string;
  /** Epoch milliseconds of the match day at 00:00 UTC. */
  timestamp: number;
  kickoff: string | null;
  homeTeam: string;
  awayTeam: string;
  /** The names exactly as the file writes them, where that is not the trimmed name (`"Ingolstadt "`). */
  written?: { home: string; away: string };
  homeGoals: number;
  awayGoals: number;
  halfTimeHomeGoals: number | null;
  halfTimeAwayGoals: number | null;
  homeShots: number | null;
  awayShots: number | null;
  homeShotsOnTarget: number | null;
  awayShotsOnTarget: number | null;
  homeCorners: number | null;
  awayCorners: number | null;
  odds: RowOdds;
  /** The market's odds in two groups that never mix: pre-match and closing. */
  market: MarketOdds;
  /** Played on neutral ground (the national teams' file says so; absent: not neutral). */
  neutral?: boolean;
}

/** The scoring view of a row's odds (closing first, the evaluation's benchmark); the model reads `market`. */
export interface RowOdds {
  pinnacleClosing: Triple | null;
  average: Triple | null;
  overUnderPinnacleClosing: Pair | null;
  overUnderAverage: Pair | null;
}

export interface SkippedRow {
  line: number;
  reason: string;
}

export interface ParsedResults {
  rows: ResultRow[];
  skipped: SkippedRow[];
}

export function parseDate(text: string): { date: string; timestamp: number } | null {
  const value = text.trim();
  let day: number;
  let month: number;
  let year: number;
  const dmy = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(value);
  const iso = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (dmy) {
    day = Number(dmy[1]);
    month = Number(dmy[2]);
    year = Number(dmy[3]);
    // Two-digit years: football-data.co.uk starts in 1993, so 93-99 are the 1900s.
    if (dmy[3]!.length === 2) year += year >= 90 ? 1900 : 2000;
  } else if (iso) {
    year = Number(iso[1]);
    month = Number(iso[2]);
    day = Number(iso[3]);
  } else {
    return null;
  }
  const timestamp = Date.UTC(year, month - 1, day);
  const check = new Date(timestamp);
  if (check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) {
    return null;
  }
  return { date: check.toISOString().slice(0, 10), timestamp };
}

/** The season a date falls in, leagues starting in July or later: 2014-08-16 → `2014-15`. */
export function seasonOf(date: string): string {
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const start = month >= 7 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

/** Turns `2025-26` (or `2025/26`, `2526`) into football-data.co.uk's folder `2526`; null if not a season. */
export function seasonFolder(season: string): string | null {
  const long = /^(\d{4})[-/](\d{2}|\d{4})$/.exec(season.trim());
  if (long) {
    const start = Number(long[1]);
    const end = Number(long[2]!.slice(-2));
    if ((start + 1) % 100 !== end) return null;
    return `${String(start % 100).padStart(2, '0')}${String(end).padStart(2, '0')}`;
  }
  const short = /^(\d{2})(\d{2})$/.exec(season.trim());
  if (short && (Number(short[1]) + 1) % 100 === Number(short[2])) return season.trim();
  return null;
}

function count(text: string | undefined): number | null {
  if (text === undefined) return null;
  const value = text.trim();
  if (value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) && number >= 0 && Number.isInteger(number) ? number : null;
}

export function parseResultsCsv(
  text: string,
  options: { league?: string; season?: string } = {},
): ParsedResults & { format: ResultsFormat } {
  const parsedCsv = parseCsv(text);
  const rows: ResultRow[] = [];
  const skipped: SkippedRow[] = [];
  const header = parsedCsv[0];
  if (!header) return { rows, skipped: [{ line: 1, reason: 'empty file' }], format: 'division' };
  const { format, columns, records: body } = mainLayout(parsedCsv);
  const required = ['Date', 'HomeTeam', 'AwayTeam', 'FTHG', 'FTAG'];
  const missing = required.filter((name) => !columns.has(name));
  // Older files name the teams HT/AT.
  if (missing.includes('HomeTeam') && columns.has('HT')) columns.set('HomeTeam', columns.get('HT')!);
  if (missing.includes('AwayTeam') && columns.has('AT')) columns.set('AwayTeam', columns.get('AT')!);
  const stillMissing = required.filter((name) => !columns.has(name));
  if (stillMissing.length > 0) {
    return {
      rows,
      skipped: [{ line: header.line, reason: `missing columns: ${stillMissing.join(', ')}` }],
      format,
    };
  }

  let fileSeason: string | null = null;
  for (const record of body) {
    const get = (name: string): string | undefined => {
      const i = columns.get(name);
      return i === undefined ? undefined : record.fields[i];
    };
    if (record.fields.every((field) => field.trim() === '')) continue;

    const reason = (why: string) => skipped.push({ line: record.line, reason: why });
    if ((get('FTHG') ?? '').trim() === '') {
      reason('no score (match not played)');
      continue;
    }
    const homeGoals = count(get('FTHG'));
    const awayGoals = count(get('FTAG'));
    if (homeGoals === null || awayGoals === null) {
      reason(`unreadable score "${get('FTHG') ?? ''}-${get('FTAG') ?? ''}"`);
      continue;
    }
    const parsedDate = parseDate(get('Date') ?? '');
    if (!parsedDate) {
      reason(`unreadable date "${get('Date') ?? ''}"`);
      continue;
    }
    const [homeWritten, awayWritten] = [get('HomeTeam') ?? '', get('AwayTeam') ?? ''];
    const homeTeam = homeWritten.trim();
    const awayTeam = awayWritten.trim();
    if (homeTeam === '' || awayTeam === '') {
      reason('missing team name');
      continue;
    }
    if (homeTeam.toLowerCase() === awayTeam.toLowerCase()) {
      reason(`same team on both sides ("${homeTeam}")`);
      continue;
    }
    const league = (get('Div') ?? '').trim() || options.league || '';
    if (league === '') {
      reason(
        format === 'extra'
          ? `unknown country "${(get('Country') ?? '').trim()}"`
          : 'no league code (Div column or file name)',
      );
      continue;
    }
    const seasonColumn = (get('Season') ?? '').trim();
    fileSeason ??= options.season ?? seasonOf(parsedDate.date);
    const market = readMarketOdds(get);
    const kickoff = (get('Time') ?? '').trim();
    rows.push({
      line: record.line,
      league,
      season: /^\d{4}(?:-\d{2})?$/.test(seasonColumn) ? seasonColumn : fileSeason,
      date: parsedDate.date,
      timestamp: parsedDate.timestamp,
      kickoff: /^\d{1,2}:\d{2}$/.test(kickoff) ? kickoff : null,
      homeTeam,
      awayTeam,
      ...(homeWritten !== homeTeam || awayWritten !== awayTeam
        ? { written: { home: homeWritten, away: awayWritten } }
        : {}),
      homeGoals,
      awayGoals,
      halfTimeHomeGoals: count(get('HTHG')),
      halfTimeAwayGoals: count(get('HTAG')),
      homeShots: count(get('HS')),
      awayShots: count(get('AS')),
      homeShotsOnTarget: count(get('HST')),
      awayShotsOnTarget: count(get('AST')),
      homeCorners: count(get('HC')),
      awayCorners: count(get('AC')),
      odds: {
        pinnacleClosing: market.closing.pinnacle,
        average: market.closing.average ?? market.prematch.average,
        overUnderPinnacleClosing: market.closing.overUnderPinnacle,
        overUnderAverage: market.closing.overUnderAverage ?? market.prematch.overUnderAverage,
      },
      market,
    });
  }
  return { rows, skipped, format };
}

/** A row's two odds groups as the matches table stores them, column by column. */
export function oddsColumns(market: MarketOdds): Record<OddsColumn, number | null> {
  const group = (prefix: 'pre' | 'close', odds: OddsGroup) => ({
    [`${prefix}PinnacleHome`]: odds.pinnacle?.[0] ?? null,
    [`${prefix}PinnacleDraw`]: odds.pinnacle?.[1] ?? null,
    [`${prefix}PinnacleAway`]: odds.pinnacle?.[2] ?? null,
    [`${prefix}AverageHome`]: odds.average?.[0] ?? null,
    [`${prefix}AverageDraw`]: odds.average?.[1] ?? null,
    [`${prefix}AverageAway`]: odds.average?.[2] ?? null,
    [`${prefix}PinnacleOver`]: odds.overUnderPinnacle?.[0] ?? null,
    [`${prefix}PinnacleUnder`]: odds.overUnderPinnacle?.[1] ?? null,
    [`${prefix}AverageOver`]: odds.overUnderAverage?.[0] ?? null,
    [`${prefix}AverageUnder`]: odds.overUnderAverage?.[1] ?? null,
    [`${prefix}AhLine`]: odds.asianHandicap?.line ?? null,
    [`${prefix}PinnacleAhHome`]: odds.asianHandicap?.pinnacle?.[0] ?? null,
    [`${prefix}PinnacleAhAway`]: odds.asianHandicap?.pinnacle?.[1] ?? null,
    [`${prefix}AverageAhHome`]: odds.asianHandicap?.average?.[0] ?? null,
    [`${prefix}AverageAhAway`]: odds.asianHandicap?.average?.[1] ?? null,
  });
  return { ...group('pre', market.prematch), ...group('close', market.closing) } as Record<
    OddsColumn,
    number | null
  >;
}

/** The inverse of `oddsColumns`: a stored match's odds back into two groups (a half-filled set is absent). */
export function marketOddsOf(columns: Record<OddsColumn, number | null>): MarketOdds {
  const triple = (a: number | null, b: number | null, c: number | null): Triple | null =>
    a !== null && b !== null && c !== null ? [a, b, c] : null;
  const pair = (a: number | null, b: number | null): Pair | null =>
    a !== null && b !== null ? [a, b] : null;
  const group = (prefix: 'pre' | 'close'): OddsGroup => {
    const get = (field: string) => columns[`${prefix}${field}` as OddsColumn] ?? null;
    const line = get('AhLine');
    const ahPinnacle = pair(get('PinnacleAhHome'), get('PinnacleAhAway'));
    const ahAverage = pair(get('AverageAhHome'), get('AverageAhAway'));
    return {
      pinnacle: triple(get('PinnacleHome'), get('PinnacleDraw'), get('PinnacleAway')),
      average: triple(get('AverageHome'), get('AverageDraw'), get('AverageAway')),
      overUnderPinnacle: pair(get('PinnacleOver'), get('PinnacleUnder')),
      overUnderAverage: pair(get('AverageOver'), get('AverageUnder')),
      asianHandicap:
        line !== null && (ahPinnacle || ahAverage)
          ? { line, pinnacle: ahPinnacle, average: ahAverage }
          : null,
    };
  };
  return { prematch: group('pre'), closing: group('close') };
}
