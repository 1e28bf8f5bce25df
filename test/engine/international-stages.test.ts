import { describe, expect, it } from 'vitest';
import {
  afterExtraTime,
  extraTimeOneXTwo,
  INTERNATIONAL_SETTINGS,
  type InternationalFixture,
  InternationalModel,
  type InternationalResult,
} from '../../src/engine/international.js';
import { type StagedMatch, TournamentStages } from '../../src/engine/international-stages.js';

const DAY = 86_400_000;
const START = Date.UTC(2019, 5, 21);

const staged = (
  day: number,
  home: string,
  away: string,
  tournament = 'African Cup of Nations',
): StagedMatch => ({
  date: START + day * DAY,
  home,
  away,
  tournament,
  tournamentClass: 'continental-final',
});

/** Two groups of four, one round every four days (days 0, 4, 8): each pair of a group meets once. */
function groupStage(tournament = 'African Cup of Nations'): StagedMatch[][] {
  const groups = [
    ['Egypt', 'Uganda', 'DR Congo', 'Zimbabwe'],
    ['Nigeria', 'Guinea', 'Madagascar', 'Burundi'],
  ];
  const rounds = [
    [
      [0, 1],
      [2, 3],
    ],
    [
      [0, 2],
      [1, 3],
    ],
    [
      [0, 3],
      [1, 2],
    ],
  ];
  return rounds.map((pairs, round) =>
    groups.flatMap((group) => pairs.map(([a, b]) => staged(round * 4, group[a!]!, group[b!]!, tournament))),
  );
}

describe('knockout stages inferred from the tournament results dated before', () => {
  it('calls every group match a group match, and every later match of the edition a knockout', () => {
    const stages = new TournamentStages();
    for (const day of groupStage()) {
      // Each round's matches are forecast before the round is learnt: never a knockout.
      expect(day.map((match) => stages.isKnockout(match))).toEqual(day.map(() => false));
      stages.playDay(day);
    }
    const semiFinal = staged(12, 'Egypt', 'Guinea');
    expect(stages.isKnockout(semiFinal)).toBe(true);
    stages.playDay([semiFinal, staged(12, 'Nigeria', 'Uganda')]);
    // The final: the two winners meet for the first time, still a knockout (the stage is latched).
    expect(stages.isKnockout(staged(16, 'Egypt', 'Nigeria'))).toBe(true);
  });

  it('does not call a group stage over while one group has a round to play', () => {
    const stages = new TournamentStages();
    const [first, second, third] = groupStage();
    stages.playDay(first!);
    stages.playDay(second!);
    // Group one plays its last round a day before group two: group two's last round is no knockout.
    stages.playDay(third!.slice(0, 2));
    expect(stages.isKnockout({ ...third![2]!, date: third![2]!.date + DAY })).toBe(false);
  });

  it('calls a second meeting of a pair a knockout, and starts a new edition after a long gap', () => {
    const stages = new TournamentStages();
    stages.playDay([staged(0, 'Ghana', 'Benin')]);
    expect(stages.isKnockout(staged(3, 'Ghana', 'Benin'))).toBe(true);
    expect(stages.isKnockout(staged(3, 'Ghana', 'Cameroon'))).toBe(false);
    // Two years on, the same tournament's name is a new edition: its first match is a group match.
    const later = new TournamentStages();
    for (const day of groupStage()) later.playDay(day);
    expect(later.isKnockout(staged(12, 'Egypt', 'Guinea'))).toBe(true);
    expect(later.isKnockout(staged(730, 'Egypt', 'Guinea'))).toBe(false);
    expect(later.isKnockout(staged(730, 'Egypt', 'Uganda'))).toBe(false);
  });

  it('never infers a stage for friendlies, qualifiers or a match without a tournament name', () => {
    const stages = new TournamentStages();
    for (const day of groupStage('Friendly'))
      stages.playDay(day.map((m) => ({ ...m, tournamentClass: 'friendly' })));
    expect(
      stages.isKnockout({ ...staged(12, 'Egypt', 'Guinea', 'Friendly'), tournamentClass: 'friendly' }),
    ).toBe(false);
    const { tournament: _unnamed, ...unnamed } = staged(0, 'Ghana', 'Benin');
    stages.playDay([unnamed]);
    expect(stages.isKnockout({ ...unnamed, date: unnamed.date + DAY })).toBe(false);
  });
});

