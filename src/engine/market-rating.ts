// The market's view of past matches as a rating (a "betting-odds rating", Wunderlich & Memmert
// 2018): each side's strength is learnt from the errors of the rating's forecast against the
// market's implied log(pH/pA) of every earlier match, and each side's goal tendency from the
// market's implied goal total (its over/under 2.5 price). The market prices team news, injuries
// and transfers that results show late; these ratings carry that into the next match. They only
// ever read matches strictly before the fit's day: a match's own odds are never its input.
import type { MarketRating, MarketSettings, MarketTeam, MatchMarket, PrematchOdds } from './types.js';

export type { BlendWeights, MarketRating, MarketSettings, MatchMarket } from './types.js';

type Probabilities3 = [number, number, number];

const DAY_MS = 86_400_000;

/** A pause this long between two priced matches of a league is a season break. */
const SEASON_BREAK_DAYS = 42;
/** The weakest sides of a season stand for the relegated ones (a promoted side starts there). */
const RELEGATED = 3;

const logit = (p: number) => Math.log(p / (1 - p));
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
const clampP = (p: number) => Math.min(Math.max(p, 1e-4), 1 - 1e-4);

/** Probability of more than 2.5 goals when the total is Poisson with mean `total`. */
export function overProbability(total: number): number {
  return 1 - Math.exp(-total) * (1 + total + (total * total) / 2);
}

/**
 * The Poisson mean whose over-2.5 probability is `over`, within [0.2, 9]: Newton steps on a
 * monotone function (its derivative is the probability of exactly two goals), safeguarded by
 * bisection of the bracket. A few steps where plain bisection took forty.
 */
export function impliedTotal(over: number): number {
  let low = 0.2;
  let high = 9;
  const target = clampP(over);
  let total = 2.6;
  for (let i = 0; i < 60; i++) {
    const gap = overProbability(total) - target;
    if (gap < 0) low = total;
    else high = total;
    const slope = (Math.exp(-total) * total * total) / 2;
    let next = total - gap / slope;
    if (!(next > low && next < high)) next = (low + high) / 2;
    if (Math.abs(next - total) < 1e-12 || high - low < 1e-12) return next;
    total = next;
  }
  return total;
}

/** Goals per side the inversion counts (a λ of 4 leaves under 0.3 % beyond it). */
const INVERSION_GOALS = 10;

/**
 * The expected goals (λ home, λ away) at which two independent Poisson scores give the 1X2
 * probabilities `oneXTwo`: the split is pinned by pH against pA, the total by the draw (for a
 * given split, more goals mean fewer draws). Newton steps on (ln λh, ln λa) with the exact
 * Jacobian (∂P(k; λ)/∂ln λ = P(k; λ)·(k − λ)). Null for prices no such pair gives (a draw
 * above what a goalless contest allows) or when the steps do not settle.
 */
