// Walk-forward evaluation: each test match is predicted by a model fitted on the training
// matches plus every test match played on an earlier day, never on odds; the engine is scored
// beside a naive baseline (training H/D/A frequencies) and the bookmaker's margin-free odds.
import { dayOf, type FittedModel, fitModel, type ModelSettings } from './model.js';
import type { PlayedMatch } from './types.js';

export type Outcome = 0 | 1 | 2;
export type Probabilities3 = [number, number, number];

export interface EvaluationMatch extends PlayedMatch {
  league: string;
  /** Margin-free bookmaker 1X2 probabilities, when the file has odds. */
  bookmaker: Probabilities3 | null;
  /** Margin-free bookmaker over/under 2.5 probabilities [over, under], when known. */
  bookmakerOverUnder: [number, number] | null;
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

export function evaluate(
  train: readonly EvaluationMatch[],
  test: readonly EvaluationMatch[],
  forecaster: ModelForecaster = defaultForecaster(),
  onProgress?: EvaluationProgress,
): EvaluationReport {
  const leagues = [...new Set(test.map((match) => match.league))].sort();
  const engine = new Accumulator();
  const baseline = new Accumulator();
  const bookmaker = new Accumulator();
  const perLeague: Record<string, LeagueScores> = {};
  const scored = test.filter((match) => match.bookmaker !== null).length;
  let done = 0;

  const pooledFrequencies = frequencies(train);
  for (const league of leagues) {
    const leagueTrain = train.filter((match) => match.league === league);
    const leagueTest = test.filter((match) => match.league === league).sort((a, b) => a.date - b.date);
    const base = leagueTrain.length > 0 ? frequencies(leagueTrain) : pooledFrequencies;
    const engineLeague = new Accumulator();
    const bookmakerLeague = new Accumulator();
    const history: PlayedMatch[] = [...leagueTrain];
    let model: FittedModel | undefined;

    for (let i = 0; i < leagueTest.length; ) {
      const day = dayOf(leagueTest[i]!.date);
      let end = i;
      while (end < leagueTest.length && dayOf(leagueTest[end]!.date) === day) end++;
      model = forecaster.fit(history, day, model);
      for (const match of leagueTest.slice(i, end)) {
        if (match.bookmaker === null) continue;
        const markets = model.predict(match.home, match.away).markets;
        const p: Probabilities3 = [markets.oneXTwo.home, markets.oneXTwo.draw, markets.oneXTwo.away];
        const outcome = outcomeOf(match);
        const over = match.homeGoals + match.awayGoals > 2;
        engine.add(p, outcome);
        engineLeague.add(p, outcome);
        baseline.add(base.result, outcome);
        bookmaker.add(match.bookmaker, outcome);
        bookmakerLeague.add(match.bookmaker, outcome);
        if (match.bookmakerOverUnder) {
          engine.addOverUnder([markets.overUnder25.over, markets.overUnder25.under], over);
          baseline.addOverUnder(base.overUnder, over);
          bookmaker.addOverUnder(match.bookmakerOverUnder, over);
        }
        done++;
        onProgress?.(done, scored);
      }
      history.push(...leagueTest.slice(i, end));
      i = end;
    }
    const engineScores = engineLeague.scores();
    const bookmakerScores = bookmakerLeague.scores();
    perLeague[league] = {
      matches: engineLeague.n,
      engine_rps: engineScores.rps,
      bookmaker_rps: bookmakerScores.rps,
      rps_ratio: engineScores.rps / bookmakerScores.rps,
    };
  }

  const engineScores = engine.scores();
  const bookmakerScores = bookmaker.scores();
  return {
    matches: engine.n,
    engine: engineScores,
    baseline: baseline.scores(),
    bookmaker: bookmakerScores,
    rps_ratio: engineScores.rps / bookmakerScores.rps,
    leagues: perLeague,
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
