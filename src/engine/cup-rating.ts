// The European cups' forecaster: every club on one scale (issue 51, decision 0147). A club's
// strength in goals is its league's offset plus its own deviation inside the league:
//   - domestic matches move only the deviations (both sides are in the same league, so they say
//     nothing about the league's level), from the market's expected goal difference where the
//     match has odds (far less noisy than the score), else from the score;
//   - cup matches move the two clubs' deviations a little and the two leagues' offsets, pooled
//     over every club of a league: European results are what puts the leagues on one scale;
//   - a club from a league the data does not hold (Ukraine, Serbia…) belongs to its country's
//     group, whose offset starts from a low prior and learns from that country's cup results alone.
// The forecast of a cup match is a score matrix (the one the six pronostic types read) from the
// expected goal difference: a home term, none on neutral ground (a final, a single-match knockout).
// Online and one pass in date order: a forecast only ever reads matches of earlier days.
import { type ScoreMatrix, scoreMatrix } from './score-matrix.js';

export type Probabilities3 = [number, number, number];

export interface CupRatingSettings {
  /** Step of a club's deviation per goal of error, domestic match with the market's view. */
  kMarket: number;
  /** The same from the score alone (no odds). */
  kResult: number;
  /** Step of a club's deviation per goal of error in a cup match. */
  kCupClub: number;
  /** Step of a league's offset per goal of error in a cup match. */
  kLeague: number;
  /** Step of a club whose league the data lacks (its cup matches are all there is). */
  kCupOnly: number;
  /** Home advantage in goals: domestic (before each league learns its own) and in the cups. */
  homeDomestic: number;
  homeCup: number;
  /** Step of a league's own home advantage per goal of error. */
  kHome: number;
  /** Offset of a group the data holds no league of (goals below an average top league). */
  unknownLeaguePrior: number;
  /** Offset of a second, third… tier below its country's first (per tier). */
  tierStep: number;
  /** Goals of an even match: the rates are T/2·e^{±asinh(d/T)}, so λ − μ = d. */
  evenGoals: number;
  /** Dixon–Coles low-score correction. */
  rho: number;
  /** Scores further than this from the expectation count as this far (blow-outs say little more). */
  clip: number;
}

/**
 * The grid point `scripts/engine/cup-validate.ts` chose on the Champions League seasons 2004-05 to
 * 2019-20 (the same point every rolling-origin fold chose; docs/engine/cups.md).
 */
export const CUP_RATING_SETTINGS: CupRatingSettings = {
  kMarket: 0.03,
  kResult: 0.04,
  kCupClub: 0.03,
  kLeague: 0.03,
  kCupOnly: 0.08,
  homeDomestic: 0.35,
  homeCup: 0.5,
  kHome: 0.002,
  unknownLeaguePrior: -0.7,
  tierStep: 0.5,
  evenGoals: 2.6,
  rho: -0.05,
  clip: 3,
};

/** One match of the stream the rating reads, domestic or cup, in date order. */
export interface RatingMatch {
  /** Epoch ms of the match day. */
  date: number;
  home: string;
  away: string;
  /** Each side's group: a domestic league code (`E0`), or `country:UKR` for one the data lacks. */
  homeGroup: string;
  awayGroup: string;
  /** True for a European cup match (groups may differ), false for a domestic league match. */
  cup: boolean;
  neutral: boolean;
  /** The 90-minute score; null for a match not played (forecast only). */
  homeGoals: number | null;
  awayGoals: number | null;
  /** Margin-free 1X2 of the market, a past match's (an input once the match is history). */
  market: Probabilities3 | null;
  /** Forecast this match (before its result is read). */
  forecast: boolean;
}

export interface CupForecast {
  index: number;
  /** Expected goal difference, home minus away. */
  supremacy: number;
  matrix: ScoreMatrix;
  probabilities: Probabilities3;
  /** How each side is known: from its league's results (`league`), from cup results alone
   *  (`cups`: its league is not in the data), or not at all before this match (`new`). */
  homeBasis: RatingBasis;
  awayBasis: RatingBasis;
}

export type RatingBasis = 'league' | 'cups' | 'new';

interface Club {
  group: string;
  deviation: number;
  domestic: number;
  cup: number;
}

