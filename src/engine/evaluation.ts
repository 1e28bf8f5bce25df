// Walk-forward evaluation: each test match is predicted by a model fitted on the training
// matches plus every test match played on an earlier day (their results and, for the market
// rating, their odds), never on the predicted match's own closing odds; with `prematchOdds` each
// match's own pre-match odds are an input too. The engine is scored beside a naive baseline
// (training H/D/A frequencies) and the bookmaker's margin-free closing odds. Every test match is
// forecast; one without prices (a results-only season) is scored for the engine and the
// baseline only, and the bookmaker's figures and the ratio are over the priced matches
// (docs/decisions/0141-evaluate-every-format.md).

import { dayClusteredRatio } from './bootstrap.js';
import { type LinkedHistory, linkedDivisions } from './divisions.js';
import { dayOf, type FittedModel, fitModel, type ModelSettings } from './model.js';
import { seasonOf } from './season.js';
import type { PlayedMatch, PrematchOdds } from './types.js';

export type Outcome = 0 | 1 | 2;
export type Probabilities3 = [number, number, number];

export interface EvaluationMatch extends PlayedMatch {
  league: string;
  /** Margin-free bookmaker 1X2 probabilities, when the file has odds. */
  bookmaker: Probabilities3 | null;
  /** Margin-free bookmaker over/under 2.5 probabilities [over, under], when known. */
  bookmakerOverUnder: [number, number] | null;
  /** The protocol block the match is reported in (`validation`, `final`…), if any. */
  block?: string | null;
  /** The match's own pre-match odds (collected days before): an input only with `prematchOdds`. */
  prematchOdds?: PrematchOdds | null;
  /** The names exactly as the file writes them, where not `home`/`away` (spaces around them). */
  written?: { home: string; away: string } | undefined;
}

export interface WalkOptions {
  /** Give each test match its own pre-match odds (the second mode), else none. */
  prematchOdds?: boolean;
}

export interface Scores {
  rps: number;
  logloss: number;
  brier: number;
  ou_logloss: number | null;
}

export interface LeagueScores {
  /** Every match forecast, priced or not. */
  matches: number;
  /** The engine's RPS over every match forecast. */
  engine_rps: number;
  /** The matches with the bookmaker's prices: the bookmaker's figures and the ratio are over these. */
  priced_matches: number;
  /** Null where no match had prices. */
  bookmaker_rps: number | null;
  /** The engine's RPS over the bookmaker's over the priced matches (paired); null without prices. */
  rps_ratio: number | null;
}

export interface EvaluationReport {
  matches: number;
  engine: Scores;
  baseline: Scores;
  /** Over the priced matches; null where none had prices. */
  bookmaker: Scores | null;
  rps_ratio: number | null;
  leagues: Record<string, LeagueScores>;
}

/** Proportional margin removal: p_i = (1/o_i) / Σ_j (1/o_j). */
export function impliedProbabilities<T extends number[]>(odds: T): T {
  const inverse = odds.map((value) => 1 / value);
  const total = inverse.reduce((sum, value) => sum + value, 0);
  return inverse.map((value) => value / total) as T;
}

export function outcomeOf(match: PlayedMatch): Outcome {
  return match.homeGoals > match.awayGoals ? 0 : match.homeGoals === match.awayGoals ? 1 : 2;
}

/** Ranked probability score of a home/draw/away forecast. */
export function rps(p: Probabilities3, outcome: Outcome): number {
  const o = [0, 0, 0];
  o[outcome] = 1;
  const first = p[0] - o[0]!;
  const second = p[0] + p[1] - o[0]! - o[1]!;
  return (first * first + second * second) / 2;
}

const FLOOR = 1e-12;

export function logLoss(p: readonly number[], outcome: number): number {
  return -Math.log(Math.max(p[outcome] ?? 0, FLOOR));
}

export function brier(p: Probabilities3, outcome: Outcome): number {
  return p.reduce((sum, value, i) => sum + (value - (i === outcome ? 1 : 0)) ** 2, 0);
}

