// Fits every setting and weight of the market rating and its pooling, and validates the way
// they are fitted by rolling origin: each season is predicted with settings and weights fitted on
// the seasons before it only, every search starting from the same neutral point (`neutral.ts`).
// The results-only fit's predictions come from `record-fit.ts` (recorded once: the Dixon–Coles
// refits are the slow part); the rating is refiltered here for each candidate, exactly as the
// engine runs it (`marketFilter` read day by day is `fitMarketRating` as of each day). The
// functions are in `rolling-origin.ts` and `pools.ts`; docs/engine/protocol.md has the commands.
//
//   Validate (folds 2012-13 to LAST, per season, league and month, paired intervals, BTTS and
//   exact score):
//     nice -n 10 npx tsx scripts/engine/fit-market.ts validate ../shared/data/football [fit.json]
//   Fit the shipped constants on every season up to LAST (2019-20), the shift watch on the 2020
//   restart, and write src/engine/market-settings.ts:
//     nice -n 10 npx tsx scripts/engine/fit-market.ts ship ../shared/data/football [fit.json]
//   One run's per-match losses against another's (files SCORES_OUT wrote), paired:
//     npx tsx scripts/engine/fit-market.ts compare a.none.json b.none.json
//   Runs split by folds (FIRST_FOLD, LAST_FOLD) or leagues read as one, pooled, by group and league:
//     npx tsx scripts/engine/fit-market.ts pool a.none.json b.none.json …
//   A run's forecasts (files FORECASTS_OUT wrote) by days to their league's last match day: each
//   forecaster's RPS ratio and the spread of ln(pH/pA) between the closing, pre-match and engine:
//     npx tsx scripts/engine/fit-market.ts season-end a.none.json
//   Record LEAGUES' results-only fits into a file (shares recorded side by side, then one
//   `validate <dir> a.json,b.json` reads them all):
//     LEAGUES=E1,E2 nice -n 10 npx tsx scripts/engine/fit-market.ts record ../shared/data/football a.json
//   Fit only the linked divisions' offsets over the shipped filters (every division through LAST;
//   DIVISIONS=E0,E1 refits that slice's offsets, the others and the variance kept) and write them
//   into src/engine/market-settings.ts:
//     nice -n 10 npx tsx scripts/engine/fit-market.ts links ../shared/data/football
//
// Environment: LAST (the last season, 2019-20), START (JSON over the neutral point; `shipped`: the
// shipped settings, as before issue 56), RESULTS
// (JSON over the results-only fit's settings: recorded again, cached apart), HISTORY=window
// (production's four-year window instead of every season from 2005-06), TARGET=closing, ROUNDS
// (passes over the filters, 2), SEASON_START=1, SEASON_END=1 (with STAKES=1: the last five
// matches' prices believed apart), STAKES=1 (with STAKES_RAMP=1, STAKES_AWAY=1 and
// STAKES_IMPORTANCE=1: the term's growth toward the end, an away side's factor, a term for how much
// a side still needs points, the rest of the season simulated, with STAKES_LINES=1 its title, top-four
// and top-six lines weighed apart; with START='{"carryBeforeEnd":5}' a side's strength before its
// last five matches carried over the summer; with START='{"stakesDecided":0.05}' the
// classes judged in practice, the rest of the season simulated) and CONTEXT=1 (the context-aware
// pool's terms): fit those terms, off until the paired run says they help; LINKS=0 (no linked
// divisions: every promoted side a newcomer; on by default, fitted on every division of
// DIVISION_CHAINS found in the data dir; DIVISIONS=E0,E1 a slice of them), LEAGUES (`all`, or a
// list: E1,SC1,BRA), FIRST_FOLD and LAST_FOLD (a share of the folds), SCORES_OUT, FORECASTS_OUT,
// JSON_OUT, PLOT (files).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { DIVISION_CHAINS } from '../../src/engine/divisions.js';
import {
  type EvaluationMatch,
  type GroupScores,
  type ScoredMatch,
  summarise,
} from '../../src/engine/evaluation.js';
import { DEFAULT_SETTINGS, MARKET_SETTINGS, type ModelSettings } from '../../src/engine/model.js';
import { evaluationPlot } from '../../src/engine/plot.js';
import { seasonOf } from '../../src/engine/season.js';
import type { MarketSettings } from '../../src/engine/types.js';
import { DIVISION_CODES, EXTRA_LEAGUE_CODES } from '../../src/lib/competitions.js';
import { PROTOCOL_LEAGUES } from '../../src/modules/football/evaluation-data.js';
import { checkMarkets, marketsReport } from './markets-check.js';
import { NEUTRAL_MARKET_SETTINGS } from './neutral.js';
import { compareRuns, lossesOf, pairedReport, poolRuns } from './paired.js';
import { type Forecast, fitPools, runFold, scored } from './pools.js';
import { type RecordedFit, recordFits } from './record-fit.js';
import {
  fitDivisionLinks,
  fitFilters,
  fitKey,
  fitShiftWatch,
  type ProtocolData,
  type ProtocolOptions,
  rowsFor,
  seasonStart,
} from './rolling-origin.js';
import { type ForecastLine, forecastLine, seasonEndReport } from './season-end.js';
import { ALL_LEAGUES, leagueMatches, seasonsBetween } from './seasons.js';

