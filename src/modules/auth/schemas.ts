// The sign-in routes' request and answer shapes; the OTP service takes their static types.
import { type Static, Type } from 'typebox';
import { otpChannels } from '../../lib/allowed-values.js';
import { PROOF_MAX_LENGTH } from './signup-challenge.js';

export const GenerateBody = Type.Object({
  phone: Type.String({
    maxLength: 32,
    description: 'E.164, e.g. +237690000000',
    examples: ['+237690000000'],
  }),
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'ISO 3166 alpha-2', examples: ['CM'] }),
  method: Type.Enum(otpChannels),
  proof: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: PROOF_MAX_LENGTH,
      description:
        'Only after a 428: the solved challenge, as the ALTCHA payload (base64 of {challenge, solution}); good once.',
    }),
  ),
});

/** The 428's `data.challenge`: an ALTCHA (v2) challenge, to be solved and sent back as `proof`. */
export const SignupChallenge = Type.Object(
  {
    parameters: Type.Object(
      {
        algorithm: Type.String({ examples: ['PBKDF2/SHA-256'] }),
        nonce: Type.String(),
        salt: Type.String(),
        cost: Type.Integer(),
        keyLength: Type.Integer(),
        keyPrefix: Type.String(),
        keySignature: Type.String(),
        data: Type.Object(
          { expires_at: Type.Integer(), phone: Type.String() },
          { additionalProperties: true },
        ),
      },
      { additionalProperties: true },
    ),
    signature: Type.String(),
  },
  { description: 'ALTCHA challenge (altcha-lib v2); its parameters must come back unchanged' },
);

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
