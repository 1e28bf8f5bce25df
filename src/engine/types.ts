// The shapes the engine works on: played matches in, fitted ratings and predictions out, and the
// vocabulary of results (pronostic types, markets, data quality) that the result builder and the
// analysis text share. Teams are plain string keys (a name or an id): the engine never looks anything up.
import type { oddsModes } from '../lib/allowed-values.js';

export type MarketName =
  | '1x2'
  | 'double_chance'
  | 'btts'
  | 'over_under_2_5'
  | 'exact_score'
  | 'full_analysis';

export type FormLetter = 'V' | 'N' | 'D';

/** A team's last results before a date (see form.ts). */
export interface Form {
  /** Oldest first, French letters: V victoire, N nul, D défaite. */
  results: FormLetter[];
  goalsFor: number;
  goalsAgainst: number;
}

export interface TeamContext {
  name: string;
  /** Whether the data knows this team (else it plays with the newcomer rating). */
  known: boolean;
  /** Its matches in the data the model was fitted on. */
  matches: number;
  form: Form | null;
}

export type DataQualityLevel = 'low' | 'medium' | 'high';

export interface DataQuality {
  home_matches: number;
  away_matches: number;
  level: DataQualityLevel;
  /**
   * Present (true) only when the league's latest result is older than the staleness window before
   * the match: the ratings describe the past, and the text says so.
   */
  stale?: true;
  /** The side(s) rated from European cup results alone: their league is not in the data (issue 51). */
  cups_only?: ('home' | 'away')[];
  /** A cup's second leg: the first leg's goals of this match's home and away sides (decision 0161). */
  first_leg?: { home: number; away: number };
  /** With `stale`: the day of the league's latest result we hold (`yyyy-mm-dd`), or null if none. */
  latest_result?: string | null;
  /**
   * What the market told the prediction: the match's own pre-match odds (`prematch`), past
   * matches' odds through the market rating alone (`market`), or nothing (`none`: results only).
   */
  odds: OddsMode;
}

export type OddsMode = (typeof oddsModes)[number];

/**
 * A fixture's pre-match market odds as the analysis hands them to the engine: decimal odds,
 * 1X2 as [home, draw, away] and over/under 2.5 as [over, under]; never closing odds (those are
 * what the engine is scored against). `collected_at` is when they were read (ISO 8601).
 */
export interface PrematchOdds {
  collected_at: string;
  pinnacle?: [number, number, number];
  average?: [number, number, number];
  ou_pinnacle?: [number, number];
  ou_average?: [number, number];
}

/** One played match. `date` is epoch milliseconds (UTC midnight of the match day is enough). */
export interface PlayedMatch {
  date: number;
  home: string;
  away: string;
  homeGoals: number;
  awayGoals: number;
  /**
   * The season's label (`2019-20`), from the data (a results file, a fixture): a league's seasons
   * are told apart by it, never by a pause in the calendar. Absent: read from the date (July to June).
   */
  season?: string | null;
  /** Shots on target, when the source has them; they sharpen the strength estimate. */
  homeShotsOnTarget?: number | null;
  awayShotsOnTarget?: number | null;
  /** Total shots and corners, when the source has them (see `totalShotsWeight`, `cornersWeight`). */
  homeShots?: number | null;
  awayShots?: number | null;
  homeCorners?: number | null;
  awayCorners?: number | null;
  /**
   * The market's margin-free view of this match (closing odds where known, else pre-match): the
   * market rating learns from it once the match is history. A match's own view is never an input
   * to its own prediction (the fit reads only matches before its day).
   */
  market?: MatchMarket | null;
}

export interface TeamRating {
  /** Log-scale scoring strength: higher scores more. */
  attack: number;
  /** Log-scale defensive strength: higher concedes less. */
  defence: number;
  /** Matches of this team in the fitted window (with any weight). */
  matches: number;
}

/** The draw factor exp(base + slope·|ln λ − ln μ|) applied to the score matrix's diagonal. */
export interface DrawBalance {
  base: number;
  slope: number;
}

