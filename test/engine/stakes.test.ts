import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, fitModel } from '../../src/engine/model.js';
import { buildResult } from '../../src/engine/result.js';
import { seasonStakes } from '../../src/engine/stakes.js';
import type { PlayedMatch } from '../../src/engine/types.js';

const DAY = 86_400_000;
const START = Date.UTC(2024, 7, 10);
const TEAMS = Array.from({ length: 12 }, (_, i) => `Club ${String(i).padStart(2, '0')}`);

/** A double round-robin (circle method) where the better-ranked side always wins 2-0. */
function season(rounds: number): PlayedMatch[] {
  const n = TEAMS.length;
  const order = TEAMS.map((_, i) => i);
  const matches: PlayedMatch[] = [];
  for (let round = 0; round < rounds; round++) {
    const leg = round % (n - 1);
    const rotated = [order[0]!, ...order.slice(1).map((_, i) => order[1 + ((i + leg) % (n - 1))]!)];
    for (let i = 0; i < n / 2; i++) {
      let [home, away] = [rotated[i]!, rotated[n - 1 - i]!];
      if (round >= n - 1) [home, away] = [away, home];
      const homeWins = home < away;
      matches.push({
        date: START + round * 7 * DAY,
        home: TEAMS[home]!,
        away: TEAMS[away]!,
        homeGoals: homeWins ? 2 : 0,
        awayGoals: homeWins ? 0 : 2,
      });
    }
  }
  return matches;
}

describe('end-of-season stakes', () => {
  it('judges nothing while more than ten matches are left, or between seasons', () => {
    const early = season(11);
    expect(seasonStakes(early, early.at(-1)!.date + DAY).size).toBe(0);
    const full = season(22);
    expect(seasonStakes(full, full.at(-1)!.date + 60 * DAY).size).toBe(0);
  });

  it('finds the sides with nothing left to play for near the end', () => {
    const late = season(20);
    const stakes = seasonStakes(late, late.at(-1)!.date + DAY);
    expect(stakes.size).toBe(12);
    // Two matches left: the title race, the race for 4th (the Champions League), the race for 6th
    // and the fight against the drop are open…
    for (const club of [
      'Club 00',
      'Club 01',
      'Club 03',
      'Club 04',
      'Club 05',
      'Club 06',
      'Club 08',
      'Club 09',
    ]) {
      expect(stakes.get(club), club).toBe('live');
    }
    // …while 3rd can neither win the title nor fall out of the top four, 8th is stranded, and the
    // last two are already down.
    for (const club of ['Club 02', 'Club 07', 'Club 10', 'Club 11']) {
      expect(stakes.get(club), club).toBe('dead');
    }
    // With one left, the champion has nothing more to play for.
    const last = season(21);
    expect(seasonStakes(last, last.at(-1)!.date + DAY).get('Club 00')).toBe('dead');
  });

  it('knows the Champions League line: sides racing for fourth still play for something', () => {
    const late = season(20);
    const stakes = seasonStakes(late, late.at(-1)!.date + DAY);
    // 4th and 5th are within two wins of each other with two matches left, both far from 6th/7th's fight.
    expect(stakes.get('Club 03')).toBe('live');
    expect(stakes.get('Club 04')).toBe('live');
  });

  it('keeps judging a season suspended for weeks (spring 2020), not one that is over', () => {
    const late = season(20);
    const pause = 90 * DAY;
    // The last two rounds are played after a three-month pause.
    const suspended = season(22).map((match, i) =>
      i >= late.length ? { ...match, date: match.date + pause } : match,
    );
    const before = seasonStakes(late, late.at(-1)!.date + DAY);
    // During the pause, and after the restart, the table is the whole season's.
    expect(seasonStakes(suspended, late.at(-1)!.date + 60 * DAY)).toEqual(before);
    const restart = suspended[late.length + 6]!.date;
    const afterRestart = seasonStakes(suspended, restart);
    // One round after the restart: the same judgement as the same table without the pause.
    const unpaused = season(21);
    expect(afterRestart).toEqual(seasonStakes(unpaused, unpaused.at(-1)!.date + DAY));
    expect(afterRestart.size).toBe(12);
    // A finished season, then a new one after the summer: the new one starts from zero.
    const next = season(22).map((match) => ({ ...match, date: match.date + 300 * DAY }));
    expect(seasonStakes([...season(22), ...next.slice(0, 6)], next[5]!.date + DAY).size).toBe(0);
  });

  it('tells seasons by their label, not by a pause', () => {
    const late = season(20);
    const before = seasonStakes(late, late.at(-1)!.date + DAY);
    // A season labelled as one, with a pause of 200 days before its last two rounds (past the
    // July line a date-read label would draw): still one season, judged on its whole table.
    const paused = season(22).map((match, i) => ({
      ...match,
      season: '2024-25',
      date: i >= late.length ? match.date + 200 * DAY : match.date,
    }));
    expect(seasonStakes(paused, late.at(-1)!.date + 150 * DAY)).toEqual(before);
    // Two seasons a week apart (no summer at all): the new label starts a new table.
    const first = season(22).map((match) => ({ ...match, season: '2024-25' }));
    const second = season(22).map((match) => ({
      ...match,
      season: '2025-26',
      date: match.date + 22 * 7 * DAY,
    }));
    expect(seasonStakes([...first, ...second.slice(0, 6)], second[5]!.date + DAY).size).toBe(0);
    expect(seasonStakes([...first, ...second.slice(0, 20 * 6)], second[20 * 6 - 1]!.date + DAY)).toEqual(
      before,
    );
  });

  it('tilts a fixture toward the side that still needs points', () => {
    const late = season(20);
    const asOf = late.at(-1)!.date + DAY;
    const withStakes = fitModel(late, asOf);
    const without = fitModel(late, asOf, { ...DEFAULT_SETTINGS, motivation: 0 });
    const live = withStakes.predict('Club 07', 'Club 09').markets.oneXTwo;
    const neutral = without.predict('Club 07', 'Club 09').markets.oneXTwo;
    expect(live.away).toBeGreaterThan(neutral.away);
    const { analysis } = buildResult('1x2', withStakes.predict('Club 07', 'Club 09'), {
      home: { name: 'Club 07', known: true, matches: 20, form: null },
      away: { name: 'Club 09', known: true, matches: 20, form: null },
      league: { name: 'Test', known: true },
    }).result;
    expect(analysis).toContain('Fin de saison : Club 07 n’a plus grand-chose à jouer au classement');
  });
});
