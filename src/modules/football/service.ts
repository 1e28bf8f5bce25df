// Football results rules: finding a league or a team from what a client typed (any case, any
// accents, aliases), adding aliases, importing results (parsed rows, a CSV text or file, a season
// downloaded from football-data.co.uk) without duplicates, and the reads the analyst fits on.
// Its parts (results imports, aliases, the fixtures module's needs) are built apart, top to bottom,
// and joined into the one service by createFootballService.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Config } from '../../config.js';
import type { Database, Executor } from '../../db/client.js';
import type { FootballLeague, FootballTeam, NewFootballMatch } from '../../db/schema/football.js';
import { impliedProbabilities, type Probabilities3 } from '../../engine/evaluation.js';
import type { Clock } from '../../lib/clock.js';
import { competitionOf, isExtraLeague } from '../../lib/competitions.js';
import { oneLine } from '../../lib/text.js';
import { parseCsv } from './csv.js';
import { cupResultRows, isCupText, readCupFile } from './cup-files.js';
import { pastOneXTwoOdds } from './evaluation-data.js';
import { type FixtureRow, parseFixturesCsv } from './fixtures-csv.js';
import { centralEuropeanKickoff } from './football-txt.js';
import {
  currentSeason,
  decodeResults,
  downloadResults,
  extraResultsUrl,
  extraSeasonLabels,
  resultsUrl,
} from './import.js';
import {
  internationalResultRows,
  isInternationalResultsHeader,
  parseInternationalResults,
  scheduledSkipped,
} from './international-csv.js';
import { KNOWN_TEAM_ALIASES } from './known-aliases.js';
import { nationalTeamAliases } from './national-teams.js';
import { normalizeName } from './normalize.js';
import {
  type FixtureResult,
  type FixtureWindow,
  findFixtureResults,
  findLeague,
  findLeagueByCode,
  findLeagueById,
  findLeaguesByCodes,
  findLeaguesByIds,
  findTeams,
  insertLeague,
  insertLeagueAlias,
  insertMatches,
  insertTeamAlias,
  insertTeamAliases,
  insertTeams,
  internationalMatchesBefore,
  latestLeagueOfTeam,
  leagueFrequencies,
  leagueHistories,
  leagueMatches,
  leagueVersion,
  matchesOneXTwoOdds,
  matchScores,
  matchStats,
  ratingMatchesBefore,
  recordSync,
  type StoredInternationalMatch,
  type StoredMatch,
  type StoredRatingMatch,
  type SyncSource,
  searchTeams,
  syncStatuses,
} from './repository.js';
import { fileLeagueSeason } from './result-formats.js';
import {
  marketOddsOf,
  oddsColumns,
  parseResultsCsv,
  type ResultRow,
  type SkippedRow,
  seasonFolder,
} from './results-csv.js';

export { type FixtureRow, FixturesFileError } from './fixtures-csv.js';
export type { FixtureResult, FixtureWindow, StoredMatch } from './repository.js';

/** A fixture as a pronostic names it, and the days it may have been played on (inclusive). */
export interface FixtureQuery {
  home: string;
  away: string;
  league?: string;
  from: string;
  to: string;
}

export class AliasError extends Error {
  override name = 'AliasError';
}

export type ImportProgress = (done: number, total: number) => void;

export interface ImportReport {
  rows: number;
  inserted: number;
  /** Rows already stored (a re-import, or a file overlapping another). */
  duplicates: number;
}

export interface FileImportReport extends ImportReport {
  file: string;
  skipped: SkippedRow[];
}

const BATCH = 500;

/** The usual long names of newly imported clubs (known-aliases.ts), as alias rows. */
function knownAliasesOf(
  teams: ReadonlyArray<FootballTeam | undefined>,
): Array<{ teamId: number; alias: string; aliasNormalized: string }> {
  return teams.flatMap((team) =>
    team
      ? [...(KNOWN_TEAM_ALIASES[team.name] ?? []), ...nationalTeamAliases(team.name)]
          .map((alias) => ({ teamId: team.id, alias, aliasNormalized: normalizeName(alias) }))
          .filter((row) => row.aliasNormalized !== team.nameNormalized)
      : [],
  );
}