/** A group's starting offset: a country's first tier at 0, lower tiers below, unknown ones low. */
export function groupPrior(
  group: string,
  settings: CupRatingSettings,
  tierOf: (group: string) => number | null,
) {
  if (group.startsWith('country:')) return settings.unknownLeaguePrior;
  const tier = tierOf(group) ?? 1;
  return -(tier - 1) * settings.tierStep;
}

/** The rates of a match with expected goal difference d: λ − μ = d and λ·μ = (T/2)². */
export function ratesOf(supremacy: number, evenGoals: number): [number, number] {
  const half = evenGoals / 2;
  const shift = Math.asinh(supremacy / evenGoals);
  return [half * Math.exp(shift), half * Math.exp(-shift)];
}

export function oneXTwo(matrix: ScoreMatrix): Probabilities3 {
  const out: Probabilities3 = [0, 0, 0];
  for (let x = 0; x < matrix.size; x++) {
    for (let y = 0; y < matrix.size; y++) out[x > y ? 0 : x === y ? 1 : 2] += matrix.p[x * matrix.size + y]!;
  }
  return out;
}

/**
 * The expected goal difference a market's margin-free 1X2 says, read through the same rates
 * (a table of d → P(home) − P(away), inverted). The draw share is left to the score model.
 */
export function marketSupremacy(probabilities: Probabilities3, evenGoals: number): number {
  const table = supremacyTable(evenGoals);
  const target = probabilities[0] - probabilities[2];
  let low = 0;
  let high = table.length - 1;
  if (target <= table[0]!.edge) return table[0]!.d;
  if (target >= table[high]!.edge) return table[high]!.d;
  while (high - low > 1) {
    const mid = (low + high) >> 1;
    if (table[mid]!.edge < target) low = mid;
    else high = mid;
  }
  const a = table[low]!;
  const b = table[high]!;
  return a.d + ((target - a.edge) / (b.edge - a.edge)) * (b.d - a.d);
}

const tables = new Map<number, { d: number; edge: number }[]>();
function supremacyTable(evenGoals: number) {
  let table = tables.get(evenGoals);
  if (!table) {
    table = [];
    for (let d = -4; d <= 4.0001; d += 0.05) {
      const [lambda, mu] = ratesOf(d, evenGoals);
      const p = oneXTwo(scoreMatrix(lambda, mu, 0));
      table.push({ d, edge: p[0] - p[2] });
    }
    tables.set(evenGoals, table);
  }
  return table;
}

/**
 * Reads the stream in order (it must be sorted by date) and forecasts every match marked
 * `forecast` from the ratings as they stand before that match's day: matches of the same day never
 * inform each other. `tierOf` gives a league's tier (1 for a top division) for its starting offset.
 */
