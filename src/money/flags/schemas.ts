// Schemas of the back office's flag routes: the flag as it answers, the list's query, the resolution;
// the flags service takes their static types.
import { type Static, Type } from 'typebox';
import { flagKinds, flagStatuses, flagTargetTypes } from '../../lib/allowed-values.js';
import { PageQuery, Timestamp } from '../../schemas/common.js';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const FlagSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.Enum(flagKinds),
  target_type: Type.Enum(flagTargetTypes),
  target_id: Type.Integer(),
  details: Type.Record(Type.String(), Type.Unknown(), {
    description: 'What the provider said against our books (status, amount, currency…)',
  }),
  status: Type.Enum(flagStatuses),
  note: Nullable(Type.String()),
  resolved_by: Type.Union([Type.Integer(), Type.Null()]),
  resolved_at: Nullable(Timestamp),
  created_at: Timestamp,
});

export const FlagsQuery = Type.Object(
  {
    status: Type.Optional(Type.Enum(flagStatuses)),
    kind: Type.Optional(Type.Enum(flagKinds)),
    target_type: Type.Optional(Type.Enum(flagTargetTypes)),
    ...PageQuery,
  },
  { additionalProperties: false },
);

export const ResolveFlagBody = Type.Object(
  {
    message: Type.String({ minLength: 3, maxLength: 500, description: 'What the admin found and did' }),
    credit: Type.Optional(
      Type.Boolean({
        description:
          'late_complete payment flags only: credit the payment’s credits once (ledger reference payment:<id>:late)',
      }),
    ),
  },
  { additionalProperties: false },
);

export type FlagsQuery = Static<typeof FlagsQuery>;
export type ResolveFlagInput = Static<typeof ResolveFlagBody>;
