// The market's view of past matches as a rating (a "betting-odds rating", Wunderlich & Memmert
// 2018), filtered: each side's strength, goal tendency and draw tendency is a belief (a mean and
// its variance) that every earlier match's prices update by a Kalman step, so a side the rating
// barely knows (promoted, or any side after the summer) learns fast and a side it knows well
// moves little. The league's home advantage and goal level are beliefs of their own that move
// within a season. The market prices team news, injuries and transfers that results show late;
// these ratings carry that into the next match. They only ever read matches strictly before the
// fit's day: a match's own odds are never its input.
import { solveLinear } from './linear.js';
import { marginFree } from './margin.js';
import { DAY_MS, seasonOf } from './season.js';
import type {
  FilterSettings,
  MarketRating,
  MarketSettings,
  MarketTeam,
  MatchMarket,
  PrematchOdds,
} from './types.js';

export type { BlendWeights, MarketRating, MarketSettings, MatchMarket } from './types.js';

type Probabilities3 = [number, number, number];

/**
 * The weakest sides of a season stand for the relegated ones, whose level a promoted side starts
 * at: three go down in four of the five leagues (two and a play-off in the Bundesliga).
 */
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

/** A flat 26 % draw rate: where the draw curve starts, and what its small ridge pulls toward. */
const DRAW_PRIOR: [number, number, number] = [logit(0.26), 0, 0];

/** The draw curve from its least-squares sums, with a small ridge (it stays defined on a thin window). */
function drawCurveOf(xtx: number[][], xty: number[]): [number, number, number] {
  const ridge = 1;
  const a = xtx.map((row, r) => row.map((value, c) => value + (r === c ? ridge : 0)));
  const b = xty.map((value, r) => value + ridge * DRAW_PRIOR[r]!);
  return (solveLinear(a, b) as [number, number, number] | null) ?? DRAW_PRIOR;
}

const drawLogit = ([c0, c1, c2]: readonly number[], x: number) => c0! + c1! * Math.abs(x) + c2! * x * x;

interface PricedMatch {
  date: number;
  season?: string | null | undefined;
  home: string;
  away: string;
  market?: MatchMarket | null | undefined;
}

/**
 * The standard normal quantile (Acklam's rational approximation, relative error below 1.2e-9):
 * the Asian handicap's price read as a goal supremacy.
 */
export function probit(p: number): number {
  const a = [
    -39.6968302866538, 220.946098424521, -275.928510446969, 138.357751867269, -30.6647980661472,
    2.50662827745924,
  ];
  const b = [-54.4760987982241, 161.585836858041, -155.698979859887, 66.8013118877197, -13.2806815528857];
  const c = [
    -0.00778489400243029, -0.322396458041136, -2.40075827716184, -2.54973253934373, 4.37466414146497,
    2.93816398269878,
  ];
  const d = [0.00778469570904146, 0.32246712907004, 2.445134137143, 3.75440866190742];
  const tail = (q: number) =>
    (((((c[0]! * q + c[1]!) * q + c[2]!) * q + c[3]!) * q + c[4]!) * q + c[5]!) /
    ((((d[0]! * q + d[1]!) * q + d[2]!) * q + d[3]!) * q + 1);
  if (p < 0.02425) return tail(Math.sqrt(-2 * Math.log(p)));
  if (p > 1 - 0.02425) return -tail(Math.sqrt(-2 * Math.log(1 - p)));
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a[0]! * r + a[1]!) * r + a[2]!) * r + a[3]!) * r + a[4]!) * r + a[5]!) * q) /
    (((((b[0]! * r + b[1]!) * r + b[2]!) * r + b[3]!) * r + b[4]!) * r + 1)
  );
}

/** A belief: the state's mean and its variance. */
interface Belief {
  mean: number;
  variance: number;
}

/**
 * The fit of each observation kind, summed over every match the filter read: the log of the
 * predictive density of the market's figure (Gaussian, the forecast's variance plus the
 * observation noise). The tuning script maximises it; the engine does not need it.
 */
export interface FilterScore {
  strength: { logDensity: number; count: number };
  goals: { logDensity: number; count: number };
  draw: { logDensity: number; count: number };
}

