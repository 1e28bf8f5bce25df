// A season's format for the end-of-season stakes (issue 50): a small league whose sides meet three
// or four times (Scotland below its top division, Switzerland, Ireland) is not judged as if its
// season ended after the double round-robin, and a league split in two after its round-robin is
// not judged at all; the format is read from the season before.
import { describe, expect, it } from 'vitest';
import type { EvaluationMatch } from '../../src/engine/evaluation.js';
import { fitMarketRating } from '../../src/engine/market-rating.js';
import { MARKET_SETTINGS } from '../../src/engine/model.js';
import {
  addToTable,
  type Standing,
  seasonMeetings,
  seasonStakes,
  stakeClasses,
  stakeNeeds,
} from '../../src/engine/stakes.js';
import type { MarketSettings } from '../../src/engine/types.js';

const DAY = 86_400_000;
const sides = (n: number) => Array.from({ length: n }, (_, i) => `Club ${String(i).padStart(2, '0')}`);

/**
 * The rounds of `n` sides meeting `meetings` times (the circle method, one round a week, the home
 * side swapped every other cycle); the better-listed side wins 1-0, priced flat.
 */
function roundRobin(n: number, meetings: number, season: string, start: number): EvaluationMatch[][] {
  const teams = sides(n);
  const out: EvaluationMatch[][] = [];
  for (let round = 0; round < meetings * (n - 1); round++) {
    const leg = round % (n - 1);
    const order = [0, ...Array.from({ length: n - 1 }, (_, i) => 1 + ((i + leg) % (n - 1)))];
    const cycle = Math.floor(round / (n - 1));
    const matches: EvaluationMatch[] = [];
    for (let i = 0; i < n / 2; i++) {
      const [a, b] = [order[i]!, order[n - 1 - i]!];
      const [home, away] = cycle % 2 === 1 ? [b, a] : [a, b];
      matches.push(played(season, start + round * 7 * DAY, teams[home]!, teams[away]!));
    }
    out.push(matches);
  }
  return out;
}

function played(season: string, date: number, home: string, away: string): EvaluationMatch {
  const homeWins = home < away;
  const book: [number, number, number] = [0.45, 0.27, 0.28];
  return {
    league: 'XX',
    season,
    date,
    home,
    away,
    homeGoals: homeWins ? 1 : 0,
    awayGoals: homeWins ? 0 : 1,
    bookmaker: book,
    bookmakerOverUnder: [0.52, 0.48],
    market: { oneXTwo: book, overUnder: [0.52, 0.48] },
  };
}

function tableOf(rounds: readonly EvaluationMatch[][]): Map<string, Standing> {
  const table = new Map<string, Standing>();
  for (const match of rounds.flat()) addToTable(table, match as Required<EvaluationMatch>);
  return table;
}

const START = Date.UTC(2016, 7, 6);
const YEAR = 365 * DAY;

describe("a season's format, from the table of the one before", () => {
  it('knows a double, a triple and a quadruple round-robin, and a double cut short', () => {
    expect(seasonMeetings(tableOf(roundRobin(20, 2, '2016-17', START)))).toBe(2);
    expect(seasonMeetings(tableOf(roundRobin(12, 3, '2016-17', START)))).toBe(3);
    expect(seasonMeetings(tableOf(roundRobin(10, 4, '2016-17', START)))).toBe(4);
    // Stopped with ten rounds to play (spring 2020): still a double round-robin.
    expect(seasonMeetings(tableOf(roundRobin(20, 2, '2019-20', START).slice(0, 28)))).toBe(2);
    // An empty table (no season before) is read as the usual double round-robin.
    expect(seasonMeetings(new Map())).toBe(2);
  });

  it('calls a split league another format, and leaves out play-offs after the round-robin', () => {
    // Twelve sides, three times each other (33 rounds), then five more in two halves of six.
    const split = roundRobin(12, 3, '2016-17', START);
    const teams = sides(12);
    for (let round = 0; round < 5; round++) {
      const date = START + (33 + round) * 7 * DAY;
      const halves = [teams.slice(0, 6), teams.slice(6)];
      split.push(
        halves.flatMap((half) =>
          [0, 1, 2].map((i) => played('2016-17', date, half[(i + round) % 6]!, half[(i + round + 3) % 6]!)),
        ),
      );
    }
    expect(seasonMeetings(tableOf(split))).toBeNull();
    // Fourteen sides twice (26 rounds), then the first six ten more, the other eight seven more.
    const halves = roundRobin(14, 2, '2019-20', START);
    const later = (date: number) => date + 26 * 7 * DAY;
    for (const round of roundRobin(6, 2, '2019-20', START))
      halves.push(round.map((m) => played('2019-20', later(m.date), m.home, m.away)));
    const lower = (team: string) => teams[Number(team.slice(5)) + 6] ?? `Club ${Number(team.slice(5)) + 6}`;
    for (const round of roundRobin(8, 1, '2019-20', START))
      halves.push(round.map((m) => played('2019-20', later(m.date), lower(m.home), lower(m.away))));
    const playedBy = [...tableOf(halves).values()].map((row) => row.played).sort((a, b) => a - b);
    expect(playedBy).toEqual([...Array(8).fill(33), ...Array(6).fill(36)]);
    expect(seasonMeetings(tableOf(halves))).toBeNull();
    // A double round-robin of sixteen, then the second to fifth play each other twice more: its
    // season's end is the round-robin's (what the play-offs are for).
    const playOffs = roundRobin(16, 2, '2015-16', START);
    const four = teams.slice(1, 5);
    playOffs.push(
      four.flatMap((home, i) =>
        four.filter((_, j) => j !== i).map((away) => played('2015-16', START + YEAR / 2, home, away)),
      ),
    );
    expect(seasonMeetings(tableOf(playOffs))).toBe(2);
    // A quadruple round-robin of ten, then the ninth against a side from the division below.
    const relegationPlayOff = roundRobin(10, 4, '2018-19', START);
    relegationPlayOff.push([
      played('2018-19', START + YEAR / 2, 'Club 08', 'Visitor'),
      played('2018-19', START + YEAR / 2 + 3 * DAY, 'Visitor', 'Club 08'),
    ]);
    expect(seasonMeetings(tableOf(relegationPlayOff))).toBe(4);
  });
});

