// The five pronostic endpoints of the spec: types, create, list, detail, delete.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { spliceArray, spliceValues } from '../../lib/spliced-answer.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, EmptyArray, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import { adminErrors } from '../admin/schemas.js';
import {
  AdminPronosticTypeSchema,
  CreateBody,
  CreatedPronostic,
  CreateTypeBody,
  DetailedPronostic,
  ListData,
  ListQuery,
  PronosticTypeSchema,
  UpdateTypeBody,
} from './schemas.js';
import { type CreatedPronostic as Created, DETAIL_STAND_INS } from './service.js';

const ownedErrors = { ...authErrors, 403: ErrorEnvelope, 404: ErrorEnvelope };

/** The 201 answer of a creation (also what a replay of its Idempotency-Key sends). */
function createdAnswer(userId: number, created: Created) {
  return envelope({
    user: { id: userId, credits_balance: created.creditsBalance },
    message: messages.pronosticCreated,
    data: { pronostic: created.pronostic },
  });
}

const pronosticRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { pronostics } = app.services;

  app.get(
    '/api/user/pronostic/types',
    {
      schema: {
        tags: ['pronostics'],
        summary:
          'Types de pronostics actifs, par difficulté (nom et description dans la langue de la requête)',
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
        data: { types: await pronostics.listTypes() },
      });
    },
  );

  app.post(
    '/api/user/pronostic/create',
    {
      config: { idempotency: 'pronostic.create' },
      schema: {
        tags: ['pronostics'],
        summary: 'Créer un pronostic (débite la difficulté du type en crédits)',
        description:
          '403 data.reason self_excluded (data.until) : une pause de jeu est en cours, rien n’est débité.',
        security: [{ bearer: [] }],
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CreateBody,
        response: {
          201: Envelope(
            Type.Object({ pronostic: CreatedPronostic }),
            Type.Object({ id: Type.Integer(), credits_balance: Type.Integer() }),
          ),
          402: ErrorEnvelope,
          403: ErrorEnvelope,
          409: ErrorEnvelope,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = (created: Created) => createdAnswer(user.id, created);
      const created = await pronostics.create(user, request.body, request.idempotent(201, answer));
      return reply.code(201).send(answer(created));
    },
  );

  const OneType = Envelope(Type.Object({ type: AdminPronosticTypeSchema }), UserId);

  app.get(
    '/api/admin/pronostic-types',
    {
      schema: {
        tags: ['admin'],
        summary: 'Tous les types de pronostics, inactifs compris',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Object({ types: Type.Array(AdminPronosticTypeSchema) }), UserId),
          ...adminErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.adminPronosticTypes,
        data: { types: await pronostics.listAllTypes() },
      });
    },
  );

  app.post(
    '/api/admin/pronostic-types',
    {
      schema: {
        tags: ['admin'],
        summary: 'Créer un type pour un marché que le moteur sait traiter (422 sinon ; 409 s’il existe déjà)',
        security: [{ bearer: [] }],
        body: CreateTypeBody,
        response: { 201: OneType, ...adminErrors, 409: ErrorEnvelope },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const type = await pronostics.createType(user, request.body);
      return reply
        .code(201)
        .send(envelope({ user: { id: user.id }, message: messages.pronosticTypeCreated, data: { type } }));
    },
  );

  app.patch(
    '/api/admin/pronostic-types/:id',
    {
      schema: {
        tags: ['admin'],
        summary:
          'Modifier le nom et la description (français, anglais), la difficulté (1 à 5) ou l’activation d’un type',
        security: [{ bearer: [] }],
        params: IdParams,
        body: UpdateTypeBody,
        response: { 200: OneType, ...adminErrors, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const user = currentUser(request);
      const type = await pronostics.updateType(user, request.params.id, request.body);
      return envelope({ user: { id: user.id }, message: messages.pronosticTypeUpdated, data: { type } });
    },
  );

  app.get(
    '/api/user/pronostics',
    {
      schema: {
        tags: ['pronostics'],
        summary: 'Mes pronostics (paginés, filtres status, outcome, search et type_id)',
        security: [{ bearer: [] }],
        querystring: ListQuery,
        response: {
          200: Envelope(ListData, Type.Object({ id: Type.Integer(), phone: Type.String() })),
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const page = await pronostics.listOwn(user, request.query);
      const answer = envelope({
        user: { id: user.id, phone: user.phone },
        message: messages.pronosticList,
        data: { pronostics: [], meta: page.meta },
      });
      return spliceArray(reply, answer, 'pronostics', page.pronostics);
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
    async (request, reply) => {
      const user = currentUser(request);
      const found = await pronostics.getOwn(user, request.params.id);
      const answer = envelope({
        user: { id: user.id },
        message: messages.pronosticDetail,
        data: { pronostic: found.pronostic },
      });
      // The stored json texts take their stand-ins' places, never parsed (as the list's rows).
      return spliceValues(reply, answer, [
        { key: 'teams_details', written: DETAIL_STAND_INS.teamsDetails.written, text: found.teamsDetails },
        ...(found.result === null
          ? []
          : [{ key: 'result', written: DETAIL_STAND_INS.result.written, text: found.result }]),
      ]);
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
      await pronostics.deleteOwn(user, request.params.id);
      return envelope({ user: { id: user.id }, message: messages.pronosticDeleted });
    },
  );
};

export default pronosticRoutes;
