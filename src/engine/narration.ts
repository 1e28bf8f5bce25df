// The analysis told from the model's numbers, once for every language: who is stronger and why,
// the expected goals, recent form, the pick and how sure the model is, and a caveat when data is
// thin. This file decides what is said and in which order; the words are the language's phrases
// (`analysisTexts` of src/lib/catalogues/fr.ts and en.ts), handed in. Among equivalent phrasings
// it chooses by a hash of the fixture, the same place in every language's list, so the same input
// always gives the same text. It never promises an outcome and never urges a stake.
import type { Catalogue } from '../lib/catalogues/fr.js';
import type { Stake } from './stakes.js';
import type { DataQuality, MarketName, TeamContext } from './types.js';

/** A language's phrases for the analysis and the pick labels. */
export type NarrationPhrases = Catalogue['analysisTexts'];

export interface AnalysisFacts {
  market: MarketName;
  pick: string;
  pickLabel: string;
  confidence: number;
  home: TeamContext & { attack: number; defence: number };
  away: TeamContext & { attack: number; defence: number };
  league: { name: string | null; known: boolean; stale?: { latestResult: string | null } };
  oneXTwo: { home: number; draw: number; away: number };
  bttsYes: number;
  over25: number;
  scores: Array<{ score: string; probability: number }>;
  expectedGoals: { home: number; away: number };
  dataQuality: DataQuality;
  /** End-of-season stakes, when judged (see stakes.ts). */
  stakes: { home: Stake | null; away: Stake | null };
}

type Team = AnalysisFacts['home'];

/** FNV-1a: a stable, cheap hash to choose among equivalent phrasings. */
function hash(text: string): number {
  let value = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    value ^= text.charCodeAt(i);
    value = Math.imul(value, 0x01000193);
  }
  return value >>> 0;
}

function choose(options: readonly string[], seed: number, salt: number): string {
  return options[(seed + salt * 7919) % options.length]!;
}

/** The label of a market's pick, with the sides' names. */
export function pickLabel(
  market: MarketName,
  pick: string,
  home: string,
  away: string,
  phrases: NarrationPhrases,
): string {
  const { picks } = phrases;
  switch (market) {
    case '1x2':
    case 'full_analysis':
      return pick === 'home' ? picks.win(home) : pick === 'away' ? picks.win(away) : picks.draw;
    case 'double_chance':
      return pick === 'home_draw'
        ? picks.orDraw(home)
        : pick === 'draw_away'
          ? picks.drawOr(away)
          : picks.noDraw(home, away);
    case 'btts':
      return pick === 'yes' ? picks.bothScore : picks.notBothScore;
    case 'over_under_2_5':
      return pick === 'over' ? picks.over : picks.under;
    case 'exact_score':
      return picks.exactScore(home, pick.replace('-', ' - '), away);
  }
}

function certainty(confidence: number, phrases: NarrationPhrases): string {
  const { certainty } = phrases;
  if (confidence >= 0.7) return certainty.strong;
  if (confidence >= 0.55) return certainty.clear;
  if (confidence >= 0.42) return certainty.moderate;
  return certainty.fragile;
}

function formText(team: Team, phrases: NarrationPhrases): string | null {
  const form = team.form;
  if (!form || form.results.length === 0) return null;
  const wins = form.results.filter((letter) => letter === 'V').length;
  const draws = form.results.filter((letter) => letter === 'N').length;
  const losses = form.results.length - wins - draws;
  const parts = [
    wins > 0 ? phrases.wins(wins) : null,
    draws > 0 ? phrases.draws(draws) : null,
    losses > 0 ? phrases.losses(losses) : null,
  ].filter((part) => part !== null);
  return phrases.form(
    team.name,
    phrases.formLetters(form.results.join('')),
    parts.join(', '),
    phrases.scored(form.goalsFor),
    phrases.conceded(form.goalsAgainst),
  );
}

function strengthText(team: Team, phrases: NarrationPhrases): string | null {
  if (!team.known) return null;
  const traits: string[] = [];
  if (team.attack > 0.25) traits.push(phrases.traits.attackStrong);
  else if (team.attack < -0.2) traits.push(phrases.traits.attackWeak);
  if (team.defence > 0.25) traits.push(phrases.traits.defenceStrong);
  else if (team.defence < -0.2) traits.push(phrases.traits.defenceWeak);
  if (traits.length === 0) return null;
  return phrases.strengths(team.name, traits.join(phrases.and));
}

function stakesText(facts: AnalysisFacts, phrases: NarrationPhrases): string | null {
  const { home, away } = facts.stakes;
  if (home === 'live' && away === 'dead') return phrases.stakesOneSided(facts.away.name, facts.home.name);
  if (home === 'dead' && away === 'live') return phrases.stakesOneSided(facts.home.name, facts.away.name);
  if (home === 'dead' && away === 'dead') return phrases.stakesNone;
  return null;
}

function opening(facts: AnalysisFacts, seed: number, phrases: NarrationPhrases): string {
  const { home, away, oneXTwo } = facts;
  const gap = oneXTwo.home - oneXTwo.away;
  const { openings } = phrases;
  const list =
    oneXTwo.home >= 0.6
      ? openings.homeClear
      : oneXTwo.away >= 0.55
        ? openings.awayFavourite
        : Math.abs(gap) < 0.1
          ? openings.even
          : gap > 0
            ? openings.homeEdge
            : openings.awayEdge;
  return choose(
    list.map((phrase) => phrase(home.name, away.name)),
    seed,
    1,
  );
}

