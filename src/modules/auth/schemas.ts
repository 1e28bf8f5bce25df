// The sign-in routes' request and answer shapes; the OTP service takes their static types.
import { type Static, Type } from 'typebox';
import { otpChannels } from '../../lib/allowed-values.js';

export const GenerateBody = Type.Object({
  phone: Type.String({
    maxLength: 32,
    description: 'E.164, e.g. +237690000000',
    examples: ['+237690000000'],
  }),
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 alpha-2', examples: ['CM'] }),
  method: Type.Enum(otpChannels),
});

export const VerifyBody = Type.Object({
  phone: Type.String({ maxLength: 32, description: 'E.164', examples: ['+237690000000'] }),
  code: Type.String({ maxLength: 32, description: 'The 6 digits received', examples: ['123456'] }),
});

export const SignedInUser = Type.Object({
  id: Type.Integer(),
  phone: Type.String(),
  country: Type.String(),
  affiliation_code: Type.String(),
});

export type GenerateInput = Static<typeof GenerateBody>;
export type VerifyInput = Static<typeof VerifyBody>;
export type SignedInUser = Static<typeof SignedInUser>;
