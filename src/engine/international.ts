// National teams' forecaster (issue 52, decision 0152): a goal model rated online, pooled with an
// Elo rating, walked over every international in date order. National sides play few matches, on
// neutral ground half the time, in friendlies that say less than finals, within confederations
// that rarely meet; the model answers each fact with one term:
//   - goals: log λ = level + home·[not neutral] + attack(home) − defence(away), the same for μ
//     without the home term; after each match-day every side's attack and defence take a step
//     along the Poisson score's gradient (observed − expected goals), the step weighted by the
//     tournament class and larger for a side with few matches (its rating is less sure);
//   - confederations: each has an offset added to its sides' attack and defence, moved only by
//     matches between confederations (the only ones that say how the groups compare);
//   - the home term per host confederation, learnt the same way (home advantage is larger in
//     African and South American qualifiers than in European friendlies), a little more for a
//     host at its own finals (decision 0163);
//   - an Elo rating with the same tournament weights and an ordered-logit draw model learnt
//     online, pooled log-linearly with the goal model's 1X2; the score matrix is then raked onto
//     the pooled 1X2, so every market (1X2, BTTS, over/under, exact score) reads one matrix.
// Extra time (decision 0159): the file's scores include it, and knockout matches are inferred
// from their edition's earlier results (international-stages.ts). A shoot-out match or a level
// knockout score was played over 120 minutes: its expected goals are scaled by 1 + extra time's
// share (extra time's goal rate is low) in the update; a knockout won, by its expected share.
// Two readings: `forecast` is about the 90 minutes (every analysis); `recordedOneXTwo` is about
// the outcome the file records (after extra time in a knockout), what the evaluation scores.

import { TournamentStages } from './international-stages.js';
import { marketsFrom } from './markets.js';
import { rakeMatrix, type ScoreMatrix, scoreMatrix } from './score-matrix.js';
import type { TeamRating } from './types.js';

/** What the forecaster weighs a match by (international-csv.ts's classes). */
export type TournamentClass =
  | 'world-cup'
  | 'continental-final'
  | 'qualifier'
  | 'nations-league'
  | 'friendly'
  | 'other';

export interface InternationalResult {
  /** Epoch milliseconds of the match day (00:00 UTC). */
  date: number;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  neutral: boolean;
  tournamentClass: TournamentClass;
  /** The sides' confederations (null outside the six). */
  homeConfederation: string | null;
  awayConfederation: string | null;
  /** The tournament's name as the file writes it (its editions' stages are inferred from it). */
  tournament?: string;
  /** The match went to a shoot-out: a draw after 120 minutes, its goals scored in 120. */
  shootout?: boolean;
}

export interface InternationalFixture {
  home: string;
  away: string;
  neutral: boolean;
  tournamentClass: TournamentClass;
  homeConfederation: string | null;
  awayConfederation: string | null;
  /** The tournament's name as the file writes it (its editions' stages are inferred from it). */
  tournament?: string;
}

export interface InternationalSettings {
  /** Step of the goal ratings per unit of goal error. */
  rate: number;
  /** A side's step is rate·(1 + newBoost·e^(−matches/newMatches)). */
  newBoost: number;
  newMatches: number;
  /** Starting attack and defence of a side first seen (newcomers are mostly small nations). */
  newcomerAttack: number;
  newcomerDefence: number;
  /** Step of the confederation offsets (inter-confederation matches only). */
  confederationRate: number;
  /** Step of the goal level and of the home terms. */
  levelRate: number;
  homeRate: number;
  /** Starting home term (log scale). */
  home: number;
  /** Goal errors are clipped to ±this (a 31-0 says little more than a 6-0). */
  errorCap: number;
  /** Diagonal factor of the score matrix (log): draws beyond independent Poisson. */
  drawBase: number;
  /** Added to `drawBase` per tournament class (finals and friendlies draw differently). */
  drawByClass: Record<TournamentClass, number>;
  /** Weight of each tournament class in the updates (friendlies say less than finals). */
  weights: Record<TournamentClass, number>;
  /** Elo: K per class (eloratings.net's 60/50/40/30/20 scaled by `eloScale`), home bonus in points. */
  eloScale: number;
  eloHome: number;
  /** Step of the online ordered logit (Elo difference → home/draw/away). */
  logitRate: number;
  /** Log-linear weight of the Elo forecast in the pool (0: the goal model alone). */
  eloWeight: number;
  /** Extra time's expected goals as a share of the 90 minutes' (30 minutes, tired legs). */
  extraTimeShare: number;
  /** Added to the draw factor in a knockout match (level after 90 minutes, extra time ahead). */
  knockoutDraw: number;
  /**
   * Added to the home term of a host at its own World Cup or continental finals (the file marks
   * those matches not neutral): a host's crowd fills the stadium, and it has lived there.
   */
  finalsHome: number;
}

