// The competitions a user picks fixtures from (DESIGN, "Fixtures": `GET /api/competitions`, called
// by competitions-call.ts): the groups by country that the picker shows with its search, and the
// user's recent competitions, remembered on this device per account (decision 0137). Pure but for
// the storage it is handed.
import type { Competition } from './competition-name.js';
import { folded } from './text.js';

export { type Competition, competitionLabel, type FixtureLeague } from './competition-name.js';

export interface CompetitionGroup {
  /**
   * The country's code; `international` for the national teams' tournaments (a group of their own,
   * first: the Lions' matches matter most here); '' for the other competitions of no country (the
   * European cups).
   */
  key: string;
  /** The country's name; undefined for the group of no country (the screen names it). */
  country: string | undefined;
  competitions: Competition[];
}

/** Top division first, then the others by tier, cups and tournaments (no tier) last; then by name. */
function byTierThenName(language: string) {
  return (a: Competition, b: Competition) =>
    (a.tier ?? 99) - (b.tier ?? 99) || a.name.localeCompare(b.name, language);
}

/** Whether `competition` answers the search: its name, its country's name or its code, accents aside. */
export function matchesSearch(competition: Competition, search: string): boolean {
  const wanted = folded(search.trim());
  if (wanted === '') return true;
  return [competition.name, competition.country?.name ?? '', competition.code].some((text) =>
    folded(text).includes(wanted),
  );
}

/**
 * The competitions answering `search`, grouped by country in the language's alphabetical order;
 * the national teams' tournaments in a first group of their own, the other competitions of no
 * country (the European cups) in a last one.
 */
export function groupByCountry(
  competitions: readonly Competition[],
  search: string,
  language: string,
): CompetitionGroup[] {
  const groups = new Map<string, CompetitionGroup>();
  for (const competition of competitions) {
    if (!matchesSearch(competition, search)) continue;
    const key = competition.country?.code ?? (competition.kind === 'international' ? 'international' : '');
    const group = groups.get(key) ?? { key, country: competition.country?.name, competitions: [] };
    group.competitions.push(competition);
    groups.set(key, group);
  }
  const order = byTierThenName(language);
  for (const group of groups.values()) group.competitions.sort(order);
  const rank = (group: CompetitionGroup) =>
    group.key === 'international' ? 0 : group.country === undefined ? 2 : 1;
  return [...groups.values()].sort((a, b) => {
    if (a.country === undefined || b.country === undefined) return rank(a) - rank(b);
    return a.country.localeCompare(b.country, language);
  });
}

/** What the recent list is kept in: localStorage in the app (a stand-in in tests). */
export interface KeyValueStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** How many recent competitions are kept and shown. */
export const RECENT_LIMIT = 5;

function recentKey(userId: number): string {
  return `pronostics.recentCompetitions.${userId}`;
}

/** The account's recent competition codes on this device, most recent first (none when unreadable). */
export function recentCodes(storage: Pick<KeyValueStore, 'getItem'>, userId: number): string[] {
  try {
    const stored: unknown = JSON.parse(storage.getItem(recentKey(userId)) ?? '[]');
    if (!Array.isArray(stored)) return [];
    return stored.filter((code): code is string => typeof code === 'string').slice(0, RECENT_LIMIT);
  } catch {
    return [];
  }
}

/** Puts `code` first in the account's recent competitions (at most RECENT_LIMIT); the new list. */
export function rememberCompetition(storage: KeyValueStore, userId: number, code: string): string[] {
  const next = [code, ...recentCodes(storage, userId).filter((known) => known !== code)].slice(
    0,
    RECENT_LIMIT,
  );
  try {
    storage.setItem(recentKey(userId), JSON.stringify(next));
  } catch {
    // A full or disabled storage: the list is only a convenience, the analysis is made all the same.
  }
  return next;
}

/** The recent codes that are still in the catalogue and answer the search, as competitions, in order. */
export function recentCompetitions(
  codes: readonly string[],
  byCode: ReadonlyMap<string, Competition>,
  search: string,
): Competition[] {
  return codes
    .map((code) => byCode.get(code))
    .filter((found): found is Competition => found !== undefined && matchesSearch(found, search));
}
