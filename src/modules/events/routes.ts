// The event logs' history routes: a client catches up by request, ascending by seq after the last
// one it has (the live stream is still to come, issue 27). Each user reads only their own log; the
// back office's log is under /api/admin/ (guarded by the auth plugin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope } from '../../schemas/common.js';
import { AdminHistoryData, HistoryQuery, UserHistoryData } from './schemas.js';

const UserId = Type.Object({ id: Type.Integer() });

const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { events } = app.services;

  app.get(
    '/api/user/events/history',
    {
      schema: {
        tags: ['events'],
        summary: 'Mes événements après un seq donné, du plus ancien au plus récent',
        security: [{ bearer: [] }],
        querystring: HistoryQuery,
        response: { 200: Envelope(UserHistoryData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.eventHistory,
        data: await events.history(user, request.query),
      });
    },
  );

  app.get(
    '/api/admin/events/history',
    {
      schema: {
        tags: ['events'],
        summary: 'Événements du back-office après un seq donné, du plus ancien au plus récent',
        security: [{ bearer: [] }],
        querystring: HistoryQuery,
        response: { 200: Envelope(AdminHistoryData, UserId), ...authErrors, 403: ErrorEnvelope },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.adminEventHistory,
        data: await events.adminHistory(request.query),
      });
    },
  );
};

export default eventRoutes;
