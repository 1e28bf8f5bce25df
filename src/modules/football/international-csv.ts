// Reads the international results dataset (martj42/international_results, CC0): `results.csv`
// (`date,home_team,away_team,home_score,away_score,tournament,city,country,neutral`; empty scores
// are a scheduled fixture), `shootouts.csv` and `former_names.csv`. Pure: text in, typed rows out,
// with the rows it skipped and why.
//
// Team names are brought to the file's current names: a former name (`Zaïre`, `Swaziland`) through
// `former_names.csv` (the built-in copy below when no file is given), then the known aliases and
// French names ("Cameroun", "Côte d'Ivoire", "Maroc", "Korea Republic") through national-teams.ts.
// A name none of these knows is kept as written (trimmed): a new team is still a team.
//
// Competition codes (stable, documented in docs/decisions/0151): the `tournament` text maps to
// `INT-…` codes; World Cup qualifiers are split by confederation (`INT-WC-Q-CAF`…) from the teams.
// Scores include extra time, not shoot-outs (the dataset's rule): a shoot-out's winner is in
// `shootouts.csv`, the match itself a draw.
import type { TournamentClass } from '../../engine/international.js';
import { parseCsv } from './csv.js';
import {
  type Confederation,
  confederationOf,
  NATIONAL_TEAM_ALIASES,
  NATIONAL_TEAMS,
  nationalTeamName,
} from './national-teams.js';
import { normalizeName } from './normalize.js';
import type { ResultRow } from './results-csv.js';

export type { Confederation } from './national-teams.js';
export { confederationOf, NATIONAL_TEAMS, nationalTeamName } from './national-teams.js';

export interface InternationalMatch {
  /** Line in the file, for reports. */
  line: number;
  /** Match day, `yyyy-mm-dd`. */
  date: string;
  /** Epoch milliseconds of the match day at 00:00 UTC. */
  timestamp: number;
  /** Current names (former names and aliases resolved). */
  homeTeam: string;
  awayTeam: string;
  /** Names exactly as the file wrote them (a forecasts file repeats these). */
  homeTeamAsWritten: string;
  awayTeamAsWritten: string;
  /** Null for both on a scheduled fixture (empty scores). Includes extra time. */
  homeGoals: number | null;
  awayGoals: number | null;
  /** The `tournament` text as written. */
  tournament: string;
  /** Our code for it (`INT-AFCON`, `INT-WC-Q-CAF`…). */
  competition: string;
  city: string;
  country: string;
  neutral: boolean;
}

export interface SkippedInternationalRow {
  line: number;
  reason: string;
}

export interface ParsedInternationalResults {
  matches: InternationalMatch[];
  skipped: SkippedInternationalRow[];
}

export interface FormerName {
  current: string;
  former: string;
  /** `yyyy-mm-dd`, inclusive. */
  startDate: string;
  endDate: string;
}

export interface Shootout {
  date: string;
  homeTeam: string;
  awayTeam: string;
  winner: string;
}

const RESULT_COLUMNS = [
  'date',
  'home_team',
  'away_team',
  'home_score',
  'away_score',
  'tournament',
  'city',
  'country',
  'neutral',
] as const;

/** Largest score the reader accepts: past it the row is a typo, not a match. */
const MAX_GOALS = 99;

/** Whether a header row is the international results file's (the columns, any order, any case). */
export function isInternationalResultsHeader(header: readonly string[]): boolean {
  const names = new Set(header.map((name) => name.trim().toLowerCase()));
  return RESULT_COLUMNS.every((column) => names.has(column));
}

function columnsOf(header: readonly string[]): Map<string, number> {
  return new Map(header.map((name, index) => [name.trim().toLowerCase(), index]));
}

function isoDay(text: string): { date: string; timestamp: number } | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const timestamp = Date.UTC(year, month - 1, day);
  const check = new Date(timestamp);
  if (check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day) return null;
  return { date: match[0], timestamp };
}

function goals(text: string): number | null | undefined {
  const value = text.trim();
  if (value === '' || value.toUpperCase() === 'NA') return null;
  if (!/^\d{1,2}(\.0+)?$/.test(value)) return undefined;
  const count = Number(value);
  return count <= MAX_GOALS ? count : undefined;
}

