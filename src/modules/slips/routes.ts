// The slip endpoints of DESIGN "Slips": check (free), save, list, detail, delete and the summary.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { slipTexts } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, EmptyArray, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import { CheckedSlip, ListData, ListQuery, SavedSlip, SlipBody, SummarySchema } from './schemas.js';

const ownedErrors = { ...authErrors, 403: ErrorEnvelope, 404: ErrorEnvelope };
const OneSlip = Envelope(Type.Object({ slip: SavedSlip }), UserId);

const slipRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { slips } = app.services;

  app.post(
    '/api/user/slips/check',
    {
      schema: {
        tags: ['slips'],
        summary: 'Vérifier un ticket : probabilité, cotes justes, retour attendu et verdict (gratuit)',
        security: [{ bearer: [] }],
        body: SlipBody,
        response: { 200: Envelope(Type.Object({ slip: CheckedSlip }), UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const slip = await slips.check(user, request.body);
      return envelope({ user: { id: user.id }, message: slipTexts.checked, data: { slip } });
    },
  );

  app.post(
    '/api/user/slips',
    {
      schema: {
        tags: ['slips'],
        summary: 'Enregistrer un ticket vérifié (il se règle seul une fois ses matchs joués)',
        description:
          '403 data.reason self_excluded (data.until) : une pause de jeu est en cours, rien n’est enregistré.',
        security: [{ bearer: [] }],
        body: SlipBody,
        response: { 201: OneSlip, 403: ErrorEnvelope, ...authErrors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const slip = await slips.save(user, request.body);
      return reply
        .code(201)
        .send(envelope({ user: { id: user.id }, message: slipTexts.saved, data: { slip } }));
    },
  );

  app.get(
    '/api/user/slips',
    {
      schema: {
        tags: ['slips'],
        summary: 'Mes tickets enregistrés (paginés, filtre status), les plus récents d’abord',
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: { 200: Envelope(ListData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const data = await slips.listOwn(user, request.query);
      return envelope({ user: { id: user.id }, message: slipTexts.list, data });
    },
  );

  // Before the `:id` route in spirit: a static segment always wins in the router.
  app.get(
    '/api/user/slips/summary',
    {
      schema: {
        tags: ['slips'],
        summary: 'Bilan de mes tickets réglés : misé, revenu, et ce que les probabilités annonçaient',
        security: [{ bearer: [] }],
        response: { 200: Envelope(Type.Object({ summary: SummarySchema }), UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const summary = await slips.summary(user);
      return envelope({ user: { id: user.id }, message: slipTexts.summary, data: { summary } });
    },
  );

  app.get(
    '/api/user/slips/:id',
    {
      schema: {
        tags: ['slips'],
        summary: 'Détail d’un ticket',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: OneSlip, ...ownedErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const slip = await slips.getOwn(user, request.params.id);
      return envelope({ user: { id: user.id }, message: slipTexts.detail, data: { slip } });
    },
  );

  app.delete(
    '/api/user/slips/:id',
    {
      schema: {
        tags: ['slips'],
        summary: 'Supprimer (masquer) un ticket',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(EmptyArray, UserId), ...ownedErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await slips.deleteOwn(user, request.params.id);
      return envelope({ user: { id: user.id }, message: slipTexts.deleted });
    },
  );
};

export default slipRoutes;
