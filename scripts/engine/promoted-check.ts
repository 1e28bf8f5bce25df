// The linked divisions' own check (issue 50): the first matches of every side promoted or relegated
// into a division, walked forward as `evaluate` walks them (everything before each match day read,
// its own odds never), with the shipped settings and with the divisions unlinked, scored against
// the closing price. A small run, not the protocol: the rolling origin (fit-market.ts) is that.
//
//   nice -n 10 npx tsx scripts/engine/promoted-check.ts ../shared/data/football E0,E1 2016-17 2019-20 [matches]
//
// RATING=1 scores the market rating's forecast alone (what the offsets move) instead of the pool.
// The leagues' linked divisions are read too (their sides are where the movers come from).
import { linkedDivisions } from '../../src/engine/divisions.js';
import {
  defaultForecaster,
  type EvaluationMatch,
  isPriced,
  rps,
  type ScoredMatch,
  walkForward,
} from '../../src/engine/evaluation.js';
import { DEFAULT_SETTINGS, type ModelSettings } from '../../src/engine/model.js';
import { seasonOf } from '../../src/engine/season.js';
import { loadEvaluationFiles } from '../../src/modules/football/evaluation-data.js';
import { leagueFiles, seasonsBetween } from './seasons.js';

const [dir, leagueList, from, to, firstMatches] = process.argv.slice(2);
if (!dir || !leagueList || !from || !to)
  throw new Error('usage: promoted-check.ts <data dir> <E0,E1> <first season> <last season> [matches: 10]');
const FIRST = Number(firstMatches ?? 10);
const leagues = leagueList.split(',');
/** Four seasons of history before the first checked one, as the fit's window reads. */
const seasons = seasonsBetween(from, to, -4, 0);
const codes = [...new Set([...leagues, ...leagues.flatMap(linkedDivisions)])];
const all: EvaluationMatch[] = [];
for (const code of codes)
  for (const file of await loadEvaluationFiles(leagueFiles(dir, code, seasons))) all.push(...file.matches);
all.sort((a, b) => a.date - b.date);

/** Each (league, season)'s sides that played the season before in a linked division, not in the league. */
const sidesOf = (league: string, season: string) =>
  new Set(all.filter((m) => m.league === league && seasonOf(m) === season).flatMap((m) => [m.home, m.away]));
const test = new Set<EvaluationMatch>();
for (const league of leagues)
  for (const season of seasonsBetween(from, to)) {
    const before = seasonsBetween(season, season, -1, -1)[0]!;
    const stayed = sidesOf(league, before);
    const linked = linkedDivisions(league).map((code) => sidesOf(code, before));
    const movers = [...sidesOf(league, season)].filter(
      (side) => !stayed.has(side) && linked.some((sides) => sides.has(side)),
    );
    for (const side of movers)
      all
        .filter((m) => m.league === league && seasonOf(m) === season && (m.home === side || m.away === side))
        .slice(0, FIRST)
        .forEach((m) => {
          test.add(m);
        });
  }
const train = all.filter((m) => !test.has(m));
const tested = [...test].filter((m) => m.bookmaker);

function score(settings: ModelSettings): ScoredMatch[] {
  return walkForward(train, tested, defaultForecaster(settings));
}
const report = (name: string, scored: readonly ScoredMatch[]) => {
  for (const league of [...leagues, 'all']) {
    const group = scored.filter(isPriced).filter((m) => league === 'all' || m.league === league);
    const engine = group.reduce((sum, m) => sum + rps(m.engine, m.outcome), 0) / group.length;
    const book = group.reduce((sum, m) => sum + rps(m.bookmaker, m.outcome), 0) / group.length;
    // How far its ln(pH/pA) is from the closing price's: far less noisy than the results on a few
    // hundred matches.
    const split = (p: readonly number[]) => Math.log(p[0]! / p[2]!);
    const gap =
      group.reduce((sum, m) => sum + Math.abs(split(m.engine) - split(m.bookmaker)), 0) / group.length;
    console.log(
      `${name.padEnd(9)} ${league.padEnd(4)} ${String(group.length).padStart(4)} matches  RPS ${engine.toFixed(4)}  closing ${book.toFixed(4)}  ratio ${(engine / book).toFixed(4)}  |ln(pH/pA) − closing| ${gap.toFixed(3)}`,
    );
  }
};
// RATING=1: the market rating's forecast alone (the pool's weight on it 1, on the results fit 0).
const market = DEFAULT_SETTINGS.market!;
const shipped: ModelSettings =
  process.env.RATING === '1'
    ? {
        ...DEFAULT_SETTINGS,
        market: {
          ...market,
          weights: { ...market.weights, none: { ...market.weights.none, dc: 0, market: 1, stakes: 0 } },
        },
      }
    : DEFAULT_SETTINGS;
const unlinked: ModelSettings = { ...shipped, market: { ...shipped.market!, divisions: undefined } };
report('linked', score(shipped));
report('unlinked', score(unlinked));
