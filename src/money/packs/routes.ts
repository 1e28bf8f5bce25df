// The credit packs: the user's list of packs on sale, and the back office's routes to list, create,
// edit (PATCH) and (de)activate them (`/api/admin/*` is guarded by the auth plugin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { adminErrors } from '../../modules/admin/schemas.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import {
  AdminPackListData,
  AdminPackListQuery,
  AdminPackSchema,
  CreatePackBody,
  PackSchema,
  UpdatePackBody,
} from './schemas.js';

const OnePack = Envelope(Type.Object({ pack: AdminPackSchema }), UserId);
const onePackErrors = { ...adminErrors, 404: ErrorEnvelope };

const packRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { packs } = app.services;

  app.get(
    '/api/user/wallet/packs',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Packs de crédits en vente, du moins cher au plus cher',
        security: [{ bearer: [] }],
        response: { 200: Envelope(Type.Object({ packs: Type.Array(PackSchema) }), UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.packList,
        data: { packs: await packs.listActive() },
      });
    },
  );

  app.get(
    '/api/admin/packs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Tous les packs, actifs et inactifs (paginés, plus récents d’abord)',
        security: [{ bearer: [] }],
        querystring: AdminPackListQuery,
        response: { 200: Envelope(AdminPackListData, UserId), ...adminErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.adminPackList,
        data: await packs.listAll(request.query),
      });
    },
  );

  app.post(
    '/api/admin/packs',
    {
      schema: {
        tags: ['admin'],
        summary: 'Créer un pack (en vente aussitôt)',
        security: [{ bearer: [] }],
        body: CreatePackBody,
        response: { 201: OnePack, ...adminErrors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const pack = await packs.create(user, request.body);
      return reply
        .code(201)
        .send(envelope({ user: { id: user.id }, message: messages.packCreated, data: { pack } }));
    },
  );

  app.patch(
    '/api/admin/packs/:id',
    {
      schema: {
        tags: ['admin'],
        summary: 'Modifier le nom, les crédits ou le prix d’un pack',
        security: [{ bearer: [] }],
        params: IdParams,
        body: UpdatePackBody,
        response: { 200: OnePack, ...onePackErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const pack = await packs.update(user, request.params.id, request.body);
      return envelope({ user: { id: user.id }, message: messages.packUpdated, data: { pack } });
    },
  );

  // The texts are read when answering (a function each), in the request's language.
  for (const [verb, active, message] of [
    ['activate', true, () => messages.packActivated],
    ['deactivate', false, () => messages.packDeactivated],
  ] as const) {
    app.post(
      `/api/admin/packs/:id/${verb}`,
      {
        schema: {
          tags: ['admin'],
          summary: active ? 'Remettre un pack en vente' : 'Retirer un pack de la vente',
          security: [{ bearer: [] }],
          params: IdParams,
          response: { 200: OnePack, ...onePackErrors },
        },
      },
      async (request) => {
        const user = currentUser(request);
        const pack = await packs.setActive(user, request.params.id, active);
        return envelope({ user: { id: user.id }, message: message(), data: { pack } });
      },
    );
  }
};

export default packRoutes;