export interface FootballServiceDeps {
  db: Database;
  config: Pick<Config, 'resultsBaseUrl' | 'downloadMaxBytes'>;
  /** Downloads the season files (tests point RESULTS_BASE_URL at a local server instead). */
  fetch?: typeof fetch;
  /** When a sync's outcome is recorded (the console's sync health); the system clock without it. */
  clock?: Clock;
}

/** A played match as the bookmakers saw it: margin-free home/draw/away probabilities, and the result. */
export interface MarketView {
  matchId: number;
  probabilities: Probabilities3;
  actual: 'home' | 'draw' | 'away';
}

/** A cup season file's scheduled matches, for the fixtures module. */
export interface CupSeasonFixtures {
  competition: string | null;
  scheduled: {
    home: string;
    away: string;
    stage: string | null;
    leg: 1 | 2 | null;
    /** A knockout round's match (not a group's, nor a league phase's). */
    knockout: boolean;
    kickoffAt: string;
  }[];
  skipped: number;
}

/**
 * Stores the national teams' results file (the worker's INTERNATIONAL_RESULTS_URL sync), names
 * brought to current ones by the reader, with the new rows counted per competition code for the
 * console's sync health. A text that is not that file is refused before anything is written.
 */
async function importInternationalText(
  db: Database,
  importRows: (rows: readonly ResultRow[]) => Promise<ImportReport>,
  text: string,
  file: string,
): Promise<FileImportReport & { insertedByCompetition: Map<string, number> }> {
  if (!isInternationalResultsHeader(parseCsv(text.slice(0, text.search(/[\r\n]|$/)))[0]?.fields ?? [])) {
    throw new Error(`${file} is not the international results file (date,home_team,away_team,…)`);
  }
  const parsed = parseInternationalResults(text);
  const rows = internationalResultRows(parsed.matches);
  // The file holds every international since 1872 and grows by a few a day: the matches already
  // stored are left out before any write, so a daily pass writes only what is new.
  const keyOf = (day: string, home: string, away: string) =>
    `${day}|${normalizeName(home)}|${normalizeName(away)}`;
  const stored = new Set(
    (await internationalMatchesBefore(db, '9999-12-31')).map((match) =>
      keyOf(match.playedOn, match.homeName, match.awayName),
    ),
  );
  const byCompetition = new Map<string, ResultRow[]>();
  for (const row of rows) {
    if (stored.has(keyOf(row.date, row.homeTeam, row.awayTeam))) continue;
    const group = byCompetition.get(row.league);
    if (group) group.push(row);
    else byCompetition.set(row.league, [row]);
  }
  const insertedByCompetition = new Map<string, number>();
  let inserted = 0;
  for (const [code, part] of byCompetition) {
    const report = await importRows(part);
    insertedByCompetition.set(code, report.inserted);
    inserted += report.inserted;
  }
  const report: ImportReport = { rows: rows.length, inserted, duplicates: rows.length - inserted };
  const skipped = [...parsed.skipped, ...scheduledSkipped(parsed.matches)];
  return { ...report, file, skipped, insertedByCompetition };
}

