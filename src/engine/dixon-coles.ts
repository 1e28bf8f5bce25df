// Dixon–Coles goals model fitted by penalised maximum likelihood: per-team attack and defence,
// a home advantage, the low-score correction rho, and time-decay weights on past matches.
// The optimiser is block coordinate ascent with exact diagonal Newton steps: within the attack
// block no two parameters share a Poisson rate (likewise defences), so each block's Hessian is
// diagonal and one step per block is cheap and sure-footed.
import { diagonalMass, drawFactor, tau } from './score-matrix.js';
import { DAY_MS, seasonOf } from './season.js';
import type { DrawBalance, PlayedMatch, Ratings, TeamRating } from './types.js';

export interface FitOptions {
  /** Instant the decay weights are measured from; matches on or after it are ignored. */
  asOf: number;
  /** A match this many days old counts half as much as today's. */
  halfLifeDays: number;
  /** Matches older than this are left out altogether. */
  windowDays: number;
  /** Spread of the Gaussian prior on attack and defence (log scale): the shrinkage. */
  priorSd: number;
  /** Prior mean for a side whose current stint in the league is new: the typical promoted team. */
  newcomer: { attack: number; defence: number };
  /**
   * Share of the goal counts replaced by shots on target times the shooting side's conversion
   * rate, where shots are known: shots are a steadier signal of strength than goals.
   */
  shotsWeight: number;
  /** Likewise for total shots (each side's own goals per shot); 0 or absent: unused. */
  totalShotsWeight?: number;
  /** Likewise for corners (the league's goals per corner); 0 or absent: unused. */
  cornersWeight?: number;
  /**
   * A side's conversion rate (goals per shot on target) is shrunk toward the league's by this
   * many shots' worth: finishing skill is real but noisy.
   */
  finishingPriorShots: number;
  /**
   * Fit the draw balance: Poisson goals give too few draws between equal sides and too many in
   * lopsided matches; a draw factor exp(base + slope·|ln λ − ln μ|) corrects both (see docs/engine/results-fit.md).
   */
  drawBalance: boolean;
  /** Prior on the intercept and home advantage when the data is thin (global figures). */
  baseline: { intercept: number; homeAdvantage: number; rho: number };
  /** Strength of that baseline prior, in matches' worth of evidence. */
  baselineWeight: number;
  /**
   * State-space strengths (Rue & Salvesen style): time is cut into periods and each side's attack
   * and defence, the league's goal level and its home advantage follow Gaussian random walks
   * across them, fitted jointly by penalised likelihood (a MAP smoother); the forecast uses the
   * latest period. Null: one value each over the whole window (plain decay-weighted Dixon–Coles).
   */
  dynamic: DynamicOptions | null;
  /** A previous fit to start from: walk-forward refits converge in a few steps. */
  warmStart?: Ratings;
  maxIterations?: number;
  tolerance?: number;
}

export interface DynamicOptions {
  /** Length of a period of constant strengths. */
  periodDays: number;
  /** Random-walk spread of a side's attack or defence, per √year (log scale). */
  teamDrift: number;
  /** Extra spread into a new season (transfers, new managers), once. */
  seasonDrift: number;
  /** Random-walk spread of the league's home advantage, per √year (0: constant). */
  homeDrift: number;
  /** Random-walk spread of the league's goal level, per √year (0: constant). */
  levelDrift: number;
}

/** A gap longer than this in a team's matches means it left the league and came back. */
const STINT_GAP_DAYS = 200;
const RHO_LIMIT = 0.35;

/** The settings the evaluation chose (docs/engine/results-fit.md, docs/engine/protocol.md for how). */
export const DEFAULT_FIT: Omit<FitOptions, 'asOf'> = {
  // The random walks do the forgetting; the decay is all but off (chosen on the validation block).
  halfLifeDays: 3000,
  windowDays: 4 * 365,
  priorSd: 0.4,
  newcomer: { attack: -0.25, defence: -0.2 },
  // Goals 0.5, shots on target 0.3, total shots 0.2; corners add nothing beside them (validation).
  shotsWeight: 0.3,
  totalShotsWeight: 0.2,
  cornersWeight: 0,
  finishingPriorShots: 60,
  drawBalance: true,
  baseline: { intercept: Math.log(1.15), homeAdvantage: 0.25, rho: -0.05 },
  baselineWeight: 20,
  dynamic: { periodDays: 14, teamDrift: 0.15, seasonDrift: 0.1, homeDrift: 0.2, levelDrift: 0.05 },
  // The goal level and the mean attack trade off slowly under block coordinate ascent; stopping at
  // steps of 1e-4 moves a 1X2 probability by about 2e-5 and halves a cold fit's time.
  tolerance: 1e-4,
};

