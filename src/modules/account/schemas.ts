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

/** Responsible play's pause (issue 54): the code sent as a deletion's, and how many days. */
export const SelfExclusionBody = Type.Object({
  code: Type.String({
    maxLength: 32,
    description: 'The 6 digits of the self-exclusion code',
    examples: ['123456'],
  }),
  days: Type.Integer({
    minimum: 1,
    maximum: 1825,
    description: '1 day to 5 years; only ever lengthens a pause',
  }),
});

export const SelfExclusionData = Type.Object({
  until: Type.String({ description: 'When the pause ends (ISO 8601); nothing restarts by itself then' }),
});

export type SelfExclusionInput = Static<typeof SelfExclusionBody>;
