// Dixon–Coles goals model fitted by penalised maximum likelihood: per-team attack and defence,
// a home advantage, the low-score correction rho, and time-decay weights on past matches.
// The optimiser is block coordinate ascent with exact diagonal Newton steps: within the attack
// block no two parameters share a Poisson rate (likewise defences), so each block's Hessian is
// diagonal and one step per block is cheap and sure-footed.
import { diagonalMass, drawFactor, tau } from './score-matrix.js';
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
  /**
   * A side's conversion rate (goals per shot on target) is shrunk toward the league's by this
   * many shots' worth: finishing skill is real but noisy.
   */
  finishingPriorShots: number;
  /**
   * Fit the draw balance: Poisson goals give too few draws between equal sides and too many in
   * lopsided matches; a draw factor exp(base + slope·|ln λ − ln μ|) corrects both (see engine.md).
   */
  drawBalance: boolean;
  /** Prior on the intercept and home advantage when the data is thin (global figures). */
  baseline: { intercept: number; homeAdvantage: number; rho: number };
  /** Strength of that baseline prior, in matches' worth of evidence. */
  baselineWeight: number;
  /** A previous fit to start from: walk-forward refits converge in a few steps. */
  warmStart?: Ratings;
  maxIterations?: number;
  tolerance?: number;
}

export const DAY_MS = 86_400_000;
/** A gap longer than this in a team's matches means it left the league and came back. */
const STINT_GAP_DAYS = 200;
const RHO_LIMIT = 0.35;

/** The settings the evaluation in docs/engine.md chose; see that file for how. */
export const DEFAULT_FIT: Omit<FitOptions, 'asOf'> = {
  halfLifeDays: 330,
  windowDays: 4 * 365,
  priorSd: 0.4,
  newcomer: { attack: -0.25, defence: -0.2 },
  shotsWeight: 0.4,
  finishingPriorShots: 60,
  drawBalance: true,
  baseline: { intercept: Math.log(1.15), homeAdvantage: 0.25, rho: -0.05 },
  baselineWeight: 20,
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
}

function isCount(value: number): boolean {
  return Number.isFinite(value) && value >= 0 && value < 100;
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
  };
  const goals = { home: 0, away: 0 };
  const shots = { home: 0, away: 0 };
  kept.forEach((match, m) => {
    prepared.home[m] = teamIndex(match.home, match.date);
    prepared.away[m] = teamIndex(match.away, match.date);
    prepared.homeGoals[m] = match.homeGoals;
    prepared.awayGoals[m] = match.awayGoals;
    prepared.weight[m] = Math.exp(-decay * (asOf - match.date));
    if (hasShots(match)) {
      goals.home += match.homeGoals;
      goals.away += match.awayGoals;
      shots.home += match.homeShotsOnTarget as number;
      shots.away += match.awayShotsOnTarget as number;
    }
  });

  const conversion = shots.home + shots.away > 0 ? (goals.home + goals.away) / (shots.home + shots.away) : 0;
  // Home sides convert their shots better than visitors (about 5 % in E0): without this the
  // shots would understate the home advantage.
  const venue = {
    home: shots.home > 0 && goals.home > 0 ? goals.home / shots.home / conversion : 1,
    away: shots.away > 0 && goals.away > 0 ? goals.away / shots.away / conversion : 1,
  };
  const share = conversion > 0 ? Math.min(Math.max(options.shotsWeight, 0), 1) : 0;
  // Each side's own conversion rate, decay-weighted like everything else and shrunk to the league's.
  const scored = new Map<number, number>();
  const aimed = new Map<number, number>();
  kept.forEach((match, m) => {
    if (!hasShots(match)) return;
    const w = prepared.weight[m]!;
    for (const [team, teamGoals, teamShots] of [
      [prepared.home[m]!, match.homeGoals, match.homeShotsOnTarget as number],
      [prepared.away[m]!, match.awayGoals, match.awayShotsOnTarget as number],
    ] as const) {
      scored.set(team, (scored.get(team) ?? 0) + w * teamGoals);
      aimed.set(team, (aimed.get(team) ?? 0) + w * teamShots);
    }
  });
  const prior = Math.max(options.finishingPriorShots, 1e-6);
  const finishing = (team: number) =>
    ((scored.get(team) ?? 0) + prior * conversion) / ((aimed.get(team) ?? 0) + prior);
  kept.forEach((match, m) => {
    const blend = hasShots(match) ? share : 0;
    const home = prepared.home[m]!;
    const away = prepared.away[m]!;
    prepared.homeTarget[m] =
      (1 - blend) * match.homeGoals + blend * venue.home * finishing(home) * (match.homeShotsOnTarget ?? 0);
    prepared.awayTarget[m] =
      (1 - blend) * match.awayGoals + blend * venue.away * finishing(away) * (match.awayShotsOnTarget ?? 0);
  });

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
  for (let m = 0; m < n; m++) {
    prepared.matchesPerTeam[prepared.home[m]!]! += 1;
    prepared.matchesPerTeam[prepared.away[m]!]! += 1;
  }
  return prepared;
}

