// Tunes the market rating and its pooling on recorded walk-forward fits (see record-fit.ts):
// for each candidate setting the rating is refitted as of every match day exactly as the engine
// does (`fitMarketRating` on the league's earlier matches only), the over/under pooling weights
// are fitted by logistic regression (log-loss) on the tune block and applied unchanged to
// validation. 1X2 uses the shipped pooling weights. Validation figures to report come from
// `npm run cli -- evaluate`, which runs the same code end to end.
//
//   nice -n 10 npx tsx scripts/engine/tune-market.ts ../shared/data/football fit.json '[{"venueGain":0.05}]'
import { readdirSync, readFileSync } from 'node:fs';
import { logLoss, outcomeOf, rps } from '../../src/engine/evaluation.js';
import {
  fitMarketRating,
  impliedGoals,
  inverseOver,
  type MarketForecast,
  marketForecast,
  overProbability,
  pool1x2,
} from '../../src/engine/market-rating.js';
import { dayOf, MARKET_SETTINGS } from '../../src/engine/model.js';
import type { MarketSettings } from '../../src/engine/types.js';
import { loadEvaluationFiles, protocolFiles } from '../../src/modules/football/evaluation-data.js';
import type { RecordedFit } from './record-fit.js';

const [dir, fitFile, candidatesJson] = process.argv.slice(2);
if (!dir || !fitFile) throw new Error('usage: tune-market.ts <data dir> <fit.json> [candidates json]');
const protocol = protocolFiles(dir, ['tune', 'validation']);
const all = (await loadEvaluationFiles([...protocol.train, ...protocol.test])).flatMap(
  (file) => file.matches,
);
for (const match of all) match.block = protocol.blockOf.get(match.season ?? '') ?? null;

/**
 * The pre-match maximum over/under 2.5 prices (`BbMx>2.5`/`BbMx<2.5`, from 2019-20 `Max>2.5`), which
 * the results reader does not keep: read here straight from the files, margin removed, keyed by
 * league, season, home and away. The best price across bookmakers is nearer the sharp ones than
 * the average.
 */
function maxOverUnder(directory: string): Map<string, [number, number]> {
  const found = new Map<string, [number, number]>();
  for (const name of readdirSync(directory)) {
    const file = /^([A-Z0-9]+)-(\d{4}-\d{2})\.csv$/.exec(name);
    if (!file) continue;
    const lines = readFileSync(`${directory}/${name}`, 'latin1').split(/\r?\n/);
    const header = lines[0]!.split(',').map((column) =>
      column
        .trim()
        .replace(/>2\.5$/, '_2_5')
        .replace(/<2\.5$/, '_2_5_1'),
    );
    const column = (...names: string[]) => names.map((n) => header.indexOf(n)).find((i) => i >= 0) ?? -1;
    const over = column('Max_2_5', 'BbMx_2_5');
    const under = column('Max_2_5_1', 'BbMx_2_5_1');
    const home = header.indexOf('HomeTeam');
    const away = header.indexOf('AwayTeam');
    if (over < 0 || under < 0) continue;
    for (const line of lines.slice(1)) {
      const cells = line.split(',');
      const o = Number(cells[over]);
      const u = Number(cells[under]);
      if (!(o > 1 && u > 1)) continue;
      const total = 1 / o + 1 / u;
      found.set(`${file[1]}|${file[2]}|${cells[home]!.trim()}|${cells[away]!.trim()}`, [
        1 / o / total,
        1 / u / total,
      ]);
    }
  }
  return found;
}
const maxima = maxOverUnder(dir);
const maxOf = (match: { league: string; season?: string | null; home: string; away: string }) =>
  maxima.get(`${match.league}|${match.season ?? ''}|${match.home}|${match.away}`) ?? null;
