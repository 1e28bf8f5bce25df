// The stake classes judged in practice (MarketSettings.stakesDecided, issue 56): the rest of the
// season simulated from the pairs still to meet, a race decided for a side once it is 95 % sure,
// where arithmetic keeps it open while any run of results does.
import { describe, expect, it } from 'vitest';
import { type Standing, stakeClasses, stakeNeeds } from '../../src/engine/stakes.js';

const TEAMS = Array.from({ length: 20 }, (_, i) => `Club ${String(i).padStart(2, '0')}`);

/** The pairs (home, away) of a 20-side double round-robin by the circle method, round by round. */
function schedule(): [number, number][][] {
  const n = TEAMS.length;
  const out: [number, number][][] = [];
  for (let round = 0; round < 2 * (n - 1); round++) {
    const leg = round % (n - 1);
    const order = [0, ...Array.from({ length: n - 1 }, (_, i) => 1 + ((i + leg) % (n - 1)))];
    const pairs: [number, number][] = [];
    for (let i = 0; i < n / 2; i++) {
      const [a, b] = [order[i]!, order[n - 1 - i]!];
      pairs.push(round >= n - 1 ? [b, a] : [a, b]);
    }
    out.push(pairs);
  }
  return out;
}

/** A table after `rounds` of the 38 rounds, with each side's points as given (by rank). */
function table(rounds: number, points: readonly number[]): Map<string, Standing> {
  const rows = TEAMS.map((_, i) => ({ points: points[i]!, played: 0, hosted: new Map<string, number>() }));
  for (const pairs of schedule().slice(0, rounds))
    for (const [home, away] of pairs) {
      rows[home]!.played++;
      rows[away]!.played++;
      rows[home]!.hosted.set(TEAMS[away]!, (rows[home]!.hosted.get(TEAMS[away]!) ?? 0) + 1);
    }
  return new Map(TEAMS.map((team, i) => [team, rows[i]!]));
}

// Four matches left: a leader ten clear, a close race for fourth, seventeenth eight clear of the drop.
const POINTS = [80, 70, 62, 61, 60, 55, 52, 50, 49, 48, 47, 46, 45, 44, 43, 42, 40, 32, 25, 20];

describe('stake classes judged in practice', () => {
  const late = table(34, POINTS);

  it('calls a race decided once the rest of the season all but settles it', () => {
    const arithmetic = stakeClasses(late);
    const practice = stakeClasses(late, 0.05);
    // Second can still reach 82 (the leader has 80): by arithmetic a title race, in practice over.
    expect(arithmetic.get('Club 00')).toBe('title');
    expect(practice.get('Club 00')).toBe('champion');
    // Eight clear of eighteenth with four to play: "in the fight" by arithmetic, safe in practice.
    expect(arithmetic.get('Club 16')).toBe('relegation');
    expect(practice.get('Club 16')).toBe('safe');
    // A race within a point stays open either way.
    expect(practice.get('Club 03')).toBe('europe');
    expect(practice.get('Club 04')).toBe('europe');
    // Twelve adrift of safety with four left is down both ways.
    expect(arithmetic.get('Club 19')).toBe('relegated');
    expect(practice.get('Club 19')).toBe('relegated');
  });

  it('opens nothing that arithmetic has closed', () => {
    const order = ['champion', 'title', 'europe', 'relegation', 'safe', 'relegated'];
    const arithmetic = stakeClasses(late);
    for (const [team, stake] of stakeClasses(late, 0.01)) {
      // A side practice calls live is live by arithmetic too.
      if (['title', 'europe', 'relegation'].includes(stake))
        expect(['title', 'europe', 'relegation']).toContain(arithmetic.get(team));
      expect(order).toContain(stake);
    }
  });

  it('the same table is judged the same, and a looser line decides more', () => {
    const again = table(34, POINTS);
    expect(stakeClasses(again, 0.05)).toEqual(stakeClasses(late, 0.05));
    const live = (classes: Map<string, string>) =>
      [...classes.values()].filter((stake) => ['title', 'europe', 'relegation'].includes(stake)).length;
    expect(live(stakeClasses(late, 0.2))).toBeLessThan(live(stakeClasses(late, 0.001)));
    expect(live(stakeClasses(late, 0.001))).toBeLessThanOrEqual(live(stakeClasses(late)));
  });

  it('judges nothing early in a season, and falls back to arithmetic without the pairings', () => {
    expect(stakeClasses(table(20, POINTS), 0.05).size).toBe(0);
    const unpaired = new Map(
      [...late].map(([team, row]) => [team, { points: row.points, played: row.played }]),
    );
    expect(stakeClasses(unpaired, 0.05)).toEqual(stakeClasses(late));
    // Pairings that do not add up to what is left (a match missing from the data): arithmetic.
    const missing = table(34, POINTS);
    missing.get('Club 05')!.played--;
    expect(stakeClasses(missing, 0.05)).toEqual(stakeClasses(missing));
  });
});

describe("a side's need for points (MarketSettings.stakesImportance)", () => {
  it('is high in a close race, low for a side whose place is settled', () => {
    const importance = new Map(
      [...stakeNeeds(table(34, POINTS), 0.05)].map(([side, need]) => [side, need.total]),
    );
    // Fourth to sixth, within seven points of each other around the top-four and top-six lines.
    for (const side of ['Club 04', 'Club 05', 'Club 06']) expect(importance.get(side)!).toBeGreaterThan(0.3);
    // The leader ten clear, a side eight clear of the drop and far from sixth, one already down.
    for (const side of ['Club 00', 'Club 14', 'Club 19']) expect(importance.get(side)!).toBeLessThan(0.03);
    // Every side in its last matches has one, none outside [0, 4].
    expect(importance.size).toBe(20);
    for (const value of importance.values()) expect(value).toBeGreaterThanOrEqual(0);
    // A table before the last ten matches has none.
    expect(stakeNeeds(table(20, POINTS), 0.05).size).toBe(0);
  });
});