/** Results imports: parsed rows, a CSV text or file, a season downloaded from football-data.co.uk. */
function createResultsImport({ db, config, fetch: fetchImpl = fetch, clock }: FootballServiceDeps) {
  /** Stores parsed rows: leagues and teams created as met, matches inserted once (a stored one takes the file's odds). */
  async function importRows(rows: readonly ResultRow[], onProgress?: ImportProgress): Promise<ImportReport> {
    const leagueIds = new Map<string, number>();
    for (const code of new Set(rows.map((row) => row.league))) {
      let league = await findLeagueByCode(db, code);
      if (!league) {
        await insertLeague(db, code, code);
        league = await findLeagueByCode(db, code);
      }
      if (league) leagueIds.set(code, league.id);
    }

    const names = new Map<string, string>();
    for (const row of rows) {
      for (const name of [row.homeTeam, row.awayTeam]) {
        const normalized = normalizeName(name);
        if (!names.has(normalized)) names.set(normalized, name);
      }
    }
    let teams = await findTeams(db, [...names.keys()]);
    const missing = [...names].filter(([normalized]) => !teams.has(normalized));
    await insertTeams(
      db,
      missing.map(([nameNormalized, name]) => ({ name, nameNormalized })),
    );
    if (missing.length > 0) {
      teams = await findTeams(db, [...names.keys()]);
      await insertTeamAliases(db, knownAliasesOf(missing.map(([normalized]) => teams.get(normalized))));
    }

    let inserted = 0;
    // One match per pairing and day (the table's key): a file listing one twice (the international
    // file has Tahiti v New Caledonia twice on 1974-02-17) keeps its first, the second a duplicate.
    const seen = new Set<string>();
    onProgress?.(0, rows.length);
    for (let start = 0; start < rows.length; start += BATCH) {
      const batch: NewFootballMatch[] = [];
      for (const row of rows.slice(start, start + BATCH)) {
        const leagueId = leagueIds.get(row.league);
        const home = teams.get(normalizeName(row.homeTeam));
        const away = teams.get(normalizeName(row.awayTeam));
        // Two names that resolve to one team (through an alias) cannot be a match.
        if (leagueId === undefined || !home || !away || home.id === away.id) continue;
        const key = `${home.id}:${away.id}:${row.date}`;
        if (seen.has(key)) continue;
        seen.add(key);
        batch.push({
          leagueId,
          season: row.season,
          playedOn: row.date,
          kickoff: row.kickoff,
          homeTeamId: home.id,
          awayTeamId: away.id,
          homeGoals: row.homeGoals,
          awayGoals: row.awayGoals,
          halfTimeHomeGoals: row.halfTimeHomeGoals,
          halfTimeAwayGoals: row.halfTimeAwayGoals,
          homeShots: row.homeShots,
          awayShots: row.awayShots,
          homeShotsOnTarget: row.homeShotsOnTarget,
          awayShotsOnTarget: row.awayShotsOnTarget,
          neutral: row.neutral ?? false,
          ...oddsColumns(row.market),
        });
      }
      inserted += await insertMatches(db, batch);
      onProgress?.(Math.min(start + BATCH, rows.length), rows.length);
    }
    return { rows: rows.length, inserted, duplicates: rows.length - inserted };
  }

  /**
   * Parses a results CSV text and stores its rows, reported under the name `file`: a
   * football-data.co.uk layout, or the national teams' results file (told by its header).
   */
  async function importText(
    text: string,
    file: string,
    onProgress?: ImportProgress,
    options: { league?: string; season?: string } = {},
  ): Promise<FileImportReport> {
    if (isInternationalResultsHeader(parseCsv(text.slice(0, text.search(/[\r\n]|$/)))[0]?.fields ?? [])) {
      const parsed = parseInternationalResults(text);
      const report = await importRows(internationalResultRows(parsed.matches), onProgress);
      return { ...report, file, skipped: [...parsed.skipped, ...scheduledSkipped(parsed.matches)] };
    }
    const parsed = parseResultsCsv(text, options);
    const rows = options.season
      ? parsed.rows.map((row) => ({ ...row, season: options.season! }))
      : parsed.rows;
    const report = await importRows(rows, onProgress);
    return { ...report, file, skipped: parsed.skipped };
  }

  /** Stores a cup season file's played matches (their 90-minute scores), under the cup's code. */
  async function importCupText(
    text: string,
    path: string,
    onProgress?: ImportProgress,
  ): Promise<FileImportReport> {
    const file = readCupFile(path, text);
    const { rows, skipped } = cupResultRows(file);
    const report = await importRows(rows, onProgress);
    return { ...report, file: file.file, skipped: [...file.skipped, ...skipped] };
  }

  /**
   * Downloads one league's season from RESULTS_BASE_URL and imports it; the season's rows are
   * labelled with `season`. An extra league's file holds every season: its rows of `season` (or of
   * its calendar years, for a league played within one year) are kept, with their own labels.
   */
  async function download(
    code: string,
    season: string,
    onProgress?: ImportProgress,
  ): Promise<FileImportReport & { url: string }> {
    if (isExtraLeague(code)) {
      const url = extraResultsUrl(config.resultsBaseUrl, code);
      const text = await downloadResults(url, { maxBytes: config.downloadMaxBytes, fetchImpl });
      const parsed = parseResultsCsv(text);
      const labels = new Set(extraSeasonLabels(season));
      const rows = parsed.rows.filter((row) => row.league === code && labels.has(row.season));
      const report = await importRows(rows, onProgress);
      return { ...report, file: `${code} ${season}`, skipped: parsed.skipped, url };
    }
    const url = resultsUrl(config.resultsBaseUrl, code, season);
    const text = await downloadResults(url, { maxBytes: config.downloadMaxBytes, fetchImpl });
    const report = await importText(text, `${code} ${season}`, onProgress, { league: code, season });
    return { ...report, url };
  }

  /** `download`, its outcome recorded for the console's sync health (a failure's first line). */
  async function syncLeague(
    code: string,
    season: string,
    onProgress?: ImportProgress,
  ): Promise<FileImportReport & { url: string }> {
    const at = () => clock?.now() ?? new Date();
    try {
      const report = await download(code, season, onProgress);
      await recordSync(db, [code], 'results', at(), { stored: report.inserted });
      return report;
    } catch (error) {
      const reason = oneLine(error);
      await recordSync(db, [code], 'results', at(), { error: reason }).catch(() => undefined);
      throw error;
    }
  }

  return {
    importRows,
    importText,

    /**
     * Imports a file of any of the three layouts, or a European cup's season file (Football.TXT
     * or the cup CSV); a file without a league column (results only) takes its league from its
     * name (`SC1-2015-16.csv`).
     */
    async importFile(path: string, onProgress?: ImportProgress): Promise<FileImportReport> {
      const name = basename(path);
      const text = decodeResults(await readFile(path));
      if (isCupText(text)) return importCupText(text, path, onProgress);
      const league = fileLeagueSeason(name)?.league;
      return importText(text, name, onProgress, league ? { league } : {});
    },

    importCupText,

    importInternationalText: (text: string, file: string) =>
      importInternationalText(db, importRows, text, file),

    syncLeague,

    /** The daily sync's step: the season current at `now`, downloaded and imported. */
    async syncCurrentSeason(
      code: string,
      now: Date,
    ): Promise<FileImportReport & { url: string; season: string }> {
      const season = currentSeason(now);
      return { ...(await syncLeague(code, season)), season };
    },
  };
}

