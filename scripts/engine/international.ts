// The national-team forecaster's rolling-origin validation (decision 0152):
//   npm run engine:international -- [--data DIR] [--from 2014-01-01] [--to 2021-12-31] [--tune] [--json]
//     [--settings JSON]
// Walks every international from 1872 in date order (a fixed start), forecasting each match of
// the scored window from the results dated before its day, and scores three forecasters on the
// same matches: ours (src/engine/international.ts), a World Football Elo (eloratings.net's method,
// an ordered-logit draw model fitted on 2000-2021 by maximum likelihood, as the yardstick),
// and a time-weighted Poisson (Dixon–Coles' weighting, refitted every match-day on the 8 years
// before it, a home term when not neutral). RPS pooled, per tournament class, per confederation.
// `--tune` searches the model's settings on 2006-2013 only (coordinate steps), never on the window.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { outcomeOf, rps } from '../../src/engine/evaluation.js';
import {
  ELO_K,
  ELO_START,
  eloGoalFactor,
  INTERNATIONAL_SETTINGS,
  type InternationalResult,
  type InternationalSettings,
  type OrderedLogit,
  orderedLogitProbabilities,
  walkInternational,
} from '../../src/engine/international.js';
import {
  matchConfederation,
  parseInternationalResults,
  parseShootouts,
} from '../../src/modules/football/international-csv.js';
import { internationalResults } from '../../src/modules/football/international-forecasts.js';

type P3 = [number, number, number];
const DAY = 86_400_000;

function argument(name: string): string | undefined {
  const index = process.argv.indexOf(`--${name}`);
  return index >= 0 ? process.argv[index + 1] : undefined;
}

const dataDir = argument('data') ?? '../shared/data/international';
const from = Date.parse(`${argument('from') ?? '2014-01-01'}T00:00:00Z`);
const to = Date.parse(`${argument('to') ?? '2021-12-31'}T00:00:00Z`);
// `--settings '{"knockoutDraw":0.1}'`: settings over the engine's (a tune's start, a report's model).
const chosen: InternationalSettings = {
  ...INTERNATIONAL_SETTINGS,
  ...(JSON.parse(argument('settings') ?? '{}') as Partial<InternationalSettings>),
};

const parsed = parseInternationalResults(readFileSync(join(dataDir, 'results.csv'), 'utf8'));
const shootouts = parseShootouts(readFileSync(join(dataDir, 'shootouts.csv'), 'utf8'));
const results = internationalResults(parsed.matches, shootouts);
// Each result's competition code, for the AFCON rows of the report.
const codes = new Map(
  parsed.matches.map((match) => [
    `${match.timestamp}|${match.homeTeam}|${match.awayTeam}`,
    match.competition,
  ]),
);
const codeOf = (result: InternationalResult) =>
  codes.get(`${result.date}|${result.home}|${result.away}`) ?? '';

/** Our model's forecasts of the matches in [start, end]. */
function ours(settings: InternationalSettings, start: number, end: number): Map<InternationalResult, P3> {
  const forecasts = new Map<InternationalResult, P3>();
  walkInternational(
    results.filter((result) => result.date <= end),
    (day, model) => {
      if (day[0]!.date < start) return;
      for (const result of day) forecasts.set(result, model.recordedOneXTwo(result, result.date));
    },
    settings,
  );
  return forecasts;
}

/** eloratings.net: K by class times the goal-difference factor, 100 points at home, 1500 to start. */
function eloDifferences(): Map<InternationalResult, number> {
  const ratings = new Map<string, number>();
  const differences = new Map<InternationalResult, number>();
  let start = 0;
  while (start < results.length) {
    let end = start + 1;
    while (end < results.length && results[end]!.date === results[start]!.date) end++;
    const day = results.slice(start, end);
    const steps = day.map((result) => {
      const difference =
        (ratings.get(result.home) ?? ELO_START) -
        (ratings.get(result.away) ?? ELO_START) +
        (result.neutral ? 0 : 100);
      differences.set(result, difference);
      const expected = 1 / (10 ** (-difference / 400) + 1);
      const actual =
        result.homeGoals > result.awayGoals ? 1 : result.homeGoals === result.awayGoals ? 0.5 : 0;
      return (
        ELO_K[result.tournamentClass] *
        eloGoalFactor(result.homeGoals - result.awayGoals) *
        (actual - expected)
      );
    });
    day.forEach((result, index) => {
      ratings.set(result.home, (ratings.get(result.home) ?? ELO_START) + steps[index]!);
      ratings.set(result.away, (ratings.get(result.away) ?? ELO_START) - steps[index]!);
    });
    start = end;
  }
  return differences;
}