describe('the end of a season of another format', () => {
  // Twelve sides meeting three times (Ireland's and Denmark's top divisions until 2017).
  const triple = roundRobin(12, 3, '2017-18', START + YEAR);

  it('is not judged after its double round-robin, only in its own last matches', () => {
    // Fourteen rounds of 33 played: 19 left for every side.
    const early = tableOf(triple.slice(0, 14));
    // Read as a double round-robin (22 rounds) it would be eight from its end: judged.
    expect(stakeClasses(early).size).toBe(12);
    expect(stakeClasses(early, undefined, 3).size).toBe(0);
    expect(stakeNeeds(early, 0.05, 3).size).toBe(0);
    // Six rounds left of 33: judged in practice, each pair's last meeting listed (without the
    // pairings adding up there would be no need, only arithmetic).
    const late = tableOf(triple.slice(0, 27));
    expect(stakeClasses(late, undefined, 3).size).toBe(12);
    const needs = stakeNeeds(late, 0.05, 3);
    expect(needs.size).toBe(12);
    expect([...needs.values()].some((need) => need.total > 0.1)).toBe(true);
    // A quadruple round-robin's last matches too: each pair still to meet twice at each ground.
    const quadruple = tableOf(roundRobin(12, 4, '2017-18', START).slice(0, 38));
    expect(stakeNeeds(quadruple, 0.05, 4).size).toBe(12);
    expect(stakeNeeds(quadruple, 0.05).size).toBe(0);
    // Another format (a split to come): never judged, even with a round left.
    expect(stakeClasses(tableOf(triple.slice(0, 32)), 0.05, null).size).toBe(0);
    expect(stakeClasses(tableOf(triple.slice(0, 32)), 0.05, 3).size).toBe(12);
  });

  it("the results-only fit's stakes read the format from the season before", () => {
    const before = roundRobin(12, 3, '2016-17', START).flat();
    const asOf = START + YEAR + 14 * 7 * DAY;
    const current = triple.flat();
    // Without the season before, a triple league's fifteenth round looks like a season's end.
    expect(seasonStakes(current, asOf).size).toBe(12);
    expect(seasonStakes([...before, ...current], asOf).size).toBe(0);
    expect(seasonStakes([...before, ...current], START + YEAR + 27 * 7 * DAY).size).toBe(12);
  });

  it("the market rating's stake terms follow the league's format", () => {
    const { stakes: _classes, stakesImportance: _need, ...rest } = MARKET_SETTINGS;
    const settings: MarketSettings = { ...rest, stakes: { safe: -0.4 }, stakesImportance: 0.5 };
    const matches = [...roundRobin(12, 3, '2016-17', START).flat(), ...triple.flat()];
    const at = (round: number) => fitMarketRating(matches, START + YEAR + round * 7 * DAY + DAY, settings)!;
    expect(at(14).stakes!.size).toBe(0);
    expect(at(28).stakes!.size).toBe(12);
    // A double round-robin league of the same sides is judged from its own fourteenth round.
    const doubles = [
      ...roundRobin(12, 2, '2016-17', START).flat(),
      ...roundRobin(12, 2, '2017-18', START + YEAR).flat(),
    ];
    expect(fitMarketRating(doubles, START + YEAR + 14 * 7 * DAY + DAY, settings)!.stakes!.size).toBe(12);
  });
});