export function impliedGoals(oneXTwo: readonly [number, number, number]): [number, number] | null {
  const [rawH, rawD, rawA] = oneXTwo;
  const sum = rawH + rawD + rawA;
  const targetRatio = Math.log(clampP(rawH / sum) / clampP(rawA / sum));
  const targetDraw = logit(clampP(rawD / sum));
  if (!Number.isFinite(targetRatio) || !Number.isFinite(targetDraw)) return null;
  let u = Math.log(1.35) + 0.35 * targetRatio;
  let v = Math.log(1.35) - 0.35 * targetRatio;
  const home = new Float64Array(INVERSION_GOALS + 1);
  const away = new Float64Array(INVERSION_GOALS + 1);
  for (let iteration = 0; iteration < 40; iteration++) {
    const lh = Math.exp(u);
    const la = Math.exp(v);
    home[0] = Math.exp(-lh);
    away[0] = Math.exp(-la);
    for (let k = 1; k <= INVERSION_GOALS; k++) {
      home[k] = (home[k - 1]! * lh) / k;
      away[k] = (away[k - 1]! * la) / k;
    }
    // Each outcome's probability and its derivatives in ln λh (…U) and ln λa (…V).
    let pH = 0;
    let pD = 0;
    let pA = 0;
    let hU = 0;
    let hV = 0;
    let dU = 0;
    let dV = 0;
    let aU = 0;
    let aV = 0;
    for (let i = 0; i <= INVERSION_GOALS; i++) {
      for (let j = 0; j <= INVERSION_GOALS; j++) {
        const p = home[i]! * away[j]!;
        const pu = p * (i - lh);
        const pv = p * (j - la);
        if (i > j) {
          pH += p;
          hU += pu;
          hV += pv;
        } else if (i === j) {
          pD += p;
          dU += pu;
          dV += pv;
        } else {
          pA += p;
          aU += pu;
          aV += pv;
        }
      }
    }
    // Residuals in log(pH/pA) and logit of the draw's share, and their Jacobian.
    const total = pH + pD + pA;
    const f1 = Math.log(pH / pA) - targetRatio;
    const f2 = Math.log(pD / (total - pD)) - targetDraw;
    const j11 = hU / pH - aU / pA;
    const j12 = hV / pH - aV / pA;
    const j21 = dU / pD - (hU + aU) / (pH + pA);
    const j22 = dV / pD - (hV + aV) / (pH + pA);
    const det = j11 * j22 - j12 * j21;
    if (!Number.isFinite(det) || Math.abs(det) < 1e-12) return null;
    let du = (j22 * f1 - j12 * f2) / det;
    let dv = (j11 * f2 - j21 * f1) / det;
    // Half a unit of log goals at most per step: the far start of a lopsided price stays in range.
    const size = Math.max(Math.abs(du), Math.abs(dv));
    if (size > 0.5) {
      du *= 0.5 / size;
      dv *= 0.5 / size;
    }
    u -= du;
    v -= dv;
    if (u < -4 || v < -4 || u > 1.6 || v > 1.6) return null;
    if (size < 1e-10) return [Math.exp(u), Math.exp(v)];
  }
  return null;
}