/** The ordered logit fitted by gradient ascent (full batch) on the 2000-2021 matches. */
function fitLogit(differences: Map<InternationalResult, number>): OrderedLogit {
  const sample = results.filter(
    (result) => result.date >= Date.UTC(2000, 0, 1) && result.date <= Date.UTC(2021, 11, 31),
  );
  let logit: OrderedLogit = { slope: Math.LN10, c1: -0.6, c2: 0.6 };
  const logLik = (candidate: OrderedLogit) =>
    sample.reduce(
      (sum, result) =>
        sum + Math.log(orderedLogitProbabilities(candidate, differences.get(result)!)[outcomeOf(result)]),
      0,
    );
  let best = logLik(logit);
  let step = 0.2;
  // Coordinate search: three parameters, a smooth concave likelihood.
  while (step > 1e-4) {
    let improved = false;
    for (const key of ['slope', 'c1', 'c2'] as const) {
      for (const sign of [1, -1]) {
        const candidate = { ...logit, [key]: logit[key] + sign * step };
        if (candidate.c2 <= candidate.c1) continue;
        const value = logLik(candidate);
        if (value > best) {
          best = value;
          logit = candidate;
          improved = true;
        }
      }
    }
    if (!improved) step /= 2;
  }
  return logit;
}

/**
 * The time-weighted Poisson "built the obvious way": attack, defence, a home term (not neutral)
 * and a goal level fitted on the 8 years before each match-day with weights e^(−ξ·days), ξ for a
 * half-life of about 2 years; warm-started Maher iterations every match-day of the window.
 */
function poisson(start: number, end: number): Map<InternationalResult, P3> {
  const xi = Math.LN2 / (2 * 365);
  const attack = new Map<string, number>();
  const defence = new Map<string, number>();
  let home = 0.3;
  let level = Math.log(1.3);
  const forecasts = new Map<InternationalResult, P3>();
  const window = 8 * 365 * DAY;
  const days = [...new Set(results.filter((r) => r.date >= start && r.date <= end).map((r) => r.date))];
  let first = true;
  let low = 0;
  let high = 0;
  for (const day of days) {
    while (results[low]!.date < day - window) low++;
    while (high < results.length && results[high]!.date < day) high++;
    const past = results.slice(low, high);
    const weights = past.map((r) => Math.exp(-xi * ((day - r.date) / DAY)));
    for (let iteration = 0; iteration < (first ? 60 : 2); iteration++) {
      // Damped multiplicative (Maher) updates toward observed / expected goals.
      const scored = new Map<string, [number, number]>();
      const conceded = new Map<string, [number, number]>();
      let homeObserved = 0;
      let homeExpected = 0;
      let allObserved = 0;
      let allExpected = 0;
      past.forEach((r, index) => {
        const w = weights[index]!;
        const h = r.neutral ? 0 : home;
        const lambda = Math.exp(level + h + (attack.get(r.home) ?? 0) - (defence.get(r.away) ?? 0));
        const mu = Math.exp(level + (attack.get(r.away) ?? 0) - (defence.get(r.home) ?? 0));
        const add = (map: Map<string, [number, number]>, key: string, observed: number, expected: number) => {
          const entry = map.get(key) ?? [0, 0];
          entry[0] += w * observed;
          entry[1] += w * expected;
          map.set(key, entry);
        };
        add(scored, r.home, r.homeGoals, lambda);
        add(scored, r.away, r.awayGoals, mu);
        add(conceded, r.away, r.homeGoals, lambda);
        add(conceded, r.home, r.awayGoals, mu);
        if (!r.neutral) {
          homeObserved += w * r.homeGoals;
          homeExpected += w * lambda;
        }
        allObserved += w * (r.homeGoals + r.awayGoals);
        allExpected += w * (lambda + mu);
      });
      // A weak prior (one match of average goals) keeps sides with few matches finite.
      for (const [team, [observed, expected]] of scored)
        attack.set(team, (attack.get(team) ?? 0) + 0.5 * Math.log((observed + 1.3) / (expected + 1.3)));
      for (const [team, [observed, expected]] of conceded)
        defence.set(team, (defence.get(team) ?? 0) - 0.5 * Math.log((observed + 1.3) / (expected + 1.3)));
      level += 0.5 * Math.log(allObserved / allExpected);
      if (homeExpected > 0) home += 0.5 * Math.log(homeObserved / homeExpected);
    }
    first = false;
    for (const r of results) {
      if (r.date !== day) continue;
      const lambda = Math.exp(
        level + (r.neutral ? 0 : home) + (attack.get(r.home) ?? 0) - (defence.get(r.away) ?? 0),
      );
      const mu = Math.exp(level + (attack.get(r.away) ?? 0) - (defence.get(r.home) ?? 0));
      forecasts.set(r, poissonOneXTwo(lambda, mu));
    }
  }
  return forecasts;
}