const [mode, dir, fitFile] = process.argv.slice(2);
if (mode === 'compare') {
  if (!dir || !fitFile) throw new Error('usage: fit-market.ts compare <scores a.json> <scores b.json>');
  console.log(compareRuns(dir, fitFile).join('\n'));
  process.exit(0);
}
if (mode === 'season-end') {
  if (!dir) throw new Error('usage: fit-market.ts season-end <forecasts.json>');
  const lines = JSON.parse(readFileSync(dir, 'utf8')) as ForecastLine[];
  console.log(seasonEndReport(lines).join('\n'));
  process.exit(0);
}

if (mode === 'pool') {
  const files = process.argv.slice(3);
  if (files.length === 0) throw new Error('usage: fit-market.ts pool <scores.json>…');
  const bigFive: readonly string[] = PROTOCOL_LEAGUES;
  const groups: Array<[string, readonly string[]]> = [
    ['the big five', bigFive],
    ['other main divisions', DIVISION_CODES.filter((code) => !bigFive.includes(code))],
    ['extra leagues', EXTRA_LEAGUE_CODES],
  ];
  console.log(poolRuns(files, groups).join('\n'));
  process.exit(0);
}
if (!(mode === 'validate' || mode === 'ship' || mode === 'links' || mode === 'record') || !dir)
  throw new Error('usage: fit-market.ts validate|ship|links|record <data dir> [fit.json[,fit.json…]]');

/** The rating reads every priced season from the first with odds; the folds start later. */
const FIRST_PRICED = '2005-06';
const LAST = process.env.LAST ?? '2019-20';
/** Seasons whose predictions the first fold's pools are fitted on. */
const FIRST_PREDICTED = '2008-09';
/**
 * The first season reported by the rolling origin (Pinnacle's closing prices are the yardstick
 * from 2012-13); `FIRST_FOLD=2015` reports fewer folds, for checking the script.
 */
const FIRST_FOLD = process.env.FIRST_FOLD ?? '2012-13';
/** The last season reported (`LAST_FOLD=2015-16` with `FIRST_FOLD`: a share of the folds, for runs side by side). */
const LAST_FOLD = process.env.LAST_FOLD ?? LAST;
/** The 2020 restart behind closed doors, where the shift watch is fitted. */
const RESTART = { from: Date.UTC(2020, 4, 1), to: Date.UTC(2020, 8, 1) };

/** `START=shipped`: the shipped settings as the start (the earlier protocol, to measure its leak). */
const START: MarketSettings =
  process.env.START === 'shipped'
    ? MARKET_SETTINGS
    : { ...NEUTRAL_MARKET_SETTINGS, ...(JSON.parse(process.env.START ?? '{}') as Partial<MarketSettings>) };
/**
 * LEAGUES=E1,SC1,BRA: the divisions and extra leagues read (`all`: every one of the catalogue,
 * season files, results-only seasons and country files); the five leagues by default.
 */
const LEAGUES: readonly string[] =
  process.env.LEAGUES === 'all' ? ALL_LEAGUES : (process.env.LEAGUES?.split(',') ?? PROTOCOL_LEAGUES);