/** Aliases: a second name for a team or a league, whichever of the two names is already known. */
function createAliases(db: Database) {
  return {
    /**
     * Links two names of one team: whichever already names a team (by name or alias) is the team,
     * the other becomes its alias, so `team:alias "Manchester United" "Man United"` works either way round.
     */
    async addTeamAlias(
      first: string,
      second: string,
    ): Promise<{ team: FootballTeam; alias: string; added: boolean }> {
      const [a, b] = [normalizeName(first), normalizeName(second)];
      if (a === '' || b === '') throw new AliasError('Both names must contain letters or digits');
      const found = await findTeams(db, [a, b]);
      const teamA = found.get(a);
      const teamB = found.get(b);
      if (teamA && teamB) {
        if (teamA.id === teamB.id) return { team: teamA, alias: second, added: false };
        throw new AliasError(`"${first}" and "${second}" are two different teams already`);
      }
      const team = teamA ?? teamB;
      if (!team) {
        throw new AliasError(`Neither "${first}" nor "${second}" is a known team; import results first`);
      }
      const alias = team === teamA ? second : first;
      const added = await insertTeamAlias(db, team.id, alias.trim(), normalizeName(alias));
      return { team, alias: alias.trim(), added };
    },

    /** Same as team aliases, for leagues: `league:alias E0 "Premier League"` either way round. */
    async addLeagueAlias(
      first: string,
      second: string,
    ): Promise<{ league: FootballLeague; alias: string; added: boolean }> {
      const [a, b] = [normalizeName(first), normalizeName(second)];
      if (a === '' || b === '') throw new AliasError('Both names must contain letters or digits');
      const leagueA = await findLeague(db, a);
      const leagueB = await findLeague(db, b);
      if (leagueA && leagueB) {
        if (leagueA.id === leagueB.id) return { league: leagueA, alias: second, added: false };
        throw new AliasError(`"${first}" and "${second}" are two different leagues already`);
      }
      const league = leagueA ?? leagueB;
      if (!league) throw new AliasError(`Neither "${first}" nor "${second}" is a known league code or name`);
      const alias = league === leagueA ? second : first;
      const added = await insertLeagueAlias(db, league.id, alias.trim(), normalizeName(alias));
      return { league, alias: alias.trim(), added };
    },
  };
}

