// The wallet's history endpoints: the 5 latest transactions and the filtered, paginated operations.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, UserId } from '../../schemas/common.js';
import { OperationSchema, OperationsData, OperationsQuery } from './schemas.js';

const walletRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { wallet } = app.services;

  app.get(
    '/api/user/wallet/transactions/latest',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Mes 5 dernières opérations',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Object({ transactions: Type.Array(OperationSchema) }), UserId),
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.walletLatestTransactions,
        data: { transactions: await wallet.latestOwn(user) },
      });
    },
  );

  app.get(
    '/api/user/wallet/operations',
    {
      schema: {
        tags: ['wallet'],
        summary: 'Historique de mes opérations (paginé, filtres type, currency, from, to)',
        security: [{ bearer: [] }],
        querystring: OperationsQuery,
        response: { 200: Envelope(OperationsData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.walletOperations,
        data: await wallet.listOwn(user, request.query),
      });
    },
  );
};

export default walletRoutes;