/**
 * One Kalman step of a linear observation y = Σ beliefs[k].mean + noise (every coefficient 1 or
 * −1, in `signs`), the beliefs taken as independent (each side's and the league's own variance):
 * each moves by its share of the forecast's variance times the error. Returns the log density.
 */
function observe(
  beliefs: readonly Belief[],
  signs: readonly number[],
  y: number,
  noise: number,
  offset = 0,
): number {
  let forecast = offset;
  let variance = noise;
  for (let k = 0; k < beliefs.length; k++) {
    forecast += signs[k]! * beliefs[k]!.mean;
    variance += beliefs[k]!.variance;
  }
  const error = y - forecast;
  for (let k = 0; k < beliefs.length; k++) {
    const belief = beliefs[k]!;
    const gain = belief.variance / variance;
    belief.mean += signs[k]! * gain * error;
    belief.variance -= gain * belief.variance;
  }
  return -0.5 * (Math.log(2 * Math.PI * variance) + (error * error) / variance);
}

/**
 * Watches a league term for a shift its slow drift would follow a season late (a season behind
 * closed doors): every match's error shares the shift, while the sides' own errors average out.
 * The errors, in units of their forecast's spread, are averaged over about the last
 * `SHIFT_MATCHES`; when that average strays beyond four of its standard errors, the term's
 * variance is opened to the size of the shift, and the next matches move it. Not fitted: the
 * seasons before 2018 hold no such shift (docs/engine/model.md); tested on a simulated one.
 */
const SHIFT_MATCHES = 60;
const SHIFT_STEP = 1 / SHIFT_MATCHES;
const SHIFT_LIMIT = 4 * Math.sqrt(SHIFT_STEP / (2 - SHIFT_STEP));

function watchShift(watch: { mean: number }, term: Belief, error: number, variance: number): void {
  const spread = Math.sqrt(variance);
  watch.mean += SHIFT_STEP * (error / spread - watch.mean);
  if (Math.abs(watch.mean) > SHIFT_LIMIT) {
    const shift = watch.mean * spread;
    term.variance = Math.max(term.variance, shift * shift);
    watch.mean = 0;
  }
}

/** A belief drifts between two days: its variance grows by `drift` a day. */
function age(belief: Belief, days: number, drift: number): void {
  if (days > 0) belief.variance += drift * days;
}

interface TeamState {
  strength: Belief;
  goals: Belief;
  draw: Belief;
  /** How its recent prices moved toward it from pre-match to closing (ln(pH/pA), its side's sign). */
  steam: number;
  /** Day of the side's latest update (its beliefs have drifted since). */
  day: number;
  /** The latest season it played in. */
  season: string;
  matches: number;
}

/** The league's means over one season's sides, and the level a promoted side starts at. */
interface SeasonSummary {
  mean: { strength: number; goals: number; draw: number };
  newcomer: { strength: number; goals: number };
}

function summarise(members: readonly TeamState[], settings: MarketSettings): SeasonSummary {
  const average = (read: (team: TeamState) => number, of: readonly TeamState[]) =>
    of.reduce((sum, team) => sum + read(team), 0) / Math.max(of.length, 1);
  const mean = {
    strength: average((team) => team.strength.mean, members),
    goals: average((team) => team.goals.mean, members),
    draw: average((team) => team.draw.mean, members),
  };
  const weakest = [...members].sort((a, b) => a.strength.mean - b.strength.mean).slice(0, RELEGATED);
  return {
    mean,
    newcomer: {
      strength:
        mean.strength +
        settings.strength.seasonShrink * (average((team) => team.strength.mean, weakest) - mean.strength),
      goals:
        mean.goals + settings.goals.seasonShrink * (average((team) => team.goals.mean, weakest) - mean.goals),
    },
  };
}

/** A side's beliefs carried into a new season: pulled toward the league's means, less sure. */
/**
 * A belief carried into a new season: pulled toward the league's mean (keeping `shrink` of its
 * distance to it), less sure (its variance shrunk alike, then `added`). One rule for the filter
 * and for a forecast of a season the rating has not read yet.
 */
function carryOver(belief: Belief, leagueMean: number, [shrink, added]: readonly [number, number]): Belief {
  return {
    mean: leagueMean + shrink * (belief.mean - leagueMean),
    variance: shrink * shrink * belief.variance + added,
  };
}

