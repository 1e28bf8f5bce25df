// Which domestic club a European cup's club is: the cup files write `Olympique Lyonnais (FRA)` or
// `Olympique Lyon › FRA`, football-data.co.uk writes `Lyon`. A cup club is looked for among the
// clubs of its country's leagues in the data (UEFA's country code → our league codes), by the
// words the names share (weighted by how rare a word is among that country's clubs, a word
// matching a longer one it starts, `Lyon`/`Lyonnais`), and through the known aliases. A club not
// found, or from a country the data lacks, keeps a cup-only key, shared by both cup formats'
// spellings when they are close enough: its rating comes from cup results alone (decision 0147).
import { competitionOf } from '../../lib/competitions.js';
import { KNOWN_TEAM_ALIASES } from './known-aliases.js';
import { normalizeName } from './normalize.js';

/** UEFA's country codes (the cup files' `(ENG)`) → the leagues of that country in our catalogue. */
export const UEFA_COUNTRY_LEAGUES: Readonly<Record<string, readonly string[]>> = {
  ENG: ['E0', 'E1', 'E2', 'E3', 'EC'],
  SCO: ['SC0', 'SC1', 'SC2', 'SC3'],
  GER: ['D1', 'D2'],
  ESP: ['SP1', 'SP2'],
  ITA: ['I1', 'I2'],
  FRA: ['F1', 'F2'],
  NED: ['N1'],
  BEL: ['B1'],
  POR: ['P1'],
  TUR: ['T1'],
  GRE: ['G1'],
  AUT: ['AUT'],
  DEN: ['DNK'],
  FIN: ['FIN'],
  IRL: ['IRL'],
  NOR: ['NOR'],
  POL: ['POL'],
  ROU: ['ROU'],
  RUS: ['RUS'],
  SWE: ['SWE'],
  SUI: ['SWZ'],
};

/** Words that name no club in particular. */
const FILLER = new Set([
  'fc',
  'cf',
  'ac',
  'afc',
  'sc',
  'cd',
  'ud',
  'sv',
  'kv',
  'sk',
  'fk',
  'bk',
  'if',
  'ssc',
  'as',
  'ss',
  'rc',
  'rcd',
  'sl',
  'cp',
  'club',
  'de',
  'of',
  'the',
  'calcio',
  'football',
  'vfl',
  'vfb',
  'tsg',
  '1',
  '1899',
  '04',
  '05',
  '1846',
  'fsv',
  'bv',
  'ogc',
  'aj',
  'losc',
  'psv',
  'pfc',
  'nk',
  'hnk',
  'gnk',
  'jk',
  'istanbul',
]);
/** football-data.co.uk's short forms, spelt out. */
const SHORT = new Map([
  ['man', 'manchester'],
  ['ath', 'atletico'],
  ['sp', 'sporting'],
  ['ein', 'eintracht'],
  ['moskva', 'moscow'],
  ['munchen', 'munich'],
  ['st', 'saint'],
  ['din', 'dinamo'],
  ['bor', 'borussia'],
  ['dynamo', 'dinamo'],
  ['kobenhavn', 'copenhagen'],
  ['olympiacos', 'olympiakos'],
]);

export function clubWords(name: string): string[] {
  return normalizeName(name)
    .split(' ')
    .map((word) => SHORT.get(word) ?? word)
    .filter((word) => word !== '' && !FILLER.has(word));
}

const wordsMatch = (a: string, b: string) =>
  a === b || (a.length >= 4 && b.length >= 4 && (a.startsWith(b) || b.startsWith(a)));

/** The group of a club from a country: its top league in the data, else `country:<code>`. */
export function countryGroup(country: string | null, leagues: ReadonlySet<string>): string {
  const top = UEFA_COUNTRY_LEAGUES[country ?? '']?.find((league) => leagues.has(league));
  return top ?? `country:${country ?? '?'}`;
}

export interface ResolvedClub {
  /** The domestic club's name when found, else a cup-only key (`UKR:shakhtar donetsk`). */
  key: string;
  /** The group its strength belongs to (`SP1`, `country:UKR`). */
  group: string;
  /** Whether it is a club of the domestic data. */
  domestic: boolean;
}

