// GET /api/user/dashboard: where clients read the balances, counts and the newest items.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope } from '../../schemas/common.js';
import { OperationSchema } from '../../schemas/operations.js';
import { ListedPronostic } from '../pronostics/schemas.js';
import { FullUserSchema } from '../users/schemas.js';

const DashboardData = Type.Object({
  pronostics: Type.Object({
    total: Type.Integer(),
    processing: Type.Integer(),
    success: Type.Integer(),
    cancelled: Type.Integer(),
  }),
  latest_pronostics: Type.Array(ListedPronostic),
  latest_operations: Type.Array(OperationSchema),
});

const dashboardRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { dashboard } = app.services;

  app.get(
    '/api/user/dashboard',
    {
      schema: {
        tags: ['dashboard'],
        summary: 'Tableau de bord : utilisateur, soldes, compteurs, derniers pronostics et opérations',
        security: [{ bearer: [] }],
        response: { 200: Envelope(DashboardData, FullUserSchema), 404: ErrorEnvelope, ...authErrors },
      },
    },
    async (request) => {
      const { user, data } = await dashboard.of(currentUser(request));
      return envelope({ user, message: messages.dashboard, data });
    },
  );
};

export default dashboardRoutes;
