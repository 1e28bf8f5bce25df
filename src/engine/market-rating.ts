// The market's view of past matches as a rating (a "betting-odds rating", Wunderlich & Memmert
// 2018), filtered: each side's strength, goal tendency and draw tendency is a belief (a mean and
// its variance) that every earlier match's prices update by a Kalman step, so a side the rating
// barely knows (promoted, or any side after the summer) learns fast and a side it knows well
// moves little. The league's home advantage and goal level are beliefs of their own that move
// within a season. The market prices team news, injuries and transfers that results show late;
// these ratings carry that into the next match. They only ever read matches strictly before the
// fit's day: a match's own odds are never its input.
import { type LinkedHistory, linkKey } from './divisions.js';
import { solveLinear } from './linear.js';
import { marginFree } from './margin.js';
import { DAY_MS, seasonOf } from './season.js';
import {
  addToTable,
  matchesLeft,
  type SideNeed,
  type StakeClass,
  type Standing,
  seasonMeetings,
  stakeClasses,
  stakeNeeds,
  stakeShare,
} from './stakes.js';
import type {
  ArrivingSide,
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
  /** The result, when known: the season's table the stakes classes are read from. */
  homeGoals?: number;
  awayGoals?: number;
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
  /** When present, the strength figures' density of August and September only (the season's start). */
  seasonStart?: { logDensity: number; count: number };
}

/** August and September (UTC months 7 and 8): the season's start the carry-over is fitted on. */
const isSeasonStart = (day: number) => {
  const month = new Date(day).getUTCMonth();
  return month === 7 || month === 8;
};

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
 * `shiftWatch.matches` (60 unless fitted); when that average strays beyond `shiftWatch.limit` (4)
 * of its standard errors, the term's variance is opened to the size of the shift, and the next
 * matches move it. `npm run engine:fit` fits both on the 2020 restart (behind closed doors, the
 * only such shift in the data: docs/engine/model.md); tested on a simulated one.
 */
export const DEFAULT_SHIFT_WATCH = { matches: 60, limit: 4 } as const;

