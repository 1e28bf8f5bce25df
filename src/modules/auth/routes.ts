// Sign-in: one-time codes by SMS or WhatsApp exchanged for a bearer token, and logout.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope, envelopeWithoutErrors } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import {
  authErrors,
  EmptyArray,
  Envelope,
  EnvelopeWithoutErrors,
  ErrorEnvelope,
  UserId,
} from '../../schemas/common.js';
import { GenerateBody, SignedInUser, SignupChallenge, VerifyBody } from './schemas.js';

/** Answers other than 422 on these routes have no `errors` key (spec); the error handler drops it. */
const otpErrors = { 413: ErrorEnvelope, 415: ErrorEnvelope, 422: ErrorEnvelope, 429: ErrorEnvelope } as const;

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { otp, tokens } = app.services;

  app.post(
    '/api/otp/generate',
    {
      config: { omitErrors: true },
      schema: {
        tags: ['auth'],
        summary: 'Envoyer un code de connexion par SMS ou WhatsApp',
        description:
          'Crée le compte au premier appel pour ce numéro. Hors pression, la réponse est la même pour un numéro connu ou nouveau. ' +
          'Quand le budget SMS est sous pression, un numéro qui n’a jamais validé de code reçoit un 428 avec ' +
          '`data.challenge` (défi ALTCHA) : le résoudre et renvoyer la même requête avec `proof`. Un réseau qui a ' +
          'demandé des codes pour de nombreux numéros dans l’heure le reçoit pour chaque numéro, connu ou non : ' +
          'ses réponses ne disent pas qui a un compte.',
        body: GenerateBody,
        response: {
          200: EnvelopeWithoutErrors(Type.Object({ phone: Type.String() }), Type.Null()),
          ...otpErrors,
          // Decision 0104: a new number while the SMS budget is under pressure; no code was sent.
          428: EnvelopeWithoutErrors(Type.Object({ challenge: SignupChallenge }), Type.Null()),
          500: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const { phone } = await otp.generate(request.body, {
        ip: request.ip,
        log: request.log,
        askedLocale: request.askedLocale,
      });
      return envelopeWithoutErrors({ message: messages.otpSent, data: { phone } });
    },
  );

  app.post(
    '/api/otp/verify',
    {
      config: {
        omitErrors: true,
        // Per client network, in @fastify/rate-limit's store (Redis when REDIS_URL, so shared by every
        // API process) rather than the database: tries on phones that have no code leave no row to
        // count, and a write per guess would let a guesser decide our write load. Lifted by
        // RATE_LIMIT=off; the per-code attempt limits are in the service.
        rateLimit: { max: 30, timeWindow: 600_000 },
      },
      schema: {
        tags: ['auth'],
        summary: 'Échanger le code reçu contre un jeton',
        body: VerifyBody,
        response: {
          200: EnvelopeWithoutErrors(Type.Object({ token: Type.String() }), SignedInUser),
          400: ErrorEnvelope,
          ...otpErrors,
          500: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const { user, token } = await otp.verify(request.body, {
        ip: request.ip,
        askedLocale: request.askedLocale,
      });
      return { user, message: messages.otpVerified, data: { token } };
    },
  );

  app.post(
    '/api/user/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Révoquer le jeton courant',
        security: [{ bearer: [] }],
        response: { 200: Envelope(EmptyArray, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await tokens.logout(user);
      return envelope({ user: { id: user.id }, message: messages.loggedOut });
    },
  );
};

export default authRoutes;