function poissonOneXTwo(lambda: number, mu: number): P3 {
  const row = (rate: number) => {
    const values: number[] = [];
    let term = Math.exp(-rate);
    for (let k = 0; k <= 10; k++) {
      values.push(term);
      term *= rate / (k + 1);
    }
    return values;
  };
  const [a, b] = [row(lambda), row(mu)];
  const p: P3 = [0, 0, 0];
  for (let x = 0; x <= 10; x++) for (let y = 0; y <= 10; y++) p[x > y ? 0 : x === y ? 1 : 2] += a[x]! * b[y]!;
  const total = p[0] + p[1] + p[2];
  return [p[0] / total, p[1] / total, p[2] / total];
}

type Group = { n: number; ours: number; elo: number; poisson: number };

function groupsOf(
  scored: readonly InternationalResult[],
  forecasts: {
    ours: Map<InternationalResult, P3>;
    elo: Map<InternationalResult, P3>;
    poisson?: Map<InternationalResult, P3>;
  },
): Map<string, Group> {
  const groups = new Map<string, Group>();
  for (const result of scored) {
    const outcome = outcomeOf(result);
    const keys = [
      'pooled',
      `class:${result.tournamentClass}`,
      `confederation:${matchConfederation(result.home, result.away) ?? 'none'}`,
    ];
    if (result.tournamentClass === 'world-cup' || result.tournamentClass === 'continental-final')
      keys.push('finals (WC + continental)');
    const code = codeOf(result);
    if (code === 'INT-AFCON' || code === 'INT-AFCON-Q') keys.push(`code:${code}`);
    for (const key of keys) {
      const group = groups.get(key) ?? { n: 0, ours: 0, elo: 0, poisson: 0 };
      group.n += 1;
      group.ours += rps(forecasts.ours.get(result)!, outcome);
      group.elo += rps(forecasts.elo.get(result)!, outcome);
      group.poisson += forecasts.poisson ? rps(forecasts.poisson.get(result)!, outcome) : 0;
      groups.set(key, group);
    }
  }
  return groups;
}

const started = Date.now();
const differences = eloDifferences();
const logit = fitLogit(differences);
const eloForecasts = new Map<InternationalResult, P3>(
  results.map((result) => [result, orderedLogitProbabilities(logit, differences.get(result)!)]),
);

