// The three layouts results come in, told apart by their header, each read into the main
// football-data.co.uk columns (`Div`, `Date`, `HomeTeam`, `FTHG`…) so one reader stores them all:
//   division  football-data's season files (`Div,Date,HomeTeam,AwayTeam,FTHG,…`), as they are;
//   extra     the extra leagues' country files (`Country,League,Season,Date,Time,Home,Away,HG,AG,
//             Res,PSCH,…`): the country names the competition (its `League` text changes between
//             seasons), the season is the file's own (`2019/2020` → `2019-20`, `2019` stays), and
//             every price is a closing one (a `PH`/`AvgH` spelling is read as closing too);
//   results   results-only files (`Date,Team 1,FT,HT,Team 2`, dates as `Fri Aug 7 2015`): no
//             league column, so the league (and season) come from the file's name.

import { extraLeagueOfCountry } from '../../lib/competitions.js';
import type { CsvRecord } from './csv.js';
import { canonicalColumn } from './odds-columns.js';

export type ResultsFormat = 'division' | 'extra' | 'results';

export interface MainLayout {
  format: ResultsFormat;
  /** Canonical main-format column → index in `records[i].fields`. */
  columns: Map<string, number>;
  records: CsvRecord[];
}

/** Which layout a header is: the extra and results-only files have columns no division file has. */
export function detectFormat(header: readonly string[]): ResultsFormat {
  const names = new Set(header.map((name) => name.trim()));
  if (names.has('Country') && names.has('Home') && names.has('HG')) return 'extra';
  if (names.has('Team 1') && names.has('Team 2') && names.has('FT')) return 'results';
  return 'division';
}

/** Extra-league files carry only closing prices, whatever their spelling. */
const EXTRA_RENAMES: Record<string, string> = {
  Home: 'HomeTeam',
  Away: 'AwayTeam',
  HG: 'FTHG',
  AG: 'FTAG',
  Res: 'FTR',
  PH: 'PSCH',
  PD: 'PSCD',
  PA: 'PSCA',
  AvgH: 'AvgCH',
  AvgD: 'AvgCD',
  AvgA: 'AvgCA',
  MaxH: 'MaxCH',
  MaxD: 'MaxCD',
  MaxA: 'MaxCA',
};

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** `Fri Aug 7 2015` (weekday optional) → `07/08/2015`; the text unchanged when it is not that form. */
export function resultsOnlyDate(text: string): string {
  const match = /^(?:[A-Za-z]{3}\s+)?([A-Za-z]{3})\s+(\d{1,2})\s+(\d{4})$/.exec(text.trim());
  if (!match) return text;
  const month = MONTHS.indexOf(match[1]!.toLowerCase());
  if (month < 0) return text;
  return `${match[2]!.padStart(2, '0')}/${String(month + 1).padStart(2, '0')}/${match[3]}`;
}

/** `2019/2020` → `2019-20`; `2019` stays; anything else is empty (the date's season is used). */
export function extraSeason(text: string): string {
  const value = text.trim();
  const split = /^(\d{4})\/(\d{4})$/.exec(value);
  if (split && Number(split[2]) === Number(split[1]) + 1) return `${split[1]}-${split[2]!.slice(2)}`;
  return /^\d{4}$/.test(value) ? value : '';
}

/** `3-1` → [`3`, `1`]; anything else (`?`, empty) → two copies of the text, which no count reads. */
function splitScore(text: string | undefined): [string, string] {
  const match = /^\s*(\d+)\s*-\s*(\d+)\s*$/.exec(text ?? '');
  return match ? [match[1]!, match[2]!] : [text ?? '', text ?? ''];
}

function columnsOf(names: readonly string[]): Map<string, number> {
  const columns = new Map<string, number>();
  names.forEach((name, i) => {
    const key = canonicalColumn(name);
    if (!columns.has(key)) columns.set(key, i);
  });
  return columns;
}

/** The records of any of the three layouts, as main-format columns. */
export function mainLayout(records: readonly CsvRecord[]): MainLayout {
  const header = records[0]?.fields ?? [];
  const format = detectFormat(header);
  const body = records.slice(1);
  if (format === 'division') return { format, columns: columnsOf(header), records: [...body] };

  if (format === 'extra') {
    const renamed = header.map((name) => {
      const trimmed = name.trim();
      const target = EXTRA_RENAMES[trimmed];
      // A file with both spellings keeps its own closing columns.
      return target && !header.some((other) => other.trim() === target) ? target : trimmed;
    });
    const at = columnsOf(renamed);
    const country = at.get('Country')!;
    const season = at.get('Season');
    const names = [...renamed, 'Div', 'Season'];
    const divIndex = renamed.length;
    return {
      format,
      columns: columnsOf(names.map((name, i) => (i === at.get('Season') ? '_Season' : name))),
      records: body.map((record) => {
        const fields = [...record.fields];
        fields[divIndex] = extraLeagueOfCountry(record.fields[country] ?? '') ?? '';
        fields[divIndex + 1] = season === undefined ? '' : extraSeason(record.fields[season] ?? '');
        return { line: record.line, fields };
      }),
    };
  }

  const at = columnsOf(header.map((name) => name.trim()));
  const pick = (record: CsvRecord, name: string) => {
    const i = at.get(name);
    return i === undefined ? '' : (record.fields[i] ?? '');
  };
  return {
    format,
    columns: columnsOf(['Date', 'HomeTeam', 'AwayTeam', 'FTHG', 'FTAG', 'HTHG', 'HTAG']),
    records: body.map((record) => {
      if (record.fields.every((field) => field.trim() === '')) return record;
      const [homeGoals, awayGoals] = splitScore(pick(record, 'FT'));
      const halfTime = splitScore(pick(record, 'HT'));
      const known = /^\d+$/.test(halfTime[0]);
      return {
        line: record.line,
        fields: [
          resultsOnlyDate(pick(record, 'Date')),
          pick(record, 'Team 1'),
          pick(record, 'Team 2'),
          homeGoals,
          awayGoals,
          known ? halfTime[0] : '',
          known ? halfTime[1] : '',
        ],
      };
    }),
  };
}

/** A file name's league and season (`SC1-2015-16.csv` → SC1, 2015-16), as the data folders name them. */
export function fileLeagueSeason(name: string): { league: string; season: string } | null {
  const match = /^([A-Za-z0-9]{1,8})-(\d{4})-(\d{2})\.csv$/i.exec(name);
  if (!match || (Number(match[2]) + 1) % 100 !== Number(match[3])) return null;
  return { league: match[1]!.toUpperCase(), season: `${match[2]}-${match[3]}` };
}
