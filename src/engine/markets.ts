// Every market read off one score matrix, so they can never contradict each other.
import type { ScoreMatrix } from './score-matrix.js';

export interface ScoreProbability {
  score: string;
  probability: number;
}

export interface Markets {
  oneXTwo: { home: number; draw: number; away: number };
  btts: { yes: number; no: number };
  overUnder25: { over: number; under: number };
  /** The five likeliest scorelines, likeliest first. */
  topScores: ScoreProbability[];
  /** Expected goals: the matrix means. */
  expectedGoals: { home: number; away: number };
}

export const TOP_SCORES = 5;

export function marketsFrom(matrix: ScoreMatrix): Markets {
  const { p, size } = matrix;
  let home = 0;
  let draw = 0;
  let away = 0;
  let bothScore = 0;
  let over = 0;
  let homeGoals = 0;
  let awayGoals = 0;
  const cells: ScoreProbability[] = [];
  for (let x = 0; x < size; x++) {
    for (let y = 0; y < size; y++) {
      const value = p[x * size + y]!;
      if (x > y) home += value;
      else if (x === y) draw += value;
      else away += value;
      if (x > 0 && y > 0) bothScore += value;
      if (x + y > 2) over += value;
      homeGoals += x * value;
      awayGoals += y * value;
      cells.push({ score: `${x}-${y}`, probability: value });
    }
  }
  // Ties broken by the score text so the order is the same on every run.
  cells.sort((a, b) => b.probability - a.probability || (a.score < b.score ? -1 : 1));
  const total = home + draw + away;
  return {
    oneXTwo: { home: home / total, draw: draw / total, away: away / total },
    btts: { yes: bothScore / total, no: 1 - bothScore / total },
    overUnder25: { over: over / total, under: 1 - over / total },
    topScores: cells.slice(0, TOP_SCORES),
    expectedGoals: { home: homeGoals / total, away: awayGoals / total },
  };
}