/** The dataset's own former names, so a reader without the file still knows `Zaïre` is DR Congo. */
const BUILT_IN_FORMER_NAMES: readonly FormerName[] = [
  ['Benin', 'Dahomey', '1959-11-08', '1975-11-30'],
  ['Burkina Faso', 'Upper Volta', '1960-04-14', '1984-08-04'],
  ['Curaçao', 'Netherlands Antilles', '1957-03-03', '2010-10-10'],
  ['Czechoslovakia', 'Bohemia', '1903-04-05', '1919-01-01'],
  ['Czechoslovakia', 'Bohemia and Moravia', '1939-01-01', '1945-05-01'],
  ['Czechoslovakia', 'Representation of Czechs and Slovaks', '1993-03-24', '1993-11-17'],
  ['DR Congo', 'Belgian Congo', '1948-05-25', '1956-01-02'],
  ['DR Congo', 'Congo-Léopoldville', '1963-04-12', '1964-07-19'],
  ['DR Congo', 'Congo-Kinshasa', '1965-01-09', '1970-11-24'],
  ['DR Congo', 'Zaïre', '1971-01-10', '1997-04-27'],
  ['Djibouti', 'French Somaliland', '1947-12-05', '1977-06-27'],
  ['Egypt', 'United Arab Republic', '1958-02-22', '1971-09-11'],
  ['Eswatini', 'Swaziland', '1968-05-01', '2018-04-19'],
  ['Ghana', 'Gold Coast', '1950-05-28', '1957-03-06'],
  ['Guinea-Bissau', 'Portuguese Guinea', '1953-06-02', '1973-09-24'],
  ['Guyana', 'British Guiana', '1905-07-21', '1967-08-02'],
  ['Indonesia', 'Dutch East Indies', '1934-05-13', '1951-03-04'],
  ['Israel', 'Mandatory Palestine', '1934-03-16', '1940-04-27'],
  ['Malawi', 'Nyasaland', '1957-08-28', '1964-07-04'],
  ['Malaysia', 'Malaya', '1948-06-20', '1963-08-16'],
  ['Myanmar', 'Burma', '1952-03-14', '1989-01-01'],
  ['North Macedonia', 'Macedonia', '1993-10-13', '2018-11-19'],
  ['Northern Ireland', 'Ireland', '1882-02-18', '1956-04-11'],
  ['Republic of Ireland', 'Irish Free State', '1924-05-28', '1936-12-06'],
  ['Republic of Ireland', 'Éire', '1937-01-01', '1953-03-25'],
  ['Russia', 'Soviet Union', '1924-11-16', '1991-11-13'],
  ['Russia', 'CIS', '1992-01-25', '1992-06-18'],
  ['Samoa', 'Western Samoa', '1979-08-31', '1996-11-15'],
  ['Serbia', 'FR Yugoslavia', '1994-12-23', '2003-02-03'],
  ['Serbia', 'Serbia and Montenegro', '2003-02-04', '2006-06-21'],
  ['Sri Lanka', 'Ceylon', '1952-03-24', '1972-05-22'],
  ['Suriname', 'Dutch Guyana', '1921-01-28', '1975-11-25'],
  ['Tanzania', 'Tanganyika', '1945-01-01', '1964-04-26'],
  ['Vanuatu', 'New Hebrides', '1951-10-04', '1980-07-30'],
  ['Zambia', 'Northern Rhodesia', '1947-02-22', '1964-10-25'],
  ['Zimbabwe', 'Southern Rhodesia', '1946-06-16', '1980-04-18'],
].map(([current, former, startDate, endDate]) => ({ current, former, startDate, endDate }) as FormerName);

/** Reads `former_names.csv` (`current,former,start_date,end_date`); rows missing a name are left out. */
export function parseFormerNames(text: string): FormerName[] {
  const [header, ...records] = parseCsv(text);
  if (!header) return [];
  const columns = columnsOf(header.fields);
  const at = (fields: string[], name: string) => (fields[columns.get(name) ?? -1] ?? '').trim();
  const names: FormerName[] = [];
  for (const { fields } of records) {
    const current = at(fields, 'current');
    const former = at(fields, 'former');
    if (!current || !former) continue;
    names.push({ current, former, startDate: at(fields, 'start_date'), endDate: at(fields, 'end_date') });
  }
  return names;
}

