// What a slip's leg may pick on an analysis: each market its result offers, with the picks and the
// probability it shows for each. Read from the stored result once and kept per process: the part a
// leg reads never changes after the analysis succeeds (the settlement only adds `settlement`), and
// parsing whole results (narration, data quality, every market) on each check was about a sixth of
// its CPU (issue 57, decision 0168). Whether the caller may use the analysis is not kept: every check
// reads it again (owner, success, not deleted).
import { MARKET_PICKS } from '../../engine/slip.js';
import { type SlipMarket, slipMarkets } from '../../lib/allowed-values.js';

/** The probabilities `result` shows for `market`, or undefined when it does not offer it. */
function offeredBy(result: Record<string, unknown>, market: SlipMarket): Record<string, unknown> | undefined {
  if (typeof result.probabilities !== 'object' || result.probabilities === null) return undefined;
  const probabilities = result.probabilities as Record<string, unknown>;
  if (result.market === market) return probabilities;
  if (result.market !== 'full_analysis') return undefined;
  if (market === '1x2') return probabilities;
  const markets = probabilities.markets as
    | Record<string, { probabilities?: Record<string, unknown> }>
    | undefined;
  return markets?.[market]?.probabilities;
}

/** The picks `market` offers on `result`: an exact score's are its five listed scores. */
function picksOf(result: Record<string, unknown>, market: SlipMarket): readonly string[] {
  if (market !== 'exact_score') return MARKET_PICKS[market];
  const scores = Array.isArray(result.scores) ? (result.scores as Array<{ score?: unknown }>) : [];
  return scores.map((entry) => entry.score).filter((score): score is string => typeof score === 'string');
}

type FixedMarket = keyof typeof MARKET_PICKS;
const FIXED_MARKETS = Object.keys(MARKET_PICKS) as FixedMarket[];
/** Each fixed market's first probability's place in `LegOffers`; the exact score's come after. */
const FIRST_OF = new Map<SlipMarket, number>();
let fixedPicks = 0;
for (const market of FIXED_MARKETS) {
  FIRST_OF.set(market, fixedPicks);
  fixedPicks += MARKET_PICKS[market].length;
}
const bit = (market: SlipMarket) => 1 << slipMarkets.indexOf(market);
const numberOr = (value: unknown) => (typeof value === 'number' ? value : Number.NaN);

/**
 * Each market an analysis offers and the probability it shows for each pick, in a few hundred
 * bytes (a process keeps thousands): the fixed markets' probabilities at their places, the exact
 * score's after them in the order of its listed scores; NaN where a pick shows no number.
 */
export class LegOffers {
  private constructor(
    /** Bit i set: `slipMarkets[i]` offered. */
    private readonly offered: number,
    private readonly shown: readonly number[],
    /** The exact score's picks: the analysis's listed scores. */
    private readonly scores: readonly string[],
  ) {}

  /** What a stored result offers; null without a result (a market with no number shown offers no pick). */
  static of(result: Record<string, unknown> | null): LegOffers | null {
    if (typeof result !== 'object' || result === null) return null;
    const scores = picksOf(result, 'exact_score');
    const shown = new Array<number>(fixedPicks + scores.length).fill(Number.NaN);
    let offered = 0;
    for (const market of slipMarkets) {
      const probabilities = offeredBy(result, market);
      if (!probabilities) continue;
      offered |= bit(market);
      const first = FIRST_OF.get(market) ?? fixedPicks;
      picksOf(result, market).forEach((pick, k) => {
        shown[first + k] = numberOr(probabilities[pick]);
      });
    }
    return new LegOffers(offered, shown, scores);
  }

  offers(market: SlipMarket): boolean {
    return (this.offered & bit(market)) !== 0;
  }

  /** The probability shown for `pick` on `market`; undefined when not offered or no number is shown. */
  probability(market: SlipMarket, pick: string): number | undefined {
    if (!this.offers(market)) return undefined;
    const first = FIRST_OF.get(market);
    const k =
      first === undefined
        ? this.scores.indexOf(pick)
        : MARKET_PICKS[market as FixedMarket].indexOf(pick as never);
    if (k < 0) return undefined;
    const shown = this.shown[(first ?? fixedPicks) + k]!;
    return Number.isNaN(shown) ? undefined : shown;
  }
}

/**
 * Offers by analysis, the oldest used dropped first beyond `maxEntries`. An entry answers only for
 * the same finish time: ids are never reused, but a database restored from an older backup would
 * give an id to another analysis, and it would not finish at the same microsecond.
 */
export class LegOffersCache {
  readonly #entries = new Map<number, { finishedMs: number | null; offers: LegOffers | null }>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(id: number, finishedMs: number | null): LegOffers | null | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.finishedMs !== finishedMs) return undefined;
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry.offers;
  }

  set(id: number, finishedMs: number | null, offers: LegOffers | null): void {
    if (this.maxEntries <= 0) return;
    this.#entries.delete(id);
    this.#entries.set(id, { finishedMs, offers });
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }
}