class Accumulator {
  n = 0;
  rps = 0;
  logloss = 0;
  brier = 0;
  ouN = 0;
  ou = 0;

  add(p: Probabilities3, outcome: Outcome): void {
    this.n++;
    this.rps += rps(p, outcome);
    this.logloss += logLoss(p, outcome);
    this.brier += brier(p, outcome);
  }

  addOverUnder(p: [number, number], over: boolean): void {
    this.ouN++;
    this.ou += logLoss(p, over ? 0 : 1);
  }

  scores(): Scores {
    const n = Math.max(this.n, 1);
    return {
      rps: this.rps / n,
      logloss: this.logloss / n,
      brier: this.brier / n,
      ou_logloss: this.ouN > 0 ? this.ou / this.ouN : null,
    };
  }
}

export interface ModelForecaster {
  /** `linked`: the league's neighbouring divisions' matches (all of them: the fit reads those before `asOf`). */
  fit(
    history: readonly PlayedMatch[],
    asOf: number,
    previous?: FittedModel,
    linked?: LinkedHistory<PlayedMatch>,
  ): FittedModel;
}

export function defaultForecaster(settings?: ModelSettings): ModelForecaster {
  return {
    fit: (history, asOf, previous, linked) => fitModel(history, asOf, settings, previous, linked),
  };
}

export type EvaluationProgress = (done: number, total: number) => void;

/** One scored test match: what each forecaster said and what happened (the plots and summaries read these). */
export interface ScoredMatch {
  league: string;
  season: string;
  /** `yyyy-mm` of the match day. */
  month: string;
  block: string | null;
  date: number;
  /** The teams as the test file writes them (the forecasts file repeats them). */
  home: string;
  away: string;
  outcome: Outcome;
  engine: Probabilities3;
  baseline: Probabilities3;
  /** Null where the file has no prices for the match (never a made-up one). */
  bookmaker: Probabilities3 | null;
  /** Over/under 2.5 [over, under] when the bookmaker priced it. */
  overUnder: {
    over: boolean;
    engine: [number, number];
    baseline: [number, number];
    bookmaker: [number, number];
  } | null;
}

/** A scored match the bookmaker priced (the plots and the ratio read only these). */
export type PricedMatch = ScoredMatch & { bookmaker: Probabilities3 };
export const isPriced = (match: ScoredMatch): match is PricedMatch => match.bookmaker !== null;

/**
 * Walk-forward predictions of every test match, priced or not, in league then date order (a day's
 * matches in the order given). Each league's model is fitted as of the start of each match day on
 * its training matches and its test matches of earlier days only.
 */
export function walkForward(
  train: readonly EvaluationMatch[],
  test: readonly EvaluationMatch[],
  forecaster: ModelForecaster = defaultForecaster(),
  onProgress?: EvaluationProgress,
  options: WalkOptions = {},
): ScoredMatch[] {
  const leagues = [...new Set(test.map((match) => match.league))].sort();
  const scored: ScoredMatch[] = [];
  const total = test.length;
  const pooledFrequencies = frequencies(train);
  // Every division's matches, train and test: a league's fit reads its neighbours' before its day.
  const byLeague = new Map<string, PlayedMatch[]>();
  for (const match of [...train, ...test]) {
    const list = byLeague.get(match.league);
    if (list) list.push(match);
    else byLeague.set(match.league, [match]);
  }
  for (const league of leagues) {
    const neighbours = linkedDivisions(league)
      .filter((code) => byLeague.has(code))
      .map((code) => ({ league: code, matches: byLeague.get(code)! }));
    const linked = neighbours.length > 0 ? { league, neighbours } : undefined;
    const leagueTrain = train.filter((match) => match.league === league);
    const leagueTest = test.filter((match) => match.league === league).sort((a, b) => a.date - b.date);
    const base = leagueTrain.length > 0 ? frequencies(leagueTrain) : pooledFrequencies;
    const history: PlayedMatch[] = [...leagueTrain];
    let model: FittedModel | undefined;
    for (let i = 0; i < leagueTest.length; ) {
      const day = dayOf(leagueTest[i]!.date);
      let end = i;
      while (end < leagueTest.length && dayOf(leagueTest[end]!.date) === day) end++;
      // Fitted as of the start of the match day: nothing of that day is known yet.
      model = forecaster.fit(history, day, model, linked);
      for (const match of leagueTest.slice(i, end)) {
        const prematchOdds = options.prematchOdds ? (match.prematchOdds ?? undefined) : undefined;
        const markets = model.predict(match.home, match.away, {
          season: seasonOf(match),
          ...(prematchOdds ? { prematchOdds } : {}),
        }).markets;
        const month = new Date(match.date).toISOString().slice(0, 7);
        scored.push({
          league,
          season: seasonOf(match),
          month,
          block: match.block ?? null,
          date: match.date,
          home: match.written?.home ?? match.home,
          away: match.written?.away ?? match.away,
          outcome: outcomeOf(match),
          engine: [markets.oneXTwo.home, markets.oneXTwo.draw, markets.oneXTwo.away],
          baseline: base.result,
          bookmaker: match.bookmaker,
          // The engine's over/under is scored only beside the bookmaker's.
          overUnder: match.bookmakerOverUnder
            ? {
                over: match.homeGoals + match.awayGoals > 2,
                engine: [markets.overUnder25.over, markets.overUnder25.under],
                baseline: base.overUnder,
                bookmaker: match.bookmakerOverUnder,
              }
            : null,
        });
        onProgress?.(scored.length, total);
      }
      history.push(...leagueTest.slice(i, end));
      i = end;
    }
  }
  return scored;
}