function watchShift(
  watch: { mean: number },
  term: Belief,
  error: number,
  variance: number,
  { matches, limit }: { matches: number; limit: number },
): void {
  const step = 1 / matches;
  const spread = Math.sqrt(variance);
  watch.mean += step * (error / spread - watch.mean);
  if (Math.abs(watch.mean) > limit * Math.sqrt(step / (2 - step))) {
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
  /** Its matches read in the current season (the season's start: `MarketSettings.seasonStart`). */
  seasonMatches: number;
  /** Its strength before its season's last matches (`MarketSettings.carryBeforeEnd`): what is carried on. */
  beforeEnd?: number;
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

/** A side's beliefs carried into a new season: pulled toward the league's means, less sure. */
function intoSeason(
  team: TeamState,
  summary: SeasonSummary,
  settings: MarketSettings,
  season: string,
): TeamState {
  const { beforeEnd, ...rest } = team;
  const strength = beforeEnd === undefined ? team.strength : { ...team.strength, mean: beforeEnd };
  return {
    ...rest,
    strength: carryOver(strength, summary.mean.strength, carryOf(settings.strength)),
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
    seasonMatches: 0,
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
  /** The means the sides were carried toward when this season started (a linked arrival's reference). */
  startMean: { strength: number; goals: number; draw: number };
  /** The league's code and its neighbouring divisions' filters (`MarketSettings.divisions`). */
  links: DivisionLinks | null;
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
  /** The current season's table, and each side's stake class as of the day being read (`stakes` only). */
  table: Map<string, Standing>;
  classes: Map<string, StakeClass>;
  /** Each side's need for points as of the day being read (`stakesImportance` only). */
  needs: Map<string, SideNeed>;
  /** Each side's matches left as of the day being read (`seasonEnd` and `carryBeforeEnd` only). */
  left: Map<string, number>;
  /** How often each pair meets in this league's season, from the last season's table (`seasonMeetings`). */
  meetings: number | null;
}

/**
 * The rating as a filter fed day by day: `read` takes one day's priced matches, in order, each
 * updating it (they are all history by then: the rating is only ever asked for a later day);
 * `rating` gives the state as of an instant after the last day read. `fitMarketRating` feeds it
 * a league's history; the tuning script feeds it once and reads the rating before each day, which
 * is the same as fitting as of each day.
 */
export function marketFilter(settings: MarketSettings, score?: FilterScore, links?: DivisionLinks) {
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
    startMean: { strength: 0, goals: 0, draw: 0 },
    links: settings.divisions && links ? links : null,
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
    table: new Map(),
    classes: new Map(),
    needs: new Map(),
    left: new Map(),
    meetings: 2,
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
      const { stakes, stakesDecided, stakesImportance, seasonEnd, carryBeforeEnd } = state.settings;
      // The season's table, kept for whatever reads a side's place or matches left in it.
      const endRead = Boolean(seasonEnd) || carryBeforeEnd !== undefined;
      if (stakes) state.classes = stakeClasses(state.table, stakesDecided, state.meetings);
      if (stakes && stakesImportance) state.needs = stakeNeeds(state.table, stakesDecided, state.meetings);
      if (endRead) state.left = matchesLeft(state.table, state.meetings);
      for (const match of matches) readMatch(state, match, day, curve);
      if (stakes || endRead)
        for (const match of matches)
          if (match.homeGoals !== undefined && match.awayGoals !== undefined)
            addToTable(state.table, match as PricedMatch & { homeGoals: number; awayGoals: number });
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

    /**
     * A side as it would leave this division for another on `day` (a fixture of `season`): its
     * beliefs relative to the division's mean, carried into a new season. Null when it plays here
     * in `season` or later, or has not played here for `LINK_DAYS`.
     */
    departing(name: string, day: number, season: string): Departure | null {
      return departingOf(state, name, day, season);
    },

    /** Every side that could leave this division on `day`, by name. */
    departures(day: number): Map<string, Departure> {
      const out = new Map<string, Departure>();
      for (const name of state.teams.keys()) {
        const side = departingOf(state, name, day, LATEST_SEASON);
        if (side) out.set(name, side);
      }
      return out;
    },
  };
}

/** A side's beliefs relative to its division's mean, as it leaves it (see `departing`). */
export interface Departure {
  strength: Belief;
  goals: Belief;
  draw: Belief;
  /** The latest season it played in that division. */
  season: string;
  matches: number;
}

/**
 * A side rated in a neighbouring division is linked if it played there within about a year: a
 * season and its summer. Older ratings (a season missing from the data, a spell outside it) are not.
 */
const LINK_DAYS = 400;
/** Above every season label: `departures` lists sides whatever the season they would arrive in. */
const LATEST_SEASON = '\uffff';

/** A neighbouring division's own filter (not linked further), read lazily up to each lookup's day. */
export interface LinkSource {
  league: string;
  departing(name: string, day: number, season: string): Departure | null;
  departures(day: number): Map<string, Departure>;
}

/** A league's code and where its sides may come from (`marketFilter`'s `links`). */
export interface DivisionLinks {
  league: string;
  sources: readonly LinkSource[];
}

/**
 * A neighbouring division's priced days before `before`, filtered by the same settings, read only
 * as far as the latest day a lookup asks for (days strictly before it).
 */
export function linkSource(
  league: string,
  matches: readonly PricedMatch[],
  settings: MarketSettings,
  before: number,
): LinkSource {
  const filter = marketFilter(settings);
  const days = pricedDays(matches, before);
  let next = 0;
  const advance = (day: number) => {
    for (; next < days.length && days[next]![0]!.date < day; next++)
      filter.read(days[next]![0]!.date, days[next]!);
  };
  return {
    league,
    departing(name, day, season) {
      advance(day);
      return filter.departing(name, day, season);
    },
    departures(day) {
      advance(day);
      return filter.departures(day);
    },
  };
}

/** The links of `league` to the neighbours' histories given (none without `settings.divisions`). */
export function divisionLinks(
  linked: LinkedHistory<PricedMatch> | undefined,
  settings: MarketSettings,
  before: number,
): DivisionLinks | undefined {
  if (!linked || !settings.divisions) return undefined;
  return {
    league: linked.league,
    sources: linked.neighbours.map((neighbour) =>
      linkSource(neighbour.league, neighbour.matches, settings, before),
    ),
  };
}

function departingOf(state: FilterState, name: string, day: number, season: string): Departure | null {
  const team = state.teams.get(name);
  if (!team || team.season >= season || day - team.day > LINK_DAYS * DAY_MS) return null;
  const { settings } = state;
  const since = (day - team.day) / DAY_MS;
  const drifted = (belief: Belief, drift: number) => ({
    mean: belief.mean,
    variance: belief.variance + drift * since,
  });
  // Before its division's next season starts, its latest strength, not the one kept from before
  // its last matches (`carryBeforeEnd`): measured both ways, the latest read promoted sides better
  // (decision 0171); once that season started, `intoSeason` has carried the kept one.
  const strength = drifted(team.strength, settings.strength.drift);
  const goals = drifted(team.goals, settings.goals.drift);
  const draw = drifted(team.draw, settings.draw.drift);
  const relative = (belief: Belief, mean: number) => ({
    mean: belief.mean - mean,
    variance: belief.variance,
  });
  if (team.season === state.season) {
    // Its division's season is not over: carried as that division's next season would carry it.
    const { mean } = summarise(
      [...state.currentSeason].map((member) => state.teams.get(member)!),
      settings,
    );
    return {
      strength: relative(carryOver(strength, mean.strength, carryOf(settings.strength)), mean.strength),
      goals: relative(carryOver(goals, mean.goals, carryOf(settings.goals)), mean.goals),
      draw: relative(carryOver(draw, mean.draw, carryOf(settings.draw)), mean.draw),
      season: team.season,
      matches: team.matches,
    };
  }
  // Carried already when its division's next season started.
  return {
    strength: relative(strength, state.startMean.strength),
    goals: relative(goals, state.startMean.goals),
    draw: relative(draw, state.startMean.draw),
    season: team.season,
    matches: team.matches,
  };
}

/**
 * A side new to the league on `day` that a neighbouring division rated more recently than this
 * one did (`existing`): its beliefs there, relative to that division's mean, put on this league's
 * (the link's offset on its strength, whose variance opens by `divisions.variance`). Null: none.
 */
function arrivalOf(
  state: FilterState,
  name: string,
  day: number,
  existing: TeamState | undefined,
): TeamState | null {
  const { links, settings, season } = state;
  if (!links || !settings.divisions) return null;
  let best: { offset: number; side: Departure } | null = null;
  for (const source of links.sources) {
    const offset = settings.divisions.offsets[linkKey(source.league, links.league)];
    if (offset === undefined) continue;
    const side = source.departing(name, day, season);
    if (side && (!best || side.season > best.side.season)) best = { offset, side };
  }
  if (!best || (existing && existing.season >= best.side.season)) return null;
  const { side, offset } = best;
  return {
    strength: {
      mean: state.startMean.strength + side.strength.mean + offset,
      variance: side.strength.variance + settings.divisions.variance,
    },
    goals: { mean: state.startMean.goals + side.goals.mean, variance: side.goals.variance },
    draw: { mean: state.startMean.draw + side.draw.mean, variance: side.draw.variance },
    steam: 0,
    day,
    season,
    matches: side.matches,
    seasonMatches: 0,
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
    state.startMean = summary.mean;
    for (const [name, team] of teams) teams.set(name, intoSeason(team, summary, settings, team.season));
    state.previousSeason = state.currentSeason;
    state.currentSeason = new Set();
  }
  state.season = label;
  if (state.table.size > 0) state.meetings = seasonMeetings(state.table);
  state.table = new Map();
  state.classes = new Map();
  state.needs = new Map();
  state.left = new Map();
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
  // Met neither this season nor the last: promoted (or back after a spell below), from its rating
  // in a linked division when it has one.
  if (!team || (team.season !== season && !state.previousSeason.has(name))) {
    team = arrivalOf(state, name, day, team) ?? newcomer(state.level, settings, season, day);
    state.teams.set(name, team);
  } else if (team.season !== season) {
    team.season = season;
    team.seasonMatches = 0;
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
  // The season's first matches believed faster (or slower) than the rest: `seasonStart`.
  const early =
    settings.seasonStart && Math.min(h.seasonMatches, a.seasonMatches) < settings.seasonStart.matches
      ? settings.seasonStart.noise
      : 1;
  const carried = settings.carryBeforeEnd;
  if (carried !== undefined) {
    // Kept as each side enters its last `carried` matches: what the next season inherits.
    if (h.beforeEnd === undefined && lastMatches(state, match.home, carried)) h.beforeEnd = h.strength.mean;
    if (a.beforeEnd === undefined && lastMatches(state, match.away, carried)) a.beforeEnd = a.strength.mean;
  }
  const end = settings.seasonEnd;
  const late =
    end && (lastMatches(state, match.home, end.matches) || lastMatches(state, match.away, end.matches))
      ? end
      : null;
  if (late) {
    h.strength.variance += late.drift;
    a.strength.variance += late.drift;
  }
  const noise = settings.strength.noise * early * (late?.noise ?? 1);
  h.matches++;
  a.matches++;
  h.seasonMatches++;
  a.seasonMatches++;
  const y = Math.max(Math.min(Math.log(clampP(pH) / clampP(pA)), 6), -6);
  // The draw price beside the favourite's, against the curve of the days before.
  const drawError = logit(clampP(pD)) - drawLogit(curve, y);
  // The price's known offsets: the sides' price moves, and their stake classes (priced by the
  // market, kept out of the strengths the next season inherits).
  const steam =
    (settings.steam ? settings.steam.weight * (h.steam - a.steam) : 0) +
    stakeTerm(state, match.home, match.away);
  watchShift(
    state.homeWatch,
    home,
    y - (home.mean + h.strength.mean - a.strength.mean + steam),
    home.variance + h.strength.variance + a.strength.variance + noise,
    settings.shiftWatch ?? DEFAULT_SHIFT_WATCH,
  );
  const density = observe([home, h.strength, a.strength], [1, 1, -1], y, noise, steam);
  score.strength.logDensity += density;
  score.strength.count++;
  if (score.seasonStart && isSeasonStart(day)) {
    score.seasonStart.logDensity += density;
    score.seasonStart.count++;
  }
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
      goalLevel.variance + h.goals.variance + a.goals.variance + settings.goals.noise * early,
      settings.shiftWatch ?? DEFAULT_SHIFT_WATCH,
    );
    score.goals.logDensity += observe(
      [goalLevel, h.goals, a.goals],
      [1, 1, 1],
      total,
      settings.goals.noise * early,
    );
    score.goals.count++;
  }
  const features = [1, Math.abs(y), y * y];
  const target = logit(clampP(pD));
  for (let r = 0; r < 3; r++) {
    state.xty[r]! += features[r]! * target;
    for (let c = 0; c < 3; c++) state.xtx[r]![c]! += features[r]! * features[c]!;
  }
}

/**
 * A side's stake term: its class's κ (its share of it), plus λ times its need for points, each
 * line's share of the need weighed apart when set (`stakesNeedTitle` and the others).
 */
function sideStakeTerm(
  state: FilterState,
  team: string,
  stake: StakeClass,
  need: SideNeed | undefined,
): number {
  const { settings, table } = state;
  const kappa =
    (settings.stakes?.[stake] ?? 0) * stakeShare(table, team, settings.stakesRamp ?? 0, state.meetings);
  if (!need) return kappa;
  const [title, champions, europe] = need.lines;
  return (
    kappa +
    (settings.stakesImportance ?? 0) * need.total +
    (settings.stakesNeedTitle ?? 0) * title +
    (settings.stakesNeedChampions ?? 0) * champions +
    (settings.stakesNeedEurope ?? 0) * europe
  );
}

/** Each side's stake term as of the last day read (from the season's table). */
function stakeTerms(state: FilterState): Map<string, number> {
  const terms = new Map<string, number>();
  const { stakesDecided, stakesImportance } = state.settings;
  const needs = stakesImportance
    ? stakeNeeds(state.table, stakesDecided, state.meetings)
    : new Map<string, SideNeed>();
  for (const [team, stake] of stakeClasses(state.table, stakesDecided, state.meetings))
    terms.set(team, sideStakeTerm(state, team, stake, needs.get(team)));
  return terms;
}

/** Whether `team` has `matches` or fewer left in a judged round-robin, as of the day being read. */
function lastMatches(state: FilterState, team: string, matches: number): boolean {
  const left = state.left.get(team);
  return left !== undefined && left <= matches;
}

/** The home side's stake term minus the away side's on ln(pH/pA): 0 without `stakes` or outside the last matches. */
function stakeTerm(state: FilterState, home: string, away: string): number {
  if (!state.settings.stakes) return 0;
  const of = (team: string) => {
    const stake = state.classes.get(team);
    return stake ? sideStakeTerm(state, team, stake, state.needs.get(team)) : 0;
  };
  return of(home) - of(away) * (1 + (state.settings.stakesAway ?? 0));
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
      ...(team.beforeEnd === undefined ? {} : { beforeEnd: team.beforeEnd }),
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
    startMean: state.startMean,
    ...(state.links ? { arrivals: arrivalsOf(state, asOf) } : {}),
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
    ...(settings.stakes ? { stakes: stakeTerms(state) } : {}),
    ...(settings.stakesAway ? { stakesAway: settings.stakesAway } : {}),
    latest,
    matches: matchesRead,
  };
}