const RESULTS = JSON.parse(process.env.RESULTS ?? '{}') as Partial<ModelSettings>;
const OPTIONS: ProtocolOptions = {
  start: START,
  firstPredicted: FIRST_PREDICTED,
  rounds: Number(process.env.ROUNDS ?? 2),
  target: process.env.TARGET === 'closing' ? 'closing' : 'outcome',
  ...(process.env.HISTORY === 'window' ? { windowDays: DEFAULT_SETTINGS.windowDays } : {}),
  seasonStart: process.env.SEASON_START === '1',
  seasonEnd: process.env.SEASON_END === '1',
  stakes: process.env.STAKES === '1',
  links: process.env.LINKS !== '0',
  context: process.env.CONTEXT === '1',
  stakesRamp: process.env.STAKES_RAMP === '1',
  stakesAway: process.env.STAKES_AWAY === '1',
  stakesImportance: process.env.STAKES_IMPORTANCE === '1',
  stakesLines: process.env.STAKES_LINES === '1',
};

/** Every season of `league` (season, results-only or country file) from the first priced season to LAST, in date order. */
async function seasonsOf(league: string): Promise<EvaluationMatch[]> {
  return leagueMatches(dir!, league, seasonsBetween(FIRST_PRICED, LAST));
}

/** Every linked division the data dir has (the offsets are fitted on all of them). */
async function linkedDivisionsData(): Promise<Map<string, EvaluationMatch[]>> {
  const divisions = new Map<string, EvaluationMatch[]>();
  for (const league of process.env.DIVISIONS?.split(',') ?? DIVISION_CHAINS.flat()) {
    const matches = await seasonsOf(league);
    if (matches.length > 0) divisions.set(league, matches);
  }
  return divisions;
}

if (mode === 'links') {
  const divisions = await linkedDivisionsData();
  const settings = fitDivisionLinks(
    { leagues: new Map(), recorded: new Map(), divisions },
    MARKET_SETTINGS,
    seasonStart(seasonsBetween(LAST, LAST, 1, 1)[0]!),
    120,
    // A slice refits its offsets only: the arrivals' variance is every division's.
    Boolean(process.env.DIVISIONS && MARKET_SETTINGS.divisions),
  );
  // The filters' and pools' lines of the header stay: only the linked divisions were refitted.
  const kept = readFileSync('src/engine/market-settings.ts', 'utf8')
    .split('\n')
    .filter(
      (line) => line.startsWith('//') && !line.includes('linked divisions') && !line.includes('edit by hand'),
    );
  writeSettings(settings, [
    ...kept,
    `// The linked divisions: \`fit-market.ts links\` over those settings, on every division's seasons from ${FIRST_PRICED} to ${LAST}${process.env.DIVISIONS ? ' (run by slices of DIVISIONS)' : ''}.`,
  ]);
  for (const [key, offset] of Object.entries(settings.divisions!.offsets))
    console.log(`${key.padEnd(9)} ${offset.toFixed(4)}`);
  console.log(`arrivals' variance ${settings.divisions!.variance.toFixed(5)}`);
  process.exit(0);
}

/** Writes src/engine/market-settings.ts under `header` (comment lines: how it was fitted). */
function writeSettings(fitted: MarketSettings, header: readonly string[]): void {
  writeFileSync(
    'src/engine/market-settings.ts',
    `${header.join('\n')}
// Do not edit by hand.
import type { MarketSettings } from './types.js';

export const FITTED_MARKET_SETTINGS: MarketSettings = ${JSON.stringify(fitted, null, 2)};
`,
  );
  spawnSync('npx', ['biome', 'format', '--write', 'src/engine/market-settings.ts'], { stdio: 'ignore' });
  console.log('src/engine/market-settings.ts written');
}

/**
 * The results-only fit's predictions: from the file given, else recorded now (a few minutes)
 * and kept in node_modules/.cache for the next run (one file per LAST and RESULTS).
 */
