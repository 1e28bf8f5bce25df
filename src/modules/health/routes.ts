// GET /api/: is the API up and does its database answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import { API_VERSION } from '../../plugins/external/openapi.js';
import { Envelope, ErrorEnvelope } from '../../schemas/common.js';

const Health = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  version: Type.String(),
  database: Type.Union([Type.Literal('ok'), Type.Literal('down')]),
  time: Type.String(),
});

const healthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/',
    {
      schema: {
        tags: ['health'],
        summary: 'État du service',
        response: {
          200: Envelope(Health, Type.Null()),
          503: Envelope(Health, Type.Null()),
          // The per-network request limit applies to every route.
          429: ErrorEnvelope,
          500: ErrorEnvelope,
        },
      },
    },
    async (_request, reply) => {
      const database = await app.database
        .ping()
        .then(() => 'ok' as const)
        .catch(() => 'down' as const);
      const up = database === 'ok';
      return reply.code(up ? 200 : 503).send(
        envelope({
          message: up ? messages.healthOk : messages.healthDegraded,
          data: {
            status: up ? 'ok' : 'degraded',
            version: API_VERSION,
            database,
            time: isoTimestamp(app.clock.now()),
          },
        }),
      );
    },
  );
};

export default healthRoutes;