const carryOf = (filter: FilterSettings): [number, number] => [filter.seasonShrink, filter.seasonVariance];

function intoSeason(
  team: TeamState,
  summary: SeasonSummary,
  settings: MarketSettings,
  season: string,
): TeamState {
  return {
    ...team,
    strength: carryOver(team.strength, summary.mean.strength, carryOf(settings.strength)),
    goals: carryOver(team.goals, summary.mean.goals, carryOf(settings.goals)),
    draw: carryOver(team.draw, summary.mean.draw, carryOf(settings.draw)),
    season,
  };
}

/** A side the rating has not met this season or the last: the promoted sides' level, unsure. */
function newcomer(
  level: { strength: number; goals: number },
  settings: MarketSettings,
  season: string,
  day: number,
): TeamState {
  return {
    strength: { mean: level.strength, variance: settings.strength.newcomerVariance },
    goals: { mean: level.goals, variance: settings.goals.newcomerVariance },
    draw: { mean: 0, variance: settings.draw.newcomerVariance },
    steam: 0,
    day,
    season,
    matches: 0,
  };
}

/**
 * What the filter holds between days: each side's beliefs, the league's terms and their shift
 * watches, the seasons' members, and the draw curve's weighted sums.
 */
interface FilterState {
  settings: MarketSettings;
  teams: Map<string, TeamState>;
  home: Belief;
  homeWatch: { mean: number };
  levelWatch: { mean: number };
  goalLevel: Belief;
  /** The latest day read by the league's terms (NaN before the first). */
  leagueDay: number;
  season: string;
  /** Where a promoted side starts (the last season's relegated sides, carried over). */
  level: { strength: number; goals: number };
  previousSeason: Set<string>;
  currentSeason: Set<string>;
  latest: number;
  matchesRead: number;
  /**
   * The draw curve: least squares of the market's logit p(draw) on [1, |x|, x²], each match
   * weighted by its age (half-life `drawHalfLifeDays`), so the curve follows the league.
   */
  xtx: number[][];
  xty: number[];
  decayPerDay: number;
  score: FilterScore;
}

/**
 * The rating as a filter fed day by day: `read` takes one day's priced matches, in order, each
 * updating it (they are all history by then: the rating is only ever asked for a later day);
 * `rating` gives the state as of an instant after the last day read. `fitMarketRating` feeds it
 * a league's history; the tuning script feeds it once and reads the rating before each day, which
 * is the same as fitting as of each day.
 */
export function marketFilter(settings: MarketSettings, score?: FilterScore) {
  const state: FilterState = {
    settings,
    teams: new Map(),
    home: { mean: 0.35, variance: settings.strength.leagueVariance },
    homeWatch: { mean: 0 },
    levelWatch: { mean: 0 },
    goalLevel: { mean: Math.log(2.6), variance: settings.goals.leagueVariance },
    leagueDay: Number.NaN,
    season: '',
    level: { strength: 0, goals: 0 },
    previousSeason: new Set(),
    currentSeason: new Set(),
    latest: Number.NaN,
    matchesRead: 0,
    xtx: [
      [0, 0, 0],
      [0, 0, 0],
      [0, 0, 0],
    ],
    xty: [0, 0, 0],
    decayPerDay: Math.LN2 / settings.drawHalfLifeDays,
    score: score ?? {
      strength: { logDensity: 0, count: 0 },
      goals: { logDensity: 0, count: 0 },
      draw: { logDensity: 0, count: 0 },
    },
  };
  return {
    /** One day's priced matches (every one with a 1X2), after every earlier day's. */
    read(day: number, matches: readonly PricedMatch[]): void {
      if (matches.length === 0) return;
      const label = seasonOf(matches[0]!);
      if (label > state.season) startSeason(state, label);
      ageLeague(state, day);
      // The draw curve of the days before: a day's matches are read against it.
      const curve = drawCurveOf(state.xtx, state.xty);
      for (const match of matches) readMatch(state, match, day, curve);
      state.latest = day;
      state.matchesRead += matches.length;
    },

    /**
     * The rating as of `asOf` (after the last day read): every belief drifted on to it. Null
     * when nothing was read or the latest priced match is older than `freshDays`.
     */
    rating(asOf: number): MarketRating | null {
      return ratingOf(state, asOf);
    },
  };
}

