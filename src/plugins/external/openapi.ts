// The OpenAPI 3.1 document generated from the route schemas, at /api/openapi.json, and an
// interactive reference at /api/docs served from the package's own assets (works offline).
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export const API_VERSION = '1.5.0';

async function openapiPlugin(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${app.config.appName} API`,
        version: API_VERSION,
        description:
          'API REST de l’application de pronostics : connexion par code à usage unique, analyses de matchs ' +
          'payées en crédits, portefeuille et parrainage. Chaque réponse suit l’enveloppe {user, message, data, errors}.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'Jeton obtenu par POST /api/otp/verify' },
        },
      },
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