interface Prepared {
  teamKeys: string[];
  home: Int32Array;
  away: Int32Array;
  homeGoals: Float64Array;
  awayGoals: Float64Array;
  /** Rate targets: goals, or goals blended with shots on target. */
  homeTarget: Float64Array;
  awayTarget: Float64Array;
  weight: Float64Array;
  priorAttack: Float64Array;
  priorDefence: Float64Array;
  matchesPerTeam: Int32Array;
  /** Number of periods (1 for the static model) and each match's period, 0 the oldest. */
  periods: number;
  period: Int32Array;
  /** First period of each side's random walk: its first match in the window. */
  teamStart: Int32Array;
  /** Whether a new season (by its label) starts in a period. */
  breakBefore: Uint8Array;
}

function isCount(value: number | null | undefined): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 && value < 100;
}

function prepare(matches: readonly PlayedMatch[], options: FitOptions): Prepared {
  const { asOf } = options;
  const earliest = asOf - options.windowDays * DAY_MS;
  const decay = Math.LN2 / (options.halfLifeDays * DAY_MS);
  const kept = matches
    .filter(
      (match) =>
        Number.isFinite(match.date) &&
        match.date < asOf &&
        match.date >= earliest &&
        isCount(match.homeGoals) &&
        isCount(match.awayGoals) &&
        typeof match.home === 'string' &&
        typeof match.away === 'string' &&
        match.home !== match.away,
    )
    .sort((a, b) => a.date - b.date || compareText(a.home, b.home));

  const index = new Map<string, number>();
  const teamKeys: string[] = [];
  const stintStart: number[] = [];
  const lastDate: number[] = [];
  const teamIndex = (key: string, date: number): number => {
    let found = index.get(key);
    if (found === undefined) {
      found = teamKeys.length;
      index.set(key, found);
      teamKeys.push(key);
      stintStart.push(date);
      lastDate.push(date);
    }
    const gap = date - lastDate[found]!;
    if (gap > STINT_GAP_DAYS * DAY_MS) stintStart[found] = date;
    lastDate[found] = date;
    return found;
  };

  const n = kept.length;
  const prepared: Prepared = {
    teamKeys,
    home: new Int32Array(n),
    away: new Int32Array(n),
    homeGoals: new Float64Array(n),
    awayGoals: new Float64Array(n),
    homeTarget: new Float64Array(n),
    awayTarget: new Float64Array(n),
    weight: new Float64Array(n),
    priorAttack: new Float64Array(0),
    priorDefence: new Float64Array(0),
    matchesPerTeam: new Int32Array(0),
    periods: 1,
    period: new Int32Array(n),
    teamStart: new Int32Array(0),
    breakBefore: new Uint8Array(1),
  };
  const dynamic = options.dynamic;
  if (dynamic) {
    const periodMs = Math.max(dynamic.periodDays, 1) * DAY_MS;
    const periods = Math.max(Math.ceil((options.windowDays * DAY_MS) / periodMs), 1);
    prepared.periods = periods;
    prepared.breakBefore = new Uint8Array(periods);
    kept.forEach((match, m) => {
      const age = asOf - match.date;
      prepared.period[m] = Math.max(periods - 1 - Math.floor((age - 1) / periodMs), 0);
      const previous = kept[m - 1];
      if (previous && seasonOf(match) !== seasonOf(previous)) {
        prepared.breakBefore[prepared.period[m]!] = 1;
      }
    });
  }
  kept.forEach((match, m) => {
    prepared.home[m] = teamIndex(match.home, match.date);
    prepared.away[m] = teamIndex(match.away, match.date);
    prepared.homeGoals[m] = match.homeGoals;
    prepared.awayGoals[m] = match.awayGoals;
    prepared.weight[m] = Math.exp(-decay * (asOf - match.date));
  });
  // Each signal's goal proxy per match side (NaN where the file lacks it), then the targets: the
  // goal count with a share of it replaced by every signal the match has.
  const signals = [
    {
      share: options.shotsWeight,
      prior: options.finishingPriorShots,
      read: (match: PlayedMatch) => [match.homeShotsOnTarget, match.awayShotsOnTarget] as const,
    },
    {
      share: options.totalShotsWeight ?? 0,
      prior: options.finishingPriorShots * TOTAL_SHOTS_PER_SHOT_ON_TARGET,
      read: (match: PlayedMatch) => [match.homeShots, match.awayShots] as const,
    },
    {
      // Goals per corner are no skill of the side's: the league's rate only.
      share: options.cornersWeight ?? 0,
      prior: Number.POSITIVE_INFINITY,
      read: (match: PlayedMatch) => [match.homeCorners, match.awayCorners] as const,
    },
  ]
    .filter((signal) => signal.share > 0)
    .map((signal) => ({
      share: Math.min(signal.share, 1),
      proxy: goalProxy(kept, prepared, signal.read, signal.prior),
    }));
  for (let m = 0; m < n; m++) {
    let homeTarget = 0;
    let awayTarget = 0;
    let used = 0;
    for (const { share, proxy } of signals) {
      const h = proxy.home[m]!;
      const a = proxy.away[m]!;
      if (Number.isNaN(h) || Number.isNaN(a) || used + share > 1) continue;
      homeTarget += share * h;
      awayTarget += share * a;
      used += share;
    }
    prepared.homeTarget[m] = (1 - used) * prepared.homeGoals[m]! + homeTarget;
    prepared.awayTarget[m] = (1 - used) * prepared.awayGoals[m]! + awayTarget;
  }

  // A side whose current stint began after the data did came up from a lower division (or
  // is new to the data): its prior is the typical promoted team, not the league average.
  const dataStart = kept[0]?.date ?? asOf;
  const teams = teamKeys.length;
  prepared.priorAttack = new Float64Array(teams);
  prepared.priorDefence = new Float64Array(teams);
  prepared.matchesPerTeam = new Int32Array(teams);
  for (let t = 0; t < teams; t++) {
    const isNewcomer = stintStart[t]! - dataStart > STINT_GAP_DAYS * DAY_MS;
    prepared.priorAttack[t] = isNewcomer ? options.newcomer.attack : 0;
    prepared.priorDefence[t] = isNewcomer ? options.newcomer.defence : 0;
  }
  prepared.teamStart = new Int32Array(teams).fill(prepared.periods - 1);
  for (let m = 0; m < n; m++) {
    const h = prepared.home[m]!;
    const a = prepared.away[m]!;
    prepared.matchesPerTeam[h]! += 1;
    prepared.matchesPerTeam[a]! += 1;
    const k = prepared.period[m]!;
    if (k < prepared.teamStart[h]!) prepared.teamStart[h] = k;
    if (k < prepared.teamStart[a]!) prepared.teamStart[a] = k;
  }
  return prepared;
}

