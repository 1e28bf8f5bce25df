import { describe, expect, it } from 'vitest';
import { walkInternational } from '../../src/engine/international.js';
import { parseInternationalResults } from '../../src/modules/football/international-csv.js';
import {
  fixtureOf,
  internationalResults,
  walkForwardForecasts,
} from '../../src/modules/football/international-forecasts.js';

const HEADER = 'date,home_team,away_team,home_score,away_score,tournament,city,country,neutral';
const GROUPS = [
  ['Cameroon', 'Ghana', 'Mali', 'Togo'],
  ['Nigeria', 'Senegal', 'Egypt', 'Benin'],
];
const ROUNDS = [
  [0, 1, 2, 3],
  [0, 2, 1, 3],
  [0, 3, 1, 2],
];

/** A finals edition: two groups of four (three rounds), then the semi-finals, dated one after another. */
function edition(tournament: string): { played: string[]; semiFinals: string[] } {
  const date = (day: number) => new Date(Date.UTC(2019, 5, 21 + day)).toISOString().slice(0, 10);
  const played = ROUNDS.flatMap((order, round) =>
    GROUPS.flatMap((group) =>
      [0, 2].map(
        (at) =>
          `${date(round * 4)},${group[order[at]!]},${group[order[at + 1]!]},${(round + at) % 3},1,${tournament},Cairo,Egypt,TRUE`,
      ),
    ),
  );
  const semiFinals = [
    `${date(14)},Cameroon,Senegal,,,${tournament},Cairo,Egypt,TRUE`,
    `${date(14)},Nigeria,Ghana,,,${tournament},Cairo,Egypt,TRUE`,
  ];
  return { played, semiFinals };
}

describe('the forecasts file reads the outcome the file records (decision 0159)', () => {
  it("gives a finals knockout the after-extra-time 1X2, a group match and a friendly the 90 minutes'", () => {
    const finals = edition('African Cup of Nations');
    const train = parseInternationalResults([HEADER, ...finals.played].join('\n')).matches;
    const test = parseInternationalResults([HEADER, ...finals.semiFinals].join('\n')).matches;
    const [semiFinal] = walkForwardForecasts(train, test);
    const model = walkInternational(internationalResults(train), () => {});
    const ninety = model.forecast(fixtureOf(test[0]!)).oneXTwo;
    expect(semiFinal![1]).toBeLessThan(ninety[1] * 0.9);
    expect(semiFinal![0]).toBeGreaterThan(ninety[0]);
    expect(semiFinal![0] + semiFinal![1] + semiFinal![2]).toBeCloseTo(1, 9);

    // The same dates and pairs as friendlies: no stage, the 90-minute 1X2.
    const friendlies = edition('Friendly');
    const friendlyTrain = parseInternationalResults([HEADER, ...friendlies.played].join('\n')).matches;
    const friendlyTest = parseInternationalResults([HEADER, ...friendlies.semiFinals].join('\n')).matches;
    const [friendly] = walkForwardForecasts(friendlyTrain, friendlyTest);
    const friendlyModel = walkInternational(internationalResults(friendlyTrain), () => {});
    expect(friendly).toEqual(friendlyModel.oneXTwo(fixtureOf(friendlyTest[0]!)));
  });
});
