import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, fitModel } from '../../src/engine/model.js';
import { calibrateTotals, scoreMatrix } from '../../src/engine/score-matrix.js';
import type { PlayedMatch } from '../../src/engine/types.js';
import { simulateLeague } from './simulate.js';

const DAY = 86_400_000;
const { matches } = simulateLeague({ teams: 20, seasons: 2, seed: 11 });
const asOf = matches.at(-1)!.date + DAY;
const goalsOnly = { ...DEFAULT_SETTINGS, shotsWeight: 0, totalShotsWeight: 0, cornersWeight: 0 };

/** In every match of `team`, its opponent gets `extra` more of a count (shots or corners) than usual. */
function withCountsAgainst(field: 'Shots' | 'Corners', team: string, extra: number): PlayedMatch[] {
  return matches.map((match) => ({
    ...match,
    [`home${field}`]: 10 + (match.away === team ? extra : 0),
    [`away${field}`]: 10 + (match.home === team ? extra : 0),
  }));
}

describe('total shots and corners as signals of strength', () => {
  const team = 'Team 10';
  const base = fitModel(matches, asOf, goalsOnly).ratings.teams.get(team)!;

  // The shooting side's own conversion rate turns its shots into goals: a side that lets every
  // opponent shoot far more than usual is a weaker defence than its goals against say.
  it('a side that concedes many shots is rated a weaker defence once total shots count', () => {
    const data = withCountsAgainst('Shots', team, 8);
    const ignored = fitModel(data, asOf, goalsOnly).ratings.teams.get(team)!;
    const used = fitModel(data, asOf, { ...goalsOnly, totalShotsWeight: 0.3 }).ratings.teams.get(team)!;
    expect(ignored.defence).toBeCloseTo(base.defence, 10);
    expect(used.defence).toBeLessThan(base.defence - 0.05);
  });

  it('corners count the same way, at the league rate', () => {
    const data = withCountsAgainst('Corners', team, 6);
    const used = fitModel(data, asOf, { ...goalsOnly, cornersWeight: 0.3 }).ratings.teams.get(team)!;
    expect(used.defence).toBeLessThan(base.defence - 0.05);
  });

  it('matches without the count are fitted on goals alone', () => {
    const used = fitModel(matches, asOf, { ...goalsOnly, totalShotsWeight: 0.3, cornersWeight: 0.3 });
    expect(used.ratings.teams.get(team)!.attack).toBeCloseTo(base.attack, 10);
  });
});

describe('over/under recalibration of the score matrix', () => {
  const overOf = (p: Float64Array) => {
    let over = 0;
    for (let x = 0; x < 11; x++) for (let y = 0; y < 11; y++) if (x + y > 2) over += p[x * 11 + y]!;
    return over;
  };

  it('maps the over probability through logit p′ = shift + scale · logit p, keeping proportions', () => {
    const raw = scoreMatrix(2.1, 0.9, -0.05);
    const p = overOf(raw.p);
    const calibrated = calibrateTotals(raw, { shift: 0.1, scale: 0.8 });
    const expected = 1 / (1 + Math.exp(-(0.1 + 0.8 * Math.log(p / (1 - p)))));
    expect(overOf(calibrated.p)).toBeCloseTo(expected, 12);
    expect(calibrated.p.reduce((sum, value) => sum + value, 0)).toBeCloseTo(1, 12);
    // Within each side of the line the scores keep their ratios: 3-0 against 2-1, 1-0 against 0-0.
    expect(calibrated.p[3 * 11]! / calibrated.p[2 * 11 + 1]!).toBeCloseTo(
      raw.p[3 * 11]! / raw.p[2 * 11 + 1]!,
      12,
    );
    expect(calibrated.p[11]! / calibrated.p[0]!).toBeCloseTo(raw.p[11]! / raw.p[0]!, 12);
  });

  it('a scale under 1 pulls a sure total toward even, the identity leaves the matrix alone', () => {
    const high = scoreMatrix(3, 2, 0);
    expect(overOf(calibrateTotals(high, { shift: 0, scale: 0.85 }).p)).toBeLessThan(overOf(high.p));
    const low = scoreMatrix(0.6, 0.5, 0);
    expect(overOf(calibrateTotals(low, { shift: 0, scale: 0.85 }).p)).toBeGreaterThan(overOf(low.p));
    expect(calibrateTotals(high, { shift: 0, scale: 1 })).toBe(high);
  });

  it('the fitted model applies the shipped calibration to every market', () => {
    const plain = fitModel(matches, asOf, { ...DEFAULT_SETTINGS, totals: { shift: 0, scale: 1 } });
    const shipped = fitModel(matches, asOf);
    expect(DEFAULT_SETTINGS.totals.scale).toBeLessThan(1);
    const [home, away] = ['Team 00', 'Team 19'];
    const raw = plain.predict(home, away).markets.overUnder25.over;
    const expected = 1 / (1 + Math.exp(-DEFAULT_SETTINGS.totals.scale * Math.log(raw / (1 - raw))));
    expect(shipped.predict(home, away).markets.overUnder25.over).toBeCloseTo(expected, 3);
  });
});