/** Total shots per shot on target, roughly: the prior of a side's total-shot conversion scales by it. */
const TOTAL_SHOTS_PER_SHOT_ON_TARGET = 3;

/**
 * Goals expected from a count that goes with scoring (shots on target, shots, corners): the count
 * times the side's own conversion rate (weighted by the fit's match weights: with the half-life of
 * 3,000 days that is close to a plain average over the four-year window, not a recent-form rate;
 * shrunk toward the league's with `prior`
 * units' worth; an infinite prior keeps the league's), times the league's home (or away)
 * conversion relative to its overall one: home sides convert better, and without that the counts
 * would understate the home advantage. NaN where the match lacks the count.
 */
function goalProxy(
  kept: readonly PlayedMatch[],
  prepared: Prepared,
  read: (match: PlayedMatch) => readonly [number | null | undefined, number | null | undefined],
  prior: number,
): { home: Float64Array; away: Float64Array } {
  const n = kept.length;
  const home = new Float64Array(n).fill(Number.NaN);
  const away = new Float64Array(n).fill(Number.NaN);
  const goals = { home: 0, away: 0 };
  const counts = { home: 0, away: 0 };
  const scored = new Map<number, number>();
  const aimed = new Map<number, number>();
  kept.forEach((match, m) => {
    const [h, a] = read(match);
    if (!isCount(h) || !isCount(a)) return;
    goals.home += match.homeGoals;
    goals.away += match.awayGoals;
    counts.home += h;
    counts.away += a;
    const w = prepared.weight[m]!;
    for (const [team, teamGoals, teamCount] of [
      [prepared.home[m]!, match.homeGoals, h],
      [prepared.away[m]!, match.awayGoals, a],
    ] as const) {
      scored.set(team, (scored.get(team) ?? 0) + w * teamGoals);
      aimed.set(team, (aimed.get(team) ?? 0) + w * teamCount);
    }
  });
  if (counts.home + counts.away <= 0) return { home, away };
  const conversion = (goals.home + goals.away) / (counts.home + counts.away);
  const venue = {
    home: counts.home > 0 && goals.home > 0 ? goals.home / counts.home / conversion : 1,
    away: counts.away > 0 && goals.away > 0 ? goals.away / counts.away / conversion : 1,
  };
  const finishing = (team: number) =>
    Number.isFinite(prior)
      ? ((scored.get(team) ?? 0) + Math.max(prior, 1e-6) * conversion) /
        ((aimed.get(team) ?? 0) + Math.max(prior, 1e-6))
      : conversion;
  kept.forEach((match, m) => {
    const [h, a] = read(match);
    if (!isCount(h) || !isCount(a)) return;
    home[m] = venue.home * finishing(prepared.home[m]!) * h;
    away[m] = venue.away * finishing(prepared.away[m]!) * a;
  });
  return { home, away };
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Newton step for one random walk x[from..to] (a single value when from = to): `g` and `c` hold
 * the data's gradient and curvature per period; the walk's Gaussian prior adds its own (a start
 * prior N(mean, 1/startPrecision), then steps of variance `variance[k]` into period k). The
 * system is tridiagonal, solved in place by the Thomas algorithm; `step` receives the moves.
 */
function chainStep(
  x: Float64Array,
  offset: number,
  from: number,
  to: number,
  g: Float64Array,
  c: Float64Array,
  mean: number,
  startPrecision: number,
  variance: Float64Array,
  step: Float64Array,
  sub: Float64Array,
  diag: Float64Array,
): number {
  for (let k = from; k <= to; k++) {
    let d = c[offset + k]!;
    let r = g[offset + k]!;
    if (k === from) {
      d += startPrecision;
      r -= (x[offset + k]! - mean) * startPrecision;
    } else {
      const p = 1 / variance[k]!;
      d += p;
      r -= (x[offset + k]! - x[offset + k - 1]!) * p;
    }
    if (k < to) {
      const p = 1 / variance[k + 1]!;
      d += p;
      r += (x[offset + k + 1]! - x[offset + k]!) * p;
    }
    diag[k] = d;
    step[k] = r;
  }
  // Forward sweep: the off-diagonal entries are −1/variance[k] between k−1 and k.
  for (let k = from + 1; k <= to; k++) {
    const off = -1 / variance[k]!;
    const factor = off / diag[k - 1]!;
    sub[k] = off;
    diag[k] = diag[k]! - factor * off;
    step[k] = step[k]! - factor * step[k - 1]!;
  }
  let largest = 0;
  let next = 0;
  for (let k = to; k >= from; k--) {
    const value = (step[k]! - (k < to ? sub[k + 1]! * next : 0)) / diag[k]!;
    next = value;
    step[k] = value;
  }
  for (let k = from; k <= to; k++) {
    const move = clampStep(step[k]!);
    x[offset + k]! += move;
    largest = Math.max(largest, Math.abs(move));
  }
  return largest;
}

/**
 * A fit in progress: the unknowns and the working arrays of the block coordinate ascent. Each side's
 * attack and defence is a walk of `TP` periods, stored side by side (side t's walk from t·TP); the
 * league's level and home advantage are walks of `LP` and `HP` periods. A walk that does not drift
 * has one period.
 */
interface FitState {
  data: Prepared;
  options: FitOptions;
  TP: number;
  LP: number;
  HP: number;
  /** Each walk's step variance into each period (the season break included for the sides). */
  teamVariance: Float64Array;
  levelVariance: Float64Array;
  homeVariance: Float64Array;
  attack: Float64Array;
  defence: Float64Array;
  level: Float64Array;
  home: Float64Array;
  rho: number;
  /** The sides' prior precision, and the baseline prior's on the level (half of it on home). */
  precision: number;
  baselinePrecision: number;
  /** Per match: the two Poisson rates and d log L / d log(rate), as of the last refresh. */
  lambda: Float64Array;
  mu: Float64Array;
  gradLambda: Float64Array;
  gradMu: Float64Array;
  /** Scratch: a block's gradient and curvature per parameter, and chainStep's system. */
  grad: Float64Array;
  curvature: Float64Array;
  step: Float64Array;
  sub: Float64Array;
  diag: Float64Array;
}

/** Match m's period in a walk of `periods` periods (0 when the walk is one value). */
const periodIn = (periods: number, data: Prepared, m: number) => (periods === 1 ? 0 : data.period[m]!);

/** Fits ratings to the matches played before `options.asOf`. Never throws; no data gives the baseline. */
export function fitDixonColes(matches: readonly PlayedMatch[], options: FitOptions): Ratings {
  const fit = startFit(prepare(matches, options), options);
  const n = fit.data.weight.length;
  const maxIterations = options.maxIterations ?? 200;
  const tolerance = options.tolerance ?? 1e-6;
  for (let iteration = 0; iteration < maxIterations && n > 0; iteration++) {
    // One round of block coordinate ascent; each block starts from rates refreshed after the last.
    let largest = 0;
    largest = Math.max(largest, stepLevel(fit));
    largest = Math.max(largest, stepHome(fit));
    largest = Math.max(largest, stepAttack(fit));
    largest = Math.max(largest, stepDefence(fit));
    largest = Math.max(largest, stepRho(fit));
    if (largest < tolerance) break;
  }
  refreshRates(fit);
  return ratingsOf(fit);
}

/** The walks' layout and variances, every unknown at its prior (or the warm start), the arrays. */
function startFit(data: Prepared, options: FitOptions): FitState {
  const teams = data.teamKeys.length;
  const n = data.weight.length;
  const P = data.periods;
  const dynamic = options.dynamic;
  // Periods of the team walks and of the league's level and home advantage (1 when constant).
  const TP = dynamic && dynamic.teamDrift > 0 ? P : 1;
  const LP = dynamic && dynamic.levelDrift > 0 ? P : 1;
  const HP = dynamic && dynamic.homeDrift > 0 ? P : 1;
  const years = dynamic ? dynamic.periodDays / 365 : 1;
  const walkVariance = (drift: number, seasonDrift: number) => {
    const variance = new Float64Array(P);
    for (let k = 0; k < P; k++) {
      variance[k] = Math.max(
        drift * drift * years + (data.breakBefore[k] ? seasonDrift * seasonDrift : 0),
        1e-10,
      );
    }
    return variance;
  };

  const attack = new Float64Array(teams * TP);
  const defence = new Float64Array(teams * TP);
  for (let t = 0; t < teams; t++) {
    attack.fill(data.priorAttack[t]!, t * TP, (t + 1) * TP);
    defence.fill(data.priorDefence[t]!, t * TP, (t + 1) * TP);
  }
  const level = new Float64Array(LP).fill(options.baseline.intercept);
  const home = new Float64Array(HP).fill(options.baseline.homeAdvantage);
  let rho = options.baseline.rho;

  const warm = options.warmStart;
  if (warm) {
    level.fill(warm.intercept);
    home.fill(warm.homeAdvantage);
    rho = warm.rho;
    data.teamKeys.forEach((key, t) => {
      const rating = warm.teams.get(key);
      if (rating) {
        attack.fill(rating.attack, t * TP, (t + 1) * TP);
        defence.fill(rating.defence, t * TP, (t + 1) * TP);
      }
    });
  }

  const width = Math.max(teams * TP, P);
  return {
    data,
    options,
    TP,
    LP,
    HP,
    teamVariance: walkVariance(dynamic?.teamDrift ?? 0, dynamic?.seasonDrift ?? 0),
    levelVariance: walkVariance(dynamic?.levelDrift ?? 0, 0),
    homeVariance: walkVariance(dynamic?.homeDrift ?? 0, 0),
    attack,
    defence,
    level,
    home,
    rho,
    precision: 1 / (options.priorSd * options.priorSd),
    // The baseline prior on intercept and home advantage is worth `baselineWeight` matches.
    baselinePrecision: options.baselineWeight * Math.exp(options.baseline.intercept) * 2,
    lambda: new Float64Array(n),
    mu: new Float64Array(n),
    gradLambda: new Float64Array(n),
    gradMu: new Float64Array(n),
    grad: new Float64Array(width),
    curvature: new Float64Array(width),
    step: new Float64Array(P),
    sub: new Float64Array(P),
    diag: new Float64Array(P),
  };
}

/** Each match's rates from the current unknowns, and the likelihood's slope in each log rate. */
function refreshRates(fit: FitState): void {
  const { data, TP, LP, HP, attack, defence, level, home, rho, lambda, mu, gradLambda, gradMu } = fit;
  for (let m = 0; m < data.weight.length; m++) {
    const h = data.home[m]!;
    const a = data.away[m]!;
    const k = periodIn(TP, data, m);
    const c = level[periodIn(LP, data, m)]!;
    const l = Math.exp(c + home[periodIn(HP, data, m)]! + attack[h * TP + k]! - defence[a * TP + k]!);
    const u = Math.exp(c + attack[a * TP + k]! - defence[h * TP + k]!);
    lambda[m] = l;
    mu[m] = u;
    const x = data.homeGoals[m]!;
    const y = data.awayGoals[m]!;
    // d log L / d log(rate): the Poisson part plus the tau term for low scores.
    let tl = 0;
    let tu = 0;
    if (x <= 1 && y <= 1) {
      const t = Math.max(tau(x, y, l, u, rho), 1e-9);
      if (x === 0 && y === 0) {
        tl = (-l * u * rho) / t;
        tu = tl;
      } else if (x === 0 && y === 1) {
        tl = (l * rho) / t;
      } else if (x === 1 && y === 0) {
        tu = (u * rho) / t;
      }
    }
    gradLambda[m] = data.homeTarget[m]! - l + tl;
    gradMu[m] = data.awayTarget[m]! - u + tu;
  }
}

/** The league's goal level, which moves both rates of every match. Returns the largest move. */
function stepLevel(fit: FitState): number {
  refreshRates(fit);
  const { data, LP, grad, curvature, lambda, mu, gradLambda, gradMu } = fit;
  grad.fill(0, 0, LP);
  curvature.fill(0, 0, LP);
  for (let m = 0; m < data.weight.length; m++) {
    const w = data.weight[m]!;
    const k = periodIn(LP, data, m);
    grad[k]! += w * (gradLambda[m]! + gradMu[m]!);
    curvature[k]! += w * (lambda[m]! + mu[m]!);
  }
  const { baseline } = fit.options;
  return chainStep(
    fit.level,
    0,
    0,
    LP - 1,
    grad,
    curvature,
    baseline.intercept,
    fit.baselinePrecision,
    fit.levelVariance,
    fit.step,
    fit.sub,
    fit.diag,
  );
}

/** The home advantage, which moves the home side's rate only. Returns the largest move. */
function stepHome(fit: FitState): number {
  refreshRates(fit);
  const { data, HP, grad, curvature, lambda, gradLambda } = fit;
  grad.fill(0, 0, HP);
  curvature.fill(0, 0, HP);
  for (let m = 0; m < data.weight.length; m++) {
    const w = data.weight[m]!;
    const k = periodIn(HP, data, m);
    grad[k]! += w * gradLambda[m]!;
    curvature[k]! += w * lambda[m]!;
  }
  const { baseline } = fit.options;
  return chainStep(
    fit.home,
    0,
    0,
    HP - 1,
    grad,
    curvature,
    baseline.homeAdvantage,
    fit.baselinePrecision / 2,
    fit.homeVariance,
    fit.step,
    fit.sub,
    fit.diag,
  );
}

/** Every side's attack walk: a side's attack moves its own rate. Returns the largest move. */
function stepAttack(fit: FitState): number {
  refreshRates(fit);
  const { data, TP, grad, curvature, lambda, mu, gradLambda, gradMu } = fit;
  grad.fill(0);
  curvature.fill(0);
  for (let m = 0; m < data.weight.length; m++) {
    const w = data.weight[m]!;
    const k = periodIn(TP, data, m);
    const h = data.home[m]! * TP + k;
    const a = data.away[m]! * TP + k;
    grad[h]! += w * gradLambda[m]!;
    curvature[h]! += w * lambda[m]!;
    grad[a]! += w * gradMu[m]!;
    curvature[a]! += w * mu[m]!;
  }
  return stepTeamWalks(fit, fit.attack, data.priorAttack);
}

/** Every side's defence walk: a side's defence lowers its opponent's rate. Returns the largest move. */
function stepDefence(fit: FitState): number {
  refreshRates(fit);
  const { data, TP, grad, curvature, lambda, mu, gradLambda, gradMu } = fit;
  grad.fill(0);
  curvature.fill(0);
  for (let m = 0; m < data.weight.length; m++) {
    const w = data.weight[m]!;
    const k = periodIn(TP, data, m);
    const h = data.home[m]! * TP + k;
    const a = data.away[m]! * TP + k;
    grad[a]! -= w * gradLambda[m]!;
    curvature[a]! += w * lambda[m]!;
    grad[h]! -= w * gradMu[m]!;
    curvature[h]! += w * mu[m]!;
  }
  return stepTeamWalks(fit, fit.defence, data.priorDefence);
}

/** A Newton step on each side's walk of `walks`, from the gradient and curvature gathered. */
function stepTeamWalks(fit: FitState, walks: Float64Array, prior: Float64Array): number {
  const { data, TP } = fit;
  let largest = 0;
  for (let t = 0; t < data.teamKeys.length; t++) {
    const moved = chainStep(
      walks,
      t * TP,
      TP === 1 ? 0 : data.teamStart[t]!,
      TP - 1,
      fit.grad,
      fit.curvature,
      prior[t]!,
      fit.precision,
      fit.teamVariance,
      fit.step,
      fit.sub,
      fit.diag,
    );
    largest = Math.max(largest, moved);
  }
  return largest;
}

/** One Newton step on rho. Returns the size of the move. */
function stepRho(fit: FitState): number {
  refreshRates(fit);
  const rhoStep = fitRhoStep(fit.data, fit.lambda, fit.mu, fit.rho, fit.options);
  fit.rho += rhoStep;
  return Math.abs(rhoStep);
}

/** The fitted ratings: each walk's latest period, the draw balance fitted on the final rates. */
function ratingsOf(fit: FitState): Ratings {
  const { data, options, TP, LP, HP, attack, defence, rho } = fit;
  const draw = options.drawBalance ? fitDrawBalance(data, fit.lambda, fit.mu, rho) : NO_DRAW_BALANCE;
  const ratings = new Map<string, TeamRating>();
  data.teamKeys.forEach((key, t) => {
    // The forecast is the walk's latest period: a random walk's best guess of tomorrow is today.
    ratings.set(key, {
      attack: attack[t * TP + TP - 1]!,
      defence: defence[t * TP + TP - 1]!,
      matches: data.matchesPerTeam[t]!,
    });
  });
  return {
    teams: ratings,
    intercept: finiteOr(fit.level[LP - 1]!, options.baseline.intercept),
    homeAdvantage: finiteOr(fit.home[HP - 1]!, options.baseline.homeAdvantage),
    rho: finiteOr(rho, options.baseline.rho),
    draw,
    newcomer: { ...options.newcomer },
    asOf: options.asOf,
    matches: data.weight.length,
  };
}

/** One Newton step on rho, whose likelihood only involves the 0-0, 0-1, 1-0 and 1-1 matches. */
function fitRhoStep(
  data: Prepared,
  lambda: Float64Array,
  mu: Float64Array,
  rho: number,
  options: FitOptions,
): number {
  // A weak prior keeps rho sensible when few low scores have been seen.
  const priorPrecision = options.baselineWeight;
  let g = -(rho - options.baseline.rho) * priorPrecision;
  let c = priorPrecision;
  let upper = RHO_LIMIT;
  let lower = -RHO_LIMIT;
  for (let m = 0; m < data.weight.length; m++) {
    const x = data.homeGoals[m]!;
    const y = data.awayGoals[m]!;
    if (x > 1 || y > 1) continue;
    const l = lambda[m]!;
    const u = mu[m]!;
    let derivative: number;
    if (x === 0 && y === 0) {
      derivative = -l * u;
      upper = Math.min(upper, 0.99 / (l * u));
    } else if (x === 0 && y === 1) {
      derivative = l;
      lower = Math.max(lower, -0.99 / l);
    } else if (x === 1 && y === 0) {
      derivative = u;
      lower = Math.max(lower, -0.99 / u);
    } else {
      derivative = -1;
    }
    const t = 1 + derivative * rho;
    if (t <= 0) continue;
    const w = data.weight[m]!;
    g += (w * derivative) / t;
    c += (w * derivative * derivative) / (t * t);
  }
  const next = Math.min(Math.max(rho + g / c, lower), upper);
  return Number.isFinite(next) ? next - rho : 0;
}

export const NO_DRAW_BALANCE: DrawBalance = { base: 0, slope: 0 };
/** Prior spread of the draw-balance parameters: they stay near zero unless the data insists. */
const DRAW_PRIOR_SD = 0.5;

/**
 * Fits the draw factor g = exp(base + slope·d), d = |ln λ − ln μ|, that multiplies the diagonal
 * of the score matrix (then renormalised), by Newton steps on its likelihood given the fitted
 * rates: per match, [draw]·ln g − ln(1 + D·(g − 1)), D the matrix's draw mass before the factor.
 */
function fitDrawBalance(data: Prepared, lambda: Float64Array, mu: Float64Array, rho: number): DrawBalance {
  const n = data.weight.length;
  if (n === 0) return NO_DRAW_BALANCE;
  const spread = new Float64Array(n);
  const mass = new Float64Array(n);
  for (let m = 0; m < n; m++) {
    spread[m] = Math.abs(Math.log(lambda[m]!) - Math.log(mu[m]!));
    mass[m] = diagonalMass(lambda[m]!, mu[m]!, rho);
  }
  const precision = 1 / (DRAW_PRIOR_SD * DRAW_PRIOR_SD);
  let base = 0;
  let slope = 0;
  for (let iteration = 0; iteration < 30; iteration++) {
    let g0 = -base * precision;
    let g1 = -slope * precision;
    let h00 = precision;
    let h01 = 0;
    let h11 = precision;
    for (let m = 0; m < n; m++) {
      const w = data.weight[m]!;
      const d = spread[m]!;
      const g = drawFactor({ base, slope }, d);
      const q = (mass[m]! * g) / (1 + mass[m]! * (g - 1));
      const isDraw = data.homeGoals[m] === data.awayGoals[m] ? 1 : 0;
      const residual = isDraw - q;
      const curvature = q * (1 - q);
      g0 += w * residual;
      g1 += w * residual * d;
      h00 += w * curvature;
      h01 += w * curvature * d;
      h11 += w * curvature * d * d;
    }
    const determinant = h00 * h11 - h01 * h01;
    if (!(determinant > 0)) break;
    const step0 = (h11 * g0 - h01 * g1) / determinant;
    const step1 = (h00 * g1 - h01 * g0) / determinant;
    base += clampStep(step0);
    slope += clampStep(step1);
    if (Math.abs(step0) + Math.abs(step1) < 1e-7) break;
  }
  return Number.isFinite(base) && Number.isFinite(slope) ? { base, slope } : NO_DRAW_BALANCE;
}

/** Newton steps on a log scale are capped so a wild start cannot overshoot into overflow. */
function clampStep(step: number): number {
  if (!Number.isFinite(step)) return 0;
  return Math.max(-1, Math.min(1, step));
}

function finiteOr(value: number, fallback: number): number {
  return Number.isFinite(value) ? value : fallback;
}