/** A group's comparison with the market: RPS and O/U log-loss of both, their ratios, a bootstrap interval. */
export interface GroupScores extends LeagueScores {
  /** 95 % bootstrap interval of the RPS ratio (match days resampled with replacement, seeded); null without prices. */
  rps_ratio_ci: [number, number] | null;
  ou_matches: number;
  engine_ou_logloss: number | null;
  bookmaker_ou_logloss: number | null;
  ou_ratio: number | null;
}

export interface DetailedReport extends EvaluationReport {
  rps_ratio_ci: [number, number] | null;
  ou_ratio: number | null;
  ou_ratio_ci: [number, number] | null;
  blocks: Record<string, GroupScores & { leagues: Record<string, GroupScores> }>;
  seasons: Record<string, GroupScores>;
  months: Record<string, GroupScores>;
  /** Calendar month of the year (09 = September), pooled over seasons. */
  months_of_year: Record<string, GroupScores>;
}

function groupBy<K extends string>(matches: readonly ScoredMatch[], key: (match: ScoredMatch) => K | null) {
  const groups = new Map<K, ScoredMatch[]>();
  for (const match of matches) {
    const k = key(match);
    if (k === null) continue;
    const list = groups.get(k);
    if (list) list.push(match);
    else groups.set(k, [match]);
  }
  return new Map([...groups].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export function groupScores(matches: readonly ScoredMatch[]): GroupScores {
  const n = matches.length;
  const priced = matches.filter(isPriced);
  const engine = Float64Array.from(priced, (match) => rps(match.engine, match.outcome));
  const bookmaker = Float64Array.from(priced, (match) => rps(match.bookmaker, match.outcome));
  let ouN = 0;
  let engineOu = 0;
  let bookmakerOu = 0;
  for (const match of matches) {
    if (!match.overUnder) continue;
    ouN++;
    const side = match.overUnder.over ? 0 : 1;
    engineOu += logLoss(match.overUnder.engine, side);
    bookmakerOu += logLoss(match.overUnder.bookmaker, side);
  }
  const sum = (values: Float64Array) => values.reduce((total, value) => total + value, 0);
  const engineAll = matches.reduce((total, match) => total + rps(match.engine, match.outcome), 0);
  return {
    matches: n,
    engine_rps: engineAll / Math.max(n, 1),
    priced_matches: priced.length,
    bookmaker_rps: priced.length > 0 ? sum(bookmaker) / priced.length : null,
    rps_ratio: priced.length > 0 ? sum(engine) / sum(bookmaker) : null,
    rps_ratio_ci:
      priced.length > 0
        ? dayClusteredRatio(
            Float64Array.from(priced, (m) => m.date),
            engine,
            bookmaker,
          )
        : null,
    ou_matches: ouN,
    engine_ou_logloss: ouN > 0 ? engineOu / ouN : null,
    bookmaker_ou_logloss: ouN > 0 ? bookmakerOu / ouN : null,
    ou_ratio: ouN > 0 ? engineOu / bookmakerOu : null,
  };
}

function overUnderCi(matches: readonly ScoredMatch[]): [number, number] | null {
  const priced = matches.filter((match) => match.overUnder !== null);
  if (priced.length === 0) return null;
  const engine = Float64Array.from(priced, (m) => logLoss(m.overUnder!.engine, m.overUnder!.over ? 0 : 1));
  const bookmaker = Float64Array.from(priced, (m) =>
    logLoss(m.overUnder!.bookmaker, m.overUnder!.over ? 0 : 1),
  );
  return dayClusteredRatio(
    Float64Array.from(priced, (m) => m.date),
    engine,
    bookmaker,
  );
}

function scoresOf<M extends ScoredMatch>(
  matches: readonly M[],
  pick: (match: M) => Probabilities3,
  ou: (match: M) => [number, number] | undefined,
): Scores {
  const accumulator = new Accumulator();
  for (const match of matches) {
    accumulator.add(pick(match), match.outcome);
    const p = ou(match);
    if (p && match.overUnder) accumulator.addOverUnder(p, match.overUnder.over);
  }
  return accumulator.scores();
}

/** The pooled figures (the keys scripts read), then per block, league, season and month. */
export function summarise(matches: readonly ScoredMatch[]): DetailedReport {
  const engine = scoresOf(
    matches,
    (m) => m.engine,
    (m) => m.overUnder?.engine,
  );
  const priced = matches.filter(isPriced);
  const bookmaker =
    priced.length > 0
      ? scoresOf(
          priced,
          (m) => m.bookmaker,
          (m) => m.overUnder?.bookmaker,
        )
      : null;
  const pooled = groupScores(matches);
  const leagues: Record<string, LeagueScores> = {};
  for (const [league, group] of groupBy(matches, (m) => m.league)) leagues[league] = groupScores(group);
  const blocks: DetailedReport['blocks'] = {};
  for (const [block, group] of groupBy(matches, (m) => m.block)) {
    const perLeague: Record<string, GroupScores> = {};
    for (const [league, inLeague] of groupBy(group, (m) => m.league))
      perLeague[league] = groupScores(inLeague);
    blocks[block] = { ...groupScores(group), leagues: perLeague };
  }
  const record = (key: (m: ScoredMatch) => string) => {
    const out: Record<string, GroupScores> = {};
    for (const [k, group] of groupBy(matches, key)) out[k] = groupScores(group);
    return out;
  };
  return {
    matches: matches.length,
    engine,
    baseline: scoresOf(
      matches,
      (m) => m.baseline,
      (m) => m.overUnder?.baseline,
    ),
    bookmaker,
    rps_ratio: pooled.rps_ratio,
    leagues,
    rps_ratio_ci: pooled.rps_ratio_ci,
    ou_ratio: pooled.ou_ratio,
    ou_ratio_ci: overUnderCi(matches),
    blocks,
    seasons: record((m) => `${m.league} ${m.season}`),
    months: record((m) => m.month),
    months_of_year: record((m) => m.month.slice(5, 7)),
  };
}

function frequencies(matches: readonly PlayedMatch[]): {
  result: Probabilities3;
  overUnder: [number, number];
} {
  const counts = [1, 1, 1];
  let over = 1;
  for (const match of matches) {
    counts[outcomeOf(match)]! += 1;
    if (match.homeGoals + match.awayGoals > 2) over++;
  }
  const total = counts[0]! + counts[1]! + counts[2]!;
  const overShare = over / (matches.length + 2);
  return {
    result: [counts[0]! / total, counts[1]! / total, counts[2]! / total],
    overUnder: [overShare, 1 - overShare],
  };
}