/** `2020-03-08` in the language's long form (`8 mars 2020`). */
function longDate(day: string, phrases: NarrationPhrases): string {
  const [year, month, date] = day.split('-').map(Number);
  return phrases.longDate(date!, phrases.months[(month ?? 1) - 1]!, year!);
}

function caveat(facts: AnalysisFacts, phrases: NarrationPhrases): string | null {
  const { caveats } = phrases;
  const stale = facts.league.stale;
  if (stale) {
    const league = facts.league.name ?? caveats.thisLeague;
    return stale.latestResult
      ? caveats.staleSince(league, longDate(stale.latestResult, phrases))
      : caveats.staleNothing(league);
  }
  if (!facts.league.known) return caveats.uncovered;
  const unknown = [facts.home, facts.away].filter((team) => !team.known).map((team) => team.name);
  if (unknown.length === 2) return caveats.bothUnknown;
  if (unknown.length === 1) return caveats.oneUnknown(unknown[0]!);
  if (facts.dataQuality.level === 'low') return caveats.lowData;
  return null;
}

function marketSentence(facts: AnalysisFacts, seed: number, phrases: NarrationPhrases): string {
  const sure = certainty(facts.confidence, phrases);
  const chance = facts.confidence;
  const { markets } = phrases;
  switch (facts.market) {
    case 'btts':
      return facts.pick === 'yes' ? markets.bttsYes(chance, sure) : markets.bttsNo(chance, sure);
    case 'over_under_2_5': {
      const total = facts.expectedGoals.home + facts.expectedGoals.away;
      return facts.pick === 'over' ? markets.over(total, chance, sure) : markets.under(total, chance, sure);
    }
    case 'exact_score': {
      const others = facts.scores
        .slice(1, 3)
        .map((entry) => markets.scoreChance(entry.score, entry.probability))
        .join(phrases.and);
      return markets.exactScore(facts.pick, chance, others);
    }
    case 'double_chance':
      return markets.doubleChance(facts.pickLabel, chance, sure);
    default:
      return choose(
        [
          markets.ourReading(facts.pick === 'draw' ? markets.aDraw : facts.pickLabel, chance, sure),
          markets.likeliest(facts.pickLabel, chance, sure),
        ],
        seed,
        3,
      );
  }
}

function fullAnalysisExtras(facts: AnalysisFacts, phrases: NarrationPhrases): string {
  const { markets } = phrases;
  const { home, draw, away } = facts.oneXTwo;
  return markets.fullAnalysis(
    home,
    draw,
    away,
    facts.over25 >= 0.5 ? markets.overLean : markets.underLean,
    Math.max(facts.over25, 1 - facts.over25),
    facts.bttsYes >= 0.5 ? markets.bothScoreLean : markets.oneBlankLean,
    Math.max(facts.bttsYes, 1 - facts.bttsYes),
    facts.scores[0]?.score ?? '',
  );
}

/** The analysis of `facts`, in the language of `phrases`. */
export function writeAnalysis(facts: AnalysisFacts, phrases: NarrationPhrases): string {
  const seed = hash(`${facts.home.name}|${facts.away.name}|${facts.market}`);
  const sentences: string[] = [opening(facts, seed, phrases)];

  const strengths = [strengthText(facts.home, phrases), strengthText(facts.away, phrases)].filter(
    (text) => text !== null,
  );
  if (strengths.length > 0) sentences.push(`${strengths.join(phrases.listSeparator)}.`);
  const stakes = stakesText(facts, phrases);
  if (stakes) sentences.push(stakes);

  const { home, away } = facts.expectedGoals;
  sentences.push(
    choose(
      phrases.expectedGoals.map((phrase) => phrase(home, facts.home.name, away, facts.away.name)),
      seed,
      2,
    ),
  );

  const forms = [formText(facts.home, phrases), formText(facts.away, phrases)].filter(
    (text) => text !== null,
  );
  if (forms.length > 0) sentences.push(phrases.lastFive(forms.join(phrases.listSeparator)));

  sentences.push(marketSentence(facts, seed, phrases));
  if (facts.market === 'full_analysis') sentences.push(fullAnalysisExtras(facts, phrases));

  const warning = caveat(facts, phrases);
  if (warning) sentences.push(warning);
  sentences.push(choose(phrases.closings, seed, 4));
  return sentences.join(' ');
}

/**
 * An analysis with a sentence on its competition's thin history (issue 50): `short` when it holds
 * too few recent results, `results` when they carry no odds. The sentence goes before the closing
 * one (after the whole text when the closing is not found, an LLM's rewrite).
 */
export function withHistoryNote(
  analysis: string,
  note: 'short' | 'results',
  league: string | null,
  phrases: NarrationPhrases,
): string {
  const { caveats } = phrases;
  const name = league ?? caveats.thisLeague;
  const sentence = note === 'short' ? caveats.historyShort(name) : caveats.resultsOnly(name);
  return withSentence(analysis, sentence, phrases);
}

/** A caveat sentence added before the text's closing line (or at its end without one). */
export function withSentence(analysis: string, sentence: string, phrases: NarrationPhrases): string {
  const closing = phrases.closings.find((text) => analysis.endsWith(text));
  if (!closing) return `${analysis} ${sentence}`;
  return `${analysis.slice(0, analysis.length - closing.length)}${sentence} ${closing}`;
}