export interface Ratings {
  teams: Map<string, TeamRating>;
  /** Log of the goals an average side scores away from home. */
  intercept: number;
  /** Log-scale home advantage. */
  homeAdvantage: number;
  /** Dixon–Coles low-score dependence. */
  rho: number;
  draw: DrawBalance;
  /** Rating given to a side the data does not know: the league's typical promoted team. */
  newcomer: { attack: number; defence: number };
  /** The "as of" instant the time-decay weights were computed from. */
  asOf: number;
  /** Matches that carried weight in the fit. */
  matches: number;
  /** End-of-season stakes as of `asOf` (see stakes.ts); absent sides are not judged. */
  stakes?: ReadonlyMap<string, 'live' | 'dead'>;
  /** Log-rate shift of attack and defence for a side with something to play for against one without. */
  motivation?: number;
  /** Over/under 2.5 recalibration of the score matrix (logit p′ = shift + scale · logit p). */
  totals?: { shift: number; scale: number };
  /**
   * The market rating learnt from past matches' odds, and how it is pooled with this fit; absent
   * (or null) when the league has no recent priced match: the results-only model answers.
   */
  market?: MarketRating | null;
  blend?: { none: BlendWeights; prematch: BlendWeights; prematchOnly: BlendWeights };
}

// The market rating (market-rating.ts): its input, settings and fitted state.

/** The market's margin-free view of one played match (closing where known, else pre-match). */
export interface MatchMarket {
  oneXTwo: [number, number, number] | null;
  /** [over 2.5, under 2.5]. */
  overUnder: [number, number] | null;
  /**
   * The Asian handicap market, closing where known, else pre-match: `line` is the home side's
   * handicap in goals (−0.5: the home side gives half a goal), `home` the margin-free probability
   * that the home side covers it (pushes left out, as the price does).
   */
  asianHandicap?: { line: number; home: number } | null;
  /**
   * The pre-match 1X2 beside a closing `oneXTwo` (both margin-free), when the data has both:
   * how the price moved before kick-off. Absent when `oneXTwo` is itself pre-match.
   */
  prematchOneXTwo?: [number, number, number] | null;
}

/** How the engine's own fit, the market rating and a fixture's pre-match odds are pooled. */
export interface BlendWeights {
  /** 1X2: log p ∝ dc·log p_fit + market·log p_rating + prematch·log p_prematch. */
  dc: number;
  market: number;
  prematch: number;
  /**
   * 1X2 with the fixture's pre-match odds: ln(pH/pA) moved by this much times how the home side's
   * recent prices moved toward it before kick-off, minus the away side's (the rating's `steam`).
   */
  steam?: number;
  /**
   * 1X2, beside those: ln(pH/pA) moved by this much toward the side that still plays for something
   * when the other has nothing left to play for (end-of-season stakes, stakes.ts).
   */
  stakes?: number;
  /**
   * 1X2, the context-aware pool (issue 56): the fit's and the rating's weights moved by the
   * rating's uncertainty (the variance of its ln(pH/pA): a season's start, a newcomer, a long
   * break) and by how many of the two sides are in their season's last matches (0, ½ or 1):
   * dc + dcUncertain·variance + dcLate·late, and the same for market. Absent: fixed weights.
   */
  dcUncertain?: number;
  marketUncertain?: number;
  dcLate?: number;
  marketLate?: number;
  /** Over 2.5: logit p = ouShift + ouDc·logit p_fit + ouMarket·logit p_rating + ouPrematch·logit p_prematch. */
  ouShift: number;
  ouDc: number;
  ouMarket: number;
  ouPrematch: number;
  /** Over 2.5, beside those: times the rating's |ln(pH/pA)| and times its draw tendency. */
  ouSpread?: number;
  ouDraw?: number;
  /** Over 2.5, beside those: times the logit of the rating's 1X2 turned into goals (`inverseOver`). */
  ouInverse?: number;
}

/** How one of the market rating's beliefs (strength, goal tendency, draw tendency) is filtered. */
export interface FilterSettings {
  /** Variance of one market figure around the rating's forecast of it (team news, noise). */
  noise: number;
  /** Variance a side's belief gains per day. */
  drift: number;
  /** Share of its distance to the league's mean a side's belief keeps into a new season. */
  seasonShrink: number;
  /** Variance a side's belief gains into a new season, after the shrink (transfers, managers). */
  seasonVariance: number;
  /** Variance of a side the rating has not met: promoted, or any side of the data's first season. */
  newcomerVariance: number;
  /** The league's own term (home advantage; goal level): variance per day and at the start. */
  leagueDrift: number;
  leagueVariance: number;
}