/** A new season by its label: every side of the last one carried over, the rest newcomers. */
function startSeason(state: FilterState, label: string): void {
  const { teams, settings } = state;
  if (state.currentSeason.size > 0) {
    const summary = summarise(
      [...state.currentSeason].map((name) => teams.get(name)!),
      settings,
    );
    state.level = summary.newcomer;
    for (const [name, team] of teams) teams.set(name, intoSeason(team, summary, settings, team.season));
    state.previousSeason = state.currentSeason;
    state.currentSeason = new Set();
  }
  state.season = label;
}

/** The league's terms drift from the last day read to `day`, and the draw curve's weights decay. */
function ageLeague(state: FilterState, day: number): void {
  const { settings, xtx, xty } = state;
  if (Number.isFinite(state.leagueDay)) {
    const days = (day - state.leagueDay) / DAY_MS;
    age(state.home, days, settings.strength.leagueDrift);
    age(state.goalLevel, days, settings.goals.leagueDrift);
    const decay = Math.exp(-state.decayPerDay * days);
    for (let r = 0; r < 3; r++) {
      xty[r]! *= decay;
      for (let c = 0; c < 3; c++) xtx[r]![c]! *= decay;
    }
  }
  state.leagueDay = day;
}

/** A side's state on `day`: found (or made a newcomer), in this season, its beliefs drifted to the day. */
function teamOf(state: FilterState, name: string, day: number): TeamState {
  const { settings, season } = state;
  let team = state.teams.get(name);
  // Met neither this season nor the last: promoted (or back after a spell below).
  if (!team || (team.season !== season && !state.previousSeason.has(name))) {
    team = newcomer(state.level, settings, season, day);
    state.teams.set(name, team);
  } else if (team.season !== season) {
    team.season = season;
  }
  const days = (day - team.day) / DAY_MS;
  age(team.strength, days, settings.strength.drift);
  age(team.goals, days, settings.goals.drift);
  age(team.draw, days, settings.draw.drift);
  team.day = day;
  return team;
}

/**
 * One priced match, in the order the filter learns from it: the strength from the 1X2 (and the
 * Asian handicap's view of it), the sides' steam, the draw tendencies, the goals from the
 * over/under, then the match joins the draw curve.
 */
function readMatch(
  state: FilterState,
  match: PricedMatch,
  day: number,
  curve: [number, number, number],
): void {
  const { settings, score, home, goalLevel } = state;
  const [pH, pD, pA] = match.market!.oneXTwo!;
  const h = teamOf(state, match.home, day);
  const a = teamOf(state, match.away, day);
  state.currentSeason.add(match.home);
  state.currentSeason.add(match.away);
  h.matches++;
  a.matches++;
  const y = Math.max(Math.min(Math.log(clampP(pH) / clampP(pA)), 6), -6);
  // The draw price beside the favourite's, against the curve of the days before.
  const drawError = logit(clampP(pD)) - drawLogit(curve, y);
  const steam = settings.steam ? settings.steam.weight * (h.steam - a.steam) : 0;
  watchShift(
    state.homeWatch,
    home,
    y - (home.mean + h.strength.mean - a.strength.mean + steam),
    home.variance + h.strength.variance + a.strength.variance + settings.strength.noise,
  );
  score.strength.logDensity += observe(
    [home, h.strength, a.strength],
    [1, 1, -1],
    y,
    settings.strength.noise,
    steam,
  );
  score.strength.count++;
  // The Asian handicap's view of the same match, as a second figure of its strength: the
  // goal supremacy its line and price imply, on the 1X2's scale (`handicap.scale`).
  const handicap = match.market!.asianHandicap;
  if (settings.handicap && handicap) {
    const spread = Math.sqrt(Math.exp(goalLevel.mean + h.goals.mean + a.goals.mean));
    const supremacy = spread * probit(clampP(handicap.home)) - handicap.line;
    observe(
      [home, h.strength, a.strength],
      [1, 1, -1],
      settings.handicap.scale * supremacy,
      settings.handicap.noise,
      steam,
    );
  }
  const before = match.market!.prematchOneXTwo;
  if (settings.steam && before) {
    const move = y - Math.max(Math.min(Math.log(clampP(before[0]) / clampP(before[2])), 6), -6);
    h.steam += settings.steam.gain * (move - h.steam);
    a.steam += settings.steam.gain * (-move - a.steam);
  }
  score.draw.logDensity += observe([h.draw, a.draw], [1, 1], drawError, settings.draw.noise);
  score.draw.count++;
  const ou = match.market!.overUnder;
  if (ou) {
    const total = Math.log(impliedTotal(ou[0]));
    watchShift(
      state.levelWatch,
      goalLevel,
      total - (goalLevel.mean + h.goals.mean + a.goals.mean),
      goalLevel.variance + h.goals.variance + a.goals.variance + settings.goals.noise,
    );
    score.goals.logDensity += observe([goalLevel, h.goals, a.goals], [1, 1, 1], total, settings.goals.noise);
    score.goals.count++;
  }
  const features = [1, Math.abs(y), y * y];
  const target = logit(clampP(pD));
  for (let r = 0; r < 3; r++) {
    state.xty[r]! += features[r]! * target;
    for (let c = 0; c < 3; c++) state.xtx[r]![c]! += features[r]! * features[c]!;
  }
}