/**
 * The fixtures module's needs (issue 25): it keeps its own tables and reaches leagues, teams and
 * results only through these.
 */
function createFixtureNeeds(db: Database) {
  return {
    /**
     * A league by its code and teams by name (any case, accents, aliases), each created when new
     * as a results import creates them (known aliases too), so the fixtures of a league never
     * imported still sync. The map is keyed by the names as given. `executor`: the caller's
     * transaction, when the teams must come and go with its own writes (an admin's import).
     */
    async ensureLeagueAndTeams(
      code: string,
      names: readonly string[],
      executor: Executor = db,
    ): Promise<{ league: FootballLeague; teams: Map<string, FootballTeam> }> {
      const db = executor;
      let league = await findLeagueByCode(db, code);
      if (!league) {
        await insertLeague(db, code, code);
        league = await findLeagueByCode(db, code);
      }
      if (!league) throw new Error(`league ${code} could not be stored`);
      const byNormalized = new Map<string, string>();
      for (const name of names) {
        const normalized = normalizeName(name);
        if (normalized !== '' && !byNormalized.has(normalized)) byNormalized.set(normalized, name.trim());
      }
      let found = await findTeams(db, [...byNormalized.keys()]);
      const missing = [...byNormalized].filter(([normalized]) => !found.has(normalized));
      if (missing.length > 0) {
        await insertTeams(
          db,
          missing.map(([nameNormalized, name]) => ({ name, nameNormalized })),
        );
        found = await findTeams(db, [...byNormalized.keys()]);
        await insertTeamAliases(db, knownAliasesOf(missing.map(([normalized]) => found.get(normalized))));
      }
      const teams = new Map<string, FootballTeam>();
      for (const name of names) {
        const team = found.get(normalizeName(name));
        if (team) teams.set(name, team);
      }
      return { league, teams };
    },

    /**
     * Reads a downloaded fixtures.csv (either encoding the results files use), keeping `leagues`
     * (all when empty); throws FixturesFileError on a malformed file, so nothing of it is stored.
     */
    parseFixturesFile(bytes: Uint8Array, leagues: readonly string[]): FixtureRow[] {
      return parseFixturesCsv(decodeResults(bytes), leagues);
    },

    /**
     * A European cup's Football.TXT file (FOOTBALL_TXT_URL): its cup and its scheduled matches at
     * their Central European kick-off; throws when the text is not such a file.
     */
    parseCupSeason(name: string, text: string): CupSeasonFixtures {
      if (!isCupText(text)) throw new Error(`${name} is not a Football.TXT season file`);
      const file = readCupFile(name, text);
      const scheduled = file.matches.filter((match) => match.score === null && match.extraTime === null);
      return {
        competition: file.matches[0]?.competition ?? null,
        skipped: file.skipped.length,
        scheduled: scheduled.map((match) => ({
          home: match.home,
          away: match.away,
          stage: match.stage,
          leg: match.leg,
          knockout: match.knockout,
          kickoffAt: centralEuropeanKickoff(match.date, match.kickoff).toISOString(),
        })),
      };
    },
    /** Known teams matching a typed text (name or alias, any case and accents), for a picker. */
    searchTeams(text: string, limit: number): Promise<FootballTeam[]> {
      const normalized = normalizeName(text);
      return normalized === '' ? Promise.resolve([]) : searchTeams(db, normalized, limit);
    },

    /** Leagues by id. */
    leaguesByIds(ids: readonly number[]): Promise<FootballLeague[]> {
      return findLeaguesByIds(db, ids);
    },

    /** The earliest stored result of each window's pairing (index-aligned; undefined: none). */
    resultsOf(windows: readonly FixtureWindow[]): Promise<Array<FixtureResult | undefined>> {
      return findFixtureResults(db, windows);
    },
  };
}