async function recordedFits(): Promise<RecordedFit[]> {
  if (fitFile && mode !== 'record')
    return fitFile.split(',').flatMap((file) => JSON.parse(readFileSync(file, 'utf8')) as RecordedFit[]);
  const key = [process.env.RESULTS ?? '', process.env.LEAGUES ?? ''].join('|');
  const variant = key !== '|' ? `-${createHash('sha256').update(key).digest('hex').slice(0, 8)}` : '';
  const cache = `node_modules/.cache/pronostics-engine/fits-v2-${FIRST_PREDICTED}-${LAST}${variant}.json`;
  if (existsSync(cache)) return JSON.parse(readFileSync(cache, 'utf8')) as RecordedFit[];
  const fits = await recordFits(dir!, FIRST_PREDICTED, LAST, RESULTS, LEAGUES);
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify(fits));
  return fits;
}
const recorded = new Map<string, RecordedFit>();
for (const fit of await recordedFits()) recorded.set(fitKey(fit.league, fit.date, fit.home, fit.away), fit);
if (mode === 'record') {
  // LEAGUES' fits alone into a file: runs side by side record shares of the leagues, then one
  // validation reads them all (`validate <dir> a.json,b.json`).
  if (!fitFile) throw new Error('usage: fit-market.ts record <data dir> <fit.json>');
  writeFileSync(fitFile, JSON.stringify([...recorded.values()]));
  console.log(`${recorded.size} fits of ${LEAGUES.join(',')} written to ${fitFile}`);
  process.exit(0);
}

const leagues = new Map<string, EvaluationMatch[]>();
for (const league of LEAGUES) leagues.set(league, await seasonsOf(league));
const data: ProtocolData = {
  leagues,
  recorded,
  ...(OPTIONS.links ? { divisions: new Map([...(await linkedDivisionsData()), ...leagues]) } : {}),
};
/**
 * The folds: every season label the data has prices for from 2012-13 to LAST (a results-only
 * season has nothing to score), in the order they start, the extra leagues' calendar years
 * (`2013`, from January) among the July-to-June seasons.
 */
const FOLDS = [
  ...new Set(
    [...leagues.values()].flatMap((matches) => matches.filter((m) => m.bookmaker).map((m) => seasonOf(m))),
  ),
]
  .filter(
    (season) =>
      seasonStart(season) >= seasonStart(FIRST_FOLD) &&
      seasonStart(season) <= seasonStart(LAST_FOLD) &&
      seasonStart(season) <= seasonStart(LAST),
  )
  .sort((a, b) => seasonStart(a) - seasonStart(b));

const figure = (value: number | null | undefined) => (value == null ? '   -   ' : value.toFixed(4));
const interval = (ci: readonly number[] | null | undefined) =>
  ci ? `${ci[0]!.toFixed(4)}–${ci[1]!.toFixed(4)}` : '-';

function printReport(report: ReturnType<typeof summarise>): void {
  console.log(
    `pooled ${report.matches} matches: RPS ratio ${figure(report.rps_ratio)} (${interval(report.rps_ratio_ci)}), over/under ${figure(report.ou_ratio)} (${interval(report.ou_ratio_ci)})`,
  );
  console.log('season     RPS ratio (95 %)            O/U ratio (95 %)');
  // In start order: an object lists integer-like keys (calendar years, `2013`) before the others.
  for (const [season, group] of Object.entries(report.blocks).sort(
    ([a], [b]) => seasonStart(a) - seasonStart(b),
  ))
    console.log(
      `${season}    ${figure(group.rps_ratio)} (${interval(group.rps_ratio_ci)})   ${figure(group.ou_ratio)}`,
    );
  console.log('league     RPS ratio (95 %)');
  for (const [league, group] of Object.entries(report.leagues) as [string, GroupScores][])
    console.log(`${league.padEnd(10)} ${figure(group.rps_ratio)} (${interval(group.rps_ratio_ci)})`);
  console.log('month      RPS ratio (95 %)            O/U ratio    matches');
  // Sorted here: an object lists integer-like keys (10, 11, 12) before the others (01…09).
  for (const [month, group] of Object.entries(report.months_of_year).sort(([a], [b]) => (a < b ? -1 : 1)))
    console.log(
      `${month}         ${figure(group.rps_ratio)} (${interval(group.rps_ratio_ci)})   ${figure(group.ou_ratio)}      ${group.matches}`,
    );
}

