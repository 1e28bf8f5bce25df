// A bettor's slip against our probabilities (issue 53, DESIGN "Slips"): which scorelines win each
// leg, the chance that several legs of one match all win (summed over one score matrix, never
// multiplied as if they were independent), and the slip's figures for a stake. Pure functions.

/** The picks each market offers (an exact score's are its analysis's five listed scores). */
export const MARKET_PICKS = {
  '1x2': ['home', 'draw', 'away'],
  double_chance: ['home_draw', 'home_away', 'draw_away'],
  btts: ['yes', 'no'],
  over_under_2_5: ['over', 'under'],
} as const;

/** Whether the scoreline home–away wins `pick` on `market`; undefined for a pick the market lacks. */
export function legWins(market: string, pick: string, home: number, away: number): boolean | undefined {
  switch (`${market}:${pick}`) {
    case '1x2:home':
      return home > away;
    case '1x2:draw':
      return home === away;
    case '1x2:away':
      return home < away;
    case 'double_chance:home_draw':
      return home >= away;
    case 'double_chance:home_away':
      return home !== away;
    case 'double_chance:draw_away':
      return home <= away;
    case 'btts:yes':
      return home > 0 && away > 0;
    case 'btts:no':
      return home === 0 || away === 0;
    case 'over_under_2_5:over':
      return home + away > 2;
    case 'over_under_2_5:under':
      return home + away <= 2;
  }
  if (market !== 'exact_score') return undefined;
  const score = /^(\d+)-(\d+)$/.exec(pick);
  return score ? Number(score[1]) === home && Number(score[2]) === away : undefined;
}

export interface LegPick {
  market: string;
  pick: string;
}

/** Side of the grid judged when no matrix is at hand: every score up to this many goals each. */
const GRID = 11;

/** Whether some scoreline wins every one of `legs` (home and away on one match never do). */
export function canAllWin(legs: readonly LegPick[]): boolean {
  for (let x = 0; x < GRID; x++) {
    for (let y = 0; y < GRID; y++) {
      if (legs.every((leg) => legWins(leg.market, leg.pick, x, y) === true)) return true;
    }
  }
  return false;
}

/** The chance that every one of `legs` wins: the matrix's mass on the scores where they all do. */
export function jointProbability(
  matrix: { p: Float64Array; size: number },
  legs: readonly LegPick[],
): number {
  let total = 0;
  let mass = 0;
  for (let x = 0; x < matrix.size; x++) {
    for (let y = 0; y < matrix.size; y++) {
      const value = matrix.p[x * matrix.size + y]!;
      mass += value;
      if (legs.every((leg) => legWins(leg.market, leg.pick, x, y) === true)) total += value;
    }
  }
  return mass > 0 ? total / mass : 0;
}

export type Verdict = 'value' | 'fair' | 'negative';

/** Within this share of the stake, either way, the expected gain is `fair`. */
export const FAIR_BAND = 0.02;

export interface SlipFigures {
  probability: number;
  odds: number;
  fairOdds: number;
  expectedReturn: number;
  expectedGain: number;
  verdict: Verdict;
}

/**
 * A slip's figures from its matches' unrounded probabilities (one per match: a leg's, or its legs'
 * joint chance) and its legs' odds: the odds multiply, the matches' chances multiply.
 */
export function slipFigures(
  matchProbabilities: readonly number[],
  legOdds: readonly number[],
  stake: number,
): SlipFigures {
  const probability = matchProbabilities.reduce((product, p) => product * p, 1);
  const odds = legOdds.reduce((product, o) => product * o, 1);
  const ratio = probability * odds;
  // Whole XAF, half up.
  const expectedReturn = Math.floor(stake * ratio + 0.5);
  // Exactly ±2 % is `fair`: a tolerance keeps float noise (0.5 × 2.04 − 1) from crossing the band.
  const gain = ratio - 1;
  const band = FAIR_BAND + 1e-12;
  return {
    probability,
    odds,
    fairOdds: probability > 0 ? 1 / probability : Number.POSITIVE_INFINITY,
    expectedReturn,
    expectedGain: expectedReturn - stake,
    verdict: gain > band ? 'value' : gain < -band ? 'negative' : 'fair',
  };
}

/** What a settled slip returns: the stake at its non-void legs' odds when none lost, else 0. */
export function slipReturn(
  legs: ReadonlyArray<{ odds: number; outcome: 'won' | 'lost' | 'void' }>,
  stake: number,
): { status: 'won' | 'lost' | 'void'; returned: number } {
  if (legs.some((leg) => leg.outcome === 'lost')) return { status: 'lost', returned: 0 };
  const standing = legs.filter((leg) => leg.outcome === 'won');
  if (standing.length === 0) return { status: 'void', returned: stake };
  const odds = standing.reduce((product, leg) => product * leg.odds, 1);
  return { status: 'won', returned: Math.floor(stake * odds + 0.5) };
}
