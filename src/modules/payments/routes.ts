// Pack purchases: checkout, a payment's state, and the providers' webhooks (no bearer token: the
// signature over the raw body authenticates them, so that one route keeps its body as bytes).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { Unauthenticated } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, EmptyArray, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import { CheckoutBody, PaymentSchema, ProviderParams } from './schemas.js';
import type { PaymentView } from './service.js';

function checkoutAnswer(userId: number, payment: PaymentView) {
  return envelope({ user: { id: userId }, message: messages.paymentCreated, data: { payment } });
}

const paymentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { payments } = app.services;

  app.post(
    '/api/user/wallet/checkout',
    {
      config: { idempotency: 'wallet.checkout' },
      schema: {
        tags: ['wallet'],
        summary: 'Acheter un pack de crédits par mobile money (paiement en attente)',
        security: [{ bearer: [] }],
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CheckoutBody,
        response: {
          201: Envelope(Type.Object({ payment: PaymentSchema }), UserId),
          409: ErrorEnvelope,
          ...authErrors,
        },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const answer = (payment: PaymentView) => checkoutAnswer(user.id, payment);
      const payment = await payments.checkout(user, request.body, request.idempotent(201, answer));
      return reply.code(201).send(answer(payment));
    },
  );

  app.get(
    '/api/user/wallet/payments/:id',
    {
      schema: {
        tags: ['wallet'],
        summary: 'État d’un paiement',
        security: [{ bearer: [] }],
        params: IdParams,
        response: {
          200: Envelope(Type.Object({ payment: PaymentSchema }), UserId),
          403: ErrorEnvelope,
          404: ErrorEnvelope,
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.paymentDetail,
        data: { payment: await payments.getOwn(user, request.params.id) },
      });
    },
  );

  // Its own scope: only here is a body kept as the raw bytes the signature covers.
  const webhooks: FastifyPluginAsyncTypebox = async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(
      '/api/webhooks/payments/:provider',
      {
        schema: {
          tags: ['webhooks'],
          summary: 'Notification signée d’un fournisseur de paiement (relue auprès du fournisseur)',
          params: ProviderParams,
          body: Type.Unknown({ description: 'The provider’s JSON, signed over its raw bytes' }),
          response: {
            200: Envelope(EmptyArray, Type.Null()),
            401: ErrorEnvelope,
            404: ErrorEnvelope,
            413: ErrorEnvelope,
            429: ErrorEnvelope,
            500: ErrorEnvelope,
          },
        },
      },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        try {
          const received = await payments.receiveWebhook(request.params.provider, rawBody, request.headers);
          request.log.info({ provider: request.params.provider, ...received }, 'payment webhook');
        } catch (error) {
          if (error instanceof Unauthenticated) {
            request.log.warn(
              { provider: request.params.provider },
              'payment webhook refused: bad or missing signature',
            );
          }
          throw error;
        }
        return envelope({ message: messages.webhookReceived });
      },
    );
  };
  await app.register(webhooks);
};

export default paymentRoutes;