export interface MarketSettings {
  /** Each side's strength and the home advantage, from the 1X2 price's ln(pH/pA). */
  strength: FilterSettings;
  /** Each side's goal tendency and the league's goal level, from the over/under price's total. */
  goals: FilterSettings;
  /** Each side's draw tendency, from the draw price beside the draw curve (league terms unused). */
  draw: FilterSettings;
  /** Average the home/away split over the rating's uncertainty (see `marketForecast`). */
  flatten: boolean;
  /**
   * The Asian handicap as a second figure of a past match's strength: its implied goal supremacy
   * times `scale` (onto ln(pH/pA)), with its own observation variance `noise`. Absent: unused.
   */
  handicap?: { scale: number; noise: number };
  /**
   * How a side's recent prices moved from pre-match to closing: each side keeps an average of
   * the moves toward it (step `gain` a match), and the forecast's ln(pH/pA) moves by `weight`
   * times the home side's minus the away side's. Absent: unused.
   */
  steam?: { gain: number; weight: number };
  /**
   * The league terms' shift watch (a season behind closed doors): the errors averaged over about
   * `matches`, a shift declared beyond `limit` standard errors. Absent: 60 and 4.
   */
  shiftWatch?: { matches: number; limit: number };
  /**
   * The season's start: while either side has played fewer than `matches` matches of the season,
   * the price's noise is multiplied by `noise` (below 1: the first prices believed faster).
   * Absent: off (fitted on August–September by `engine:fit` with `SEASON_START=1`).
   */
  seasonStart?: { matches: number; noise: number };
  /**
   * The season's end: while either side has `matches` or fewer left in a judged round-robin, the
   * price's noise is multiplied by `noise` and both sides' strength variances open by `drift`
   * before it is read (a late price's news passing, or lasting). Absent: off (fitted on closing
   * prices with `STAKES=1 SEASON_END=1`).
   */
  seasonEnd?: { matches: number; noise: number; drift: number };
  /**
   * The strength carried into the next season is the side's before its last `carryBeforeEnd`
   * matches of a judged round-robin (the end's prices read for the season's own forecasts, not
   * carried over the summer). Absent: its latest (`START='{"carryBeforeEnd":5}'` with `STAKES=1`).
   */
  carryBeforeEnd?: number;
  /**
   * Stakes priced by the market: a term κ per stake class (`STAKE_CLASSES` in stakes.ts: champion,
   * title, europe, safe, relegation, relegated) on ln(pH/pA), home's minus away's, for sides in
   * their last ten matches. The strengths are filtered net of it, so a dead rubber's prices do not
   * follow a side into the next season. Absent: off (fitted on closing prices with `STAKES=1`).
   */
  stakes?: Readonly<Record<string, number>>;
  /**
   * How the stake term grows toward the season's end: a side's κ times e^(−stakesRamp·(m−1)), m
   * the matches it has left to play (its last match: all of κ). Absent: κ alike over the last
   * matches (fitted with `STAKES=1 STAKES_RAMP=1`).
   */
  stakesRamp?: number;
  /**
   * The away side's stake term times (1 + stakesAway): a side with nothing to play for may be
   * priced further down on the road than at home. Absent: alike (fitted with `STAKES_AWAY=1`).
   */
  stakesAway?: number;
  /**
   * The stake classes judged in practice, not by arithmetic: the rest of the season simulated
   * (stakes.ts), a race open for a side while its chance of ending either side of the line is over
   * this (0.05: a 96 % title is the champion's). Absent: arithmetic's judgement (a race is open
   * while any run of results leaves it open); with `STAKES=1 START='{"stakesDecided":0.05}'`.
   */
  stakesDecided?: number;
  /**
   * A side's stake term plus this times its importance (`stakeNeeds`' total: how much three more
   * points would change where it ends, the rest of the season simulated): a continuous need for
   * points beside the classes. Absent: the classes alone (fitted with `STAKES=1
   * STAKES_IMPORTANCE=1`, judged in practice at `stakesDecided` or 0.05).
   */
  stakesImportance?: number;
  /**
   * A line's need weighed apart: λ plus this for the title's (`stakesNeedTitle`), the top four's
   * (`stakesNeedChampions`) and the top six's (`stakesNeedEurope`) share of a side's need, the
   * safety line's at λ alone (`SideNeed.lines`). Absent: every line at λ (fitted with `STAKES=1
   * STAKES_IMPORTANCE=1 STAKES_LINES=1`).
   */
  stakesNeedTitle?: number;
  stakesNeedChampions?: number;
  stakesNeedEurope?: number;
  /**
   * Linked divisions (divisions.ts): a side new to the league that was rated in a neighbouring
   * division within the last year starts from that rating, relative to its old division's mean,
   * moved by `offsets[from>to]` (ln(pH/pA) units; `E1>E0` is promotion from E1), its strength's
   * variance opened by `variance`; goal and draw tendencies carry over relative to the means.
   * Absent, a link without an offset, or no neighbour's history given: such a side is a newcomer.
   */
  divisions?: { variance: number; offsets: Readonly<Record<string, number>> };
  /** The rating is used only when the league's latest priced match is at most this old. */
  freshDays: number;
  /** Half-life of a match's weight in the draw curve's regression (days). */
  drawHalfLifeDays: number;
  weights: {
    /** Without the fixture's own odds. */
    none: BlendWeights;
    /** With the fixture's pre-match odds. */
    prematch: BlendWeights;
    /** With the fixture's pre-match odds but no market rating (a league without priced history). */
    prematchOnly: BlendWeights;
  };
}