function hasShots(match: PlayedMatch): boolean {
  return (
    typeof match.homeShotsOnTarget === 'number' &&
    typeof match.awayShotsOnTarget === 'number' &&
    isCount(match.homeShotsOnTarget) &&
    isCount(match.awayShotsOnTarget)
  );
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Fits ratings to the matches played before `options.asOf`. Never throws; no data gives the baseline. */
export function fitDixonColes(matches: readonly PlayedMatch[], options: FitOptions): Ratings {
  const data = prepare(matches, options);
  const teams = data.teamKeys.length;
  const n = data.weight.length;
  const attack = Float64Array.from(data.priorAttack);
  const defence = Float64Array.from(data.priorDefence);
  let intercept = options.baseline.intercept;
  let homeAdvantage = options.baseline.homeAdvantage;
  let rho = options.baseline.rho;

  const warm = options.warmStart;
  if (warm) {
    intercept = warm.intercept;
    homeAdvantage = warm.homeAdvantage;
    rho = warm.rho;
    data.teamKeys.forEach((key, t) => {
      const rating = warm.teams.get(key);
      if (rating) {
        attack[t] = rating.attack;
        defence[t] = rating.defence;
      }
    });
  }

  const precision = 1 / (options.priorSd * options.priorSd);
  // The baseline prior on intercept and home advantage is worth `baselineWeight` matches.
  const baselinePrecision = options.baselineWeight * Math.exp(options.baseline.intercept) * 2;
  const lambda = new Float64Array(n);
  const mu = new Float64Array(n);
  const gradLambda = new Float64Array(n);
  const gradMu = new Float64Array(n);
  const grad = new Float64Array(teams);
  const curvature = new Float64Array(teams);

  const refresh = () => {
    for (let m = 0; m < n; m++) {
      const h = data.home[m]!;
      const a = data.away[m]!;
      const l = Math.exp(intercept + homeAdvantage + attack[h]! - defence[a]!);
      const u = Math.exp(intercept + attack[a]! - defence[h]!);
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
  };

  const maxIterations = options.maxIterations ?? 200;
  const tolerance = options.tolerance ?? 1e-6;
  for (let iteration = 0; iteration < maxIterations && n > 0; iteration++) {
    let largest = 0;

    refresh();
    {
      let g = -(intercept - options.baseline.intercept) * baselinePrecision;
      let c = baselinePrecision;
      for (let m = 0; m < n; m++) {
        const w = data.weight[m]!;
        g += w * (gradLambda[m]! + gradMu[m]!);
        c += w * (lambda[m]! + mu[m]!);
      }
      const step = g / c;
      intercept += step;
      largest = Math.max(largest, Math.abs(step));
    }

    refresh();
    {
      const prior = baselinePrecision / 2;
      let g = -(homeAdvantage - options.baseline.homeAdvantage) * prior;
      let c = prior;
      for (let m = 0; m < n; m++) {
        const w = data.weight[m]!;
        g += w * gradLambda[m]!;
        c += w * lambda[m]!;
      }
      const step = g / c;
      homeAdvantage += step;
      largest = Math.max(largest, Math.abs(step));
    }

    refresh();
    for (let t = 0; t < teams; t++) {
      grad[t] = -(attack[t]! - data.priorAttack[t]!) * precision;
      curvature[t] = precision;
    }
    for (let m = 0; m < n; m++) {
      const w = data.weight[m]!;
      const h = data.home[m]!;
      const a = data.away[m]!;
      grad[h]! += w * gradLambda[m]!;
      curvature[h]! += w * lambda[m]!;
      grad[a]! += w * gradMu[m]!;
      curvature[a]! += w * mu[m]!;
    }
    for (let t = 0; t < teams; t++) {
      const step = clampStep(grad[t]! / curvature[t]!);
      attack[t]! += step;
      largest = Math.max(largest, Math.abs(step));
    }

    refresh();
    for (let t = 0; t < teams; t++) {
      grad[t] = -(defence[t]! - data.priorDefence[t]!) * precision;
      curvature[t] = precision;
    }
    for (let m = 0; m < n; m++) {
      const w = data.weight[m]!;
      const h = data.home[m]!;
      const a = data.away[m]!;
      grad[a]! -= w * gradLambda[m]!;
      curvature[a]! += w * lambda[m]!;
      grad[h]! -= w * gradMu[m]!;
      curvature[h]! += w * mu[m]!;
    }
    for (let t = 0; t < teams; t++) {
      const step = clampStep(grad[t]! / curvature[t]!);
      defence[t]! += step;
      largest = Math.max(largest, Math.abs(step));
    }

    refresh();
    const rhoStep = fitRhoStep(data, lambda, mu, rho, options);
    rho += rhoStep;
    largest = Math.max(largest, Math.abs(rhoStep));

    if (largest < tolerance) break;
  }

  refresh();
  const draw = options.drawBalance ? fitDrawBalance(data, lambda, mu, rho) : NO_DRAW_BALANCE;

  const ratings = new Map<string, TeamRating>();
  data.teamKeys.forEach((key, t) => {
    ratings.set(key, { attack: attack[t]!, defence: defence[t]!, matches: data.matchesPerTeam[t]! });
  });
  return {
    teams: ratings,
    intercept: finiteOr(intercept, options.baseline.intercept),
    homeAdvantage: finiteOr(homeAdvantage, options.baseline.homeAdvantage),
    rho: finiteOr(rho, options.baseline.rho),
    draw,
    newcomer: { ...options.newcomer },
    asOf: options.asOf,
    matches: n,
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