export function createFootballService({ db, config, fetch: fetchImpl = fetch, clock }: FootballServiceDeps) {
  /**
   * The catalogue's leagues as stored, by code, once found: a league row is only ever inserted,
   * never changed or deleted, so a competition's fixtures page need not look it up again (issue 57).
   */
  const catalogueLeagues = new Map<string, FootballLeague>();

  async function resolveLeague(text: string): Promise<FootballLeague | undefined> {
    // A catalogue code as written (`INT-AFCON`: the folding would take its hyphen).
    const known = competitionOf(text);
    let byCode = known ? catalogueLeagues.get(known.code) : undefined;
    if (known && !byCode) {
      byCode = await findLeagueByCode(db, known.code);
      if (byCode) catalogueLeagues.set(known.code, byCode);
    }
    if (byCode) return byCode;
    const normalized = normalizeName(text);
    return normalized === '' ? undefined : findLeague(db, normalized);
  }

  /** Teams by name or alias, in the order asked (undefined where none): one lookup for all of them. */
  async function resolveTeams(texts: readonly string[]): Promise<(FootballTeam | undefined)[]> {
    const normalized = texts.map(normalizeName);
    const found = await findTeams(
      db,
      normalized.filter((name) => name !== ''),
    );
    return normalized.map((name) => (name === '' ? undefined : found.get(name)));
  }

  async function resolveTeam(text: string): Promise<FootballTeam | undefined> {
    return (await resolveTeams([text]))[0];
  }

  /**
   * The stored result of each fixture, resolved as the analyst resolves names (any case, accents,
   * aliases; a named league restricts the match to it when we know that league): one query for the
   * teams, one per distinct league text, one for all the matches. Index-aligned with `fixtures`.
   */
  async function findFixtures(fixtures: readonly FixtureQuery[]): Promise<Array<FixtureResult | undefined>> {
    const names = new Set<string>();
    for (const fixture of fixtures) {
      names.add(normalizeName(fixture.home));
      names.add(normalizeName(fixture.away));
    }
    names.delete('');
    const teams = await findTeams(db, [...names]);
    const leagues = new Map<string, number | null>();
    for (const fixture of fixtures) {
      const text = fixture.league ? normalizeName(fixture.league) : '';
      if (text !== '' && !leagues.has(text)) leagues.set(text, (await findLeague(db, text))?.id ?? null);
    }
    const windows: FixtureWindow[] = [];
    const positions: number[] = [];
    fixtures.forEach((fixture, index) => {
      const home = teams.get(normalizeName(fixture.home));
      const away = teams.get(normalizeName(fixture.away));
      if (!home || !away || home.id === away.id) return;
      const league = fixture.league ? (leagues.get(normalizeName(fixture.league)) ?? null) : null;
      windows.push({
        homeTeamId: home.id,
        awayTeamId: away.id,
        leagueId: league,
        from: fixture.from,
        to: fixture.to,
      });
      positions.push(index);
    });
    const found = await findFixtureResults(db, windows);
    const results: Array<FixtureResult | undefined> = fixtures.map(() => undefined);
    positions.forEach((position, index) => {
      results[position] = found[index];
    });
    return results;
  }

  return {
    resolveLeague,
    resolveTeam,
    resolveTeams,
    findFixtures,
    ...createResultsImport({ db, config, fetch: fetchImpl, ...(clock ? { clock } : {}) }),
    ...createAliases(db),

    /** The league a team played its latest match in, before a day (yyyy-mm-dd, exclusive). */
    async latestLeagueOf(teamId: number, before: string): Promise<FootballLeague | undefined> {
      const leagueId = await latestLeagueOfTeam(db, teamId, before);
      return leagueId === undefined ? undefined : findLeagueById(db, leagueId);
    },

    /** Every national-team result played before a day (yyyy-mm-dd, exclusive), oldest first. */
    internationalMatches(before: string): Promise<StoredInternationalMatch[]> {
      return internationalMatchesBefore(db, before);
    },

    /** Every result of these leagues played before a day (yyyy-mm-dd, exclusive), oldest first. */
    ratingMatches(leagueCodes: readonly string[], before: string): Promise<StoredRatingMatch[]> {
      return ratingMatchesBefore(db, leagueCodes, before);
    },

    /** A league's matches played on days in [from, before), oldest first. */
    playedMatches(leagueId: number, from: string, before: string): Promise<StoredMatch[]> {
      return leagueMatches(db, leagueId, from, before);
    },

    /**
     * What changes when this league's results change (an import of another league leaves it), and
     * its latest result day before `before` (yyyy-mm-dd, exclusive).
     */
    leagueVersion(leagueId: number, before: string) {
      return leagueVersion(db, leagueId, before);
    },

    /** Cheap facts that change whenever results are added (matches, leagues, highest match id). */
    stats(): Promise<{ matches: number; leagues: number; maxId: number }> {
      return matchStats(db);
    },

    /** The season under way at `now` (`2025-26`: July to June). */
    currentSeason,

    /** Whether `text` names a season the results server has (`2025-26`). */
    isSeason(text: string): boolean {
      return seasonFolder(text) !== null;
    },

    /** Every league's stored results by 1X2 outcome (the track record's naive baseline), with its name. */
    leagueFrequencies() {
      return leagueFrequencies(db);
    },

    /**
     * The bookmakers' margin-free 1X2 view of played matches (the track record's market
     * calibration): closing odds where stored, else pre-match, Pinnacle before the market average
     * (the order the market rating reads them in), with the match's actual 1X2 result. Matches
     * without any 1X2 odds are left out.
     */
    async marketViews(matchIds: readonly number[]): Promise<MarketView[]> {
      const views: MarketView[] = [];
      for (const row of await matchesOneXTwoOdds(db, matchIds)) {
        const triple = pastOneXTwoOdds(marketOddsOf(row.odds));
        if (!triple) continue;
        views.push({
          matchId: row.id,
          probabilities: impliedProbabilities<Probabilities3>(triple as Probabilities3),
          actual: row.homeGoals > row.awayGoals ? 'home' : row.homeGoals === row.awayGoals ? 'draw' : 'away',
        });
      }
      return views;
    },

    /** The final score of each stored match among `ids`, by id. */
    async scoresOf(ids: readonly number[]): Promise<Map<number, { home: number; away: number }>> {
      const rows = await matchScores(db, ids);
      return new Map(rows.map((row) => [row.id, { home: row.homeGoals, away: row.awayGoals }]));
    },

    ...createFixtureNeeds(db),

    /** The stored leagues' ids of these codes (codes never stored are left out). */
    async leagueIdsOf(codes: readonly string[]): Promise<number[]> {
      return (await findLeaguesByCodes(db, codes)).map((league) => league.id);
    },

    /** Every stored league's history: its matches, those played since `since` and how many carry odds. */
    histories(since: string) {
      return leagueHistories(db, since);
    },

    /** Records a sync's outcome for competitions (the fixtures sync records its own here). */
    recordSync(
      codes: readonly string[],
      source: SyncSource,
      at: Date,
      outcome: { stored: number } | { error: string },
    ): Promise<void> {
      return recordSync(db, codes, source, at, outcome);
    },

    /** The recorded sync outcomes, one row per competition and source. */
    syncStatuses() {
      return syncStatuses(db);
    },
  };
}

export type FootballService = ReturnType<typeof createFootballService>;