/** The neighbours' sides as each would arrive in this league (see `ArrivingSide`). */
function arrivalsOf(state: FilterState, asOf: number): Map<string, ArrivingSide> {
  const arrivals = new Map<string, ArrivingSide>();
  const { links, settings } = state;
  if (!links || !settings.divisions) return arrivals;
  for (const source of links.sources) {
    const offset = settings.divisions.offsets[linkKey(source.league, links.league)];
    if (offset === undefined) continue;
    for (const [name, side] of source.departures(asOf)) {
      const known = arrivals.get(name);
      if (known && known.season >= side.season) continue;
      arrivals.set(name, {
        from: source.league,
        strength: side.strength.mean + offset,
        strengthVariance: side.strength.variance + settings.divisions.variance,
        goals: side.goals.mean,
        goalsVariance: side.goals.variance,
        draw: side.draw.mean,
        drawVariance: side.draw.variance,
        season: side.season,
        matches: side.matches,
      });
    }
  }
  return arrivals;
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
  linked?: LinkedHistory<PricedMatch>,
): MarketRating | null {
  const filter = marketFilter(settings, undefined, divisionLinks(linked, settings, asOf));
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
  /**
   * The share of the two sides in their season's last matches (0, ½ or 1), where the stake
   * classes are judged; 0 when the settings do not price stakes.
   */
  late: number;
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
  // From a linked division, when a neighbour rated it after this league last did.
  const arrived = arrivingSide(rating, name, season, team);
  if (!team) return arrived ?? fresh;
  if (season <= rating.season) return team.season === rating.season || !arrived ? team : arrived;
  if (team.season !== rating.season) return arrived ?? fresh;
  const strength = carryOver(
    { mean: team.beforeEnd ?? team.strength, variance: team.strengthVariance },
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
 * A neighbouring division's side as it starts a fixture of `season` here: relative to the means
 * this league's sides are carried toward (the next season's, or this one's start), or null.
 */
function arrivingSide(
  rating: MarketRating,
  name: string,
  season: string,
  team: MarketTeam | undefined,
): MarketTeam | null {
  const side = rating.arrivals?.get(name);
  if (!side || side.season >= season || (team && team.season >= side.season)) return null;
  const reference = season > rating.season ? rating.seasonMean : rating.startMean;
  return {
    strength: reference.strength + side.strength,
    strengthVariance: side.strengthVariance,
    goals: reference.goals + side.goals,
    goalsVariance: side.goalsVariance,
    draw: reference.draw + side.draw,
    drawVariance: side.drawVariance,
    steam: 0,
    season,
    matches: side.matches,
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
  // The sides' stake classes (`MarketSettings.stakes`), for a fixture of the rating's own season.
  const stakes = rating.stakes && when === rating.season ? rating.stakes : null;
  const stake = stakes
    ? (stakes.get(home) ?? 0) - (stakes.get(away) ?? 0) * (1 + (rating.stakesAway ?? 0))
    : 0;
  const late = stakes ? (Number(stakes.has(home)) + Number(stakes.has(away))) / 2 : 0;
  const x = rating.home + h.strength - a.strength + rating.steamWeight * (h.steam - a.steam) + stake;
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
    late,
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
