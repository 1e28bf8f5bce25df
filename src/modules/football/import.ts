// Feeding results in: a CSV file from disk, or a season downloaded from football-data.co.uk
// (`{RESULTS_BASE_URL}/<yyyy>/<Div>.csv`), parsed, then stored without duplicates.
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { Database } from '../../db/client.js';
import { parseResultsCsv, type SkippedRow, seasonFolder } from './results-csv.js';
import { type ImportProgress, type ImportReport, importResultRows } from './service.js';

export interface FileImportReport extends ImportReport {
  file: string;
  skipped: SkippedRow[];
}

/** football-data.co.uk files are mostly ASCII, but older ones are Windows-1252, not UTF-8. */
export function decodeResults(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

export async function importResultsText(
  db: Database,
  text: string,
  file: string,
  onProgress?: ImportProgress,
  options: { league?: string; season?: string } = {},
): Promise<FileImportReport> {
  const parsed = parseResultsCsv(text, options);
  const rows = options.season ? parsed.rows.map((row) => ({ ...row, season: options.season! })) : parsed.rows;
  const report = await importResultRows(db, rows, onProgress);
  return { ...report, file, skipped: parsed.skipped };
}

export async function importResultsFile(
  db: Database,
  path: string,
  onProgress?: ImportProgress,
): Promise<FileImportReport> {
  return importResultsText(db, decodeResults(await readFile(path)), basename(path), onProgress);
}

/**
 * The season to sync at a date: from August on, the one starting that year (football-data.co.uk
 * publishes a season's file with its first matches, so in July the last one is still the current).
 */
export function currentSeason(now: Date): string {
  const year = now.getUTCFullYear();
  const start = now.getUTCMonth() >= 7 ? year : year - 1;
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

export function resultsUrl(baseUrl: string, code: string, season: string): string {
  const folder = seasonFolder(season);
  if (!folder) throw new Error(`"${season}" is not a season such as 2025-26`);
  if (!/^[A-Za-z0-9]{1,8}$/.test(code)) throw new Error(`"${code}" is not a league code such as E0`);
  return `${baseUrl.replace(/\/+$/, '')}/${folder}/${code}.csv`;
}

const DOWNLOAD_TIMEOUT_MS = 60_000;

export async function downloadResults(
  url: string,
  fetchImpl: typeof fetch = fetch,
  signal?: AbortSignal,
): Promise<string> {
  const timeout = AbortSignal.timeout(DOWNLOAD_TIMEOUT_MS);
  const response = await fetchImpl(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  if (!response.ok) throw new Error(`GET ${url} answered ${response.status}`);
  return decodeResults(new Uint8Array(await response.arrayBuffer()));
}

/** Downloads one league's season and imports it; the season's rows are labelled with `season`. */
export async function syncLeague(
  db: Database,
  options: { baseUrl: string; code: string; season: string; fetch?: typeof fetch },
  onProgress?: ImportProgress,
): Promise<FileImportReport & { url: string }> {
  const url = resultsUrl(options.baseUrl, options.code, options.season);
  const text = await downloadResults(url, options.fetch);
  const report = await importResultsText(db, text, `${options.code} ${options.season}`, onProgress, {
    league: options.code,
    season: options.season,
  });
  return { ...report, url };
}