export function rateCupMatches(
  matches: readonly RatingMatch[],
  settings: CupRatingSettings = CUP_RATING_SETTINGS,
  tierOf: (group: string) => number | null = () => 1,
): CupForecast[] {
  const clubs = new Map<string, Club>();
  const offsets = new Map<string, number>();
  const homeTerms = new Map<string, number>();
  const forecasts: CupForecast[] = [];
  const pending: { match: RatingMatch }[] = [];
  let day = Number.NEGATIVE_INFINITY;

  const offset = (group: string) => {
    let value = offsets.get(group);
    if (value === undefined) {
      value = groupPrior(group, settings, tierOf);
      offsets.set(group, value);
    }
    return value;
  };
  const clubOf = (name: string, group: string, cup: boolean): Club => {
    let club = clubs.get(name);
    if (!club) {
      club = { group, deviation: 0, domestic: 0, cup: 0 };
      clubs.set(name, club);
    } else if (!cup && club.group !== group) {
      // A promoted, relegated or newly covered club keeps its strength on the common scale.
      club.deviation += offset(club.group) - offset(group);
      club.group = group;
    }
    return club;
  };
  const strength = (club: Club) => offset(club.group) + club.deviation;
  const basis = (name: string): RatingBasis => {
    const club = clubs.get(name);
    if (!club || club.domestic + club.cup === 0) return 'new';
    return club.domestic > 0 ? 'league' : 'cups';
  };

  const learn = (match: RatingMatch) => {
    if (match.homeGoals === null || match.awayGoals === null) return;
    const home = clubOf(match.home, match.homeGroup, match.cup);
    const away = clubOf(match.away, match.awayGroup, match.cup);
    const homeTerm = match.neutral
      ? 0
      : match.cup
        ? settings.homeCup
        : (homeTerms.get(home.group) ?? settings.homeDomestic);
    const expected = homeTerm + strength(home) - strength(away);
    const clip = (value: number) =>
      Math.max(Math.min(value, expected + settings.clip), expected - settings.clip);
    if (!match.cup) {
      const observed = match.market
        ? marketSupremacy(match.market, settings.evenGoals)
        : clip(match.homeGoals - match.awayGoals);
      const error = observed - expected;
      const step = match.market ? settings.kMarket : settings.kResult;
      home.deviation += step * error;
      away.deviation -= step * error;
      if (!match.neutral) homeTerms.set(home.group, homeTerm + settings.kHome * error);
      home.domestic++;
      away.domestic++;
      return;
    }
    const error = clip(match.homeGoals - match.awayGoals) - expected;
    home.deviation += (home.domestic > 0 ? settings.kCupClub : settings.kCupOnly) * error;
    away.deviation -= (away.domestic > 0 ? settings.kCupClub : settings.kCupOnly) * error;
    if (home.group !== away.group) {
      offsets.set(home.group, offset(home.group) + settings.kLeague * error);
      offsets.set(away.group, offset(away.group) - settings.kLeague * error);
    }
    home.cup++;
    away.cup++;
  };

  matches.forEach((match, index) => {
    if (match.date !== day) {
      for (const waiting of pending) learn(waiting.match);
      pending.length = 0;
      day = match.date;
    }
    if (match.forecast) {
      const home = clubs.get(match.home) ?? { group: match.homeGroup, deviation: 0, domestic: 0, cup: 0 };
      const away = clubs.get(match.away) ?? { group: match.awayGroup, deviation: 0, domestic: 0, cup: 0 };
      const homeTerm = match.neutral
        ? 0
        : match.cup
          ? settings.homeCup
          : (homeTerms.get(home.group) ?? settings.homeDomestic);
      const supremacy = homeTerm + strength(home) - strength(away);
      const [lambda, mu] = ratesOf(supremacy, settings.evenGoals);
      const matrix = scoreMatrix(lambda, mu, settings.rho);
      forecasts.push({
        index,
        supremacy,
        matrix,
        probabilities: oneXTwo(matrix),
        homeBasis: basis(match.home),
        awayBasis: basis(match.away),
      });
    }
    pending.push({ match });
  });
  return forecasts;
}

/** A second leg's situation: how far this match's home side leads on the first leg's score. */
export interface FirstLeg {
  /** Goals this match's home side scored in the first leg (played away), and the away side's. */
  homeGoals: number;
  awayGoals: number;
}

/** The state-dependent term of a second leg (decision 0161): kept at zero unless it validates. */
export interface SecondLegSettings {
  /** Goals added to the match's expected total per goal of first-leg margin (capped at 3). */
  openGoals: number;
  /** Goals of expected difference given to the side behind, per goal of margin (capped at 3). */
  chase: number;
}

/** What the validation on the Champions League second legs chose (docs/engine/cups.md). */
export const SECOND_LEG_SETTINGS: SecondLegSettings = { openGoals: 0, chase: 0 };

/**
 * A second leg's expected goals from the rating's expected difference and the first leg's score:
 * the side behind on aggregate attacks (the difference moves towards it by `chase` per goal of
 * margin) and the match opens (`openGoals` more expected goals per goal of margin). With both at
 * zero, the rating's own rates.
 */
export function secondLegRates(
  supremacy: number,
  firstLeg: FirstLeg,
  settings: SecondLegSettings,
  evenGoals: number,
): [number, number] {
  const lead = Math.max(-3, Math.min(3, firstLeg.homeGoals - firstLeg.awayGoals));
  const d = supremacy - settings.chase * lead;
  const total = evenGoals + settings.openGoals * Math.abs(lead);
  return ratesOf(d, total);
}