/** A side as the market rating sees it: each belief's mean and variance. */
export interface MarketTeam {
  strength: number;
  strengthVariance: number;
  goals: number;
  goalsVariance: number;
  /** The side's draw tendency: its matches' draw prices against the draw curve (logit scale). */
  draw: number;
  drawVariance: number;
  /** The average move of its recent prices toward it, pre-match to closing (ln(pH/pA)). */
  steam: number;
  /** The latest season it played in. */
  season: string;
  matches: number;
  /** Its strength before its season's last matches, carried into the next (`carryBeforeEnd`). */
  beforeEnd?: number;
}

export interface MarketRating {
  teams: Map<string, MarketTeam>;
  home: number;
  homeVariance: number;
  /** Log of the implied goal total of two average sides. */
  goalLevel: number;
  /** logit p(draw) = c0 + c1·|x| + c2·x², x = the rating's log(pH/pA). */
  drawCurve: [number, number, number];
  /** The latest season it read (by label). */
  season: string;
  /** That season's sides' mean beliefs: where a side is pulled into the next season. */
  seasonMean: { strength: number; goals: number; draw: number };
  /** The means the sides were carried toward at the start of that season (a linked arrival's reference). */
  startMean: { strength: number; goals: number; draw: number };
  /**
   * The neighbouring divisions' sides as each would arrive here (`MarketSettings.divisions`):
   * beliefs relative to the league's mean, the link's offset included. Absent: not linked.
   */
  arrivals?: ReadonlyMap<string, ArrivingSide>;
  /** Where a side the rating does not know starts: the level of the season's weakest three. */
  newcomer: { strength: number; goals: number };
  newcomerVariance: { strength: number; goals: number; draw: number };
  /** Per belief, [share kept, variance added] into a new season. */
  carry: { strength: [number, number]; goals: [number, number]; draw: [number, number] };
  flatten: boolean;
  steamWeight: number;
  /** Each side's stake term (κ of its class) as of `latest`, when the settings price stakes. */
  stakes?: ReadonlyMap<string, number>;
  /** The away side's stake term times (1 + this) (`MarketSettings.stakesAway`). */
  stakesAway?: number;
  /** Day of the latest priced match. */
  latest: number;
  matches: number;
}

/**
 * A side of a neighbouring division as it would start in this one: each belief's mean relative to
 * the league's mean (the link's offset included) and its variance; `season` is its latest there.
 */
export interface ArrivingSide {
  from: string;
  strength: number;
  strengthVariance: number;
  goals: number;
  goalsVariance: number;
  draw: number;
  drawVariance: number;
  season: string;
  matches: number;
}