/**
 * Brings team names to the file's current names. Former names first (a dated one only inside its
 * dates when a date is given: "Ireland" before 1956 is Northern Ireland, after it the Republic),
 * then the built-in aliases, French names and the known teams, all compared folded
 * (normalize.ts), so "cote d ivoire", "CAMEROUN" and "Zaire" resolve.
 */
export class NationalTeamNames {
  private readonly former = new Map<string, FormerName[]>();
  private readonly known = new Map<string, string>();

  constructor(formerNames: readonly FormerName[] = BUILT_IN_FORMER_NAMES) {
    for (const entry of formerNames) {
      const key = normalizeName(entry.former);
      this.former.set(key, [...(this.former.get(key) ?? []), entry]);
    }
    for (const team of NATIONAL_TEAMS) {
      this.known.set(normalizeName(team), team);
      this.known.set(normalizeName(nationalTeamName(team, 'fr')), team);
    }
    for (const [team, aliases] of Object.entries(NATIONAL_TEAM_ALIASES)) {
      for (const alias of aliases) {
        const key = normalizeName(alias);
        if (!this.known.has(key)) this.known.set(key, team);
      }
    }
  }

  /** The current name of a team as written on `date` (`yyyy-mm-dd`; any date when omitted). */
  canonical(name: string, date?: string): string {
    const written = name.trim().replace(/\s+/g, ' ');
    const key = normalizeName(written);
    const exact = this.known.get(key);
    if (exact && normalizeName(exact) === key) return exact;
    const formers = this.former.get(key);
    if (formers) {
      const dated = date
        ? formers.find((entry) => entry.startDate <= date && date <= entry.endDate)
        : undefined;
      if (dated) return dated.current;
      // Outside its dates (or undated), a name that is also an alias means today's team ("Ireland").
      if (!exact) return formers[formers.length - 1]!.current;
    }
    return exact ?? written;
  }
}

const DEFAULT_NAMES = new NationalTeamNames();

/** A team's current name with the dataset's built-in former names (see NationalTeamNames). */
export function canonicalNationalTeam(name: string, date?: string): string {
  return DEFAULT_NAMES.canonical(name, date);
}

/** Tournament text (folded) → code. Qualifiers of the World Cup are split by confederation. */
const TOURNAMENT_CODES: ReadonlyArray<[tournament: string, code: string]> = [
  ['FIFA World Cup', 'INT-WC'],
  ['African Cup of Nations', 'INT-AFCON'],
  ['Africa Cup of Nations', 'INT-AFCON'],
  ['African Cup of Nations qualification', 'INT-AFCON-Q'],
  ['Africa Cup of Nations qualification', 'INT-AFCON-Q'],
  ['African Nations Championship', 'INT-CHAN'],
  ['African Nations Championship qualification', 'INT-CHAN-Q'],
  ['UEFA Euro', 'INT-EURO'],
  ['UEFA Euro qualification', 'INT-EURO-Q'],
  ['UEFA Nations League', 'INT-UNL'],
  ['Copa América', 'INT-COPA'],
  ['Copa América qualification', 'INT-COPA'],
  ['AFC Asian Cup', 'INT-ASIAN'],
  ['AFC Asian Cup qualification', 'INT-ASIAN-Q'],
  ['Gold Cup', 'INT-GOLD'],
  ['CONCACAF Championship', 'INT-GOLD'],
  ['Gold Cup qualification', 'INT-GOLD-Q'],
  ['CONCACAF Championship qualification', 'INT-GOLD-Q'],
  ['CONCACAF Nations League', 'INT-CNL'],
  ['CONCACAF Nations League qualification', 'INT-CNL-Q'],
  ['Oceania Nations Cup', 'INT-OFC'],
  ['Oceania Nations Cup qualification', 'INT-OFC-Q'],
  ['Confederations Cup', 'INT-CONFED'],
  ['Arab Cup', 'INT-ARAB'],
  ['Arab Cup qualification', 'INT-ARAB-Q'],
  ['Friendly', 'INT-FRIENDLY'],
];
const CODE_OF_TOURNAMENT = new Map(TOURNAMENT_CODES.map(([text, code]) => [normalizeName(text), code]));

