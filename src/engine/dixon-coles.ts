// Dixon–Coles goals model fitted by penalised maximum likelihood: per-team attack and defence,
// a home advantage, the low-score correction rho, and time-decay weights on past matches.
// The optimiser is block coordinate ascent with exact diagonal Newton steps: within the attack
// block no two parameters share a Poisson rate (likewise defences), so each block's Hessian is
// diagonal and one step per block is cheap and sure-footed.
import type { PlayedMatch, Ratings, TeamRating } from './types.js';

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
   * Share of the goal counts replaced by shots on target times the league's conversion rate,
   * where shots are known: shots are a steadier signal of strength than goals.
   */
  shotsWeight: number;
  /**
   * Extra weight factor per season break between a match and `asOf`: squads change over the
   * summer more than within a season, so last season's matches count less from the first day.
   */
  seasonCarryOver: number;
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
/** A pause this long in a league's calendar is a break between seasons. */
const SEASON_BREAK_DAYS = 42;
const RHO_LIMIT = 0.35;

/** The settings the evaluation in docs/engine.md chose; see that file for how. */
export const DEFAULT_FIT: Omit<FitOptions, 'asOf'> = {
  halfLifeDays: 330,
  windowDays: 4 * 365,
  priorSd: 0.3,
  newcomer: { attack: -0.25, defence: -0.2 },
  shotsWeight: 0,
  seasonCarryOver: 1,
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
  const firstDate: number[] = [];
  const stintStart: number[] = [];
  const lastDate: number[] = [];
  const teamIndex = (key: string, date: number): number => {
    let found = index.get(key);
    if (found === undefined) {
      found = teamKeys.length;
      index.set(key, found);
      teamKeys.push(key);
      firstDate.push(date);
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
  // Season breaks: walking back from the newest match, each long pause in the calendar
  // multiplies the weight of everything before it by `seasonCarryOver`.
  const carry = Math.min(Math.max(options.seasonCarryOver, 0), 1);
  const seasonFactor = new Float64Array(n).fill(1);
  let factor = 1;
  for (let m = n - 1; m >= 0; m--) {
    const next = kept[m + 1];
    if (next && next.date - kept[m]!.date >= SEASON_BREAK_DAYS * DAY_MS) factor *= carry;
    seasonFactor[m] = factor;
  }
  let goals = 0;
  let shots = 0;
  kept.forEach((match, m) => {
    prepared.home[m] = teamIndex(match.home, match.date);
    prepared.away[m] = teamIndex(match.away, match.date);
    prepared.homeGoals[m] = match.homeGoals;
    prepared.awayGoals[m] = match.awayGoals;
    prepared.weight[m] = seasonFactor[m]! * Math.exp(-decay * (asOf - match.date));
    if (hasShots(match)) {
      goals += match.homeGoals + match.awayGoals;
      shots += (match.homeShotsOnTarget as number) + (match.awayShotsOnTarget as number);
    }
  });

  const conversion = shots > 0 ? goals / shots : 0;
  const share = conversion > 0 ? Math.min(Math.max(options.shotsWeight, 0), 1) : 0;
  kept.forEach((match, m) => {
    const blend = hasShots(match) ? share : 0;
    prepared.homeTarget[m] =
      (1 - blend) * match.homeGoals + blend * conversion * (match.homeShotsOnTarget ?? 0);
    prepared.awayTarget[m] =
      (1 - blend) * match.awayGoals + blend * conversion * (match.awayShotsOnTarget ?? 0);
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

/** Dixon–Coles tau: the correction to independent Poisson for the four low scores. */
export function tau(x: number, y: number, lambda: number, mu: number, rho: number): number {
  if (x === 0 && y === 0) return 1 - lambda * mu * rho;
  if (x === 0 && y === 1) return 1 + lambda * rho;
  if (x === 1 && y === 0) return 1 + mu * rho;
  if (x === 1 && y === 1) return 1 - rho;
  return 1;
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

  const ratings = new Map<string, TeamRating>();
  data.teamKeys.forEach((key, t) => {
    ratings.set(key, { attack: attack[t]!, defence: defence[t]!, matches: data.matchesPerTeam[t]! });
  });
  return {
    teams: ratings,
    intercept: finiteOr(intercept, options.baseline.intercept),
    homeAdvantage: finiteOr(homeAdvantage, options.baseline.homeAdvantage),
    rho: finiteOr(rho, options.baseline.rho),
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

/** Newton steps on a log scale are capped so a wild start cannot overshoot into overflow. */
function clampStep(step: number): number {
  if (!Number.isFinite(step)) return 0;
  return Math.max(-1, Math.min(1, step));
}

function finiteOr(value: number, fallback: number): number {
  return Number.isFinite(value) ? value : fallback;
}
