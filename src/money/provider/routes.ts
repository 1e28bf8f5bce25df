// The payment providers' webhooks (no bearer token: the signature over the raw body authenticates
// them, so this route keeps its body as bytes). One URL per provider for payments and transfers
// alike; the dispatch sends each event to its owner (checkout or cash-out's payouts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { paymentProviders } from '../../lib/allowed-values.js';
import { envelope } from '../../lib/envelope.js';
import { Unauthenticated } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { EmptyArray, Envelope, ErrorEnvelope } from '../../schemas/common.js';

const ProviderParams = Type.Object({ provider: Type.Enum(paymentProviders) });

const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { webhooks } = app.services;
  // Only in this scope is a body kept as the raw bytes the signature covers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  app.post(
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
        const received = await webhooks.receiveWebhook(request.params.provider, rawBody, request.headers);
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

export default webhookRoutes;
