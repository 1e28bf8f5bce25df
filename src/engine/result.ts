// The `result` object of DESIGN.md for each pronostic type, built from one prediction: the
// market's pick and probabilities (rounded so each market still sums exactly), the expected
// goals, the five likeliest scores, the data quality, and the analysis text, in French or English
// (the same numbers in both: only the words change).

import type { Locale, PronosticTypeSlug } from '../lib/allowed-values.js';
import { en } from '../lib/catalogues/en.js';
import { fr } from '../lib/catalogues/fr.js';
import type { Markets } from './markets.js';
import {
  type AnalysisFacts,
  pickLabel as labelOf,
  type NarrationPhrases,
  writeAnalysis,
} from './narration.js';
import type { Prediction } from './predict.js';
import type { DataQuality, DataQualityLevel, MarketName, OddsMode, TeamContext } from './types.js';

export const MARKET_OF: Record<PronosticTypeSlug, MarketName> = {
  '1x2': '1x2',
  'double-chance': 'double_chance',
  btts: 'btts',
  'over-under-2-5': 'over_under_2_5',
  'exact-score': 'exact_score',
  'full-analysis': 'full_analysis',
};

export interface MatchContext {
  home: TeamContext;
  away: TeamContext;
  league: {
    name: string | null;
    known: boolean;
    /** Set when the league's latest result is too old for the match (see analyst.ts): the day of that result, or null. */
    stale?: { latestResult: string | null };
  };
}

export interface MarketSummary {
  pick: string;
  confidence: number;
  probabilities: Record<string, number>;
}

export interface PronosticResult {
  market: MarketName;
  pick: string;
  pick_label: string;
  confidence: number;
  probabilities: Record<string, unknown>;
  expected_goals: { home: number; away: number };
  scores: Array<{ score: string; probability: number }>;
  data_quality: DataQuality;
  analysis: string;
}

const DECIMALS = 4;

function round(value: number, decimals = DECIMALS): number {
  const factor = 10 ** decimals;
  return Math.round(value * factor) / factor;
}

/** Rounds a distribution and puts the rounding residue on its largest entry, so it sums to 1. */
function roundDistribution<K extends string>(values: Record<K, number>): Record<K, number> {
  const keys = Object.keys(values) as K[];
  const rounded = {} as Record<K, number>;
  let total = 0;
  let largest = keys[0]!;
  for (const key of keys) {
    rounded[key] = round(values[key]);
    total += rounded[key];
    if (values[key] > values[largest]) largest = key;
  }
  rounded[largest] = round(rounded[largest] + 1 - total);
  return rounded;
}

/** The pick is the likeliest entry; ties go to the first key, so the choice is stable. */
function argmax(values: Record<string, number>): string {
  let best = '';
  let bestValue = Number.NEGATIVE_INFINITY;
  for (const [key, value] of Object.entries(values)) {
    if (value > bestValue) {
      best = key;
      bestValue = value;
    }
  }
  return best;
}

export function dataQuality(context: MatchContext, odds: OddsMode = 'none'): DataQuality {
  const home = context.home.known ? context.home.matches : 0;
  const away = context.away.known ? context.away.matches : 0;
  const fewest = Math.min(home, away);
  // Half a season of both sides makes the ratings settle; a full one more so.
  const level: DataQualityLevel =
    !context.league.known || context.league.stale || fewest < 10 ? 'low' : fewest < 30 ? 'medium' : 'high';
  const quality: DataQuality = { home_matches: home, away_matches: away, level, odds };
  if (context.league.stale) {
    quality.stale = true;
    quality.latest_result = context.league.stale.latestResult;
  }
  return quality;
}

