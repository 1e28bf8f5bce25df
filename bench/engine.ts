// Engine timings from one run: fitting one league (20 teams, 5 seasons of simulated results)
// and one prediction from fitted ratings, then how long the event loop stalls while the
// analyst's worker thread fits. `npx tsx bench/engine.ts`
import { existsSync, readdirSync } from 'node:fs';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fitModel } from '../src/engine/model.js';
import { buildResult } from '../src/engine/result.js';
import type { PlayedMatch } from '../src/engine/types.js';
import { loadEvaluationFiles, PROTOCOL_LEAGUES } from '../src/modules/football/evaluation-data.js';
import { threadFitter } from '../src/modules/football/fit-pool.js';
import { simulateLeague } from '../test/engine/simulate.js';

const simulated = simulateLeague({ teams: 20, seasons: 5, seed: 1 }).matches;
// Total shots beside the shots on target, as the result files have them, so the fit reads both;
// and a market price on every match, so the market rating runs and each prediction is raked
// (flat prices: the cost does not depend on their values).
const matches = simulated.map((match) => ({
  ...match,
  homeShots: 3 * (match.homeShotsOnTarget ?? 0) + 2,
  awayShots: 3 * (match.awayShotsOnTarget ?? 0) + 2,
  market: {
    oneXTwo: [0.46, 0.26, 0.28] as [number, number, number],
    overUnder: [0.52, 0.48] as [number, number],
  },
}));
const asOf = matches.at(-1)!.date + 86_400_000;

// One warm-up so the JIT has seen the code, then the measured runs.
fitModel(matches, asOf);
const fits = 20;
let started = performance.now();
let model = fitModel(matches, asOf);
for (let i = 1; i < fits; i++) model = fitModel(matches, asOf);
const fitMs = (performance.now() - started) / fits;

const predictions = 20_000;
started = performance.now();
for (let i = 0; i < predictions; i++) model.predict(`Team ${String(i % 20).padStart(2, '0')}`, 'Team 07');
const predictMs = (performance.now() - started) / predictions;

const context = {
  home: { name: 'Team 01', known: true, matches: 190, form: null },
  away: { name: 'Team 07', known: true, matches: 190, form: null },
  league: { name: 'Simulated', known: true },
};
started = performance.now();
for (let i = 0; i < predictions; i++)
  buildResult('full-analysis', model.predict('Team 01', 'Team 07'), context);
const resultMs = (performance.now() - started) / predictions;

console.log(`matches in the fit:            ${model.ratings.matches}`);
console.log(`fit one league (20 teams, 5 seasons): ${fitMs.toFixed(1)} ms`);
console.log(`one prediction (score matrix + markets): ${(predictMs * 1000).toFixed(1)} µs`);
console.log(`one full-analysis result (with French text): ${(resultMs * 1000).toFixed(1)} µs`);

// The analyst's path: fits on the worker thread while this loop stays free.
const thread = threadFitter();
await thread.fit(matches, asOf);
const delay = monitorEventLoopDelay({ resolution: 1 });
delay.enable();
started = performance.now();
for (let i = 0; i < fits; i++) await thread.fit(matches, asOf);
const threadMs = (performance.now() - started) / fits;
delay.disable();
await thread.close();
console.log(`fit on the worker thread (round trip): ${threadMs.toFixed(1)} ms`);
console.log(`event loop's longest stall meanwhile: ${(delay.max / 1e6).toFixed(1)} ms`);

// The same on real leagues, when the result files are beside the project (ENGINE_DATA, else
// ../shared/data/football): each league's every season up to 2017-18 (what a database that has
// imported them holds), fitted as of 2018-08-01, the median of five fits per league.
const dataDir = process.env.ENGINE_DATA ?? '../shared/data/football';
if (existsSync(dataDir)) {
  const realAsOf = Date.UTC(2018, 7, 1);
  const fitter = threadFitter();
  const leagues: Array<{ league: string; history: PlayedMatch[] }> = [];
  for (const league of PROTOCOL_LEAGUES) {
    const files = readdirSync(dataDir)
      .filter(
        (name) =>
          name.startsWith(`${league}-`) && name.slice(league.length + 1, league.length + 8) <= '2017-18',
      )
      .map((name) => `${dataDir}/${name}`);
    leagues.push({ league, history: (await loadEvaluationFiles(files)).flatMap((file) => file.matches) });
  }
  // A long-lived thread, as the service's: every league fitted twice before any is timed. The
  // first fit of each is timed apart: the end-of-season simulations (stakes.ts) are run then and
  // kept, and the first league also pays for the thread's JIT.
  for (let round = 0; round < 2; round++)
    for (const { league, history } of leagues) {
      started = performance.now();
      await fitter.fit(history, realAsOf);
      if (round === 0)
        console.log(
          `${league}: first fit on a new worker thread: ${(performance.now() - started).toFixed(1)} ms`,
        );
    }
  for (const { league, history } of leagues) {
    const times: number[] = [];
    for (let i = 0; i < 5; i++) {
      started = performance.now();
      await fitter.fit(history, realAsOf);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${league}: ${history.length} matches, fit on the worker thread: ${times[2]!.toFixed(1)} ms (median of 5)`,
    );
  }
  await fitter.close();
}
