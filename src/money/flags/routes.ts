// The back office's flags (`/api/admin/*` is guarded by the auth plugin: an admin token, else 401 or
// 403): the contradictions checkout and cash-out raised, listed open first, each resolved with a note.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { adminErrors } from '../../modules/admin/schemas.js';
import { currentUser } from '../../plugins/app/auth.js';
import { Envelope, ErrorEnvelope, IdParams, PageMetaSchema, UserId } from '../../schemas/common.js';
import { FlagSchema, FlagsQuery, ResolveFlagBody } from './schemas.js';

const FlagsData = Type.Object({ flags: Type.Array(FlagSchema), meta: PageMetaSchema });
const OneFlagData = Type.Object({ flag: FlagSchema });

const flagRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { flags } = app.services;

  app.get(
    '/api/admin/flags',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Signalements : contradictions du prestataire de paiement (ouverts en premier, puis les plus récents)',
        security: [{ bearer: [] }],
        querystring: FlagsQuery,
        response: { 200: Envelope(FlagsData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      return envelope({
        user: { id: admin.id },
        message: messages.adminFlags,
        data: await flags.list(request.query),
      });
    },
  );

  app.post(
    '/api/admin/flags/:id/resolve',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Résoudre un signalement avec une note (journalisé) ; credit: true crédite un paiement late_complete une fois',
        security: [{ bearer: [] }],
        params: IdParams,
        body: ResolveFlagBody,
        response: {
          200: Envelope(OneFlagData, UserId),
          ...adminErrors,
          404: ErrorEnvelope,
          409: ErrorEnvelope,
        },
      },
    },
    async (request) => {
      const admin = currentUser(request);
      const flag = await flags.resolve(admin, request.params.id, request.body);
      return envelope({ user: { id: admin.id }, message: messages.flagResolved, data: { flag } });
    },
  );
};

export default flagRoutes;