// TARGET=max or TARGET=blend:w: the rating learns past matches' goal totals from the maximum
// prices (blend: w of the maximum's logit, 1 − w of the average's) instead of the average.
const TARGET = process.env.TARGET ?? 'average';
if (TARGET !== 'average') {
  const w = TARGET === 'max' ? 1 : Number(TARGET.split(':')[1]);
  let replaced = 0;
  for (const match of all) {
    const max = maxOf(match);
    const average = match.market?.overUnder;
    if (!match.market || !max || !average || match.season === '2019-20') continue;
    const z = w * Math.log(max[0] / max[1]) + (1 - w) * Math.log(average[0] / average[1]);
    const over = 1 / (1 + Math.exp(-z));
    match.market = { ...match.market, overUnder: [over, 1 - over] };
    replaced++;
  }
  console.log(`target ${TARGET}: ${replaced} past over/under prices replaced`);
}
const fits = new Map<string, RecordedFit>();
for (const fit of JSON.parse(readFileSync(fitFile, 'utf8')) as RecordedFit[])
  fits.set(`${fit.date}|${fit.home}|${fit.away}`, fit);

const PROXY = process.env.PROXY ?? 'average';
const LEAGUE_DECAY = Number(process.env.LEAGUE_DECAY ?? 0.01);
const TEAM_DECAY = Number(process.env.TEAM_DECAY ?? 0.1);
const logit = (p: number) => Math.log(p / (1 - p));
const clamp = (p: number) => Math.min(Math.max(p, 1e-4), 1 - 1e-4);

interface Row {
  block: string;
  league: string;
  season: string;
  outcome: 0 | 1 | 2;
  over: boolean;
  book: [number, number, number];
  bookOver: number | null;
  /** Over 2.5 from the Poisson inversion of the match's own closing 1X2 (scoring only, see `proxy`). */
  closingOver: number | null;
  /** The match's own pre-match maximum over/under, margin removed (scoring only). */
  maxOver: number | null;
  /** Goals per match of the league's recent matches (decay LEAGUE_DECAY a match), results only. */
  leagueGoals: number;
  /** The same for each side's recent matches, both venues (decay TEAM_DECAY). */
  teamGoals: number;
  /** Shots on target per match, both sides together, of the two sides' recent matches against the league's (TEAM_DECAY). */
  teamShots: number;
  fit: RecordedFit;
  market: MarketForecast | null;
}

function closingOverOf(oneXTwo: [number, number, number] | null | undefined): number | null {
  const goals = oneXTwo ? impliedGoals(oneXTwo) : null;
  return goals ? clamp(overProbability(goals[0] + goals[1])) : null;
}

function rowsFor(settings: MarketSettings): Row[] {
  const rows: Row[] = [];
  const leagues = [...new Set(all.map((match) => match.league))].sort();
  for (const league of leagues) {
    const matches = all.filter((match) => match.league === league).sort((a, b) => a.date - b.date);
    const test = matches.filter((match) => match.block && match.bookmaker);
    let leagueGoals = 2.6;
    const teamGoals = new Map<string, number>();
    let seen = 0;
    let leagueShots = 9;
    const teamShots = new Map<string, number>();
    for (let i = 0; i < test.length; ) {
      const day = dayOf(test[i]!.date);
      let end = i;
      while (end < test.length && dayOf(test[end]!.date) === day) end++;
      for (; seen < matches.length && dayOf(matches[seen]!.date) < day; seen++) {
        const played = matches[seen]!;
        const total = played.homeGoals + played.awayGoals;
        leagueGoals += LEAGUE_DECAY * (total - leagueGoals);
        if (played.homeShotsOnTarget != null && played.awayShotsOnTarget != null) {
          const shots = played.homeShotsOnTarget + played.awayShotsOnTarget;
          leagueShots += LEAGUE_DECAY * (shots - leagueShots);
          for (const side of [played.home, played.away]) {
            const before = teamShots.get(side) ?? leagueShots;
            teamShots.set(side, before + TEAM_DECAY * (shots - before));
          }
        }
        for (const side of [played.home, played.away])
          teamGoals.set(
            side,
            (teamGoals.get(side) ?? leagueGoals) +
              TEAM_DECAY * (total - (teamGoals.get(side) ?? leagueGoals)),
          );
      }
      const rating = fitMarketRating(matches, day, settings);
      for (const match of test.slice(i, end)) {
        const fit = fits.get(`${day}|${match.home}|${match.away}`);
        if (!fit) throw new Error(`no recorded fit for ${league} ${match.home}-${match.away} ${day}`);
        rows.push({
          block: match.block!,
          league,
          season: match.season ?? '',
          outcome: outcomeOf(match),
          over: match.homeGoals + match.awayGoals > 2,
          book: match.bookmaker!,
          bookOver: match.bookmakerOverUnder?.[0] ?? null,
          closingOver: closingOverOf(match.market?.oneXTwo),
          maxOver: maxOf(match)?.[0] ?? null,
          leagueGoals,
          teamGoals:
            ((teamGoals.get(match.home) ?? leagueGoals) + (teamGoals.get(match.away) ?? leagueGoals)) / 2,
          teamShots:
            ((teamShots.get(match.home) ?? leagueShots) + (teamShots.get(match.away) ?? leagueShots)) /
            2 /
            leagueShots,
          fit,
          market: rating ? marketForecast(rating, match.home, match.away) : null,
        });
      }
      i = end;
    }
  }
  return rows;
}

