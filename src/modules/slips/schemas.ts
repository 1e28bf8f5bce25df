// Request and response schemas of the slip endpoints (DESIGN "Slips", its field names exactly).
import { Type } from 'typebox';
import { slipMarkets, slipStatuses } from '../../lib/allowed-values.js';
import { PageMetaSchema, PageQuery, Timestamp } from '../../schemas/common.js';

export const MAX_LEGS = 20;
export const STAKE_MIN = 100;
export const STAKE_MAX = 10_000_000;
export const STAKE_DEFAULT = 1000;

const Leg = Type.Object({
  pronostic_id: Type.Integer({
    minimum: 1,
    maximum: 2_147_483_647,
    description: 'One of your own successful pronostics',
  }),
  market: Type.Enum(slipMarkets, {
    description: 'A market its result offers (a full analysis offers them all)',
  }),
  pick: Type.String({
    minLength: 1,
    maxLength: 12,
    description: 'One of the market’s picks; for exact_score, one of the analysis’s five listed scores',
  }),
  odds: Type.Number({ minimum: 1.01, maximum: 1000, description: 'Decimal odds, at most two decimals' }),
});

export const SlipBody = Type.Object({
  legs: Type.Array(Leg, { minItems: 1, maxItems: MAX_LEGS }),
  stake: Type.Optional(
    Type.Integer({
      minimum: STAKE_MIN,
      maximum: STAKE_MAX,
      description: `Whole XAF (default ${STAKE_DEFAULT})`,
    }),
  ),
});

const CheckedLeg = Type.Object({
  pronostic_id: Type.Integer(),
  market: Type.Enum(slipMarkets),
  pick: Type.String(),
  probability: Type.Number({ description: 'Ours, as the analysis’s result shows it' }),
  odds: Type.Number(),
  implied_probability: Type.Number({ description: '1 / odds' }),
  edge: Type.Number({ description: 'probability × odds − 1' }),
});

const slipFields = {
  probability: Type.Number({
    description: 'Legs of different matches multiply; legs of one match are summed from its score matrix',
  }),
  odds: Type.Number({ description: 'The product of the legs’ odds' }),
  fair_odds: Type.Union([Type.Number(), Type.Null()], { description: '1 / probability' }),
  stake: Type.Integer(),
  expected_return: Type.Number({ description: 'stake × probability × odds, whole XAF (half up)' }),
  expected_gain: Type.Number({ description: 'expected_return − stake' }),
  verdict: Type.Enum(['value', 'fair', 'negative'] as const, {
    description: 'value: expected gain above 2 % of the stake; fair: within ±2 %; negative: below',
  }),
  verdict_text: Type.String({ description: 'The verdict in words, in the request’s language' }),
};

export const CheckedSlip = Type.Object({ legs: Type.Array(CheckedLeg), ...slipFields });

export const SavedSlip = Type.Object({
  id: Type.Integer(),
  status: Type.Enum(slipStatuses),
  legs: Type.Array(
    Type.Object({
      ...CheckedLeg.properties,
      outcome: Type.Union([Type.Enum(['won', 'lost', 'void'] as const), Type.Null()], {
        description: 'Null until the slip settles',
      }),
    }),
  ),
  ...slipFields,
  returned: Type.Union([Type.Number(), Type.Null()], { description: 'What came back (XAF) once settled' }),
  settled_at: Type.Union([Timestamp, Type.Null()]),
  created_at: Timestamp,
});

export const ListQuery = Type.Object({ status: Type.Optional(Type.Enum(slipStatuses)), ...PageQuery });

export const ListData = Type.Object({ slips: Type.Array(SavedSlip), meta: PageMetaSchema });

export const SummarySchema = Type.Object({
  settled: Type.Integer(),
  won: Type.Integer(),
  staked: Type.Number({ description: 'XAF' }),
  returned: Type.Number({ description: 'XAF' }),
  expected_return: Type.Number({ description: 'What the probabilities said would come back (XAF)' }),
});