if (mode === 'validate') {
  const modes = ['none', 'prematch'] as const;
  const all: Record<'none' | 'prematch', Forecast[]> = { none: [], prematch: [] };
  for (const season of FOLDS) {
    const fold = runFold(data, OPTIONS, season);
    for (const m of modes) all[m].push(...fold.forecasts[m]);
    const report = summarise(fold.forecasts.none.map(scored));
    process.stderr.write(`fold ${season}: ${figure(report.rps_ratio)} / ${figure(report.ou_ratio)}\n`);
  }
  for (const m of modes) {
    const matches: ScoredMatch[] = all[m].map(scored);
    const report = summarise(matches);
    console.log(
      `\nRolling origin, ${m === 'none' ? "without the match's own odds" : 'with its pre-match odds'}:`,
    );
    printReport(report);
    const losses = all[m].map(lossesOf);
    console.log(pairedReport(losses).join('\n'));
    console.log('Both teams to score and the exact score against the results:');
    console.log(marketsReport(all[m].map(checkMarkets).filter((c) => c !== null)).join('\n'));
    if (process.env.JSON_OUT) writeFileSync(`${process.env.JSON_OUT}.${m}.json`, JSON.stringify(report));
    if (process.env.SCORES_OUT) writeFileSync(`${process.env.SCORES_OUT}.${m}.json`, JSON.stringify(losses));
    // FORECASTS_OUT=file: each match's probabilities beside the prices and the result (for readings).
    if (process.env.FORECASTS_OUT)
      writeFileSync(`${process.env.FORECASTS_OUT}.${m}.json`, JSON.stringify(all[m].map(forecastLine)));
    // PLOT=file.svg: the reliability diagrams of the rolling origin (file-none.svg, file-prematch.svg).
    if (process.env.PLOT)
      writeFileSync(process.env.PLOT.replace(/\.svg$/, `-${m}.svg`), evaluationPlot(matches));
  }
} else {
  const next = seasonsBetween(LAST, LAST, 1, 1)[0]!;
  let settings = fitFilters(data, START, seasonStart(next), OPTIONS);
  if (LAST >= '2019-20') {
    const watch = fitShiftWatch(data, settings, RESTART.from, RESTART.to);
    settings = { ...settings, shiftWatch: { matches: watch.matches, limit: watch.limit } };
    console.log(
      `shift watch fitted on the 2020 restart: ${watch.matches} matches, ${watch.limit} standard errors`,
    );
  }
  const rows = rowsFor(data, settings, OPTIONS.windowDays).filter(
    (row) => row.season >= FIRST_PREDICTED && row.season <= LAST,
  );
  const pools = { target: OPTIONS.target, steam: Boolean(START.steam), context: OPTIONS.context };
  const weights = {
    none: fitPools(rows, START.weights.none, 'none', pools),
    prematch: fitPools(rows, START.weights.prematch, 'prematch', pools),
    prematchOnly: fitPools(rows, START.weights.prematchOnly, 'prematchOnly', pools),
  };
  writeSettings({ ...settings, weights }, [
    `// Written by \`npm run engine:fit -- <data dir>\` (scripts/engine/fit-market.ts), fitted on every season`,
    `// from ${FIRST_PRICED} (the rating) and ${FIRST_PREDICTED} (the pools) to ${LAST}, from the neutral point;`,
    OPTIONS.links
      ? "// the linked divisions' offsets on every division of DIVISION_CHAINS over the same seasons."
      : '// no linked divisions (LINKS=0).',
    ...(OPTIONS.stakes
      ? ["// With the stake classes' term (STAKES=1: its paired run, docs/engine/figures.md)."]
      : []),
    ...(OPTIONS.seasonStart ? ['// With the season-start term (SEASON_START=1).'] : []),
    ...(OPTIONS.stakes && OPTIONS.seasonEnd ? ["// With the season's end (SEASON_END=1)."] : []),
    ...(OPTIONS.stakes && OPTIONS.stakesRamp ? ["// With the stake term's ramp (STAKES_RAMP=1)."] : []),
    ...(OPTIONS.stakes && OPTIONS.stakesAway ? ["// With an away side's stake factor (STAKES_AWAY=1)."] : []),
    ...(OPTIONS.stakes && OPTIONS.stakesImportance
      ? ["// With a side's need for points (STAKES_IMPORTANCE=1)."]
      : []),
    ...(OPTIONS.stakes && OPTIONS.stakesImportance && OPTIONS.stakesLines
      ? ["// With its lines' needs weighed apart (STAKES_LINES=1)."]
      : []),
    ...(OPTIONS.stakes && START.stakesDecided
      ? [`// The stake classes judged in practice (START's stakesDecided ${START.stakesDecided}).`]
      : []),
    ...(OPTIONS.context ? ['// With the context-aware pool (CONTEXT=1).'] : []),
    ...(START.carryBeforeEnd !== undefined
      ? [`// A side's strength before its last ${START.carryBeforeEnd} matches carried over the summer.`]
      : []),
  ]);
}