/** Logistic regression by Newton steps (a small ridge on the slopes). */
function logistic(x: number[][], y: number[]): number[] {
  const k = x[0]!.length;
  const beta = new Array<number>(k).fill(0);
  for (let iteration = 0; iteration < 50; iteration++) {
    const g = new Array<number>(k).fill(0);
    const h = Array.from({ length: k }, () => new Array<number>(k).fill(0));
    for (let i = 0; i < x.length; i++) {
      const row = x[i]!;
      let z = 0;
      for (let j = 0; j < k; j++) z += beta[j]! * row[j]!;
      const p = 1 / (1 + Math.exp(-z));
      const w = p * (1 - p);
      for (let j = 0; j < k; j++) {
        g[j]! += (y[i]! - p) * row[j]!;
        for (let l = 0; l < k; l++) h[j]![l]! += w * row[j]! * row[l]!;
      }
    }
    for (let j = 1; j < k; j++) {
      g[j]! -= 1e-3 * beta[j]!;
      h[j]![j]! += 1e-3;
    }
    const step = solve(h, g);
    let size = 0;
    for (let j = 0; j < k; j++) {
      beta[j]! += step[j]!;
      size += Math.abs(step[j]!);
    }
    if (size < 1e-10) break;
  }
  return beta;
}

function solve(a: number[][], b: number[]): number[] {
  const n = b.length;
  const m = a.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r]![col]!) > Math.abs(m[pivot]![col]!)) pivot = r;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r]![col]! / m[col]![col]!;
      for (let c = col; c <= n; c++) m[r]![c]! -= f * m[col]![c]!;
    }
  }
  return m.map((row, i) => row[n]! / row[i]!);
}

