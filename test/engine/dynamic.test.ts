// The state-space model on simulated leagues where the truth is known: it follows a home
// advantage that collapses (matches behind closed doors) and a side whose strength jumps, where
// the one-decay model (the previous engine) lags behind.
import { describe, expect, it } from 'vitest';
import { fitDixonColes } from '../../src/engine/dixon-coles.js';
import { DEFAULT_SETTINGS, fitModel, type ModelSettings } from '../../src/engine/model.js';
import { simulateLeague } from './simulate.js';

const DAY = 86_400_000;
/** The previous engine: one value per side over the window, a 330-day decay. */
const STATIC: ModelSettings = { ...DEFAULT_SETTINGS, dynamic: null, halfLifeDays: 330 };

describe('dynamic ratings on simulated leagues', () => {
  it('the shipped settings are the state-space model', () => {
    expect(DEFAULT_SETTINGS.dynamic).not.toBeNull();
  });

  it('adds the season step where the label changes, not at a pause', () => {
    const { matches } = simulateLeague({ teams: 12, seasons: 1, seed: 4 });
    const middle = matches[Math.floor(matches.length / 2)]!.date;
    // One season with a 60-day pause in its middle, labelled as one season or as two.
    const paused = matches.map((match) => ({
      ...match,
      season: '2015-16',
      date: match.date >= middle ? match.date + 60 * DAY : match.date,
    }));
    const split = paused.map((match) =>
      match.date >= middle + 60 * DAY ? { ...match, season: '2016-17' } : match,
    );
    const asOf = paused.at(-1)!.date + DAY;
    const options = { ...DEFAULT_SETTINGS, asOf };
    const one = fitDixonColes(paused, options);
    const two = fitDixonColes(split, options);
    // Same matches, same dates: only the labels differ, and with them the ratings (a new season
    // loosens every side's walk).
    const differences = [...one.teams].map(([team, rating]) =>
      Math.abs(rating.attack - two.teams.get(team)!.attack),
    );
    expect(Math.max(...differences)).toBeGreaterThan(1e-3);
    // Without labels, the season is read from the dates (July to June): one season, as labelled.
    const unlabelled = paused.map(({ season: _, ...match }) => match);
    expect(fitDixonColes(unlabelled, options).teams).toEqual(one.teams);
  });

  it('recovers a home advantage that vanishes for the last ten weeks', () => {
    for (const seed of [1, 2, 3]) {
      const end = simulateLeague({ teams: 20, seasons: 4, seed }).matches.at(-1)!.date;
      const doors = end - 70 * DAY;
      const { matches } = simulateLeague({
        teams: 20,
        seasons: 4,
        seed,
        homeAdvantageOn: (day) => (day >= doors ? 0 : 0.3),
      });
      const asOf = end + DAY;
      const before = fitModel(matches, doors, DEFAULT_SETTINGS).ratings.homeAdvantage;
      const dynamic = fitModel(matches, asOf, DEFAULT_SETTINGS).ratings.homeAdvantage;
      const fixed = fitModel(matches, asOf, STATIC).ratings.homeAdvantage;
      // Before the change both see about the true 0.3; after it, the walk comes down much further.
      expect(before, `seed ${seed}`).toBeGreaterThan(0.2);
      expect(dynamic, `seed ${seed}`).toBeLessThan(before - 0.05);
      expect(dynamic, `seed ${seed}`).toBeLessThan(fixed - 0.03);
    }
  });

  it("follows a side's sudden change of strength faster than one decay does", () => {
    for (const seed of [1, 2, 3]) {
      const end = simulateLeague({ teams: 20, seasons: 4, seed }).matches.at(-1)!.date;
      const from = end - 100 * DAY;
      const { matches } = simulateLeague({
        teams: 20,
        seasons: 4,
        seed,
        shift: { team: 10, from, attack: 0.5, defence: 0.4 },
      });
      const gain = (settings: ModelSettings) => {
        const before = fitModel(matches, from, settings).ratings.teams.get('Team 10')!;
        const after = fitModel(matches, end + DAY, settings).ratings.teams.get('Team 10')!;
        return after.attack + after.defence - (before.attack + before.defence);
      };
      const dynamic = gain(DEFAULT_SETTINGS);
      const fixed = gain(STATIC);
      // The truth moved by 0.9 (attack + defence); the walk picks up clearly more of it.
      expect(dynamic, `seed ${seed}`).toBeGreaterThan(0.3);
      expect(dynamic, `seed ${seed}`).toBeGreaterThan(fixed + 0.05);
    }
  });

  it('on a stationary league, stays where the static fit is', () => {
    const { matches } = simulateLeague({ teams: 20, seasons: 4, seed: 9 });
    const asOf = matches.at(-1)!.date + DAY;
    const dynamic = fitModel(matches, asOf, DEFAULT_SETTINGS).ratings;
    const fixed = fitModel(matches, asOf, STATIC).ratings;
    expect(Math.abs(dynamic.homeAdvantage - fixed.homeAdvantage)).toBeLessThan(0.06);
    for (const [team, rating] of fixed.teams) {
      expect(Math.abs(dynamic.teams.get(team)!.attack - rating.attack), team).toBeLessThan(0.15);
    }
  });
});