const fixture = (home: string, away: string): InternationalFixture => ({
  home,
  away,
  neutral: true,
  tournamentClass: 'continental-final',
  homeConfederation: 'CAF',
  awayConfederation: 'CAF',
  tournament: 'African Cup of Nations',
});

const learnt = (match: StagedMatch, homeGoals: number, awayGoals: number): InternationalResult => ({
  ...fixture(match.home, match.away),
  date: match.date,
  homeGoals,
  awayGoals,
});

describe("the recorded outcome's 1X2 of a knockout match (decision 0159)", () => {
  it('moves the 90-minute draw into extra time: a draw only after a level extra time', () => {
    expect(afterExtraTime([0.4, 0.3, 0.3], [0.2, 0.7, 0.1])).toEqual([0.4 + 0.06, 0.3 * 0.7, 0.3 + 0.03]);
    const extra = extraTimeOneXTwo(0.5, 0.1);
    expect(extra[0] + extra[1] + extra[2]).toBeCloseTo(1, 12);
    expect(extra[0]).toBeGreaterThan(extra[2]);
    expect(extra[1]).toBeCloseTo(Math.exp(-0.6) * (1 + 0.05 + 0.05 ** 2 / 4 + 0.05 ** 3 / 36), 4);
  });

  it('scores a knockout fixture by the recorded outcome, a group fixture and every analysis by the 90 minutes', () => {
    const model = new InternationalModel();
    for (const day of groupStage()) {
      const date = day[0]!.date;
      const group = fixture(day[0]!.home, day[0]!.away);
      expect(model.recordedOneXTwo(group, date)).toEqual(model.oneXTwo(group));
      model.playDay(day.map((match, index) => learnt(match, index % 3, 1)));
    }
    const semiFinal = fixture('Egypt', 'Guinea');
    const date = START + 12 * DAY;
    expect(model.isKnockout(semiFinal, date)).toBe(true);
    const recorded = model.recordedOneXTwo(semiFinal, date);
    const ninety = model.forecast(semiFinal).oneXTwo;
    expect(recorded[0] + recorded[1] + recorded[2]).toBeCloseTo(1, 9);
    // Fewer draws recorded (only shoot-outs), the 90 minutes' draws shared by extra time.
    expect(recorded[1]).toBeLessThan(ninety[1] * 0.9);
    expect(recorded[0]).toBeGreaterThan(ninety[0]);
    expect(recorded[2]).toBeGreaterThan(ninety[2]);
    // The analysis reads the 90-minute matrix whatever the stage.
    expect(ninety[1]).toBeCloseTo(model.oneXTwo(semiFinal)[1], 3);
    expect(INTERNATIONAL_SETTINGS.extraTimeShare).toBeGreaterThan(0);
  });

  it('learns a level knockout score as 120 minutes of goals, even without the shoot-outs file', () => {
    const withStage = new InternationalModel();
    const withoutStage = new InternationalModel();
    for (const day of groupStage()) {
      withStage.playDay(day.map((match) => learnt(match, 1, 1)));
      withoutStage.playDay(day.map((match) => learnt(match, 1, 1)));
    }
    const semiFinal = learnt(staged(12, 'Egypt', 'Guinea'), 0, 0);
    withStage.playDay([semiFinal]);
    const { tournament: _name, ...unnamed } = semiFinal;
    withoutStage.playDay([unnamed]);
    expect(withStage.rates(fixture('Egypt', 'Guinea')).lambda).toBeLessThan(
      withoutStage.rates(fixture('Egypt', 'Guinea')).lambda,
    );
  });
});
