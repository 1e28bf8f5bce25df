// The track record in money (issue 53, DESIGN "Slips", decision 0129): every settled analysis whose
// pick has stored pre-match odds (a 1X2 pick, a full analysis's included, or an over/under 2.5 pick)
// is one flat 1,000 XAF bet at the market average's odds stored with it (Pinnacle's where the
// average is missing), beside the same bet on the bookmaker's favourite of that market. Per market
// and per month: bets, staked, returned, ROI and its 95 % interval (mean return ± 1.96 standard
// errors). Every settled analysis since the first counts; a void one is no bet (its stake comes back).
import type { FixtureOddsRow } from '../../db/schema/fixtures.js';
import { slipMarkets } from '../../lib/allowed-values.js';

export const FLAT_STAKE = 1000;

export interface ReturnFigures {
  bets: number;
  staked: number;
  returned: number;
  roi: number | null;
  roi_low: number | null;
  roi_high: number | null;
}

export interface ReturnsRecord {
  stake: number;
  /** Every market a slip names; those without stored odds show `bets: 0`. */
  markets: Array<{ market: string; analyses: ReturnFigures; favourite: ReturnFigures }>;
  months: Array<{ month: string; analyses: ReturnFigures; favourite: ReturnFigures }>;
  all: { analyses: ReturnFigures; favourite: ReturnFigures };
}

/** A settled analysis with stored odds, as the returns need it. */
export interface PricedRow {
  slug: string;
  pick: string | null;
  won: boolean;
  /** `yyyy-mm`. */
  month: string;
  oddsId: number;
  matchId: number | null;
}

class Accumulator {
  bets = 0;
  returned = 0;
  /** Sum of the squared per-bet returns in stakes (for the standard error). */
  squares = 0;

  add(odds: number, won: boolean): void {
    const back = won ? Math.round(FLAT_STAKE * odds) : 0;
    this.bets += 1;
    this.returned += back;
    this.squares += (back / FLAT_STAKE) ** 2;
  }

  figures(): ReturnFigures {
    const n = this.bets;
    const staked = n * FLAT_STAKE;
    if (n === 0) return { bets: 0, staked: 0, returned: 0, roi: null, roi_low: null, roi_high: null };
    const mean = this.returned / staked;
    const variance = n > 1 ? Math.max(0, (this.squares - n * mean * mean) / (n - 1)) : Number.NaN;
    const margin = 1.96 * Math.sqrt(variance / n);
    const round4 = (value: number) => Math.round(value * 10_000) / 10_000;
    return {
      bets: n,
      staked,
      returned: this.returned,
      roi: round4(mean - 1),
      roi_low: Number.isFinite(margin) ? round4(mean - 1 - margin) : null,
      roi_high: Number.isFinite(margin) ? round4(mean - 1 + margin) : null,
    };
  }
}

const price = (average: number | null, pinnacle: number | null) =>
  average !== null && average > 1 ? average : pinnacle !== null && pinnacle > 1 ? pinnacle : null;

type Bet = {
  market: '1x2' | 'over_under_2_5';
  pickOdds: number | null;
  pickWon: boolean;
  favourite: Bet2 | null;
};
type Bet2 = { odds: number; won: boolean };

/** The bet an analysis makes and the favourite's beside it; null when its pick has no stored odds. */
export function betOf(
  row: PricedRow,
  odds: FixtureOddsRow,
  score: { home: number; away: number } | undefined,
): Bet | null {
  if (row.slug === '1x2' || row.slug === 'full-analysis') {
    const triple = {
      home: price(odds.averageHome, odds.pinnacleHome),
      draw: price(odds.averageDraw, odds.pinnacleDraw),
      away: price(odds.averageAway, odds.pinnacleAway),
    };
    const pickOdds = triple[row.pick as keyof typeof triple];
    if (pickOdds === undefined || pickOdds === null) return null;
    const actual = score
      ? score.home > score.away
        ? 'home'
        : score.home === score.away
          ? 'draw'
          : 'away'
      : null;
    const entries = Object.entries(triple).filter((entry): entry is [string, number] => entry[1] !== null);
    const favourite =
      entries.length === 3 && actual
        ? entries.reduce((best, entry) => (entry[1] < best[1] ? entry : best))
        : null;
    return {
      market: '1x2',
      pickOdds,
      pickWon: row.won,
      favourite: favourite ? { odds: favourite[1], won: favourite[0] === actual } : null,
    };
  }
  if (row.slug === 'over-under-2-5') {
    const over = price(odds.overUnderAverageOver, odds.overUnderPinnacleOver);
    const under = price(odds.overUnderAverageUnder, odds.overUnderPinnacleUnder);
    const pickOdds = row.pick === 'over' ? over : row.pick === 'under' ? under : null;
    if (pickOdds === null) return null;
    const goals = score ? score.home + score.away : null;
    const favourite =
      over !== null && under !== null && goals !== null
        ? over < under
          ? { odds: over, won: goals > 2.5 }
          : { odds: under, won: goals < 2.5 }
        : null;
    return { market: 'over_under_2_5', pickOdds, pickWon: row.won, favourite };
  }
  return null;
}

/** The returns over every priced row (the odds and the matches' scores looked up by the caller). */
export function returnsOf(
  rows: readonly PricedRow[],
  odds: ReadonlyMap<number, FixtureOddsRow>,
  scores: ReadonlyMap<number, { home: number; away: number }>,
): ReturnsRecord {
  const pair = () => ({ analyses: new Accumulator(), favourite: new Accumulator() });
  const markets = new Map(slipMarkets.map((market) => [market as string, pair()]));
  const months = new Map<string, ReturnType<typeof pair>>();
  const all = pair();
  for (const row of rows) {
    const stored = odds.get(row.oddsId);
    const bet = stored
      ? betOf(row, stored, row.matchId === null ? undefined : scores.get(row.matchId))
      : null;
    if (!bet?.pickOdds) continue;
    if (!months.has(row.month)) months.set(row.month, pair());
    for (const target of [markets.get(bet.market)!, months.get(row.month)!, all]) {
      target.analyses.add(bet.pickOdds, bet.pickWon);
      if (bet.favourite) target.favourite.add(bet.favourite.odds, bet.favourite.won);
    }
  }
  const shown = (accs: ReturnType<typeof pair>) => ({
    analyses: accs.analyses.figures(),
    favourite: accs.favourite.figures(),
  });
  return {
    stake: FLAT_STAKE,
    markets: [...markets.entries()].map(([market, accs]) => ({ market, ...shown(accs) })),
    months: [...months.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([month, accs]) => ({ month, ...shown(accs) })),
    all: shown(all),
  };
}
