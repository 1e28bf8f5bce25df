// Where results come from, before the service stores them: football-data.co.uk's file of a league's
// season (`{RESULTS_BASE_URL}/<yyyy>/<Div>.csv`) or an extra league's country file, its URL, its download and its text encoding.
import { type DownloadOptions, downloadBytes } from '../../lib/download.js';
import { seasonFolder } from './results-csv.js';

/** football-data.co.uk files are mostly ASCII, but older ones are Windows-1252, not UTF-8. */
export function decodeResults(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
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

/**
 * An extra league's file (one per country, every season): football-data.co.uk keeps them in `new/`
 * beside the season folders (`…/mmz4281` → `…/new/ARG.csv`), so one RESULTS_BASE_URL serves both.
 */
export function extraResultsUrl(baseUrl: string, code: string): string {
  if (!/^[A-Za-z0-9]{1,8}$/.test(code)) throw new Error(`"${code}" is not a league code such as ARG`);
  return new URL(`../new/${code}.csv`, `${baseUrl.replace(/\/+$/, '')}/`).toString();
}

/** The season labels an extra league's sync keeps: a `2025-26` season's own, or its two calendar years. */
export function extraSeasonLabels(season: string): string[] {
  const start = Number(season.slice(0, 4));
  return [season, String(start), String(start + 1)];
}

export async function downloadResults(url: string, options: DownloadOptions): Promise<string> {
  return decodeResults(await downloadBytes(url, options));
}
