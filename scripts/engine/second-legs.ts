// The second legs' state term (issue 51, decision 0161), for `cup-validate.ts --second-legs`: every
// Champions League second leg whose first leg the files hold is forecast by the one-scale rating
// (walked forward, the first leg read as a result like any other), then with the state-dependent
// term of `secondLegRates` (the side behind attacks, the match opens). The term's two settings are
// chosen leak-free as the rating's are: for each fold season, on the earlier seasons' second legs
// only. Prints the pooled RPS and log-loss of the second legs with and without it.
import {
  CUP_RATING_SETTINGS,
  type FirstLeg,
  oneXTwo,
  type Probabilities3,
  type SecondLegSettings,
  secondLegRates,
} from '../../src/engine/cup-rating.js';
import { scoreMatrix } from '../../src/engine/score-matrix.js';
import { type CupMatch, type DomesticMatch, forecastCups } from '../../src/modules/football/cup-forecasts.js';

const outcome = (m: CupMatch) =>
  m.score!.home > m.score!.away ? 0 : m.score!.home === m.score!.away ? 1 : 2;
function rps(p: Probabilities3, o: number) {
  const c1 = p[0] - (o === 0 ? 1 : 0);
  const c2 = p[0] + p[1] - (o <= 1 ? 1 : 0);
  return (c1 * c1 + c2 * c2) / 2;
}
const logLoss = (p: Probabilities3, o: number) => -Math.log(Math.max(p[o]!, 1e-12));
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / Math.max(values.length, 1);

/** Each second leg with its first leg's score (this match's home side's goals first). */
export function secondLegPairs(cups: readonly CupMatch[]): Map<CupMatch, FirstLeg> {
  const firstLegs = new Map<string, CupMatch>();
  for (const match of cups) {
    if (match.leg === 1 && match.score) firstLegs.set(`${match.season}|${match.home}|${match.away}`, match);
  }
  const pairs = new Map<CupMatch, FirstLeg>();
  for (const match of cups) {
    if (match.leg !== 2 || !match.score) continue;
    const first = firstLegs.get(`${match.season}|${match.away}|${match.home}`);
    if (first?.score) pairs.set(match, { homeGoals: first.score.away, awayGoals: first.score.home });
  }
  return pairs;
}

export function secondLegReport(
  domestic: readonly DomesticMatch[],
  played: readonly CupMatch[],
  folds: readonly string[],
  fitFrom: string,
): void {
  const pairs = secondLegPairs(played);
  const lines = forecastCups(domestic, played, (match) => pairs.has(match));
  const grid: SecondLegSettings[] = [];
  for (const openGoals of [0, 0.1, 0.2, 0.3, 0.45])
    for (const chase of [-0.1, 0, 0.1, 0.2, 0.3]) grid.push({ openGoals, chase });
  const scored = grid.map((settings) =>
    lines.map((line) => {
      const [lambda, mu] = secondLegRates(
        line.forecast.supremacy,
        pairs.get(line.match)!,
        settings,
        CUP_RATING_SETTINGS.evenGoals,
      );
      const p = oneXTwo(scoreMatrix(lambda, mu, CUP_RATING_SETTINGS.rho));
      const o = outcome(line.match);
      return { season: line.match.season, rps: rps(p, o), logLoss: logLoss(p, o) };
    }),
  );
  const base = grid.findIndex((s) => s.openGoals === 0 && s.chase === 0);
  const withTerm: (typeof scored)[number] = [];
  const without: (typeof scored)[number] = [];
  const chosen: string[] = [];
  for (const fold of folds) {
    const past = (row: { season: string }) => row.season >= fitFrom && row.season < fold;
    const pastScores = scored.map((rows) => mean(rows.filter(past).map((row) => row.rps)));
    const best = pastScores.indexOf(Math.min(...pastScores));
    withTerm.push(...scored[best]!.filter((row) => row.season === fold));
    without.push(...scored[base]!.filter((row) => row.season === fold));
    chosen.push(`${fold}: openGoals ${grid[best]!.openGoals} chase ${grid[best]!.chase}`);
  }
  console.log(`\n${pairs.size} second legs with their first leg; settings chosen on earlier seasons:`);
  for (const line of chosen) console.log(`  ${line}`);
  const report = (name: string, rows: typeof without) =>
    console.log(
      `${name}: ${rows.length} second legs, RPS ${mean(rows.map((r) => r.rps)).toFixed(5)}, log-loss ${mean(rows.map((r) => r.logLoss)).toFixed(5)}`,
    );
  report('cup model alone        ', without);
  report('with the state term    ', withTerm);
  const all = scored.map((rows) => mean(rows.filter((row) => row.season >= fitFrom).map((row) => row.rps)));
  const best = grid[all.indexOf(Math.min(...all))]!;
  console.log(
    `best on every season from ${fitFrom} (hindsight): openGoals ${best.openGoals} chase ${best.chase}, RPS ${Math.min(...all).toFixed(5)} against ${all[base]!.toFixed(5)} without`,
  );
}
