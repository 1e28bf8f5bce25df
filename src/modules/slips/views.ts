// How a slip is shown: a leg's figures, the slip's (rounded from the unrounded values), and a
// saved slip with its status, as the check, the save, the list and the `slip.settled` event show it.
import type { Static } from 'typebox';
import type { SlipLegRow, SlipRow } from '../../db/schema/slips.js';
import { slipFigures, type Verdict } from '../../engine/slip.js';
import { slipTexts } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import type { CheckedSlip, SavedSlip } from './schemas.js';

type Checked = Static<typeof CheckedSlip>;
type Saved = Static<typeof SavedSlip>;

const significant = (value: number) => Number(value.toPrecision(6));
const round = (value: number, decimals: number) => Math.round(value * 10 ** decimals) / 10 ** decimals;

export function legView(leg: {
  pronosticId: number;
  market: string;
  pick: string;
  odds: number;
  probability: number;
}) {
  return {
    pronostic_id: leg.pronosticId,
    market: leg.market as Checked['legs'][number]['market'],
    pick: leg.pick,
    probability: leg.probability,
    odds: leg.odds,
    implied_probability: significant(1 / leg.odds),
    edge: round(leg.probability * leg.odds - 1, 4),
  };
}

export function figuresView(figures: {
  probability: number;
  odds: number;
  stake: number;
  expectedReturn: number;
  verdict: Verdict;
}) {
  return {
    probability: significant(figures.probability),
    odds: round(figures.odds, 2),
    fair_odds: figures.probability > 0 ? round(1 / figures.probability, 2) : null,
    stake: figures.stake,
    expected_return: figures.expectedReturn,
    expected_gain: figures.expectedReturn - figures.stake,
    verdict: figures.verdict,
    verdict_text: slipTexts.verdict[figures.verdict](figures.expectedReturn, figures.stake),
  };
}

/** A saved slip as the API shows it, from its row and legs. */
export function slipView(row: SlipRow, legs: readonly SlipLegRow[]): Saved {
  // The verdict as it was checked: the stored unrounded figures, the same rule.
  const { verdict } = slipFigures([row.probability], [row.odds], row.stake);
  return {
    id: row.id,
    status: row.status,
    legs: legs.map((leg) => ({ ...legView(leg), outcome: leg.outcome })),
    ...figuresView({ ...row, verdict }),
    returned: row.returned,
    settled_at: row.settledAt === null ? null : isoTimestamp(row.settledAt),
    created_at: isoTimestamp(row.createdAt),
  };
}