function solve3(a: number[][], b: number[]): [number, number, number] | null {
  // Gaussian elimination with partial pivoting, on a copy.
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < 3; col++) {
    let pivot = col;
    for (let r = col + 1; r < 3; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    if (Math.abs(m[pivot]![col]!) < 1e-12) return null;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < 3; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c < 4; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return [m[0]![3]! / m[0]![0]!, m[1]![3]! / m[1]![1]!, m[2]![3]! / m[2]![2]!];
}

/** A flat 26 % draw rate: where the draw curve starts, and what its small ridge pulls toward. */
const DRAW_PRIOR: [number, number, number] = [logit(0.26), 0, 0];

/** The draw curve from its least-squares sums, with a small ridge (it stays defined on a thin window). */
function drawCurveOf(xtx: number[][], xty: number[]): [number, number, number] {
  const ridge = 1;
  const a = xtx.map((row, r) => row.map((value, c) => value + (r === c ? ridge : 0)));
  const b = xty.map((value, r) => value + ridge * DRAW_PRIOR[r]!);
  return solve3(a, b) ?? DRAW_PRIOR;
}

const drawLogit = ([c0, c1, c2]: readonly number[], x: number) => c0! + c1! * Math.abs(x) + c2! * x * x;

interface PricedMatch {
  date: number;
  home: string;
  away: string;
  market?: MatchMarket | null | undefined;
}

/**
 * Runs the rating through every priced match before `asOf` (a day's matches are all forecast
 * before any of them updates it, as in the walk-forward). Null when the league has no priced
 * match within `freshDays`: the caller then uses the results-only model.
 */
export function fitMarketRating(
  matches: readonly PricedMatch[],
  asOf: number,
  settings: MarketSettings,
): MarketRating | null {
  const priced = matches
    .filter((match) => match.date < asOf && match.market?.oneXTwo)
    .sort((a, b) => a.date - b.date);
  const latest = priced.at(-1)?.date;
  if (latest === undefined || asOf - latest > settings.freshDays * DAY_MS) return null;

  const teams = new Map<string, MarketTeam>();
  const venueGain = settings.venueGain ?? 0;
  const drawGain = settings.drawGain ?? 0;
  let home = 0.35;
  let goalLevel = Math.log(2.6);
  let newcomer = { strength: 0, goals: 0 };
  let season = new Set<string>();
  let previous = Number.NEGATIVE_INFINITY;
  // Draw curve: least squares of the market's logit p(draw) on [1, |x|, x²].
  const xtx = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const xty = [0, 0, 0];
  let drawRows = 0;
  // The same sums over every priced match so far: the curve the draw tendencies are measured against.
  const allXtx = [
    [0, 0, 0],
    [0, 0, 0],
    [0, 0, 0],
  ];
  const allXty = [0, 0, 0];
  const drawFrom = asOf - settings.drawWindowDays * DAY_MS;

  const teamOf = (name: string): MarketTeam => {
    let team = teams.get(name);
    if (!team) {
      team = {
        strength: newcomer.strength,
        goals: newcomer.goals,
        homeGoals: 0,
        awayGoals: 0,
        draw: 0,
        matches: 0,
      };
      teams.set(name, team);
    }
    return team;
  };

  for (let i = 0; i < priced.length; ) {
    const day = priced[i]!.date;
    let end = i;
    while (end < priced.length && priced[end]!.date === day) end++;
    if (day - previous >= SEASON_BREAK_DAYS * DAY_MS && season.size > 0) {
      const members = [...season].map((name) => teams.get(name)!);
      const meanStrength = members.reduce((sum, team) => sum + team.strength, 0) / members.length;
      const meanGoals = members.reduce((sum, team) => sum + team.goals, 0) / members.length;
      const weakest = [...members].sort((a, b) => a.strength - b.strength).slice(0, RELEGATED);
      newcomer = {
        strength:
          meanStrength +
          settings.seasonShrink *
            (weakest.reduce((sum, team) => sum + team.strength, 0) / weakest.length - meanStrength),
        goals:
          meanGoals +
          settings.totalsShrink *
            (weakest.reduce((sum, team) => sum + team.goals, 0) / weakest.length - meanGoals),
      };
      for (const team of teams.values()) {
        team.strength = meanStrength + settings.seasonShrink * (team.strength - meanStrength);
        team.goals = meanGoals + settings.totalsShrink * (team.goals - meanGoals);
        team.homeGoals *= settings.totalsShrink;
        team.awayGoals *= settings.totalsShrink;
        team.draw *= settings.totalsShrink;
      }
      season = new Set();
    }
    // Forecast every match of the day, then update: no match informs another of its own day.
    const updates: Array<{ h: MarketTeam; a: MarketTeam; e: number; e2: number | null; e3: number }> = [];
    const curve = drawGain > 0 ? drawCurveOf(allXtx, allXty) : null;
    for (const match of priced.slice(i, end)) {
      const [pH, pD, pA] = match.market!.oneXTwo!;
      const h = teamOf(match.home);
      const a = teamOf(match.away);
      season.add(match.home);
      season.add(match.away);
      const y = Math.max(Math.min(Math.log(clampP(pH) / clampP(pA)), 6), -6);
      const e = y - (home + h.strength - a.strength);
      let e2: number | null = null;
      const ou = match.market!.overUnder;
      if (ou)
        e2 = Math.log(impliedTotal(ou[0])) - (goalLevel + h.goals + a.goals + h.homeGoals + a.awayGoals);
      // The draw price beside the favourite's: a lower one than the curve's means a more open game.
      const e3 = curve ? logit(clampP(pD)) - drawLogit(curve, y) - (h.draw + a.draw) : 0;
      updates.push({ h, a, e, e2, e3 });
      const features = [1, Math.abs(y), y * y];
      const target = logit(clampP(pD));
      for (let r = 0; r < 3; r++) {
        if (day >= drawFrom) xty[r]! += features[r]! * target;
        if (drawGain > 0) allXty[r]! += features[r]! * target;
        for (let c = 0; c < 3; c++) {
          if (day >= drawFrom) xtx[r]![c]! += features[r]! * features[c]!;
          if (drawGain > 0) allXtx[r]![c]! += features[r]! * features[c]!;
        }
      }
      if (day >= drawFrom) drawRows++;
    }
    for (const { h, a, e, e2, e3 } of updates) {
      h.draw += drawGain * e3;
      a.draw += drawGain * e3;
      h.strength += settings.gain * e;
      a.strength -= settings.gain * e;
      home += settings.homeGain * e;
      h.matches++;
      a.matches++;
      if (e2 !== null) {
        h.goals += settings.totalsGain * e2;
        a.goals += settings.totalsGain * e2;
        goalLevel += settings.totalsLevelGain * e2;
        h.homeGoals += venueGain * e2;
        a.awayGoals += venueGain * e2;
      }
    }
    previous = day;
    i = end;
  }

  const drawCurve = drawRows > 0 ? drawCurveOf(xtx, xty) : DRAW_PRIOR;
  return { teams, home, goalLevel, drawCurve, newcomer, latest, matches: priced.length };
}

export interface MarketForecast {
  oneXTwo: Probabilities3;
  over: number;
  /** |ln(pH/pA)| of the rating: how lopsided the fixture is. */
  spread: number;
  /** Both sides' draw tendency (logit scale, beside the draw curve): high means a closed game. */
  drawTendency: number;
}

/** The rating's 1X2 and over-2.5 forecast of a fixture. */
export function marketForecast(rating: MarketRating, home: string, away: string): MarketForecast {
  const fresh = { ...rating.newcomer, homeGoals: 0, awayGoals: 0, draw: 0, matches: 0 };
  const h = rating.teams.get(home) ?? fresh;
  const a = rating.teams.get(away) ?? fresh;
  const x = rating.home + h.strength - a.strength;
  const draw = Math.min(Math.max(sigmoid(drawLogit(rating.drawCurve, x)), 0.02), 0.5);
  const pH = (1 - draw) * sigmoid(x);
  return {
    oneXTwo: [pH, draw, 1 - draw - pH],
    over: clampP(overProbability(Math.exp(rating.goalLevel + h.goals + a.goals + h.homeGoals + a.awayGoals))),
    spread: Math.abs(x),
    drawTendency: h.draw + a.draw,
  };
}

/**
 * Over 2.5 read from the rating's own 1X2 of the fixture, its draw moved by the sides' draw
 * tendency: the Poisson goals that give those three probabilities (`impliedGoals`). The split
 * and the draw together pin the total, so this joins how lopsided the fixture is and how closed
 * its sides' games are priced in the one way a score model allows. The rating's over/under price
 * when no Poisson pair fits.
 */
export function inverseOver(forecast: MarketForecast): number {
  const [pH, pD, pA] = forecast.oneXTwo;
  const draw = sigmoid(logit(clampP(pD)) + forecast.drawTendency);
  const rest = (1 - draw) / (pH + pA);
  const goals = impliedGoals([pH * rest, draw, pA * rest]);
  return goals ? clampP(overProbability(goals[0] + goals[1])) : forecast.over;
}

/** A fixture's pre-match odds as margin-free probabilities (Pinnacle, else the market average). */
export function prematchForecast(odds: PrematchOdds | undefined): {
  oneXTwo: Probabilities3 | null;
  over: number | null;
} {
  if (!odds) return { oneXTwo: null, over: null };
  const valid = (values: readonly number[] | undefined) =>
    values?.every((value) => Number.isFinite(value) && value > 1) ? values : undefined;
  const triple = valid(odds.pinnacle) ?? valid(odds.average);
  const pair = valid(odds.ou_pinnacle) ?? valid(odds.ou_average);
  const margin = (values: readonly number[]) => {
    const inverse = values.map((value) => 1 / value);
    const total = inverse.reduce((sum, value) => sum + value, 0);
    return inverse.map((value) => value / total);
  };
  return {
    oneXTwo: triple ? (margin(triple) as Probabilities3) : null,
    over: pair ? margin(pair)[0]! : null,
  };
}

/** Log-linear pooling of 1X2 forecasts (weights need not sum to 1: they also sharpen or soften). */
export function pool1x2(parts: ReadonlyArray<{ p: Probabilities3 | null; weight: number }>): Probabilities3 {
  const log = [0, 0, 0];
  for (const { p, weight } of parts) {
    if (!p || weight === 0) continue;
    for (let k = 0; k < 3; k++) log[k]! += weight * Math.log(clampP(p[k]!));
  }
  const top = Math.max(...log);
  const raw = log.map((value) => Math.exp(value - top));
  const total = raw[0]! + raw[1]! + raw[2]!;
  return [raw[0]! / total, raw[1]! / total, raw[2]! / total];
}

/** Logistic pooling of over-2.5 forecasts. */
export function poolOver(shift: number, parts: ReadonlyArray<{ p: number | null; weight: number }>): number {
  let value = shift;
  for (const { p, weight } of parts) if (p !== null && weight !== 0) value += weight * logit(clampP(p));
  return sigmoid(value);
}