export const INTERNATIONAL_SETTINGS: InternationalSettings = {
  rate: 0.0356,
  newBoost: 3.38,
  newMatches: 19.5,
  newcomerAttack: -0.182,
  newcomerDefence: -0.879,
  confederationRate: 0.0155,
  levelRate: 0.00119,
  homeRate: 0.00182,
  home: 0.39,
  errorCap: 5.07,
  drawBase: 0.0593,
  drawByClass: {
    'world-cup': -0.1,
    'continental-final': -0.1,
    qualifier: -0.1,
    'nations-league': 0,
    friendly: 0.1,
    other: -0.1,
  },
  weights: {
    'world-cup': 0.924,
    'continental-final': 0.652,
    qualifier: 0.77,
    'nations-league': 1,
    friendly: 0.7,
    other: 0.801,
  },
  eloScale: 0.771,
  eloHome: 130,
  logitRate: 0.00119,
  eloWeight: 0.14,
  extraTimeShare: 0.15,
  knockoutDraw: 0.2,
  finalsHome: 0.05,
};

/** eloratings.net's K by tournament (WC finals 60, continental finals 50, qualifiers 40, others 30, friendlies 20). */
export const ELO_K: Record<TournamentClass, number> = {
  'world-cup': 60,
  'continental-final': 50,
  qualifier: 40,
  'nations-league': 40,
  friendly: 20,
  other: 30,
};

/** eloratings.net's goal-difference multiplier. */
export function eloGoalFactor(difference: number): number {
  const n = Math.abs(difference);
  if (n <= 1) return 1;
  if (n === 2) return 1.5;
  return (11 + n) / 8;
}

export const ELO_START = 1500;

interface Side {
  attack: number;
  defence: number;
  elo: number;
  matches: number;
}

export interface InternationalForecast {
  matrix: ScoreMatrix;
  /** [home, draw, away] after pooling (the matrix's own 1X2). */
  oneXTwo: [number, number, number];
  known: { home: boolean; away: boolean };
  matches: { home: number; away: number };
}