/** The filter's rating as of `asOf`, every belief drifted on to it (null: nothing fresh read). */
function ratingOf(state: FilterState, asOf: number): MarketRating | null {
  const { settings, teams, latest, matchesRead, leagueDay } = state;
  if (matchesRead === 0 || asOf - latest > settings.freshDays * DAY_MS) return null;
  const days = (asOf - leagueDay) / DAY_MS;
  const rated = new Map<string, MarketTeam>();
  for (const [name, team] of teams) {
    const since = (asOf - team.day) / DAY_MS;
    rated.set(name, {
      strength: team.strength.mean,
      strengthVariance: team.strength.variance + settings.strength.drift * since,
      goals: team.goals.mean,
      goalsVariance: team.goals.variance + settings.goals.drift * since,
      draw: team.draw.mean,
      drawVariance: team.draw.variance + settings.draw.drift * since,
      steam: team.steam,
      season: team.season,
      matches: team.matches,
    });
  }
  const summary = summarise(
    [...state.currentSeason].map((name) => teams.get(name)!),
    settings,
  );
  const decay = Math.exp(-state.decayPerDay * days);
  return {
    teams: rated,
    home: state.home.mean,
    homeVariance: state.home.variance + settings.strength.leagueDrift * days,
    goalLevel: state.goalLevel.mean,
    drawCurve: drawCurveOf(
      state.xtx.map((row) => row.map((value) => value * decay)),
      state.xty.map((value) => value * decay),
    ),
    season: state.season,
    seasonMean: summary.mean,
    newcomer: summary.newcomer,
    newcomerVariance: {
      strength: settings.strength.newcomerVariance,
      goals: settings.goals.newcomerVariance,
      draw: settings.draw.newcomerVariance,
    },
    carry: {
      strength: carryOf(settings.strength),
      goals: carryOf(settings.goals),
      draw: carryOf(settings.draw),
    },
    flatten: settings.flatten,
    steamWeight: settings.steam?.weight ?? 0,
    latest,
    matches: matchesRead,
  };
}

/** A league's priced matches before `asOf`, by day (and by home side within a day, for determinism). */
export function pricedDays(matches: readonly PricedMatch[], asOf: number): PricedMatch[][] {
  const priced = matches
    .filter((match) => match.date < asOf && match.market?.oneXTwo)
    .sort((a, b) => a.date - b.date || (a.home < b.home ? -1 : a.home > b.home ? 1 : 0));
  const days: PricedMatch[][] = [];
  for (const match of priced) {
    const last = days.at(-1);
    if (last && last[0]!.date === match.date) last.push(match);
    else days.push([match]);
  }
  return days;
}

/**
 * The rating as of `asOf` from every priced match before it. Null when the league has no priced
 * match within `freshDays`: the caller then uses the results-only model.
 */