type Features = (row: Row) => number[];
/** `inverseOver` of the engine's pooled 1X2 (fit and rating, the shipped weights), not the rating's alone. */
function pooledInverseOver(row: Row): number {
  const w = MARKET_SETTINGS.weights.none;
  const oneXTwo = pool1x2([
    { p: row.fit.fit, weight: w.dc },
    { p: row.market!.oneXTwo, weight: w.market },
  ]);
  return inverseOver({ ...row.market!, oneXTwo });
}
/** dixon-coles-6's over/under pool (`inverse` below), which the candidates after it extend. */
const inverseFeatures: Features = (row) => [
  1,
  logit(clamp(row.fit.over)),
  logit(row.market!.over),
  row.market!.spread,
  row.market!.drawTendency,
  logit(inverseOver(row.market!)),
];
const FEATURE_SETS: Record<string, Features> = {
  shipped: (row) => [1, logit(clamp(row.fit.over)), logit(row.market!.over)],
  spread: (row) => [1, logit(clamp(row.fit.over)), logit(row.market!.over), row.market!.spread],
  draw: (row) => [1, logit(clamp(row.fit.over)), logit(row.market!.over), row.market!.drawTendency],
  both: (row) => [
    1,
    logit(clamp(row.fit.over)),
    logit(row.market!.over),
    row.market!.spread,
    row.market!.drawTendency,
  ],
  // `inverse` is dixon-coles-6: `both` and the rating's own 1X2, its draw moved by the draw tendency,
  // turned into Poisson goals (`inverseOver`); the others leave one feature out or add spread².
  inverseNoDraw: (row) => [
    1,
    logit(clamp(row.fit.over)),
    logit(row.market!.over),
    row.market!.spread,
    logit(inverseOver(row.market!)),
  ],
  inverse: inverseFeatures,
  inverseNoOu: (row) => [
    1,
    logit(clamp(row.fit.over)),
    row.market!.spread,
    row.market!.drawTendency,
    logit(inverseOver(row.market!)),
  ],
  inverseSquare: (row) => [
    1,
    logit(clamp(row.fit.over)),
    logit(row.market!.over),
    row.market!.spread,
    row.market!.spread ** 2,
    row.market!.drawTendency,
    logit(inverseOver(row.market!)),
  ],
  // `inverse` with an intercept per league (SP1 the base): a calibration shift each league keeps.
  inverseLeague: (row) => [
    ...inverseFeatures(row),
    ...['D1', 'E0', 'F1', 'I1'].map((league) => (row.league === league ? 1 : 0)),
  ],
  // Recent goals from results: the league's level and the two sides' (LEAGUE_DECAY, TEAM_DECAY);
  // then how lopsidedness and the draw tendency interact; then the pooled 1X2 inverted.
  inverseLeagueForm: (row) => [...inverseFeatures(row), Math.log(row.leagueGoals)],
  inverseTeamForm: (row) => [...inverseFeatures(row), Math.log(row.teamGoals / row.leagueGoals)],
  inverseShots: (row) => [...inverseFeatures(row), Math.log(row.teamShots)],
  inverseCross: (row) => [
    ...inverseFeatures(row),
    row.market!.spread * row.market!.drawTendency,
    row.market!.spread * logit(inverseOver(row.market!)),
  ],
  inversePooled: (row) => [...inverseFeatures(row).slice(0, 5), logit(pooledInverseOver(row))],
  inverseBoth: (row) => [...inverseFeatures(row), logit(pooledInverseOver(row))],
  inverseNoSpread: (row) => [
    1,
    logit(clamp(row.fit.over)),
    logit(row.market!.over),
    row.market!.drawTendency,
    logit(inverseOver(row.market!)),
  ],
};

/**
 * A sharper benchmark than the pre-match average over/under price (the files' only one before
 * 2019-20): that price and the over 2.5 of the match's own closing 1X2 (Pinnacle's) inverted to
 * Poisson goals (`impliedGoals`), joined by a logistic fit on the tune block's outcomes. Scoring
 * only. PROXY=plain: the inversion alone; PROXY=spread: the inversion and |ln(pH/pA)|;
 * PROXY=max: the match's pre-match maximum price alone (no fit); PROXY=maxaverage: the maximum and
 * the average joined; PROXY=maxclosing: the maximum beside the default proxy's two.
 */
function proxyOf(rows: Row[]): (row: Row) => number | null {
  if (PROXY === 'max') return (row) => (row.maxOver === null ? null : clamp(row.maxOver));
  const tune = rows.filter((row) => row.block === 'tune');
  const withMax = PROXY === 'maxaverage' || PROXY === 'maxclosing';
  const withClosing = PROXY !== 'maxaverage';
  const features = (row: Row) => {
    const base = [1];
    if (withClosing) base.push(logit(row.closingOver!));
    if (PROXY === 'spread') base.push(Math.abs(Math.log(row.book[0] / row.book[2])));
    if (PROXY === 'average' || withMax) base.push(logit(row.bookOver!));
    if (withMax) base.push(logit(clamp(row.maxOver!)));
    return base;
  };
  const usable = (row: Row) =>
    (!withClosing || row.closingOver !== null) &&
    (PROXY === 'plain' || PROXY === 'spread' || row.bookOver !== null) &&
    (!withMax || row.maxOver !== null);
  const beta = logistic(
    tune.filter(usable).map(features),
    tune.filter(usable).map((row) => (row.over ? 1 : 0)),
  );
  return (row) =>
    usable(row)
      ? 1 / (1 + Math.exp(-features(row).reduce((sum, value, j) => sum + beta[j]! * value, 0)))
      : null;
}

