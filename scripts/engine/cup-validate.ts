// `tsx scripts/engine/cup-validate.ts [DATA_DIR]`: the cups' validation (issue 51) on the
// Champions League seasons before 2020, with the leak-free rolling origin: for each fold season
// S (2008-09 … 2019-20) the settings are chosen on the cup seasons 2004-05 … S−1 only, and S's
// cup matches are forecast walked forward (every domestic and cup result of earlier days known,
// nothing later). Two forecasters over the same domestic and European results:
//   - the one-scale rating (engine/cup-rating.ts), settings from a small grid;
//   - a clubelo-style Elo: one rating per club across leagues, a fitted home term and K, World
//     Football Elo's goal-difference weight, an ordered-logit draw model fitted on the fold's past.
// Prints the pooled and per-season RPS of both, and the share of matches with a cup-only side.
// `--second-legs`: only the second legs' state term (second-legs.ts), with and without it.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  CUP_RATING_SETTINGS,
  type CupRatingSettings,
  type Probabilities3,
} from '../../src/engine/cup-rating.js';
import { CupClubResolver, countryGroup } from '../../src/modules/football/cup-clubs.js';
import { parseCupCsv } from '../../src/modules/football/cup-csv.js';
import {
  type CupMatch,
  type DomesticMatch,
  forecastCups,
  isNeutral,
} from '../../src/modules/football/cup-forecasts.js';
import { pastMarketOf } from '../../src/modules/football/evaluation-data.js';
import { parseFootballTxt } from '../../src/modules/football/football-txt.js';
import { decodeResults } from '../../src/modules/football/import.js';
import { parseResultsCsv } from '../../src/modules/football/results-csv.js';
import { secondLegReport } from './second-legs.js';

const DATA = process.argv.slice(2).find((arg) => !arg.startsWith('--')) ?? '/work/shared/data';
const TOP = ['E0', 'SP1', 'D1', 'I1', 'F1', 'N1', 'P1', 'B1', 'T1', 'G1', 'SC0'];
const EXTRA = ['AUT', 'DNK', 'FIN', 'IRL', 'NOR', 'POL', 'ROU', 'RUS', 'SWE', 'SWZ'];
const FIRST_SEASON = 2002;
const FOLDS = Array.from({ length: 12 }, (_, i) => season(2008 + i));
const FIT_FROM = season(2004);

function season(start: number) {
  return `${start}-${String((start + 1) % 100).padStart(2, '0')}`;
}

function loadDomestic(): DomesticMatch[] {
  const out: DomesticMatch[] = [];
  const read = (path: string) => {
    const parsed = parseResultsCsv(decodeResults(readFileSync(path)));
    for (const row of parsed.rows) {
      const market = pastMarketOf(row.market)?.oneXTwo ?? null;
      out.push({
        league: row.league,
        date: row.timestamp,
        home: row.homeTeam,
        away: row.awayTeam,
        homeGoals: row.homeGoals,
        awayGoals: row.awayGoals,
        market: market ? ([...market] as Probabilities3) : null,
      });
    }
  };
  for (const folder of ['football', 'football/results-only']) {
    for (const file of readdirSync(join(DATA, folder))) {
      const match = /^([A-Z0-9]+)-(\d{4})-\d{2}\.csv$/.exec(file);
      if (match && TOP.includes(match[1]!) && Number(match[2]) >= FIRST_SEASON)
        read(join(DATA, folder, file));
    }
  }
  for (const code of EXTRA) read(join(DATA, 'football/extra', `${code}.csv`));
  return out.sort((a, b) => a.date - b.date);
}

function loadCups(): CupMatch[] {
  const dir = join(DATA, 'european-cups/champions-league');
  const out: CupMatch[] = [];
  for (const file of readdirSync(dir).sort()) {
    const text = readFileSync(join(dir, file), 'utf8');
    const seasonName = file.slice(0, 7);
    const parsed = file.endsWith('.txt')
      ? parseFootballTxt(text)
      : parseCupCsv(text, { competition: 'UCL', season: seasonName });
    for (const match of parsed.matches) out.push({ ...match, competition: 'UCL', season: seasonName });
  }
  return out;
}