export function fitMarketRating(
  matches: readonly PricedMatch[],
  asOf: number,
  settings: MarketSettings,
): MarketRating | null {
  const filter = marketFilter(settings);
  for (const day of pricedDays(matches, asOf)) filter.read(day[0]!.date, day);
  return filter.rating(asOf);
}

export interface MarketForecast {
  oneXTwo: Probabilities3;
  over: number;
  /** |ln(pH/pA)| of the rating: how lopsided the fixture is. */
  spread: number;
  /** Both sides' draw tendency (logit scale, beside the draw curve): high means a closed game. */
  drawTendency: number;
  /** How the home side's recent prices moved toward it before kick-off, minus the away side's. */
  steam: number;
  /** The variance of the rating's ln(pH/pA): both sides' and the home advantage's. */
  variance: number;
}

/**
 * A side as the rating sees it for a fixture of `season`: as fitted in its own season; carried
 * into a new one (pulled toward the league's means, less sure); a newcomer when the rating has
 * not met it this season or the last.
 */
function sideFor(rating: MarketRating, name: string, season: string): MarketTeam {
  const fresh: MarketTeam = {
    strength: rating.newcomer.strength,
    strengthVariance: rating.newcomerVariance.strength,
    goals: rating.newcomer.goals,
    goalsVariance: rating.newcomerVariance.goals,
    draw: 0,
    drawVariance: rating.newcomerVariance.draw,
    steam: 0,
    season,
    matches: 0,
  };
  const team = rating.teams.get(name);
  if (!team) return fresh;
  if (season <= rating.season) return team;
  if (team.season !== rating.season) return fresh;
  const strength = carryOver(
    { mean: team.strength, variance: team.strengthVariance },
    rating.seasonMean.strength,
    rating.carry.strength,
  );
  const goals = carryOver(
    { mean: team.goals, variance: team.goalsVariance },
    rating.seasonMean.goals,
    rating.carry.goals,
  );
  const draw = carryOver(
    { mean: team.draw, variance: team.drawVariance },
    rating.seasonMean.draw,
    rating.carry.draw,
  );
  return {
    strength: strength.mean,
    strengthVariance: strength.variance,
    goals: goals.mean,
    goalsVariance: goals.variance,
    draw: draw.mean,
    drawVariance: draw.variance,
    steam: team.steam,
    season,
    matches: team.matches,
  };
}

/**
 * The rating's 1X2 and over-2.5 forecast of a fixture of `season` (the rating's latest season
 * when not given). With `flatten`, the home/away split is the logistic averaged over the
 * rating's uncertainty (the probit approximation): an unsure rating says less.
 */
export function marketForecast(
  rating: MarketRating,
  home: string,
  away: string,
  season?: string,
): MarketForecast {
  const when = season ?? rating.season;
  const h = sideFor(rating, home, when);
  const a = sideFor(rating, away, when);
  const x = rating.home + h.strength - a.strength + rating.steamWeight * (h.steam - a.steam);
  const variance = rating.homeVariance + h.strengthVariance + a.strengthVariance;
  const draw = Math.min(Math.max(sigmoid(drawLogit(rating.drawCurve, x)), 0.02), 0.5);
  const split = rating.flatten ? x / Math.sqrt(1 + (Math.PI * variance) / 8) : x;
  const pH = (1 - draw) * sigmoid(split);
  return {
    oneXTwo: [pH, draw, 1 - draw - pH],
    over: clampP(overProbability(Math.exp(rating.goalLevel + h.goals + a.goals))),
    spread: Math.abs(x),
    drawTendency: h.draw + a.draw,
    steam: h.steam - a.steam,
    variance,
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
  return {
    oneXTwo: triple ? marginFree(triple as Probabilities3) : null,
    over: pair ? marginFree(pair as [number, number])[0] : null,
  };
}

/**
 * Log-linear pooling of 1X2 forecasts (weights need not sum to 1: they also sharpen or soften);
 * `shift` is added to the pooled log-probabilities (the end-of-season stakes terms).
 */
export function pool1x2(
  parts: ReadonlyArray<{ p: Probabilities3 | null; weight: number }>,
  shift: readonly [number, number, number] = [0, 0, 0],
): Probabilities3 {
  const log = [...shift];
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
