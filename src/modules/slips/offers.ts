// What a slip's leg may pick on an analysis: each market its result offers, with the picks and the
// probability it shows for each. Read from the stored result once and kept per process: the part a
// leg reads never changes after the analysis succeeds (the settlement only adds `settlement`), and
// parsing whole results (narration, data quality, every market) on each check was a quarter of its
// CPU (issue 57, decision 0168). Whether the caller may use the analysis is not kept: every check
// reads it again (owner, success, not deleted).
import { MARKET_PICKS } from '../../engine/slip.js';
import { type SlipMarket, slipMarkets } from '../../lib/allowed-values.js';

/** Each offered market's picks and the probability shown for each; null when the result has none. */
export type LegOffers = ReadonlyMap<SlipMarket, ReadonlyMap<string, number>> | null;

/** The probabilities `result` shows for `market`, or undefined when it does not offer it. */
function offered(result: Record<string, unknown>, market: SlipMarket): Record<string, unknown> | undefined {
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

/** The offers of a stored result (a market it offers with no pick shown as a number offers none). */
export function legOffersOf(result: Record<string, unknown> | null): LegOffers {
  if (typeof result !== 'object' || result === null) return null;
  const offers = new Map<SlipMarket, Map<string, number>>();
  for (const market of slipMarkets) {
    const probabilities = offered(result, market);
    if (!probabilities) continue;
    const picks = new Map<string, number>();
    for (const pick of picksOf(result, market)) {
      const shown = probabilities[pick];
      if (typeof shown === 'number') picks.set(pick, shown);
    }
    offers.set(market, picks);
  }
  return offers;
}

/**
 * Offers by analysis, the oldest used dropped first beyond `maxEntries`. An entry answers only for
 * the same finish time: ids are never reused, but a database restored from an older backup would
 * give an id to another analysis, and it would not finish at the same microsecond.
 */
export class LegOffersCache {
  readonly #entries = new Map<number, { finishedMs: number | null; offers: LegOffers }>();

  constructor(readonly maxEntries: number) {}

  get size(): number {
    return this.#entries.size;
  }

  get(id: number, finishedMs: number | null): LegOffers | undefined {
    const entry = this.#entries.get(id);
    if (!entry || entry.finishedMs !== finishedMs) return undefined;
    this.#entries.delete(id);
    this.#entries.set(id, entry);
    return entry.offers;
  }

  set(id: number, finishedMs: number | null, offers: LegOffers): void {
    if (this.maxEntries <= 0) return;
    this.#entries.delete(id);
    this.#entries.set(id, { finishedMs, offers });
    if (this.#entries.size > this.maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
  }
}
