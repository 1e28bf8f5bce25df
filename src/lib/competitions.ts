// The competitions the service knows by name: every football-data.co.uk main division (E0…G1)
// and extra league (ARG…USA), each with its readable name in both languages, its country and its
// tier (decision 0133). Codes are football-data's own: a division's `Div`, an extra league's file
// name. A country's `League` text in an extra-league file changes between seasons (Argentina's
// "Superliga", then "Torneo De La Liga Profesional"): the country names the competition, not it.
import type { competitionKinds, Locale } from './allowed-values.js';

export type CompetitionKind = (typeof competitionKinds)[number];

/**
 * Where a competition's results come from: a season file per division, one file per country, or
 * Football.TXT season files (the European cups, FOOTBALL_TXT_URL; decision 0148), or the national
 * teams' results file (one file, every tournament).
 */
export type CompetitionSource = 'division' | 'extra' | 'football-txt' | 'international';

export interface Country {
  /** ISO 3166-1 alpha-2, or ISO 3166-2 for England and Scotland (`GB-ENG`, `GB-SCT`). */
  code: string;
  name: Record<Locale, string>;
}

export interface Competition {
  code: string;
  name: Record<Locale, string>;
  /** Null for a stored league the catalogue lacks. */
  country: Country | null;
  kind: CompetitionKind;
  /** 1 for a country's top division, 2 below it…; null for cups and internationals. */
  tier: number | null;
  source: CompetitionSource;
}

const country = (code: string, fr: string, en: string): Country => ({ code, name: { fr, en } });

const ENGLAND = country('GB-ENG', 'Angleterre', 'England');
const SCOTLAND = country('GB-SCT', 'Écosse', 'Scotland');
const GERMANY = country('DE', 'Allemagne', 'Germany');
const ITALY = country('IT', 'Italie', 'Italy');
const SPAIN = country('ES', 'Espagne', 'Spain');
const FRANCE = country('FR', 'France', 'France');

type Row = [code: string, fr: string, en: string, country: Country, tier: number];

const DIVISIONS: readonly Row[] = [
  ['E0', 'Premier League', 'Premier League', ENGLAND, 1],
  ['E1', 'Championship', 'Championship', ENGLAND, 2],
  ['E2', 'League One', 'League One', ENGLAND, 3],
  ['E3', 'League Two', 'League Two', ENGLAND, 4],
  ['EC', 'National League', 'National League', ENGLAND, 5],
  ['SC0', 'Premiership écossaise', 'Scottish Premiership', SCOTLAND, 1],
  ['SC1', 'Championship écossais', 'Scottish Championship', SCOTLAND, 2],
  ['SC2', 'League One écossaise', 'Scottish League One', SCOTLAND, 3],
  ['SC3', 'League Two écossaise', 'Scottish League Two', SCOTLAND, 4],
  ['D1', 'Bundesliga', 'Bundesliga', GERMANY, 1],
  ['D2', '2. Bundesliga', '2. Bundesliga', GERMANY, 2],
  ['I1', 'Serie A', 'Serie A', ITALY, 1],
  ['I2', 'Serie B', 'Serie B', ITALY, 2],
  ['SP1', 'Liga', 'La Liga', SPAIN, 1],
  ['SP2', 'Liga 2 (Segunda División)', 'Segunda División', SPAIN, 2],
  ['F1', 'Ligue 1', 'Ligue 1', FRANCE, 1],
  ['F2', 'Ligue 2', 'Ligue 2', FRANCE, 2],
  ['N1', 'Eredivisie', 'Eredivisie', country('NL', 'Pays-Bas', 'Netherlands'), 1],
  [
    'B1',
    'Pro League (Division 1A)',
    'Pro League (First Division A)',
    country('BE', 'Belgique', 'Belgium'),
    1,
  ],
  ['P1', 'Liga Portugal', 'Primeira Liga', country('PT', 'Portugal', 'Portugal'), 1],
  ['T1', 'Süper Lig', 'Süper Lig', country('TR', 'Turquie', 'Turkey'), 1],
  ['G1', 'Super League grecque', 'Greek Super League', country('GR', 'Grèce', 'Greece'), 1],
];

