// football-data.co.uk's fixtures.csv (upcoming matches): the season files' columns without scores
// or closing odds. Its dates and times are UK local time; kick-offs are stored in UTC, so each one
// is converted with the Europe/London rules in force on that date (GMT in winter, BST in summer).
// The extra leagues' fixtures file (EXTRA_FIXTURES_URL) is read the same way, its country naming
// the competition. A file is all or nothing: one unreadable row refuses the whole file, so a sync never writes half.
import { extraLeagueOfCountry } from '../../lib/competitions.js';
import { type CsvRecord, parseCsv } from './csv.js';
import { canonicalColumn, type OddsGroup, readPrematchOdds } from './odds-columns.js';
import { parseDate } from './results-csv.js';

export interface FixtureRow {
  league: string;
  home: string;
  away: string;
  /** Kick-off in UTC, ISO 8601. */
  kickoffAt: string;
  prematch: OddsGroup;
}

export class FixturesFileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FixturesFileError';
  }
}

const londonParts = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** The offset of London from UTC, in minutes, at an instant. */
function londonOffsetMinutes(instant: number): number {
  const parts = Object.fromEntries(
    londonParts.formatToParts(new Date(instant)).map((p) => [p.type, p.value]),
  );
  const asUtc = Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
  );
  return Math.round((asUtc - Math.floor(instant / 60_000) * 60_000) / 60_000);
}

/**
 * UK wall-clock time on a date → the UTC instant. The offset is read at the guessed instant and
 * checked once more, which settles times on either side of a clock change; a time that does not
 * exist (the skipped spring hour) is read with the offset before the change.
 */
export function ukLocalToUtc(date: string, time: string): string | null {
  const day = parseDate(date);
  const clock = /^(\d{1,2}):(\d{2})$/.exec(time.trim());
  if (!day || !clock) return null;
  const hours = Number(clock[1]);
  const minutes = Number(clock[2]);
  if (hours > 23 || minutes > 59) return null;
  const wall = day.timestamp + (hours * 60 + minutes) * 60_000;
  let instant = wall - londonOffsetMinutes(wall) * 60_000;
  instant = wall - londonOffsetMinutes(instant) * 60_000;
  return new Date(instant).toISOString();
}

const REQUIRED = ['Div', 'Date', 'Time', 'HomeTeam', 'AwayTeam'] as const;

/** The extra leagues' fixtures file names its columns as their results files do, odds pre-match. */
const EXTRA_COLUMNS: Record<string, string> = {
  Home: 'HomeTeam',
  Away: 'AwayTeam',
  PH: 'PSH',
  PD: 'PSD',
  PA: 'PSA',
};

/**
 * The header's columns by canonical name. In the extra leagues' layout (`Country,League,Date,
 * Time,Home,Away,…`) the country names the competition: a `Div` column is computed from it (a
 * country the catalogue lacks gives an empty code, and its rows are left out).
 */
function fixtureColumns(records: CsvRecord[]): { columns: Map<string, number>; extra: boolean } {
  const names = records[0]!.fields.map((name) => canonicalColumn(name));
  const extra = names.includes('Country') && names.includes('Home') && !names.includes('Div');
  if (!extra) return { columns: new Map(names.map((name, index) => [name, index])), extra };
  const renamed = names.map((name) =>
    EXTRA_COLUMNS[name] && !names.includes(EXTRA_COLUMNS[name]) ? EXTRA_COLUMNS[name] : name,
  );
  const country = names.indexOf('Country');
  for (const record of records.slice(1)) {
    record.fields[renamed.length] = extraLeagueOfCountry(record.fields[country] ?? '') ?? '';
  }
  return { columns: new Map([...renamed, 'Div'].map((name, index) => [name, index])), extra };
}

/**
 * Parses a whole fixtures file (football-data's fixtures.csv or its extra leagues' one), keeping
 * the rows of `leagues` (all when empty).
 */
export function parseFixturesCsv(text: string, leagues: readonly string[] = []): FixtureRow[] {
  const records = parseCsv(text).filter((record) => record.fields.some((field) => field.trim() !== ''));
  const header = records[0];
  if (!header) throw new FixturesFileError('the fixtures file is empty');
  const { columns, extra } = fixtureColumns(records);
  const missing = REQUIRED.filter((name) => !columns.has(name));
  if (missing.length > 0)
    throw new FixturesFileError(`the fixtures file has no ${missing.join(', ')} column`);
  const wanted = new Set(leagues);
  const rows: FixtureRow[] = [];
  for (const record of records.slice(1)) {
    const get = (column: string) => {
      const index = columns.get(column);
      return index === undefined ? undefined : record.fields[index];
    };
    const league = (get('Div') ?? '').trim();
    if (wanted.size > 0 && !wanted.has(league)) continue;
    if (extra && league === '') continue;
    const home = (get('HomeTeam') ?? '').trim();
    const away = (get('AwayTeam') ?? '').trim();
    const kickoffAt = ukLocalToUtc(get('Date') ?? '', get('Time') ?? '');
    if (!league || !home || !away || !kickoffAt) {
      throw new FixturesFileError(
        `line ${record.line}: a fixture needs Div, Date, Time, HomeTeam and AwayTeam`,
      );
    }
    rows.push({ league, home, away, kickoffAt, prematch: readPrematchOdds(get) });
  }
  return rows;
}
