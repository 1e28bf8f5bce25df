// How a pronostic's pick is judged on the final score: each market's own rule. Pure functions, so
// the worker, the figures and the tests share one definition. A pick the market does not know (an
// old or hand-edited row) is `void`, never a guessed win or loss.

import type { SettlementOutcome } from '../lib/allowed-values.js';
import type { MarketName } from './types.js';

export interface FinalScore {
  home: number;
  away: number;
}

/** The 1X2 result of a score: what the 1X2 market (and the full analysis's pick) is judged on. */
export function oneXTwoOf(score: FinalScore): 'home' | 'draw' | 'away' {
  return score.home > score.away ? 'home' : score.home === score.away ? 'draw' : 'away';
}

const won = (hit: boolean): SettlementOutcome => (hit ? 'won' : 'lost');

/**
 * The outcome of `pick` on `market` given the final score. `listedScores` are the scorelines the
 * exact-score market priced one by one: its `other` bucket wins when the score is none of them.
 */
export function settlePick(
  market: MarketName,
  pick: string,
  score: FinalScore,
  listedScores: readonly string[] = [],
): SettlementOutcome {
  const result = oneXTwoOf(score);
  const goals = score.home + score.away;
  switch (market) {
    case '1x2':
    case 'full_analysis':
      return pick === 'home' || pick === 'draw' || pick === 'away' ? won(pick === result) : 'void';
    case 'double_chance':
      if (pick === 'home_draw') return won(result !== 'away');
      if (pick === 'home_away') return won(result !== 'draw');
      if (pick === 'draw_away') return won(result !== 'home');
      return 'void';
    case 'btts':
      if (pick === 'yes') return won(score.home > 0 && score.away > 0);
      if (pick === 'no') return won(score.home === 0 || score.away === 0);
      return 'void';
    case 'over_under_2_5':
      // A half-goal line: no push is possible.
      if (pick === 'over') return won(goals > 2.5);
      if (pick === 'under') return won(goals < 2.5);
      return 'void';
    case 'exact_score': {
      const text = `${score.home}-${score.away}`;
      if (pick === 'other') return won(!listedScores.includes(text));
      return /^\d+-\d+$/.test(pick) ? won(pick === text) : 'void';
    }
  }
}

/**
 * Ranked probability score of a 1X2 forecast (ordered home, draw, away): the mean squared gap of the
 * cumulative forecast and outcome over the first two categories. 0 is perfect, lower is better.
 */
export function rankedProbabilityScore(
  forecast: { home: number; draw: number; away: number },
  result: 'home' | 'draw' | 'away',
): number {
  const observed = { home: result === 'home' ? 1 : 0, draw: result === 'draw' ? 1 : 0 };
  const first = forecast.home - observed.home;
  const second = forecast.home + forecast.draw - (observed.home + observed.draw);
  return (first * first + second * second) / 2;
}

/** Multi-class Brier score of a 1X2 forecast: the sum of squared gaps over the three outcomes (0 to 2). */
export function brierScore(
  forecast: { home: number; draw: number; away: number },
  result: 'home' | 'draw' | 'away',
): number {
  let total = 0;
  for (const key of ['home', 'draw', 'away'] as const) {
    const gap = forecast[key] - (key === result ? 1 : 0);
    total += gap * gap;
  }
  return total;
}