/** A matrix's home/draw/away (what `marketsFrom` reads, without its other markets). */
function oneXTwoOf({ p, size }: ScoreMatrix): [number, number, number] {
  const sums: [number, number, number] = [0, 0, 0];
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) sums[x > y ? 0 : x === y ? 1 : 2] += p[x * size + y]!;
  }
  const total = sums[0] + sums[1] + sums[2];
  return [sums[0] / total, sums[1] / total, sums[2] / total];
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Home/draw/away of a short match with independent Poisson goals (extra time's 30 minutes). */
export function extraTimeOneXTwo(lambda: number, mu: number): [number, number, number] {
  const row = (rate: number) => {
    const values: number[] = [];
    let term = Math.exp(-rate);
    for (let goals = 0; goals <= 8; goals++) {
      values.push(term);
      term *= rate / (goals + 1);
    }
    return values;
  };
  const [home, away] = [row(lambda), row(mu)];
  const sums: [number, number, number] = [0, 0, 0];
  for (let x = 0; x < home.length; x++) {
    for (let y = 0; y < away.length; y++) sums[x > y ? 0 : x === y ? 1 : 2] += home[x]! * away[y]!;
  }
  const total = sums[0] + sums[1] + sums[2];
  return [sums[0] / total, sums[1] / total, sums[2] / total];
}

/**
 * The outcome a knockout match's record shows, from its 90 minutes' 1X2: a level score goes to
 * extra time (its own 1X2), and only a level extra time (a shoot-out) stays a draw in the file.
 */
export function afterExtraTime(
  ninety: readonly [number, number, number],
  extraTime: readonly [number, number, number],
): [number, number, number] {
  const [home, draw, away] = ninety;
  return [home + draw * extraTime[0], draw * extraTime[1], away + draw * extraTime[2]];
}

/** The ordered logit: P(away) = σ(c1 − x), P(home) = 1 − σ(c2 − x), x = slope·(Elo difference)/400. */
export interface OrderedLogit {
  slope: number;
  c1: number;
  c2: number;
}

export function orderedLogitProbabilities(
  logit: OrderedLogit,
  eloDifference: number,
): [number, number, number] {
  const x = (logit.slope * eloDifference) / 400;
  const away = sigmoid(logit.c1 - x);
  const notHome = sigmoid(logit.c2 - x);
  const draw = Math.max(notHome - away, 1e-6);
  const home = Math.max(1 - notHome, 1e-6);
  const total = home + draw + Math.max(away, 1e-6);
  return [home / total, draw / total, Math.max(away, 1e-6) / total];
}

/** One gradient step of the ordered logit's log-likelihood on an observed outcome. */
export function stepOrderedLogit(
  logit: OrderedLogit,
  eloDifference: number,
  outcome: 0 | 1 | 2,
  rate: number,
): OrderedLogit {
  const u = eloDifference / 400;
  const x = logit.slope * u;
  const s1 = sigmoid(logit.c1 - x);
  const s2 = sigmoid(logit.c2 - x);
  // d log P / d(c1, c2, x) for each outcome.
  let g1 = 0;
  let g2 = 0;
  let gx = 0;
  if (outcome === 2) {
    g1 = 1 - s1;
    gx = -(1 - s1);
  } else if (outcome === 0) {
    g2 = -s2;
    gx = s2;
  } else {
    const p = Math.max(s2 - s1, 1e-9);
    g2 = (s2 * (1 - s2)) / p;
    g1 = -(s1 * (1 - s1)) / p;
    gx = -(g1 + g2);
  }
  const c1 = logit.c1 + rate * g1;
  const c2 = Math.max(logit.c2 + rate * g2, c1 + 0.05);
  return { slope: logit.slope + rate * gx * u, c1, c2 };
}

/** A start for the online logit: eloratings' expectation's slope, draws about a quarter. */
export const LOGIT_START: OrderedLogit = { slope: Math.LN10, c1: -0.6, c2: 0.6 };

/**
 * The rolling state: ratings of every side seen, confederation offsets and home terms, the goal
 * level, the Elo and its logit. `forecast` reads it; `playDay` learns one match-day's results, all
 * forecast before any is learnt (what the walk-forward and production both need).
 */
export class InternationalModel {
  private readonly sides = new Map<string, Side>();
  private readonly offsets = new Map<string, number>();
  private readonly homeTerms = new Map<string, number>();
  private level = Math.log(1.35);
  private logit: OrderedLogit = { ...LOGIT_START };
  private readonly stages = new TournamentStages();
  /** Results learnt so far. */
  matches = 0;

  constructor(readonly settings: InternationalSettings = INTERNATIONAL_SETTINGS) {}

  private side(team: string): Side {
    let side = this.sides.get(team);
    if (!side) {
      side = {
        attack: this.settings.newcomerAttack,
        defence: this.settings.newcomerDefence,
        elo: ELO_START,
        matches: 0,
      };
      this.sides.set(team, side);
    }
    return side;
  }

  private peek(team: string): Side {
    return (
      this.sides.get(team) ?? {
        attack: this.settings.newcomerAttack,
        defence: this.settings.newcomerDefence,
        elo: ELO_START,
        matches: 0,
      }
    );
  }

  private offset(confederation: string | null): number {
    return confederation ? (this.offsets.get(confederation) ?? 0) : 0;
  }

  private homeTerm(fixture: InternationalFixture): number {
    if (fixture.neutral) return 0;
    const own = fixture.homeConfederation ? this.homeTerms.get(fixture.homeConfederation) : undefined;
    const finals = fixture.tournamentClass === 'world-cup' || fixture.tournamentClass === 'continental-final';
    return (own ?? this.settings.home) + (finals ? this.settings.finalsHome : 0);
  }

  /** Expected goals of both sides over 90 minutes. */
  rates(fixture: InternationalFixture): { lambda: number; mu: number } {
    const home = this.peek(fixture.home);
    const away = this.peek(fixture.away);
    const homeOffset = this.offset(fixture.homeConfederation);
    const awayOffset = this.offset(fixture.awayConfederation);
    return {
      lambda: Math.exp(
        this.level + this.homeTerm(fixture) + home.attack + homeOffset - (away.defence + awayOffset),
      ),
      mu: Math.exp(this.level + away.attack + awayOffset - (home.defence + homeOffset)),
    };
  }

  /** The Elo difference, home bonus included when not neutral. */
  eloDifference(fixture: InternationalFixture): number {
    const bonus = fixture.neutral ? 0 : this.settings.eloHome;
    return this.peek(fixture.home).elo - this.peek(fixture.away).elo + bonus;
  }

  /** The Elo's own 1X2 (its online ordered logit). */
  eloProbabilities(fixture: InternationalFixture): [number, number, number] {
    return orderedLogitProbabilities(this.logit, this.eloDifference(fixture));
  }

  /** The goal model's matrix (90 minutes) before pooling; a knockout's level score means more. */
  private goalMatrix(fixture: InternationalFixture, knockout = false): ScoreMatrix {
    const { lambda, mu } = this.rates(fixture);
    const base =
      this.settings.drawBase +
      this.settings.drawByClass[fixture.tournamentClass] +
      (knockout ? this.settings.knockoutDraw : 0);
    return scoreMatrix(lambda, mu, 0, { base, slope: 0 });
  }

  /**
   * Whether a fixture dated `date` (after every result learnt) is a knockout match of its
   * tournament's edition, inferred from the edition's results learnt so far (international-stages.ts).
   */
  isKnockout(fixture: InternationalFixture, date: number): boolean {
    return this.stages.isKnockout({ ...fixture, date });
  }

  /** Extra time's 1X2 if the fixture were level after 90 minutes. */
  private extraTime(fixture: InternationalFixture): [number, number, number] {
    const { lambda, mu } = this.rates(fixture);
    const share = this.settings.extraTimeShare;
    return extraTimeOneXTwo(lambda * share, mu * share);
  }

  /**
   * The 1X2 of the outcome the results file records (decision 0159), what the evaluation scores:
   * the 90 minutes' pooled 1X2, except in a knockout match, whose record includes extra time (a
   * draw only when a shoot-out decided it). Analyses keep reading `forecast`'s 90-minute matrix.
   */
  recordedOneXTwo(fixture: InternationalFixture, date: number): [number, number, number] {
    if (!this.isKnockout(fixture, date)) return this.oneXTwo(fixture);
    const ninety = this.oneXTwo(fixture, this.goalMatrix(fixture, true));
    return afterExtraTime(ninety, this.extraTime(fixture));
  }

  /**
   * How many 90-minute spans a result's goals came in: 1 + extra time's share when it went to
   * extra time (a shoot-out, or a level knockout score), the expected share when a knockout was
   * won (extra time possible, the file does not say).
   */
  private exposure(result: InternationalResult, knockout: boolean): number {
    const share = this.settings.extraTimeShare;
    if (result.shootout || (knockout && result.homeGoals === result.awayGoals)) return 1 + share;
    if (!knockout) return 1;
    const [home, draw, away] = this.oneXTwo(result, this.goalMatrix(result, true));
    const level = this.extraTime(result)[1];
    return 1 + (share * draw * (1 - level)) / (home + away + draw * (1 - level));
  }

  /** The pooled 1X2 alone (what the validation scores; `forecast` rakes the matrix onto it). */
  oneXTwo(fixture: InternationalFixture, goals = this.goalMatrix(fixture)): [number, number, number] {
    const own = oneXTwoOf(goals);
    const weight = this.settings.eloWeight;
    if (weight <= 0) return own;
    const elo = this.eloProbabilities(fixture);
    const pooled = own.map((p, index) =>
      Math.exp((1 - weight) * Math.log(Math.max(p, 1e-9)) + weight * Math.log(elo[index]!)),
    );
    const total = pooled[0]! + pooled[1]! + pooled[2]!;
    return [pooled[0]! / total, pooled[1]! / total, pooled[2]! / total];
  }

  /**
   * The 90 minutes' forecast. Given the fixture's day, a knockout match of its tournament's edition
   * (inferred as `recordedOneXTwo` does) reads the knockout's own draw term: level after 90 minutes
   * is likelier when extra time follows.
   */
  forecast(fixture: InternationalFixture, date?: number): InternationalForecast {
    const knockout = date !== undefined && this.isKnockout(fixture, date);
    const goals = this.goalMatrix(fixture, knockout);
    const pooled = this.oneXTwo(fixture, goals);
    const matrix =
      this.settings.eloWeight > 0 ? rakeMatrix(goals, pooled, marketsFrom(goals).overUnder25.over) : goals;
    const markets = marketsFrom(matrix).oneXTwo;
    return {
      matrix,
      oneXTwo: [markets.home, markets.draw, markets.away],
      known: { home: this.sides.has(fixture.home), away: this.sides.has(fixture.away) },
      matches: {
        home: this.sides.get(fixture.home)?.matches ?? 0,
        away: this.sides.get(fixture.away)?.matches ?? 0,
      },
    };
  }

  /** Learns one match-day's results; every step is computed from the state before the day. */
  playDay(results: readonly InternationalResult[]): void {
    const s = this.settings;
    const steps = results.map((result) => {
      const { lambda, mu } = this.rates(result);
      const exposure = this.exposure(result, this.stages.isKnockout(result));
      const cap = (error: number) => Math.max(-s.errorCap, Math.min(s.errorCap, error));
      const homeError = cap(result.homeGoals - lambda * exposure);
      const awayError = cap(result.awayGoals - mu * exposure);
      const difference = this.eloDifference(result);
      const expected = 1 / (10 ** (-difference / 400) + 1);
      const actual =
        result.homeGoals > result.awayGoals ? 1 : result.homeGoals === result.awayGoals ? 0.5 : 0;
      const k =
        ELO_K[result.tournamentClass] * s.eloScale * eloGoalFactor(result.homeGoals - result.awayGoals);
      const outcome: 0 | 1 | 2 = actual === 1 ? 0 : actual === 0.5 ? 1 : 2;
      return { result, homeError, awayError, eloStep: k * (actual - expected), difference, outcome };
    });
    for (const { result, homeError, awayError, eloStep, difference, outcome } of steps) {
      const weight = s.weights[result.tournamentClass];
      const home = this.side(result.home);
      const away = this.side(result.away);
      const homeRate = s.rate * weight * (1 + s.newBoost * Math.exp(-home.matches / s.newMatches));
      const awayRate = s.rate * weight * (1 + s.newBoost * Math.exp(-away.matches / s.newMatches));
      home.attack += homeRate * homeError;
      home.defence -= homeRate * awayError;
      away.attack += awayRate * awayError;
      away.defence -= awayRate * homeError;
      home.elo += eloStep;
      away.elo -= eloStep;
      home.matches += 1;
      away.matches += 1;
      this.level += s.levelRate * weight * (homeError + awayError);
      if (!result.neutral && result.homeConfederation) {
        const current = this.homeTerms.get(result.homeConfederation) ?? s.home;
        this.homeTerms.set(result.homeConfederation, current + s.homeRate * weight * (homeError - awayError));
      }
      const [hc, ac] = [result.homeConfederation, result.awayConfederation];
      if (hc && ac && hc !== ac) {
        const step = s.confederationRate * weight * (homeError - awayError);
        this.offsets.set(hc, this.offset(hc) + step);
        this.offsets.set(ac, this.offset(ac) - step);
      }
      this.logit = stepOrderedLogit(this.logit, difference, outcome, s.logitRate);
      this.matches += 1;
    }
    this.stages.playDay(results);
  }

  /** A side's matches learnt so far. */
  matchesOf(team: string): number {
    return this.sides.get(team)?.matches ?? 0;
  }

  /** A side's goal ratings (its confederation's offset included), as the analysis text reads them. */
  ratingOf(team: string, confederation: string | null): TeamRating {
    const side = this.peek(team);
    const offset = this.offset(confederation);
    return { attack: side.attack + offset, defence: side.defence + offset, matches: side.matches };
  }
}

/**
 * Walks results in date order, calling `visit` with each match-day's results and the model as it
 * stood before that day, then learning the day. Results must be sorted by date.
 */
export function walkInternational(
  results: readonly InternationalResult[],
  visit: (day: readonly InternationalResult[], model: InternationalModel) => void,
  settings: InternationalSettings = INTERNATIONAL_SETTINGS,
): InternationalModel {
  const model = new InternationalModel(settings);
  let start = 0;
  while (start < results.length) {
    let end = start + 1;
    while (end < results.length && results[end]!.date === results[start]!.date) end++;
    const day = results.slice(start, end);
    visit(day, model);
    model.playDay(day);
    start = end;
  }
  return model;
}