/** The extra leagues, with the `Country` text their file writes (what names the competition). */
const EXTRA_LEAGUES: ReadonlyArray<[...Row, fileCountry: string]> = [
  [
    'ARG',
    'Primera División argentine',
    'Argentine Primera División',
    country('AR', 'Argentine', 'Argentina'),
    1,
    'Argentina',
  ],
  [
    'AUT',
    'Bundesliga autrichienne',
    'Austrian Bundesliga',
    country('AT', 'Autriche', 'Austria'),
    1,
    'Austria',
  ],
  ['BRA', 'Brasileirão (Série A)', 'Brasileirão (Série A)', country('BR', 'Brésil', 'Brazil'), 1, 'Brazil'],
  ['CHN', 'Super League chinoise', 'Chinese Super League', country('CN', 'Chine', 'China'), 1, 'China'],
  ['DNK', 'Superliga danoise', 'Danish Superliga', country('DK', 'Danemark', 'Denmark'), 1, 'Denmark'],
  ['FIN', 'Veikkausliiga', 'Veikkausliiga', country('FI', 'Finlande', 'Finland'), 1, 'Finland'],
  [
    'IRL',
    'Premier Division irlandaise',
    'League of Ireland Premier Division',
    country('IE', 'Irlande', 'Ireland'),
    1,
    'Ireland',
  ],
  ['JPN', 'J1 League', 'J1 League', country('JP', 'Japon', 'Japan'), 1, 'Japan'],
  ['MEX', 'Liga MX', 'Liga MX', country('MX', 'Mexique', 'Mexico'), 1, 'Mexico'],
  ['NOR', 'Eliteserien', 'Eliteserien', country('NO', 'Norvège', 'Norway'), 1, 'Norway'],
  ['POL', 'Ekstraklasa', 'Ekstraklasa', country('PL', 'Pologne', 'Poland'), 1, 'Poland'],
  ['ROU', 'Liga I roumaine', 'Romanian Liga I', country('RO', 'Roumanie', 'Romania'), 1, 'Romania'],
  ['RUS', 'Premier-Liga russe', 'Russian Premier League', country('RU', 'Russie', 'Russia'), 1, 'Russia'],
  ['SWE', 'Allsvenskan', 'Allsvenskan', country('SE', 'Suède', 'Sweden'), 1, 'Sweden'],
  [
    'SWZ',
    'Super League suisse',
    'Swiss Super League',
    country('CH', 'Suisse', 'Switzerland'),
    1,
    'Switzerland',
  ],
  ['USA', 'MLS', 'Major League Soccer (MLS)', country('US', 'États-Unis', 'United States'), 1, 'USA'],
];

/**
 * National teams' tournaments (issue 52, decision 0151): our codes, grouped by tournament, World
 * Cup qualifiers by confederation. The reader (international-csv.ts) maps the file's `tournament`
 * text to them; every code it can give is here (checked by a test).
 */
const INTERNATIONALS: ReadonlyArray<[code: string, fr: string, en: string]> = [
  ['INT-WC', 'Coupe du monde de la FIFA', 'FIFA World Cup'],
  ['INT-WC-Q-CAF', 'Qualifications Coupe du monde (Afrique)', 'World Cup qualification (Africa)'],
  ['INT-WC-Q-UEFA', 'Qualifications Coupe du monde (Europe)', 'World Cup qualification (Europe)'],
  ['INT-WC-Q-AFC', 'Qualifications Coupe du monde (Asie)', 'World Cup qualification (Asia)'],
  [
    'INT-WC-Q-CONMEBOL',
    'Qualifications Coupe du monde (Amérique du Sud)',
    'World Cup qualification (South America)',
  ],
  [
    'INT-WC-Q-CONCACAF',
    'Qualifications Coupe du monde (Amérique du Nord, centrale et Caraïbes)',
    'World Cup qualification (North, Central America and Caribbean)',
  ],
  ['INT-WC-Q-OFC', 'Qualifications Coupe du monde (Océanie)', 'World Cup qualification (Oceania)'],
  ['INT-WC-Q-PO', 'Barrages intercontinentaux de la Coupe du monde', 'World Cup intercontinental play-offs'],
  ['INT-AFCON', "Coupe d'Afrique des nations (CAN)", 'Africa Cup of Nations (AFCON)'],
  ['INT-AFCON-Q', "Qualifications Coupe d'Afrique des nations", 'Africa Cup of Nations qualification'],
  ['INT-CHAN', "Championnat d'Afrique des nations (CHAN)", 'African Nations Championship (CHAN)'],
  [
    'INT-CHAN-Q',
    "Qualifications Championnat d'Afrique des nations",
    'African Nations Championship qualification',
  ],
  ['INT-EURO', "Championnat d'Europe (Euro)", 'UEFA European Championship (Euro)'],
  ['INT-EURO-Q', "Qualifications Championnat d'Europe", 'UEFA Euro qualification'],
  ['INT-UNL', "Ligue des nations de l'UEFA", 'UEFA Nations League'],
  ['INT-COPA', 'Copa América', 'Copa América'],
  ['INT-ASIAN', "Coupe d'Asie des nations", 'AFC Asian Cup'],
  ['INT-ASIAN-Q', "Qualifications Coupe d'Asie des nations", 'AFC Asian Cup qualification'],
  ['INT-GOLD', 'Gold Cup de la CONCACAF', 'CONCACAF Gold Cup'],
  ['INT-GOLD-Q', 'Qualifications Gold Cup', 'Gold Cup qualification'],
  ['INT-CNL', 'Ligue des nations de la CONCACAF', 'CONCACAF Nations League'],
  ['INT-CNL-Q', 'Qualifications Ligue des nations de la CONCACAF', 'CONCACAF Nations League qualification'],
  ['INT-OFC', "Coupe d'Océanie des nations", 'OFC Nations Cup'],
  ['INT-OFC-Q', "Qualifications Coupe d'Océanie des nations", 'OFC Nations Cup qualification'],
  ['INT-CONFED', 'Coupe des confédérations', 'FIFA Confederations Cup'],
  ['INT-ARAB', 'Coupe arabe de la FIFA', 'FIFA Arab Cup'],
  ['INT-ARAB-Q', 'Qualifications Coupe arabe', 'Arab Cup qualification'],
  ['INT-FRIENDLY', 'Matchs amicaux internationaux', 'International friendlies'],
  ['INT-OTHER', 'Autres tournois internationaux', 'Other international tournaments'],
];