function report(name: string, rows: Row[], featureNames: string[]) {
  const priced = rows.filter((row) => row.market);
  const tune = priced.filter((row) => row.block === 'tune');
  for (const featureName of featureNames) {
    const features = FEATURE_SETS[featureName]!;
    const beta = logistic(
      tune.map(features),
      tune.map((row) => (row.over ? 1 : 0)),
    );
    const over = (row: Row) => {
      if (!row.market) return clamp(row.fit.over);
      const z = features(row).reduce((sum, value, j) => sum + beta[j]! * value, 0);
      return 1 / (1 + Math.exp(-z));
    };
    const ratio = (subset: Row[], benchmark: (row: Row) => number | null = (row) => row.bookOver) => {
      let engine = 0;
      let book = 0;
      for (const row of subset) {
        const reference = benchmark(row);
        if (reference === null) continue;
        const side = row.over ? 0 : 1;
        const p = over(row);
        engine += logLoss([p, 1 - p], side);
        book += logLoss([reference, 1 - reference], side);
      }
      return engine / book;
    };
    const proxy = proxyOf(rows);
    const rpsRatio = (subset: Row[], drawK = 0) => {
      const w = MARKET_SETTINGS.weights.none;
      let engine = 0;
      let book = 0;
      for (const row of subset) {
        let p = row.market
          ? pool1x2([
              { p: row.fit.fit, weight: w.dc },
              { p: row.market.oneXTwo, weight: w.market },
            ])
          : row.fit.fit;
        if (drawK !== 0 && row.market) {
          const d = p[1] * Math.exp(drawK * row.market.drawTendency);
          const total = p[0] + d + p[2];
          p = [p[0] / total, d / total, p[2] / total];
        }
        engine += rps(p, row.outcome);
        book += rps(row.book, row.outcome);
      }
      return engine / book;
    };
    const validation = rows.filter((row) => row.block === 'validation');
    const leagues = [...new Set(rows.map((row) => row.league))]
      .map((league) => `${league} ${ratio(validation.filter((row) => row.league === league)).toFixed(4)}`)
      .join(' ');
    console.log(
      `${name} [${featureName}] beta=${beta.map((b) => b.toFixed(3)).join(',')} ` +
        `tune O/U ${ratio(rows.filter((row) => row.block === 'tune')).toFixed(4)} ` +
        `validation O/U ${ratio(validation).toFixed(4)} (${leagues}) ` +
        `vs proxy (${PROXY}): tune ${ratio(
          rows.filter((row) => row.block === 'tune'),
          proxy,
        ).toFixed(4)} validation ${ratio(validation, proxy).toFixed(4)} ` +
        `RPS tune ${rpsRatio(rows.filter((row) => row.block === 'tune')).toFixed(4)} validation ${rpsRatio(validation).toFixed(4)}`,
    );
    if (process.env.DRAW_K) {
      for (const k of process.env.DRAW_K.split(',').map(Number))
        console.log(
          `  1X2 draw term ${k}: RPS tune ${rpsRatio(
            rows.filter((row) => row.block === 'tune'),
            k,
          ).toFixed(5)} validation ${rpsRatio(validation, k).toFixed(5)}`,
        );
    }
  }
}

const candidates = (candidatesJson ? JSON.parse(candidatesJson) : [{}]) as Array<
  Partial<MarketSettings> & { features?: string[] }
>;
{
  // How sharp the proxy is: its log-loss against the pre-match average's, where both exist.
  const rows = rowsFor(MARKET_SETTINGS);
  const proxy = proxyOf(rows);
  for (const block of ['tune', 'validation']) {
    let own = 0;
    let average = 0;
    for (const row of rows.filter((r) => r.block === block)) {
      const reference = proxy(row);
      if (reference === null || row.bookOver === null) continue;
      const side = row.over ? 0 : 1;
      own += logLoss([reference, 1 - reference], side);
      average += logLoss([row.bookOver, 1 - row.bookOver], side);
    }
    console.log(`${block}: proxy (${PROXY}) log-loss / pre-match average ${(own / average).toFixed(4)}`);
  }
}
for (const candidate of candidates) {
  const { features, ...overrides } = candidate;
  const settings = { ...MARKET_SETTINGS, ...overrides };
  report(JSON.stringify(overrides), rowsFor(settings), features ?? ['shipped']);
}
