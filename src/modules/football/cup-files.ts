// Cup season files of either format (Football.TXT `.txt`, footballcsv's cup CSV), told apart from
// league files by their form, and their played matches as result rows the results import stores:
// the 90-minute score (the engine's and the settlement's score, DESIGN "Fixtures"), the cup's code as
// the league (`UCL`), the season from the file.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { parseCsv } from './csv.js';
import { isCupCsvHeader, parseCupCsv } from './cup-csv.js';
import { type CupMatch, isNeutral } from './cup-forecasts.js';
import { cupCodeOf, parseFootballTxt } from './football-txt.js';
import { readMarketOdds } from './odds-columns.js';
import type { ResultRow, SkippedRow } from './results-csv.js';

export interface LoadedCupFile {
  file: string;
  matches: CupMatch[];
  skipped: { line: number; reason: string }[];
}

/** Whether a file's text is a cup season: a Football.TXT file (title `= …` or `»` headings) or the cup CSV. */
export function isCupText(text: string): boolean {
  const start = text.replace(/^\uFEFF/, '').trimStart();
  return start.startsWith('=') || /^\s*»/m.test(start.slice(0, 4000)) || isCupCsvText(start);
}

function isCupCsvText(text: string): boolean {
  const firstLine = /^[^\r\n]*/.exec(text.replace(/^\uFEFF/, ''))![0];
  return isCupCsvHeader(parseCsv(firstLine)[0]?.fields ?? []);
}

/** The cup a file is when its text does not say (the CSV): from its path, the Champions League by default. */
export function cupOfPath(path: string): string {
  return (
    cupCodeOf(path.replace(/[-_/]/g, ' ')) ??
    (/uecl/i.test(path) ? 'UECL' : /\buel\b/i.test(path) ? 'UEL' : 'UCL')
  );
}

/** Reads a cup file of either format; its season from the text, else from the file's name. */
export function readCupFile(path: string, text: string): LoadedCupFile {
  const named = /(\d{4})-(\d{2})/.exec(basename(path));
  const seasonName = named ? `${named[1]}-${named[2]}` : undefined;
  const parsed = isCupCsvText(text)
    ? parseCupCsv(text, { competition: cupOfPath(path), ...(seasonName ? { season: seasonName } : {}) })
    : parseFootballTxt(text);
  const competition = parsed.competition ?? cupOfPath(path);
  const season = parsed.season ?? seasonName ?? '';
  return {
    file: basename(path),
    matches: parsed.matches.map((match) => ({ ...match, competition, season })),
    skipped: parsed.skipped,
  };
}

/** Splits files into cup files (read) and the others (left to the league reader). */
export async function partitionCupFiles(
  files: readonly string[],
): Promise<{ cups: LoadedCupFile[]; others: string[] }> {
  const cups: LoadedCupFile[] = [];
  const others: string[] = [];
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    if (isCupText(text)) cups.push(readCupFile(file, text));
    else others.push(file);
  }
  return { cups, others };
}

/** A cup file's played matches as result rows; a match without its 90-minute score is skipped. */
export function cupResultRows(file: LoadedCupFile): { rows: ResultRow[]; skipped: SkippedRow[] } {
  const rows: ResultRow[] = [];
  const skipped: SkippedRow[] = [];
  for (const match of file.matches) {
    if (match.score === null) {
      skipped.push({
        line: match.line,
        reason: match.extraTime ? 'extra time without the 90-minute score' : 'no score (match not played)',
      });
      continue;
    }
    rows.push({
      line: match.line,
      league: match.competition,
      season: match.season,
      date: match.date,
      timestamp: Date.parse(`${match.date}T00:00:00Z`),
      kickoff: match.kickoff,
      // A single-match knockout (a final) is played on neutral ground: no home term is learnt from it.
      neutral: isNeutral(match),
      homeTeam: match.home,
      awayTeam: match.away,
      homeGoals: match.score.home,
      awayGoals: match.score.away,
      halfTimeHomeGoals: match.halfTime?.home ?? null,
      halfTimeAwayGoals: match.halfTime?.away ?? null,
      homeShots: null,
      awayShots: null,
      homeShotsOnTarget: null,
      awayShotsOnTarget: null,
      homeCorners: null,
      awayCorners: null,
      odds: { pinnacleClosing: null, average: null, overUnderPinnacleClosing: null, overUnderAverage: null },
      market: readMarketOdds(() => undefined),
    });
  }
  return { rows, skipped };
}