/** Every market's pick, confidence and (rounded) probabilities. */
export function marketSummaries(
  markets: Markets,
): Record<Exclude<MarketName, 'full_analysis'>, MarketSummary> {
  const oneXTwo = roundDistribution(markets.oneXTwo);
  const doubleChance = {
    home_draw: round(oneXTwo.home + oneXTwo.draw),
    home_away: round(oneXTwo.home + oneXTwo.away),
    draw_away: round(oneXTwo.draw + oneXTwo.away),
  };
  const btts = roundDistribution(markets.btts);
  const overUnder = roundDistribution(markets.overUnder25);
  const scoreShares: Record<string, number> = {};
  let listed = 0;
  for (const { score, probability } of markets.topScores) {
    scoreShares[score] = probability;
    listed += probability;
  }
  scoreShares.other = Math.max(0, 1 - listed);
  const exact = roundDistribution(scoreShares);
  const summary = (probabilities: Record<string, number>, pick?: string): MarketSummary => {
    const chosen = pick ?? argmax(probabilities);
    return { pick: chosen, confidence: probabilities[chosen] ?? 0, probabilities };
  };
  return {
    '1x2': summary(oneXTwo),
    double_chance: summary(doubleChance),
    btts: summary(btts),
    over_under_2_5: summary(overUnder),
    // The pick is the likeliest scoreline, never `other`.
    exact_score: summary(exact, markets.topScores[0]?.score ?? '1-1'),
  };
}

/**
 * A language's phrases for the analysis: the catalogue of that language, named, never the
 * request's (the analysis runs in the pronostic's language, in the worker).
 */
export function narrationPhrases(locale: Locale): NarrationPhrases {
  return CATALOGUES[locale].analysisTexts;
}

/** Every language's catalogue: a language added to `Locale` without one fails the type-check. */
const CATALOGUES: Record<Locale, { analysisTexts: NarrationPhrases }> = { fr, en };

export function pickLabel(
  market: MarketName,
  pick: string,
  context: MatchContext,
  locale: Locale = 'fr',
): string {
  return labelOf(market, pick, context.home.name, context.away.name, narrationPhrases(locale));
}

export interface BuiltResult {
  result: PronosticResult;
  /** The numbers the text was written from: what an LLM narrative may rephrase, never change. */
  facts: AnalysisFacts;
}

/** The result of `type`; its words (pick label, analysis) in `locale`, its numbers the same in any. */
export function buildResult(
  type: PronosticTypeSlug,
  prediction: Prediction,
  context: MatchContext,
  locale: Locale = 'fr',
): BuiltResult {
  const market = MARKET_OF[type] ?? 'full_analysis';
  const summaries = marketSummaries(prediction.markets);
  const main = market === 'full_analysis' ? summaries['1x2'] : summaries[market];
  const quality = dataQuality(context, prediction.odds);
  const expectedGoals = {
    home: round(prediction.markets.expectedGoals.home, 2),
    away: round(prediction.markets.expectedGoals.away, 2),
  };
  const scores = prediction.markets.topScores.map(({ score, probability }) => ({
    score,
    probability: round(probability),
  }));
  const probabilities: Record<string, unknown> =
    market === 'full_analysis' ? { ...main.probabilities, markets: summaries } : main.probabilities;
  const label = pickLabel(market, main.pick, context, locale);

  const facts: AnalysisFacts = {
    market,
    pick: main.pick,
    pickLabel: label,
    confidence: main.confidence,
    home: {
      ...context.home,
      attack: prediction.ratings.home.attack,
      defence: prediction.ratings.home.defence,
    },
    away: {
      ...context.away,
      attack: prediction.ratings.away.attack,
      defence: prediction.ratings.away.defence,
    },
    league: context.league,
    oneXTwo: summaries['1x2'].probabilities as AnalysisFacts['oneXTwo'],
    bttsYes: summaries.btts.probabilities.yes ?? 0,
    over25: summaries.over_under_2_5.probabilities.over ?? 0,
    scores,
    expectedGoals,
    dataQuality: quality,
    stakes: prediction.stakes,
  };
  return {
    result: {
      market,
      pick: main.pick,
      pick_label: label,
      confidence: main.confidence,
      probabilities,
      expected_goals: expectedGoals,
      scores,
      data_quality: quality,
      analysis: writeAnalysis(facts, narrationPhrases(locale)),
    },
    facts,
  };
}