const outcome = (m: CupMatch) =>
  m.score!.home > m.score!.away ? 0 : m.score!.home === m.score!.away ? 1 : 2;
function rps(p: Probabilities3, o: number) {
  const c1 = p[0] - (o === 0 ? 1 : 0);
  const c2 = p[0] + p[1] - (o <= 1 ? 1 : 0);
  return (c1 * c1 + c2 * c2) / 2;
}

interface Scored {
  match: CupMatch;
  p: Probabilities3;
  cupOnly: boolean;
}

// ---- the clubelo-style baseline ---------------------------------------------------------
interface EloSettings {
  k: number;
  home: number;
  /** Rating of a club first seen in a cup match (a domestic newcomer takes its league's mean). */
  newcomer: number;
}

/** World Football Elo's goal-difference weight. */
function goalWeight(diff: number) {
  const n = Math.abs(diff);
  return n <= 1 ? 1 : n === 2 ? 1.5 : (11 + n) / 8;
}

/** The Elo pass: every cup match's rating difference (home term included) before its day. */
function eloPass(domestic: readonly DomesticMatch[], cups: readonly CupMatch[], settings: EloSettings) {
  const clubsByLeague = new Map<string, Set<string>>();
  for (const m of domestic) {
    const set = clubsByLeague.get(m.league) ?? new Set<string>();
    set.add(m.home).add(m.away);
    clubsByLeague.set(m.league, set);
  }
  const resolver = new CupClubResolver(clubsByLeague);
  type Item = {
    date: number;
    home: string;
    away: string;
    hg: number;
    ag: number;
    neutral: boolean;
    league: string | null;
    cup: CupMatch | null;
  };
  const items: Item[] = domestic.map((m) => ({
    date: m.date,
    home: m.home,
    away: m.away,
    hg: m.homeGoals,
    ag: m.awayGoals,
    neutral: false,
    league: m.league,
    cup: null,
  }));
  for (const m of cups) {
    if (!m.score) continue;
    items.push({
      date: Date.parse(`${m.date}T00:00:00Z`),
      home: resolver.resolve(m.home, m.homeCountry).key,
      away: resolver.resolve(m.away, m.awayCountry).key,
      hg: m.score.home,
      ag: m.score.away,
      neutral: isNeutral(m),
      league: null,
      cup: m,
    });
  }
  items.sort((a, b) => a.date - b.date);
  const rating = new Map<string, number>();
  const leagueSum = new Map<string, [number, number]>();
  const ratingOf = (club: string, league: string | null) => {
    let r = rating.get(club);
    if (r === undefined) {
      const sum = league ? leagueSum.get(league) : undefined;
      r = sum && sum[1] > 0 ? sum[0] / sum[1] - 50 : league ? 1500 : settings.newcomer;
      rating.set(club, r);
      if (league) leagueSum.set(league, [(sum?.[0] ?? 0) + r, (sum?.[1] ?? 0) + 1]);
    }
    return r;
  };
  const out: { match: CupMatch; diff: number }[] = [];
  let day = -1;
  let pending: Item[] = [];
  const apply = (it: Item) => {
    const rh = ratingOf(it.home, it.league);
    const ra = ratingOf(it.away, it.league);
    const diff = rh - ra + (it.neutral ? 0 : settings.home);
    const expected = 1 / (1 + 10 ** (-diff / 400));
    const actual = it.hg > it.ag ? 1 : it.hg === it.ag ? 0.5 : 0;
    const change = settings.k * goalWeight(it.hg - it.ag) * (actual - expected);
    rating.set(it.home, rh + change);
    rating.set(it.away, ra - change);
  };
  for (const it of items) {
    if (it.date !== day) {
      pending.forEach(apply);
      pending = [];
      day = it.date;
    }
    if (it.cup) {
      const diff = ratingOf(it.home, null) - ratingOf(it.away, null) + (it.neutral ? 0 : settings.home);
      out.push({ match: it.cup, diff });
    }
    pending.push(it);
  }
  return out;
}