const competition = (row: Row, source: CompetitionSource): Competition => ({
  code: row[0],
  name: { fr: row[1], en: row[2] },
  country: row[3],
  kind: 'league',
  tier: row[4],
  source,
});

/** UEFA's club cups (issue 51): no country, no tier; their files are Football.TXT season files. */
const CUPS: ReadonlyArray<[code: string, fr: string, en: string]> = [
  ['UCL', 'Ligue des champions', 'Champions League'],
  ['UEL', 'Ligue Europa', 'Europa League'],
  ['UECL', 'Ligue Europa Conférence', 'Conference League'],
];

/** A competition without a country or a tier: a European cup or a national teams' tournament. */
const countryless =
  (kind: 'cup' | 'international', source: CompetitionSource) =>
  ([code, fr, en]: readonly [string, string, string]): Competition => ({
    code,
    name: { fr, en },
    country: null,
    kind,
    tier: null,
    source,
  });

/** Every known competition: the divisions, the extra leagues, the European cups, the national teams' tournaments. */
export const COMPETITIONS: readonly Competition[] = [
  ...DIVISIONS.map((row) => competition(row, 'division')),
  ...EXTRA_LEAGUES.map((row) => competition(row as unknown as Row, 'extra')),
  ...CUPS.map(countryless('cup', 'football-txt')),
  ...INTERNATIONALS.map(countryless('international', 'international')),
];

const BY_CODE = new Map(COMPETITIONS.map((entry) => [entry.code.toUpperCase(), entry]));
const BY_FILE_COUNTRY = new Map(EXTRA_LEAGUES.map((row) => [row[5].toLowerCase(), row[0]]));

/** Every division's code (football-data's season files). */
export const DIVISION_CODES: readonly string[] = DIVISIONS.map((row) => row[0]);
/** Every extra league's code (one file per country). */
export const EXTRA_LEAGUE_CODES: readonly string[] = EXTRA_LEAGUES.map((row) => row[0]);
/** Every European cup's code (`UCL`, `UEL`, `UECL`). */
export const CUP_CODES: readonly string[] = CUPS.map((row) => row[0]);
/** Every national teams' tournament code. */
export const INTERNATIONAL_CODES: readonly string[] = INTERNATIONALS.map((row) => row[0]);
/**
 * Every code the worker syncs from football-data.co.uk by default in production (the cups come
 * from Football.TXT files, the national teams from their own file).
 */
export const ALL_COMPETITION_CODES: readonly string[] = COMPETITIONS.filter(
  (entry) => entry.source === 'division' || entry.source === 'extra',
).map((entry) => entry.code);

/** A competition by its code (any case). */
export function competitionOf(code: string): Competition | undefined {
  return BY_CODE.get(code.trim().toUpperCase());
}

/** Whether a code is an extra league (its results come from one file per country). */
export function isExtraLeague(code: string): boolean {
  return competitionOf(code)?.source === 'extra';
}

/** The code of the extra league a file's `Country` text names (`Argentina` → `ARG`), if known. */
export function extraLeagueOfCountry(text: string): string | undefined {
  return BY_FILE_COUNTRY.get(text.trim().toLowerCase());
}

/** A competition's readable name in a language; the code itself for one the catalogue lacks. */
export function competitionName(code: string, locale: Locale, fallback?: string): string {
  return competitionOf(code)?.name[locale] ?? fallback ?? code;
}

/** What a competition's analyses rest on (decision 0134). */
export type Basis = 'odds' | 'results' | 'priors';

/** History is counted over this many days before the day it serves (two seasons). */
export const HISTORY_DAYS = 730;
/** Fewer matches than this in HISTORY_DAYS (half a season of a small league): too short, priors. */
export const MIN_HISTORY_MATCHES = 60;
/** At least this share of those matches with 1X2 odds: the analyses rest on the market. */
export const MIN_ODDS_SHARE = 0.5;

/** What a competition's analyses rest on, from its recent history: matches, and those with odds. */
export function basisOf(recent: number, recentWithOdds: number): Basis {
  if (recent < MIN_HISTORY_MATCHES) return 'priors';
  return recentWithOdds >= recent * MIN_ODDS_SHARE ? 'odds' : 'results';
}
