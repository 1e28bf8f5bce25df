// A league's matches as a few typed arrays, for the fit thread: a structured clone of thousands of
// match objects (with their nested odds) costs tens of milliseconds on the sending thread, the
// API's event loop; typed arrays are transferred without a copy and strings go once each.
import type { PlayedMatch } from '../../engine/types.js';

/** Numbers per match, in this order; NaN for a value the match lacks. */
const NUMBERS = 20;

export interface PackedMatches {
  count: number;
  numbers: Float64Array;
  /** Per match: home, away and season, as indices into `strings` (−1: no season). */
  names: Int32Array;
  strings: string[];
}

const orNaN = (value: number | null | undefined) => (typeof value === 'number' ? value : Number.NaN);
const orNull = (value: number) => (Number.isNaN(value) ? null : value);

export function packMatches(matches: readonly PlayedMatch[]): PackedMatches {
  const numbers = new Float64Array(matches.length * NUMBERS);
  const names = new Int32Array(matches.length * 3);
  const strings: string[] = [];
  const index = new Map<string, number>();
  const name = (text: string) => {
    let found = index.get(text);
    if (found === undefined) {
      found = strings.length;
      strings.push(text);
      index.set(text, found);
    }
    return found;
  };
  matches.forEach((match, m) => {
    const market = match.market;
    const row = [
      match.date,
      match.homeGoals,
      match.awayGoals,
      orNaN(match.homeShotsOnTarget),
      orNaN(match.awayShotsOnTarget),
      orNaN(match.homeShots),
      orNaN(match.awayShots),
      orNaN(match.homeCorners),
      orNaN(match.awayCorners),
      market === undefined ? 0 : market === null ? 1 : 2,
      ...(market?.oneXTwo ?? [Number.NaN, Number.NaN, Number.NaN]),
      ...(market?.overUnder ?? [Number.NaN, Number.NaN]),
      orNaN(market?.asianHandicap?.line),
      orNaN(market?.asianHandicap?.home),
      ...(market?.prematchOneXTwo ?? [Number.NaN, Number.NaN, Number.NaN]),
    ];
    numbers.set(row, m * NUMBERS);
    names[m * 3] = name(match.home);
    names[m * 3 + 1] = name(match.away);
    names[m * 3 + 2] = match.season ? name(match.season) : -1;
  });
  return { count: matches.length, numbers, names, strings };
}

export function unpackMatches({ count, numbers, names, strings }: PackedMatches): PlayedMatch[] {
  const matches: PlayedMatch[] = [];
  for (let m = 0; m < count; m++) {
    const n = (k: number) => numbers[m * NUMBERS + k]!;
    const season = names[m * 3 + 2]!;
    const match: PlayedMatch = {
      date: n(0),
      home: strings[names[m * 3]!]!,
      away: strings[names[m * 3 + 1]!]!,
      homeGoals: n(1),
      awayGoals: n(2),
      homeShotsOnTarget: orNull(n(3)),
      awayShotsOnTarget: orNull(n(4)),
      homeShots: orNull(n(5)),
      awayShots: orNull(n(6)),
      homeCorners: orNull(n(7)),
      awayCorners: orNull(n(8)),
      ...(season >= 0 ? { season: strings[season]! } : {}),
    };
    const kind = n(9);
    if (kind === 1) match.market = null;
    if (kind === 2) {
      const triple = (k: number) =>
        Number.isNaN(n(k)) ? null : ([n(k), n(k + 1), n(k + 2)] as [number, number, number]);
      match.market = {
        oneXTwo: triple(10),
        overUnder: Number.isNaN(n(13)) ? null : [n(13), n(14)],
        asianHandicap: Number.isNaN(n(15)) ? null : { line: n(15), home: n(16) },
        prematchOneXTwo: triple(17),
      };
    }
    matches.push(match);
  }
  return matches;
}