/** Every code a match can get, World Cup qualifiers by confederation and intercontinental play-offs. */
export const INTERNATIONAL_COMPETITION_CODES: readonly string[] = [
  ...new Set([
    ...TOURNAMENT_CODES.map(([, code]) => code),
    ...['CAF', 'UEFA', 'AFC', 'CONMEBOL', 'CONCACAF', 'OFC'].map(
      (confederation) => `INT-WC-Q-${confederation}`,
    ),
    'INT-WC-Q-PO',
    'INT-OTHER',
  ]),
];

/**
 * Our code for a match's tournament: the table above; a World Cup qualifier by the confederation
 * both teams share (`INT-WC-Q-CAF`), `INT-WC-Q-PO` for an intercontinental play-off; every other
 * tournament (regional cups, Olympic games, invitational tournaments) `INT-OTHER`.
 */
export function internationalCompetitionCode(tournament: string, homeTeam: string, awayTeam: string): string {
  const key = normalizeName(tournament);
  if (key === normalizeName('FIFA World Cup qualification')) {
    const home = confederationOf(homeTeam);
    const away = confederationOf(awayTeam);
    if (home && away && home !== away) return 'INT-WC-Q-PO';
    const shared = home ?? away;
    return shared ? `INT-WC-Q-${shared}` : 'INT-WC-Q-PO';
  }
  return CODE_OF_TOURNAMENT.get(key) ?? 'INT-OTHER';
}

/** Whether a code is one of ours for national teams. */
export function isInternationalCode(code: string): boolean {
  return code.trim().toUpperCase().startsWith('INT-');
}

/** Classes the model weighs and the validation reports by: the engine's list. */
export type { TournamentClass };

const FINALS = new Set([
  'INT-AFCON',
  'INT-EURO',
  'INT-COPA',
  'INT-ASIAN',
  'INT-GOLD',
  'INT-OFC',
  'INT-CONFED',
]);

/** A competition code's class: finals, qualifiers, nations leagues, friendlies, the rest. */
export function tournamentClassOf(code: string): TournamentClass {
  if (code === 'INT-WC') return 'world-cup';
  if (FINALS.has(code)) return 'continental-final';
  if (code.startsWith('INT-WC-Q') || code.endsWith('-Q')) return 'qualifier';
  if (code === 'INT-UNL' || code === 'INT-CNL') return 'nations-league';
  if (code === 'INT-FRIENDLY') return 'friendly';
  return 'other';
}

/**
 * Reads `results.csv`. A row is skipped (with its reason) when its date is not `yyyy-mm-dd`, a team
 * is empty or both teams are the same, a score is not a count, or only one score is given. Empty
 * scores on both sides are a scheduled fixture (scores null). `neutral` is `TRUE`/`FALSE` (any case;
 * `1`/`0`, `yes`/`no` too); empty reads as not neutral.
 */
export function parseInternationalResults(
  text: string,
  names: NationalTeamNames = DEFAULT_NAMES,
): ParsedInternationalResults {
  const [header, ...records] = parseCsv(text);
  const matches: InternationalMatch[] = [];
  const skipped: SkippedInternationalRow[] = [];
  if (!header || !isInternationalResultsHeader(header.fields)) {
    return {
      matches,
      skipped: [{ line: 1, reason: `header must name the columns ${RESULT_COLUMNS.join(',')}` }],
    };
  }
  const columns = columnsOf(header.fields);
  for (const { line, fields } of records) {
    if (fields.every((field) => field.trim() === '')) continue;
    const at = (name: string) => (fields[columns.get(name)!] ?? '').trim();
    const day = isoDay(at('date'));
    if (!day) {
      skipped.push({ line, reason: `date "${at('date')}" is not yyyy-mm-dd` });
      continue;
    }
    const homeWritten = at('home_team');
    const awayWritten = at('away_team');
    if (!homeWritten || !awayWritten) {
      skipped.push({ line, reason: 'a team is missing' });
      continue;
    }
    const homeTeam = names.canonical(homeWritten, day.date);
    const awayTeam = names.canonical(awayWritten, day.date);
    if (homeTeam === awayTeam) {
      skipped.push({ line, reason: `both teams are ${homeTeam}` });
      continue;
    }
    const homeGoals = goals(at('home_score'));
    const awayGoals = goals(at('away_score'));
    if (homeGoals === undefined || awayGoals === undefined) {
      skipped.push({
        line,
        reason: `score "${at('home_score')}-${at('away_score')}" is not a count of goals`,
      });
      continue;
    }
    if ((homeGoals === null) !== (awayGoals === null)) {
      skipped.push({ line, reason: 'only one score is given' });
      continue;
    }
    const tournament = at('tournament') || 'Friendly';
    const neutralText = at('neutral').toLowerCase();
    matches.push({
      line,
      date: day.date,
      timestamp: day.timestamp,
      homeTeam,
      awayTeam,
      homeTeamAsWritten: homeWritten,
      awayTeamAsWritten: awayWritten,
      homeGoals,
      awayGoals,
      tournament,
      competition: internationalCompetitionCode(tournament, homeTeam, awayTeam),
      city: at('city'),
      country: at('country'),
      neutral: neutralText === 'true' || neutralText === '1' || neutralText === 'yes',
    });
  }
  return { matches, skipped };
}

