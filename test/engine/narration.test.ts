// The narration in both languages, pinned: facts covering every branch of the text (each market and
// pick, the opening's five situations, strengths, stakes, forms with one and several results, stale,
// uncovered and unknown data) give the French and the English texts and pick labels whose digests
// were taken before the narration was built from the catalogues' phrases.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type AnalysisFacts, writeAnalysis } from '../../src/engine/narration.js';
import { type MatchContext, narrationPhrases, pickLabel } from '../../src/engine/result.js';
import type { Form, MarketName } from '../../src/engine/types.js';
import type { Locale } from '../../src/lib/allowed-values.js';

function narrate(facts: AnalysisFacts, locale: Locale): string {
  return writeAnalysis(facts, narrationPhrases(locale));
}

function label(market: MarketName, pick: string, context: MatchContext, locale: Locale): string {
  return pickLabel(market, pick, context, locale);
}

/** A small seeded generator (mulberry32), so the facts are the same on every run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PICKS: Record<MarketName, string[]> = {
  '1x2': ['home', 'draw', 'away'],
  full_analysis: ['home', 'draw', 'away'],
  double_chance: ['home_draw', 'home_away', 'draw_away'],
  btts: ['yes', 'no'],
  over_under_2_5: ['over', 'under'],
  exact_score: ['1-0', '2-1', '0-0'],
};
const MARKETS = Object.keys(PICKS) as MarketName[];
const TEAMS = ['Arsenal', 'Coton Sport', 'Canon Yaoundé', 'Team 07', 'Lyon', 'PWD Bamenda', 'Inter', 'Leeds'];
const ONE_X_TWO = [
  { home: 0.66, draw: 0.2, away: 0.14 },
  { home: 0.2, draw: 0.22, away: 0.58 },
  { home: 0.36, draw: 0.3, away: 0.34 },
  { home: 0.45, draw: 0.27, away: 0.28 },
  { home: 0.28, draw: 0.27, away: 0.45 },
];
const LETTERS = ['V', 'N', 'D'] as const;

function formOf(random: () => number): Form | null {
  const length = Math.floor(random() * 6);
  if (length === 0 && random() < 0.5) return null;
  return {
    results: Array.from({ length }, () => LETTERS[Math.floor(random() * 3)]!),
    goalsFor: Math.floor(random() * 4),
    goalsAgainst: Math.floor(random() * 3),
  };
}

function factsAt(index: number): { facts: AnalysisFacts; context: MatchContext } {
  const random = generator(index + 1);
  const pickOf = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)]!;
  const market = MARKETS[index % MARKETS.length]!;
  const pick = pickOf(PICKS[market]);
  const homeName = TEAMS[index % TEAMS.length]!;
  const awayName = TEAMS[(index * 3 + 1) % TEAMS.length]!;
  const variant = index % 7;
  const team = (name: string, known: boolean) => ({
    name,
    known,
    matches: known ? 5 + Math.floor(random() * 60) : 0,
    form: known ? formOf(random) : null,
    attack: random() - 0.5,
    defence: random() - 0.5,
  });
  const home = team(homeName, variant !== 3 && variant !== 4);
  const away = team(awayName, variant !== 4);
  const stale =
    variant === 5
      ? {
          latestResult: `20${10 + (index % 15)}-${String(1 + (index % 12)).padStart(2, '0')}-0${1 + (index % 9)}`,
        }
      : variant === 6
        ? { latestResult: null }
        : undefined;
  const league = {
    name: index % 11 === 0 ? null : 'Elite One',
    known: variant !== 2,
    ...(stale ? { stale } : {}),
  };
  const stakes = pickOf([
    { home: null, away: null },
    { home: 'live', away: 'dead' },
    { home: 'dead', away: 'live' },
    { home: 'dead', away: 'dead' },
    { home: 'live', away: 'live' },
  ] as const);
  const context: MatchContext = { home, away, league };
  const expectedGoals = { home: pickOf([0.96, 1.0, 1.04, 1.94, 1.96, 2.4]), away: random() * 2.5 };
  const facts: AnalysisFacts = {
    market,
    pick,
    pickLabel: '',
    confidence: pickOf([0.31, 0.45, 0.6, 0.74]),
    home,
    away,
    league,
    oneXTwo: pickOf(ONE_X_TWO),
    bttsYes: random(),
    over25: random(),
    scores: [
      { score: pick.includes('-') ? pick : '1-1', probability: 0.12 },
      { score: '1-0', probability: 0.1 },
      { score: '0-1', probability: 0.085 },
    ].slice(0, index % 13 === 0 ? 0 : 3),
    expectedGoals,
    dataQuality: {
      home_matches: home.matches,
      away_matches: away.matches,
      level: pickOf(['low', 'medium', 'high']),
      odds: 'none',
    },
    stakes: { home: stakes.home, away: stakes.away },
  };
  return { facts, context };
}

function digestOf(locale: Locale): string {
  const texts = Array.from({ length: 600 }, (_, index) => {
    const { facts, context } = factsAt(index);
    const pickLabel = label(facts.market, facts.pick, context, locale);
    return [pickLabel, narrate({ ...facts, pickLabel }, locale)];
  });
  return createHash('sha256').update(JSON.stringify(texts)).digest('hex');
}

describe('the narration, pinned in both languages', () => {
  it('writes the French text and labels it wrote before', () => {
    expect(digestOf('fr')).toBe(FRENCH);
  });

  it('writes the English text and labels it wrote before', () => {
    expect(digestOf('en')).toBe(ENGLISH);
  });
});

const FRENCH = '2cc45ab2fb105fbd6279f82a4f6ebc3acc35c143841ec14d3f386a5907dd7c76';
const ENGLISH = '294857d46532f6a0852d0777e515770f7f94d3e46f13e9ad0e51e3139d741535';
