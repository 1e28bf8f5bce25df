// Synthetic leagues for the engine tests: seasons simulated from known team strengths with a
// seeded random generator, so every run sees the same matches.

import { seededRandom } from '../../src/engine/random.js';
import type { PlayedMatch } from '../../src/engine/types.js';

export { seededRandom };

export function poisson(rate: number, random: () => number): number {
  const limit = Math.exp(-rate);
  let k = 0;
  let product = random();
  while (product > limit) {
    k++;
    product *= random();
  }
  return k;
}

export interface SimulatedTeam {
  name: string;
  attack: number;
  defence: number;
}

export interface SimulationOptions {
  teams: number;
  seasons: number;
  seed?: number;
  homeAdvantage?: number;
  intercept?: number;
  /** First match day, epoch ms. */
  start?: number;
  /** The home advantage on a day, when it changes (matches behind closed doors). */
  homeAdvantageOn?: (day: number) => number;
  /** A side's attack and defence change from a day on (a new owner, a sold star). */
  shift?: { team: number; from: number; attack: number; defence: number };
}

export const SIMULATION_START = Date.UTC(2015, 7, 8);
const DAY = 86_400_000;

export function simulateLeague(options: SimulationOptions): {
  teams: SimulatedTeam[];
  matches: PlayedMatch[];
} {
  const random = seededRandom(options.seed ?? 42);
  const homeAdvantage = options.homeAdvantage ?? 0.3;
  const intercept = options.intercept ?? Math.log(1.2);
  const teams: SimulatedTeam[] = Array.from({ length: options.teams }, (_, i) => {
    // Evenly spread strengths, strongest first: team 0 is the best at both ends.
    const strength = 0.5 - i / Math.max(options.teams - 1, 1);
    return { name: `Team ${String(i).padStart(2, '0')}`, attack: strength * 0.9, defence: strength * 0.7 };
  });
  const matches: PlayedMatch[] = [];
  const start = options.start ?? SIMULATION_START;
  for (let season = 0; season < options.seasons; season++) {
    let day = start + season * 365 * DAY;
    const fixtures: [SimulatedTeam, SimulatedTeam][] = [];
    for (const home of teams) for (const away of teams) if (home !== away) fixtures.push([home, away]);
    // Ten matches a match day, three or four days apart: a season of about nine months.
    fixtures.forEach(([home, away], i) => {
      if (i > 0 && i % Math.max(Math.floor(options.teams / 2), 1) === 0) day += 3.5 * DAY;
      const date = Math.floor(day / DAY) * DAY;
      const advantage = options.homeAdvantageOn?.(date) ?? homeAdvantage;
      const shifted = (team: SimulatedTeam) => {
        const shift = options.shift;
        if (!shift || teams[shift.team] !== team || date < shift.from) return team;
        return { ...team, attack: team.attack + shift.attack, defence: team.defence + shift.defence };
      };
      const [h, a] = [shifted(home), shifted(away)];
      const lambda = Math.exp(intercept + advantage + h.attack - a.defence);
      const mu = Math.exp(intercept + a.attack - h.defence);
      const homeGoals = poisson(lambda, random);
      const awayGoals = poisson(mu, random);
      matches.push({
        date,
        home: home.name,
        away: away.name,
        homeGoals,
        awayGoals,
        homeShotsOnTarget: homeGoals + poisson(lambda * 2, random),
        awayShotsOnTarget: awayGoals + poisson(mu * 2, random),
      });
    });
  }
  return { teams, matches };
}
