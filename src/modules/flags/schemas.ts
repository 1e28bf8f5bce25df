// Request schemas of the back office's flag routes; the flags service takes their static types.
import { type Static, Type } from 'typebox';
import { flagKinds, flagStatuses, flagTargetTypes } from '../../lib/allowed-values.js';
import { PageQuery } from '../../schemas/common.js';

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
