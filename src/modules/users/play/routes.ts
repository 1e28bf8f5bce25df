// Responsible play's routes (issue 54, DESIGN "Responsible play") that belong to the account: the
// spending limits (/api/user/wallet/limits), an admin's change of a date of birth (audited), and the
// public page /responsible-play. The self-exclusion's code flow is the account module's, as the
// deletion's; the date of birth is first set by the profile update.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { envelope } from '../../../lib/envelope.js';
import { playTexts } from '../../../lib/messages.js';
import { RESPONSIBLE_PLAY_PATH } from '../../../lib/page-html.js';
import { pageLocale } from '../../../lib/page-locale.js';
import { currentUser } from '../../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope, IdParams, UserId } from '../../../schemas/common.js';
import { adminErrors } from '../../admin/schemas.js';
import { BirthDateBody, BirthDateData, LimitsBody, LimitsData } from '../schemas.js';
import { responsiblePlayPage } from './page.js';

const playRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { users } = app.services;

  app.get(
    '/api/user/wallet/limits',
    {
      schema: {
        tags: ['wallet'],
        summary:
          'Mes limites de dépenses (jour, semaine ISO, mois ; heure de Douala) et leurs changements en attente',
        security: [{ bearer: [] }],
        response: { 200: Envelope(LimitsData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({ user: { id: user.id }, message: playTexts.limits, data: await users.limitsOf(user) });
    },
  );

  app.post(
    '/api/user/wallet/limits',
    {
      schema: {
        tags: ['wallet'],
        summary:
          'Fixer mes limites de dépenses (baisse ou nouvelle : tout de suite ; hausse ou suppression : après 72 h)',
        security: [{ bearer: [] }],
        body: LimitsBody,
        response: { 200: Envelope(LimitsData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const data = await users.setLimits(user, request.body);
      return envelope({ user: { id: user.id }, message: playTexts.limitsSaved, data });
    },
  );

  app.post(
    '/api/admin/users/:id/birth-date',
    {
      schema: {
        tags: ['admin'],
        summary: 'Corriger la date de naissance d’un compte (audité)',
        security: [{ bearer: [] }],
        params: IdParams,
        body: BirthDateBody,
        response: {
          200: Envelope(BirthDateData, UserId),
          ...adminErrors,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const data = await users.changeBirthDate(admin, request.params.id, request.body.birth_date);
      return envelope({ user: { id: admin.id }, message: playTexts.birthDateChanged, data });
    },
  );

  // The page in its reader's language; RESPONSIBLE_PLAY_URL set elsewhere: every 18+ mark's link
  // (which names this path) is sent on there.
  app.get(RESPONSIBLE_PLAY_PATH, { schema: { hide: true } }, async (request, reply) => {
    const target = app.config.responsiblePlay.url;
    if (target !== RESPONSIBLE_PLAY_PATH) return reply.redirect(target, 302);
    const locale = pageLocale(request, reply);
    const scope = reply.hasHeader('set-cookie') ? 'private' : 'public';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', `${scope}, max-age=300`)
      .send(responsiblePlayPage(locale));
  });
};

export default playRoutes;
