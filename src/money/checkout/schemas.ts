// The payment routes' request and answer shapes; the payments service takes their static types.
import { type Static, Type } from 'typebox';
import { paymentProviders, paymentStatuses } from '../../lib/allowed-values.js';
import { LiteralUnion, Timestamp } from '../../schemas/common.js';

export const ProviderName = Type.Enum(paymentProviders);

export const PaymentSchema = Type.Object({
  id: Type.Integer(),
  reference: Type.String(),
  status: LiteralUnion(paymentStatuses),
  amount: Type.Integer({ description: 'Whole XAF' }),
  currency: Type.Literal('XAF'),
  credits: Type.Integer(),
  pack_id: Type.Integer(),
  provider: ProviderName,
  payment_url: Type.Union([Type.String(), Type.Null()], {
    description: 'The provider’s hosted page, when it gives one',
  }),
  created_at: Timestamp,
});

export const CheckoutBody = Type.Object(
  {
    pack_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
    phone: Type.String({ minLength: 1, maxLength: 32, description: 'The payer’s Cameroon mobile number' }),
    operator: Type.Optional(
      Type.Object(
        {
          name: Type.String({ minLength: 1, maxLength: 64 }),
          icon: Type.Optional(Type.String({ maxLength: 512 })),
        },
        { additionalProperties: false, description: 'What the client showed; kept for display only' },
      ),
    ),
  },
  { additionalProperties: false },
);

export type CheckoutInput = Static<typeof CheckoutBody>;