if (process.argv.includes('--tune')) {
  // Coordinate search on 2006-2013 (before the reported window), pooled RPS against the Elo.
  const [tuneFrom, tuneTo] = [Date.UTC(2006, 0, 1), Date.UTC(2013, 11, 31)];
  const scored = results.filter((r) => r.date >= tuneFrom && r.date <= tuneTo);
  const score = (settings: InternationalSettings) => {
    const forecasts = ours(settings, tuneFrom, tuneTo);
    // Pooled RPS plus the finals' own (World Cup and continental finals), equally weighed.
    const mean = (list: readonly InternationalResult[]) =>
      list.reduce((sum, r) => sum + rps(forecasts.get(r)!, outcomeOf(r)), 0) / list.length;
    return (mean(scored) + mean(finals)) / 2;
  };
  const finals = scored.filter(
    (r) => r.tournamentClass === 'world-cup' || r.tournamentClass === 'continental-final',
  );
  let settings: InternationalSettings = structuredClone(chosen);
  let best = score(settings);
  const eloMean = (list: readonly InternationalResult[]) =>
    list.reduce((sum, r) => sum + rps(eloForecasts.get(r)!, outcomeOf(r)), 0) / list.length;
  const eloRps = (eloMean(scored) + eloMean(finals)) / 2;
  console.log('start', best, 'elo', eloRps, 'ratio', best / eloRps);
  const keys = [
    'rate',
    'newBoost',
    'newMatches',
    'newcomerAttack',
    'newcomerDefence',
    'confederationRate',
    'levelRate',
    'homeRate',
    'home',
    'errorCap',
    'drawBase',
    'eloScale',
    'eloHome',
    'logitRate',
    'eloWeight',
    'extraTimeShare',
    'finalsHome',
  ] as const;
  const weightKeys = [
    'world-cup',
    'continental-final',
    'qualifier',
    'nations-league',
    'friendly',
    'other',
  ] as const;
  for (let round = 0; round < Number(argument('rounds') ?? 2); round++) {
    const only = argument('only')?.split(',');
    const all = [
      ...keys,
      ...weightKeys.map((w) => `weights.${w}` as const),
      ...weightKeys.map((w) => `draw.${w}` as const),
      'knockoutDraw',
    ];
    for (const key of all.filter((name) => !only || only.some((prefix) => name.startsWith(prefix)))) {
      for (const factor of [1.3, 0.77]) {
        const candidate = structuredClone(settings);
        if (key === 'knockoutDraw') {
          candidate[key] += factor > 1 ? 0.05 : -0.05;
        } else if (key.startsWith('draw.')) {
          const w = key.slice(5) as (typeof weightKeys)[number];
          candidate.drawByClass[w] += factor > 1 ? 0.05 : -0.05;
        } else if (key.startsWith('weights.')) {
          const w = key.slice(8) as (typeof weightKeys)[number];
          candidate.weights[w] *= factor;
        } else {
          const k = key as (typeof keys)[number];
          candidate[k] = candidate[k] === 0 ? 0.01 : candidate[k] * factor;
        }
        const value = score(candidate);
        if (value < best - 1e-6) {
          best = value;
          settings = candidate;
          console.log(round, key, factor, best, best / eloRps);
          break;
        }
      }
    }
  }
  console.log(JSON.stringify(settings));
} else {
  const scored = results.filter((r) => r.date >= from && r.date <= to);
  const forecasts = {
    ours: ours(chosen, from, to),
    elo: eloForecasts,
    ...(process.argv.includes('--no-poisson') ? {} : { poisson: poisson(from, to) }),
  };
  const groups = groupsOf(scored, forecasts);
  const rows = [...groups]
    .sort((a, b) => (a[0] === 'pooled' ? -1 : b[0] === 'pooled' ? 1 : a[0] < b[0] ? -1 : 1))
    .map(([key, g]) => ({
      group: key,
      matches: g.n,
      rps: +(g.ours / g.n).toFixed(4),
      elo: +(g.elo / g.n).toFixed(4),
      vsElo: +(g.ours / g.elo).toFixed(3),
      poissonVsElo: forecasts.poisson ? +(g.poisson / g.elo).toFixed(3) : null,
    }));
  if (process.argv.includes('--json')) console.log(JSON.stringify({ logit, rows }, null, 2));
  else {
    console.log(
      `window ${argument('from') ?? '2014-01-01'} to ${argument('to') ?? '2021-12-31'}; Elo logit`,
      logit,
    );
    console.table(rows);
    console.log(`${((Date.now() - started) / 1000).toFixed(1)} s`);
  }
}
