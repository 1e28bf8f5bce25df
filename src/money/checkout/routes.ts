// Pack purchases: checkout and a payment's state. The providers' webhooks are
// ../provider/routes.ts (one URL for payments and transfers).

import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import { CheckoutBody, PaymentSchema } from './schemas.js';
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
        description:
          '403 (jeu responsable, rien n’est débité) : data.reason age_required ou under_age (AGE_GATE), limit_reached (data.resets_at), self_excluded (data.until).',
        security: [{ bearer: [] }],
        headers: Type.Object({ 'idempotency-key': Type.Optional(Type.String()) }),
        body: CheckoutBody,
        response: {
          201: Envelope(Type.Object({ payment: PaymentSchema }), UserId),
          403: ErrorEnvelope,
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
};

export default paymentRoutes;
