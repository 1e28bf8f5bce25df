// The OpenAPI 3.1 document generated from the route schemas, at /api/openapi.json, and an
// interactive reference at /api/docs served from the package's own assets (works offline).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { API_VERSION } from '../../lib/version.js';

export { API_VERSION };

/**
 * A stable operationId from the method and the path, unless the route names its own: generated
 * clients (the mobile apps' Kotlin and Swift ones) name their methods from it. `/api` is dropped,
 * a path parameter reads `By<Name>`: `GET /api/user/pronostic/{id}` → `getUserPronosticById`.
 */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .split('/')
    .filter((segment) => segment !== '' && segment !== 'api')
    .flatMap((segment) => {
      const parameter = /^[:{]([^}]+)}?$/.exec(segment);
      return parameter ? ['by', ...parameter[1]!.split(/[^A-Za-z0-9]+/)] : segment.split(/[^A-Za-z0-9]+/);
    })
    .filter(Boolean);
  const tail = (words.length > 0 ? words : ['index']).map((word) => word[0]!.toUpperCase() + word.slice(1));
  return `${method.toLowerCase()}${tail.join('')}`;
}

async function openapiPlugin(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${app.config.appName} API`,
        version: API_VERSION,
        license: { name: 'Propriétaire — tous droits réservés', identifier: 'LicenseRef-Proprietary' },
        description:
          'API REST de l’application de pronostics : connexion par code à usage unique, analyses de matchs ' +
          'payées en crédits, portefeuille et parrainage. Chaque réponse suit l’enveloppe {user, message, data, errors}.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Jeton obtenu par POST /api/otp/verify' },
          streamKey: {
            type: 'apiKey',
            in: 'query',
            name: 'stream_key',
            description: 'Clé à usage unique (60 s) de POST /api/user/events/key, pour les flux d’événements',
          },
        },
      },
    },
    // Every operation gets an operationId, and a route without `security` says it is public.
    transform: ({ schema, url, route }) => {
      const given = (schema ?? {}) as Record<string, unknown>;
      const method = Array.isArray(route.method) ? String(route.method[0]) : String(route.method);
      return {
        schema: {
          ...given,
          operationId: given.operationId ?? operationIdOf(method, url),
          security: given.security ?? [],
        } as typeof schema,
        url,
      };
    },
  });
  await app.register(swaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { docExpansion: 'list', deepLinking: true },
    staticCSP: false,
  });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
}

export default fp(openapiPlugin, { name: 'openapi', dependencies: ['context'] });