/** Ordered logit: P(away) = σ(a − b·x), P(away or draw) = σ(c − b·x), fitted by gradient ascent. */
function fitOrderedLogit(data: { x: number; o: number }[]) {
  // x in units of 400 Elo points, so one step size fits the three parameters.
  let [a, c, b] = [-0.5, 0.6, 1];
  const sig = (z: number) => 1 / (1 + Math.exp(-z));
  for (let step = 0; step < 600; step++) {
    let [ga, gc, gb] = [0, 0, 0];
    for (const { x: raw, o } of data) {
      const x = raw / 400;
      const p1 = sig(a - b * x);
      const p2 = sig(c - b * x);
      if (o === 2) {
        ga += 1 - p1;
        gb += -x * (1 - p1);
      } else if (o === 1) {
        const d = Math.max(p2 - p1, 1e-9);
        ga += (-p1 * (1 - p1)) / d;
        gc += (p2 * (1 - p2)) / d;
        gb += (-x * (p2 * (1 - p2)) + x * p1 * (1 - p1)) / d;
      } else {
        gc += -p2;
        gb += x * p2;
      }
    }
    const n = data.length;
    a += (0.5 * ga) / n;
    c += (0.5 * gc) / n;
    b += (0.5 * gb) / n;
    if (c < a + 0.01) c = a + 0.01;
  }
  return (raw: number): Probabilities3 => {
    const x = raw / 400;
    const p1 = sig(a - b * x);
    const p2 = sig(c - b * x);
    return [1 - p2, p2 - p1, p1];
  };
}

// ---- the run ------------------------------------------------------------------------------
const started = Date.now();
const domestic = loadDomestic();
const cups = loadCups();
const played = cups.filter((m) => m.score !== null);
console.log(`${domestic.length} domestic matches, ${played.length} Champions League matches`);
if (process.argv.includes('--second-legs')) {
  secondLegReport(domestic, played, FOLDS, FIT_FROM);
  console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
  process.exit(0);
}

const seasonOfMatch = new Map(played.map((m) => [m, m.season]));
const mean = (values: number[]) => values.reduce((s, v) => s + v, 0) / Math.max(values.length, 1);

// The one-scale rating: one pass per setting of the grid, every played cup match forecast.
const grid: CupRatingSettings[] = [];
for (const kLeague of [0.02, 0.03, 0.045])
  for (const kCupClub of [0.03, 0.06])
    for (const homeCup of [0.5])
      for (const kMarket of [0.03, 0.05])
        grid.push({ ...CUP_RATING_SETTINGS, kLeague, kCupClub, homeCup, kMarket });
const gridRuns = grid.map((settings) => {
  const lines = forecastCups(domestic, played, () => true, settings);
  return lines.map((line) => ({
    match: line.match,
    p: line.forecast.probabilities,
    cupOnly: line.forecast.homeBasis !== 'league' || line.forecast.awayBasis !== 'league',
  }));
});

// The Elo: one pass per (K, home, newcomer); the ordered logit fitted per fold.
const eloGrid: EloSettings[] = [];
for (const k of [60, 80, 100])
  for (const home of [100, 130]) for (const newcomer of [1050, 1150]) eloGrid.push({ k, home, newcomer });
const eloRuns = eloGrid.map((settings) => eloPass(domestic, played, settings));

