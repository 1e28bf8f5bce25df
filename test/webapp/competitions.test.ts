// The competition picker's rules, without a browser: a fixture's competition named with its
// country (its own, else the catalogue's), the groups by country in the language's order with the
// competitions of no country last, the search (name, country, code; accents and case aside), and
// the recent competitions kept per account, most recent first, at most five, a broken store read
// as empty.
import { describe, expect, it } from 'vitest';
import { type Competition, competitionLabel } from '../../webapp/src/competition-name.js';
import {
  groupByCountry,
  type KeyValueStore,
  matchesSearch,
  RECENT_LIMIT,
  recentCodes,
  recentCompetitions,
  rememberCompetition,
} from '../../webapp/src/competitions.js';

function competition(code: string, name: string, country: [string, string] | null, tier: number | null = 1) {
  return {
    code,
    name,
    country: country && { code: country[0], name: country[1] },
    kind: country ? 'league' : 'cup',
    tier,
    basis: 'odds',
    upcoming_fixtures: 0,
  } satisfies Competition;
}

const england: [string, string] = ['ENG', 'Angleterre'];
const CATALOGUE: Competition[] = [
  competition('E1', 'Championship', england, 2),
  competition('UCL', 'Ligue des champions', null, null),
  competition('E0', 'Premier League', england, 1),
  competition('SP1', 'La Liga', ['ESP', 'Espagne']),
  competition('T1', 'Süper Lig', ['TUR', 'Turquie']),
  competition('D1', 'Bundesliga', ['DEU', 'Allemagne']),
  competition('EC', 'National League', england, 5),
  competition('IRL', 'Premier Division', ['IRL', 'Irlande']),
];

function memoryStorage(): KeyValueStore {
  const items = new Map<string, string>();
  return { getItem: (key) => items.get(key) ?? null, setItem: (key, value) => void items.set(key, value) };
}

describe('a fixture’s competition', () => {
  const byCode = new Map(CATALOGUE.map((one) => [one.code, one]));
  it('is named with its own country when the fixture carries one', () => {
    expect(
      competitionLabel({ code: 'E0', name: 'Premier League', country: { code: 'ENG', name: 'England' } }),
    ).toBe('England · Premier League');
  });
  it('takes its country from the catalogue otherwise, and a cup of no country by its name alone', () => {
    expect(competitionLabel({ code: 'SP1', name: 'LaLiga' }, byCode)).toBe('Espagne · La Liga');
    expect(competitionLabel({ code: 'UCL', name: 'UCL' }, byCode)).toBe('Ligue des champions');
    expect(competitionLabel({ code: 'UCL', name: 'Ligue des champions', country: null })).toBe(
      'Ligue des champions',
    );
    expect(competitionLabel({ code: 'XX', name: 'Unknown cup' }, byCode)).toBe('Unknown cup');
  });
});

describe('the groups by country', () => {
  it('orders countries in the language, divisions by tier, the competitions of no country last', () => {
    const groups = groupByCountry(CATALOGUE, '', 'fr');
    expect(groups.map((group) => group.country)).toEqual([
      'Allemagne',
      'Angleterre',
      'Espagne',
      'Irlande',
      'Turquie',
      undefined,
    ]);
    expect(groups[1]!.competitions.map((one) => one.code)).toEqual(['E0', 'E1', 'EC']);
    expect(groups.at(-1)!.competitions.map((one) => one.code)).toEqual(['UCL']);
  });

  it('puts the national teams’ tournaments in a first group of their own, the cups last', () => {
    const withNationalTeams: Competition[] = [
      ...CATALOGUE,
      { ...competition('INT-AFCON', 'Coupe d’Afrique des nations', null, null), kind: 'international' },
      { ...competition('INT-WC', 'Coupe du monde', null, null), kind: 'international' },
    ];
    const groups = groupByCountry(withNationalTeams, '', 'fr');
    expect(groups.map((group) => group.key)).toEqual([
      'international',
      'DEU',
      'ENG',
      'ESP',
      'IRL',
      'TUR',
      '',
    ]);
    expect(groups[0]!.competitions.map((one) => one.code)).toEqual(['INT-AFCON', 'INT-WC']);
    expect(groups.at(-1)!.competitions.map((one) => one.code)).toEqual(['UCL']);
  });

  it('searches names, countries and codes, accents and case aside', () => {
    expect(groupByCountry(CATALOGUE, 'super lig', 'fr').map((group) => group.key)).toEqual(['TUR']);
    expect(groupByCountry(CATALOGUE, '  ANGLETERRE ', 'fr')[0]!.competitions).toHaveLength(3);
    expect(
      groupByCountry(CATALOGUE, 'premier', 'fr').flatMap((g) => g.competitions.map((c) => c.code)),
    ).toEqual(['E0', 'IRL']);
    expect(matchesSearch(CATALOGUE[3]!, 'sp1')).toBe(true);
    expect(matchesSearch(CATALOGUE[3]!, 'espana')).toBe(false);
    expect(groupByCountry(CATALOGUE, 'zzz', 'fr')).toEqual([]);
  });
});

describe('the recent competitions', () => {
  it('keeps the last used first, without repeats, at most five, per account', () => {
    const storage = memoryStorage();
    for (const code of ['E0', 'SP1', 'D1', 'E0', 'T1', 'IRL', 'EC', 'UCL'])
      rememberCompetition(storage, 7, code);
    expect(recentCodes(storage, 7)).toEqual(['UCL', 'EC', 'IRL', 'T1', 'E0']);
    expect(recentCodes(storage, 7)).toHaveLength(RECENT_LIMIT);
    expect(recentCodes(storage, 8)).toEqual([]);
  });

  it('reads a broken or foreign store as empty, and shows only codes still in the catalogue', () => {
    const storage = memoryStorage();
    storage.setItem('pronostics.recentCompetitions.7', '{not json');
    expect(recentCodes(storage, 7)).toEqual([]);
    storage.setItem('pronostics.recentCompetitions.7', JSON.stringify({ E0: true }));
    expect(recentCodes(storage, 7)).toEqual([]);
    storage.setItem('pronostics.recentCompetitions.7', JSON.stringify(['GONE', 3, 'SP1']));
    const byCode = new Map(CATALOGUE.map((one) => [one.code, one]));
    expect(recentCompetitions(recentCodes(storage, 7), byCode, '').map((one) => one.code)).toEqual(['SP1']);
    expect(recentCompetitions(['SP1', 'E0'], byCode, 'angl').map((one) => one.code)).toEqual(['E0']);
  });

  it('a storage that refuses to write leaves the list as it would be, without throwing', () => {
    const storage = memoryStorage();
    storage.setItem = () => {
      throw new Error('QuotaExceededError');
    };
    expect(rememberCompetition(storage, 7, 'E0')).toEqual(['E0']);
  });
});
