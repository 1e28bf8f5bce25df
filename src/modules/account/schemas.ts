// Request shapes of the account's own routes (issue 30): the deletion's confirmation code and the
// deletion itself.
import { type Static, Type } from 'typebox';
import { otpChannels } from '../../lib/allowed-values.js';

export const DeletionCodeBody = Type.Object({
  method: Type.Optional(Type.Enum(otpChannels, { description: 'How the code is sent; sms by default' })),
});

export const DeleteAccountBody = Type.Object({
  code: Type.String({
    maxLength: 32,
    description: 'The 6 digits of the deletion code',
    examples: ['123456'],
  }),
  forfeit_balance: Type.Optional(
    Type.Boolean({
      description:
        'true to give up a remaining money (XAF) balance; without it, a balance refuses the deletion (409)',
    }),
  ),
});

export type DeletionCodeInput = Static<typeof DeletionCodeBody>;
export type DeleteAccountInput = Static<typeof DeleteAccountBody>;
