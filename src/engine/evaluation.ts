// Walk-forward evaluation: each test match is predicted by a model fitted on the training
// matches plus every test match played on an earlier day (their results and, for the market
// rating, their odds), never on the predicted match's own closing odds; with `prematchOdds` each
// match's own pre-match odds are an input too. The engine is scored beside a naive baseline
// (training H/D/A frequencies) and the bookmaker's margin-free closing odds.

import { dayOf, type FittedModel, fitModel, type ModelSettings } from './model.js';
import { seededRandom } from './random.js';
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
  matches: number;
  engine_rps: number;
  bookmaker_rps: number;
  rps_ratio: number;
}

export interface EvaluationReport {
  matches: number;
  engine: Scores;
  baseline: Scores;
  bookmaker: Scores;
  rps_ratio: number;
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
  fit(history: readonly PlayedMatch[], asOf: number, previous?: FittedModel): FittedModel;
}

export function defaultForecaster(settings?: ModelSettings): ModelForecaster {
  return { fit: (history, asOf, previous) => fitModel(history, asOf, settings, previous) };
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
  outcome: Outcome;
  engine: Probabilities3;
  baseline: Probabilities3;
  bookmaker: Probabilities3;
  /** Over/under 2.5 [over, under] when the bookmaker priced it. */
  overUnder: {
    over: boolean;
    engine: [number, number];
    baseline: [number, number];
    bookmaker: [number, number];
  } | null;
}

/** Walk-forward predictions of every test match with bookmaker odds, in league then date order. */
export function walkForward(
  train: readonly EvaluationMatch[],
  test: readonly EvaluationMatch[],
  forecaster: ModelForecaster = defaultForecaster(),
  onProgress?: EvaluationProgress,
  options: WalkOptions = {},
): ScoredMatch[] {
  const leagues = [...new Set(test.map((match) => match.league))].sort();
  const scored: ScoredMatch[] = [];
  const total = test.filter((match) => match.bookmaker !== null).length;
  const pooledFrequencies = frequencies(train);
  for (const league of leagues) {
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
      model = forecaster.fit(history, day, model);
      for (const match of leagueTest.slice(i, end)) {
        if (match.bookmaker === null) continue;
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
          outcome: outcomeOf(match),
          engine: [markets.oneXTwo.home, markets.oneXTwo.draw, markets.oneXTwo.away],
          baseline: base.result,
          bookmaker: match.bookmaker,
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
  /** 95 % bootstrap interval of the RPS ratio (matches resampled with replacement, seeded). */
  rps_ratio_ci: [number, number];
  ou_matches: number;
  engine_ou_logloss: number | null;
  bookmaker_ou_logloss: number | null;
  ou_ratio: number | null;
}

export interface DetailedReport extends EvaluationReport {
  rps_ratio_ci: [number, number];
  ou_ratio: number | null;
  ou_ratio_ci: [number, number] | null;
  blocks: Record<string, GroupScores & { leagues: Record<string, GroupScores> }>;
  seasons: Record<string, GroupScores>;
  months: Record<string, GroupScores>;
  /** Calendar month of the year (09 = September), pooled over seasons. */
  months_of_year: Record<string, GroupScores>;
}

const BOOTSTRAP_SAMPLES = 1000;
const BOOTSTRAP_SEED = 20_240_601;

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

/** Percentile interval of Σ engine / Σ bookmaker over matches drawn with replacement. */
export function bootstrapRatio(
  engine: Float64Array,
  bookmaker: Float64Array,
  seed = BOOTSTRAP_SEED,
): [number, number] {
  const n = engine.length;
  if (n === 0) return [Number.NaN, Number.NaN];
  const random = seededRandom(seed);
  const ratios = new Float64Array(BOOTSTRAP_SAMPLES);
  for (let b = 0; b < BOOTSTRAP_SAMPLES; b++) {
    let e = 0;
    let k = 0;
    for (let i = 0; i < n; i++) {
      const j = Math.floor(random() * n);
      e += engine[j]!;
      k += bookmaker[j]!;
    }
    ratios[b] = e / k;
  }
  ratios.sort();
  return [ratios[Math.floor(0.025 * BOOTSTRAP_SAMPLES)]!, ratios[Math.ceil(0.975 * BOOTSTRAP_SAMPLES) - 1]!];
}

export function groupScores(matches: readonly ScoredMatch[]): GroupScores {
  const n = matches.length;
  const engine = new Float64Array(n);
  const bookmaker = new Float64Array(n);
  let ouN = 0;
  let engineOu = 0;
  let bookmakerOu = 0;
  matches.forEach((match, i) => {
    engine[i] = rps(match.engine, match.outcome);
    bookmaker[i] = rps(match.bookmaker, match.outcome);
    if (match.overUnder) {
      ouN++;
      const side = match.overUnder.over ? 0 : 1;
      engineOu += logLoss(match.overUnder.engine, side);
      bookmakerOu += logLoss(match.overUnder.bookmaker, side);
    }
  });
  const engineRps = engine.reduce((sum, value) => sum + value, 0) / Math.max(n, 1);
  const bookmakerRps = bookmaker.reduce((sum, value) => sum + value, 0) / Math.max(n, 1);
  return {
    matches: n,
    engine_rps: engineRps,
    bookmaker_rps: bookmakerRps,
    rps_ratio: engineRps / bookmakerRps,
    rps_ratio_ci: bootstrapRatio(engine, bookmaker),
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
  return bootstrapRatio(engine, bookmaker);
}

function scoresOf(
  matches: readonly ScoredMatch[],
  pick: (match: ScoredMatch) => Probabilities3,
  ou: (match: ScoredMatch) => [number, number] | undefined,
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
  const bookmaker = scoresOf(
    matches,
    (m) => m.bookmaker,
    (m) => m.overUnder?.bookmaker,
  );
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
    rps_ratio: engine.rps / bookmaker.rps,
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
