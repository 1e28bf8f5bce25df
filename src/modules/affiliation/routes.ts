// The referral programme's routes: applying a code (under /api/user/profile, but the affiliation's),
// the affiliation wallet's overview and the godchildren. Withdrawing that money is money's (src/money/cash-out/routes.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, UserId } from '../../schemas/common.js';
import { ApplyAffiliationBody, ApplyAffiliationData, GodchildSchema, OverviewData } from './schemas.js';

const affiliationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { affiliation } = app.services;

  app.post(
    '/api/user/profile/apply-affiliation',
    {
      schema: {
        tags: ['affiliation'],
        summary: 'Appliquer le code de parrainage d’un parrain (une seule fois)',
        security: [{ bearer: [] }],
        body: ApplyAffiliationBody,
        response: { 200: Envelope(ApplyAffiliationData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const godfather = await affiliation.applyCode(user, request.body.affiliation_code);
      return envelope({ user: { id: user.id }, message: messages.affiliationApplied, data: { godfather } });
    },
  );

  app.get(
    '/api/user/affiliation/overview',
    {
      schema: {
        tags: ['affiliation'],
        summary: 'Portefeuille de parrainage : solde, total gagné, filleuls actifs, retrait minimum',
        security: [{ bearer: [] }],
        response: { 200: Envelope(OverviewData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.affiliationOverview,
        data: await affiliation.overview(user),
      });
    },
  );

  app.get(
    '/api/user/affiliation/godchildren',
    {
      schema: {
        tags: ['affiliation'],
        summary: 'Mes filleuls actifs (liste non paginée, plus récents d’abord)',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Object({ godchildren: Type.Array(GodchildSchema) }), UserId),
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.affiliationGodchildren,
        data: { godchildren: await affiliation.godchildren(user) },
      });
    },
  );
};

export default affiliationRoutes;
