// The shapes the engine works on: played matches in, fitted ratings and predictions out, and the
// vocabulary of results (pronostic types, markets, data quality) that the result builder and the
// analysis text share. Teams are plain string keys (a name or an id): the engine never looks anything up.

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
  /** With `stale`: the day of the league's latest result we hold (`yyyy-mm-dd`), or null if none. */
  latest_result?: string | null;
  /** Whether the prediction used the match's pre-match market odds (`prematch`) or not (`none`). */
  odds: OddsMode;
}

export type OddsMode = 'prematch' | 'none';

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
  /** Shots on target, when the source has them; they sharpen the strength estimate. */
  homeShotsOnTarget?: number | null;
  awayShotsOnTarget?: number | null;
  /** Total shots and corners, when the source has them (see `totalShotsWeight`, `cornersWeight`). */
  homeShots?: number | null;
  awayShots?: number | null;
  homeCorners?: number | null;
  awayCorners?: number | null;
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
}