/** Reads `shootouts.csv` (`date,home_team,away_team,winner,…`); names brought to current names. */
export function parseShootouts(text: string, names: NationalTeamNames = DEFAULT_NAMES): Shootout[] {
  const [header, ...records] = parseCsv(text);
  if (!header) return [];
  const columns = columnsOf(header.fields);
  const shootouts: Shootout[] = [];
  for (const { fields } of records) {
    const at = (name: string) => (fields[columns.get(name) ?? -1] ?? '').trim();
    const day = isoDay(at('date'));
    if (!day || !at('home_team') || !at('away_team') || !at('winner')) continue;
    shootouts.push({
      date: day.date,
      homeTeam: names.canonical(at('home_team'), day.date),
      awayTeam: names.canonical(at('away_team'), day.date),
      winner: names.canonical(at('winner'), day.date),
    });
  }
  return shootouts;
}

/** The confederation a match belongs to for reports: the one both teams share, else `inter`. */
export function matchConfederation(homeTeam: string, awayTeam: string): Confederation | 'inter' | null {
  const home = confederationOf(homeTeam);
  const away = confederationOf(awayTeam);
  if (!home || !away) return home ?? away;
  return home === away ? home : 'inter';
}

const NO_ODDS = {
  pinnacle: null,
  average: null,
  overUnderPinnacle: null,
  overUnderAverage: null,
  asianHandicap: null,
};

/**
 * Played matches as the results store takes them (`results:import`, the worker's sync): the
 * competition code as the league, the calendar year as the season (national teams have no other),
 * no odds, `neutral` kept. Scheduled fixtures (no score) are not results and are left out.
 */
export function internationalResultRows(matches: readonly InternationalMatch[]): ResultRow[] {
  return matches.flatMap((match) =>
    match.homeGoals === null || match.awayGoals === null
      ? []
      : [
          {
            line: match.line,
            league: match.competition,
            season: match.date.slice(0, 4),
            date: match.date,
            timestamp: match.timestamp,
            kickoff: null,
            homeTeam: match.homeTeam,
            awayTeam: match.awayTeam,
            homeGoals: match.homeGoals,
            awayGoals: match.awayGoals,
            halfTimeHomeGoals: null,
            halfTimeAwayGoals: null,
            homeShots: null,
            awayShots: null,
            homeShotsOnTarget: null,
            awayShotsOnTarget: null,
            homeCorners: null,
            awayCorners: null,
            odds: {
              pinnacleClosing: null,
              average: null,
              overUnderPinnacleClosing: null,
              overUnderAverage: null,
            },
            market: { prematch: NO_ODDS, closing: NO_ODDS },
            neutral: match.neutral,
          },
        ],
  );
}

/** Scheduled fixtures in a results file, as the rows a results import skips (not results yet). */
export function scheduledSkipped(matches: readonly InternationalMatch[]): SkippedInternationalRow[] {
  return matches
    .filter((match) => match.homeGoals === null)
    .map((match) => ({ line: match.line, reason: 'no score yet: a fixture, not a result' }));
}