const inSeasons = (seasons: Set<string>) => (m: CupMatch) => seasons.has(seasonOfMatch.get(m) ?? '');
const ours: Scored[] = [];
const elo: Scored[] = [];
const chosen: string[] = [];
for (const fold of FOLDS) {
  const past = new Set([...new Set(played.map((m) => m.season))].filter((s) => s >= FIT_FROM && s < fold));
  const inPast = inSeasons(past);
  const inFold = inSeasons(new Set([fold]));
  // Ours: the grid point with the lowest RPS on the past seasons.
  const pastScore = gridRuns.map((run) =>
    mean(run.filter((s) => inPast(s.match)).map((s) => rps(s.p, outcome(s.match)))),
  );
  const best = pastScore.indexOf(Math.min(...pastScore));
  ours.push(...gridRuns[best]!.filter((s) => inFold(s.match)));
  // Elo: per grid point, the ordered logit fitted on the past seasons, then the lowest past RPS.
  let bestElo: { score: number; scored: Scored[]; label: string } | null = null;
  eloRuns.forEach((run, i) => {
    const pastRows = run.filter((r) => inPast(r.match));
    const model = fitOrderedLogit(pastRows.map((r) => ({ x: r.diff, o: outcome(r.match) })));
    const score = mean(pastRows.map((r) => rps(model(r.diff), outcome(r.match))));
    if (!bestElo || score < bestElo.score) {
      const s = eloGrid[i]!;
      bestElo = {
        score,
        scored: run
          .filter((r) => inFold(r.match))
          .map((r) => ({ match: r.match, p: model(r.diff), cupOnly: false })),
        label: `K ${s.k} home ${s.home} new ${s.newcomer}`,
      };
    }
  });
  elo.push(...bestElo!.scored);
  const g = grid[best]!;
  chosen.push(
    `${fold}: ours kLeague ${g.kLeague} kCupClub ${g.kCupClub} homeCup ${g.homeCup} kMarket ${g.kMarket}; Elo ${bestElo!.label}`,
  );
}

{
  const all = new Set([...new Set(played.map((m) => m.season))].filter((s) => s >= FIT_FROM));
  const scores = gridRuns.map((run) =>
    mean(run.filter((s) => all.has(s.match.season)).map((s) => rps(s.p, outcome(s.match)))),
  );
  const g = grid[scores.indexOf(Math.min(...scores))]!;
  console.log(
    `\nto ship (chosen on ${FIT_FROM} … 2019-20): kLeague ${g.kLeague} kCupClub ${g.kCupClub} homeCup ${g.homeCup} kMarket ${g.kMarket}`,
  );
}
const report = (name: string, scored: Scored[]) => mean(scored.map((s) => rps(s.p, outcome(s.match))));
console.log('\nfold settings (chosen on earlier seasons only):');
for (const line of chosen) console.log(`  ${line}`);
console.log('\nseason      matches  one-scale RPS  Elo RPS   ratio');
for (const fold of FOLDS) {
  const a = ours.filter((s) => s.match.season === fold);
  const b = elo.filter((s) => s.match.season === fold);
  console.log(
    `${fold}     ${String(a.length).padStart(4)}      ${report(name(a), a).toFixed(4)}      ${report('', b).toFixed(4)}   ${(report('', a) / report('', b)).toFixed(4)}`,
  );
}
function name(_: unknown) {
  return '';
}
const pooledOurs = report('ours', ours);
const pooledElo = report('elo', elo);
console.log(
  `\npooled ${ours.length} matches: one-scale RPS ${pooledOurs.toFixed(4)}, Elo RPS ${pooledElo.toFixed(4)}, ratio ${(pooledOurs / pooledElo).toFixed(4)} (${((1 - pooledOurs / pooledElo) * 100).toFixed(1)} % lower)`,
);
const onlyCup = ours.filter((s) => s.cupOnly);
console.log(
  `matches with a side rated from cup results alone (or new): ${onlyCup.length}; one-scale RPS on them ${report('', onlyCup).toFixed(4)}`,
);
const leagues = new Set(domestic.map((m) => m.league));
const unknown = new Set(
  played
    .flatMap((m) => [m.homeCountry, m.awayCountry])
    .filter((c) => countryGroup(c, leagues).startsWith('country:')),
);
console.log(`countries without a league in the data: ${[...unknown].sort().join(' ')}`);
console.log(`${((Date.now() - started) / 1000).toFixed(0)} s`);