/**
 * Resolves cup clubs against the domestic clubs given (league code → club names). The same
 * resolver must serve both formats so a club's two spellings meet.
 */
export class CupClubResolver {
  private readonly candidates = new Map<string, { name: string; words: string[][] }[]>();
  private readonly weights = new Map<string, Map<string, number>>();
  private readonly cupOnly = new Map<string, { key: string; words: string[] }[]>();
  private readonly cache = new Map<string, ResolvedClub>();
  private readonly leagues: Set<string>;
  private readonly leagueOfClub = new Map<string, string>();

  constructor(domestic: ReadonlyMap<string, ReadonlySet<string>>) {
    this.leagues = new Set(domestic.keys());
    for (const [country, codes] of Object.entries(UEFA_COUNTRY_LEAGUES)) {
      const list: { name: string; words: string[][] }[] = [];
      const frequency = new Map<string, number>();
      for (const code of codes) {
        for (const name of domestic.get(code) ?? []) {
          if (!this.leagueOfClub.has(name)) this.leagueOfClub.set(name, code);
          if (list.some((entry) => entry.name === name)) continue;
          const spellings = [name, ...(KNOWN_TEAM_ALIASES[name] ?? [])]
            .map(clubWords)
            .filter((w) => w.length > 0);
          list.push({ name, words: spellings });
          for (const word of new Set(spellings.flat())) frequency.set(word, (frequency.get(word) ?? 0) + 1);
        }
      }
      this.candidates.set(country, list);
      this.weights.set(
        country,
        new Map(
          [...frequency].map(([word, count]) => [word, 1 + Math.log(Math.max(list.length, 1) / count)]),
        ),
      );
    }
  }

  private similarity(a: readonly string[], b: readonly string[], weight: (word: string) => number): number {
    const total = (words: readonly string[]) => words.reduce((sum, word) => sum + weight(word), 0);
    let shared = 0;
    for (const word of a) if (b.some((other) => wordsMatch(word, other))) shared += weight(word);
    const norm = Math.sqrt(total(a) * total(b));
    return norm > 0 ? shared / norm : 0;
  }

  resolve(name: string, country: string | null): ResolvedClub {
    const cacheKey = `${country ?? ''}|${name}`;
    const cached = this.cache.get(cacheKey);
    if (cached) return cached;
    const words = clubWords(name);
    const code = country ?? '?';
    const weights = this.weights.get(code);
    const weight = (word: string) => weights?.get(word) ?? 1 + Math.log(Math.max(weights?.size ?? 1, 1));
    let best: { name: string; score: number } | null = null;
    for (const candidate of this.candidates.get(code) ?? []) {
      const score = Math.max(...candidate.words.map((spelling) => this.similarity(words, spelling, weight)));
      if (!best || score > best.score) best = { name: candidate.name, score };
    }
    let resolved: ResolvedClub;
    if (best && best.score >= 0.6) {
      resolved = { key: best.name, group: this.groupOfDomestic(best.name, code), domestic: true };
    } else {
      const known = this.cupOnly.get(code) ?? [];
      const same = known.find((entry) => this.similarity(words, entry.words, () => 1) >= 0.7);
      const key = same?.key ?? `${code}:${words.join(' ')}`;
      if (!same) known.push({ key, words });
      this.cupOnly.set(code, known);
      resolved = { key, group: countryGroup(country, this.leagues), domestic: false };
    }
    this.cache.set(cacheKey, resolved);
    return resolved;
  }

  /** A domestic club's group is its country's top league: cup entrants play there. */
  private groupOfDomestic(name: string, country: string): string {
    const league = this.leagueOfClub.get(name);
    const top = UEFA_COUNTRY_LEAGUES[country]?.[0];
    return top && this.leagues.has(top) ? top : (league ?? `country:${country}`);
  }
}

/** A league's tier in the catalogue (null when unknown): the rating's starting offset reads it. */
export function tierOfGroup(group: string): number | null {
  return competitionOf(group)?.tier ?? null;
}
