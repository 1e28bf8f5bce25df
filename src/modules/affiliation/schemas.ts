// Request and response schemas of the affiliation: the spec's field names exactly (applying a code,
// the overview, a godchild). The withdrawals' are withdrawals/schemas.ts.
import { Type } from 'typebox';
import { Timestamp } from '../../schemas/common.js';

export const ApplyAffiliationBody = Type.Object(
  {
    affiliation_code: Type.String({
      minLength: 1,
      maxLength: 32,
      description: 'The godfather’s 8-character code; case and surrounding spaces do not matter',
    }),
  },
  { additionalProperties: false },
);

export const ApplyAffiliationData = Type.Object({
  godfather: Type.Object({ name: Type.String({ description: 'Name, else username, else masked phone' }) }),
});

export const OverviewData = Type.Object({
  wallet: Type.Object({
    balance: Type.Integer({ description: 'Withdrawable now, XAF' }),
    total_earned: Type.Integer({ description: 'Balance plus completed withdrawals, XAF' }),
  }),
  godchildren_count: Type.Integer({ description: 'Referred users whose account is active' }),
  withdraw_min: Type.Integer(),
});

export const GodchildSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String({ description: 'Name, else username, else the phone masked as +237******12' }),
  phone: Type.String({ description: 'E.164' }),
  avatar: Type.String({ description: 'A path starting with /' }),
  created_at: Timestamp,
});
