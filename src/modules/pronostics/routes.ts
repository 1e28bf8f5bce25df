// The five pronostic endpoints of the spec: types, create, list, detail, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, EmptyArray, Envelope, ErrorEnvelope, IdParams } from '../../schemas/common.js';
import { validateIdempotencyKey } from '../idempotency/service.js';
import {
  CreateBody,
  CreatedPronostic,
  DetailedPronostic,
  ListData,
  ListQuery,
  PronosticTypeSchema,
} from './schemas.js';
import {
  createPronostic,
  deleteOwnPronostic,
  getOwnPronostic,
  listOwnPronostics,
  listTypes,
  type PronosticDeps,
} from './service.js';

const UserId = Type.Object({ id: Type.Integer() });
const ownedErrors = { ...authErrors, 403: ErrorEnvelope, 404: ErrorEnvelope };

const pronosticRoutes: FastifyPluginAsyncTypebox<{ deps: () => PronosticDeps }> = async (app, options) => {
  app.get(
    '/api/user/pronostic/types',
    {
      schema: {
        tags: ['pronostics'],
        summary: 'Types de pronostics actifs, par difficulté',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Object({ types: Type.Array(PronosticTypeSchema) }), UserId),
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.pronosticTypes,
        data: { types: await listTypes(app.db) },
      });
    },
  );

  app.post(
    '/api/user/pronostic/create',
    {
      schema: {
        tags: ['pronostics'],
        summary: 'Créer un pronostic (débite la difficulté du type en crédits)',
        security: [{ bearer: [] }],
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CreateBody,
        response: {
          201: Envelope(
            Type.Object({ pronostic: CreatedPronostic }),
            Type.Object({ id: Type.Integer(), credits_balance: Type.Integer() }),
          ),
          402: ErrorEnvelope,
          409: ErrorEnvelope,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const key = validateIdempotencyKey(request.headers['idempotency-key']);
      const answer = await createPronostic(
        options.deps(),
        currentUser(request),
        request.body,
        key,
        app.clock.now(),
      );
      // A replayed answer comes back from the database as stored; it was built from these schemas.
      return reply.code(answer.statusCode).send(answer.body as never);
    },
  );

  app.get(
    '/api/user/pronostics',
    {
      schema: {
        tags: ['pronostics'],
        summary: 'Mes pronostics (paginés, filtres status et search)',
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: {
          200: Envelope(ListData, Type.Object({ id: Type.Integer(), phone: Type.String() })),
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id, phone: user.phone },
        message: messages.pronosticList,
        data: await listOwnPronostics(app.db, user, request.query),
      });
    },
  );

  app.get(
    '/api/user/pronostic/:id',
    {
      schema: {
        tags: ['pronostics'],
        summary: 'Détail d’un pronostic',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(Type.Object({ pronostic: DetailedPronostic }), UserId), ...ownedErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.pronosticDetail,
        data: { pronostic: await getOwnPronostic(app.db, user, request.params.id) },
      });
    },
  );

  app.delete(
    '/api/user/pronostic/:id',
    {
      schema: {
        tags: ['pronostics'],
        summary: 'Supprimer (masquer) un pronostic',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(EmptyArray, UserId), ...ownedErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await deleteOwnPronostic(app.db, user, request.params.id, app.clock.now());
      return envelope({ user: { id: user.id }, message: messages.pronosticDeleted });
    },
  );
};

export default pronosticRoutes;
