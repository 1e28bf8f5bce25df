// Two linked divisions simulated for the linked-divisions tests (issue 50): priced exactly on
// each side's strength in its division, the movers' strengths carried by planted offsets.

import type { EvaluationMatch } from '../../src/engine/evaluation.js';
import { seededRandom } from '../../src/engine/random.js';

export const DAY = 86_400_000;
const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));
export const HOME = 0.3;

/** The offsets planted: a side promoted from E1 is this much weaker, relative to its league's mean. */
export const UP = -0.7;
export const DOWN = 0.5;

/** A double round-robin by the circle method, one round every three weeks from `start` (to May). */
function rounds(teams: readonly string[], start: number): { date: number; pairs: [string, string][] }[] {
  const n = teams.length;
  const out = [];
  for (let round = 0; round < 2 * (n - 1); round++) {
    const leg = round % (n - 1);
    const order = [teams[0]!, ...teams.slice(1).map((_, i) => teams[1 + ((i + leg) % (n - 1))]!)];
    const pairs: [string, string][] = [];
    for (let i = 0; i < n / 2; i++) {
      const [a, b] = [order[i]!, order[n - 1 - i]!];
      pairs.push(round >= n - 1 ? [b, a] : [a, b]);
    }
    out.push({ date: start + round * 21 * DAY, pairs });
  }
  return out;
}

export const label = (season: number) => `${2010 + season}-${String((11 + season) % 100).padStart(2, '0')}`;
export const seasonStartOf = (season: number) => Date.UTC(2010 + season, 7, 7);

/**
 * Two linked divisions of eight sides, priced exactly on each side's strength in its division
 * (ln(pH/pA) = 0.3 + s_home − s_away). Each summer the two weakest of E0 go down and the two
 * strongest of E1 come up: a mover's strength is its old division's mean plus its distance to it
 * there, plus the planted offset; every side's strength wanders a little over the summer.
 */
export function pyramid(seasons: number) {
  const random = seededRandom(7);
  const strength = new Map<string, number>();
  let upper = Array.from({ length: 8 }, (_, i) => `Upper ${i}`);
  let lower = Array.from({ length: 8 }, (_, i) => `Lower ${i}`);
  for (const [i, name] of upper.entries()) strength.set(name, 0.5 - i / 7);
  for (const [i, name] of lower.entries()) strength.set(name, 0.4 - i / 7);
  const matches: EvaluationMatch[] = [];
  const moves: { season: number; promoted: string[]; relegated: string[] }[] = [];
  const during: Map<string, number>[] = [];
  for (let season = 0; season < seasons; season++) {
    during.push(new Map(strength));
    for (const [league, teams] of [
      ['E0', upper],
      ['E1', lower],
    ] as const)
      for (const round of rounds(teams, seasonStartOf(season)))
        for (const [home, away] of round.pairs) {
          const y = HOME + strength.get(home)! - strength.get(away)!;
          const book: [number, number, number] = [0.74 * sigmoid(y), 0.26, 0.74 * (1 - sigmoid(y))];
          const homeWins = y > HOME;
          matches.push({
            league,
            season: label(season),
            date: round.date,
            home,
            away,
            homeGoals: homeWins ? 2 : 1,
            awayGoals: homeWins ? 0 : 1,
            bookmaker: book,
            bookmakerOverUnder: [0.52, 0.48],
            market: { oneXTwo: book, overUnder: [0.52, 0.48] },
          });
        }
    const mean = (teams: readonly string[]) =>
      teams.reduce((sum, team) => sum + strength.get(team)!, 0) / teams.length;
    const [upperMean, lowerMean] = [mean(upper), mean(lower)];
    const byStrength = (teams: readonly string[]) =>
      [...teams].sort((a, b) => strength.get(a)! - strength.get(b)!);
    const relegated = byStrength(upper).slice(0, 2);
    const promoted = byStrength(lower).slice(-2);
    for (const team of relegated) strength.set(team, lowerMean + strength.get(team)! - upperMean + DOWN);
    for (const team of promoted) strength.set(team, upperMean + strength.get(team)! - lowerMean + UP);
    upper = [...upper.filter((team) => !relegated.includes(team)), ...promoted];
    lower = [...lower.filter((team) => !promoted.includes(team)), ...relegated];
    for (const [team, value] of strength) strength.set(team, value + 0.1 * (random() - 0.5));
    moves.push({ season: season + 1, promoted, relegated });
  }
  return { matches, moves, strength, during, upper, lower };
}
