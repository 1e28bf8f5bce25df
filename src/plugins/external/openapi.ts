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

/** The headers every envelope carries (plugins/app/locale.ts), declared once and referenced. */
const LANGUAGE_HEADERS = {
  'Content-Language': {
    description: 'La langue du `message` et des textes de `errors` : `fr` (par défaut) ou `en`.',
    schema: { type: 'string', enum: ['fr', 'en'] },
  },
  Vary: {
    description: 'Contient `Accept-Language` : la réponse dépend de la langue demandée.',
    schema: { type: 'string', examples: ['Accept-Language'] },
  },
};

interface DocumentResponse {
  content?: Record<string, { schema?: { properties?: Record<string, unknown> } }>;
  headers?: Record<string, unknown>;
}

/**
 * Declares the language headers on every answer that is an envelope (JSON with `user` and
 * `message`); files, event streams and the export attachment are left as they are.
 */
export function withLanguageHeaders<T extends Record<string, unknown>>(document: T): T {
  const paths = (document.paths ?? {}) as Record<
    string,
    Record<string, { responses?: Record<string, DocumentResponse> }>
  >;
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const response of Object.values(operation.responses ?? {})) {
        const properties = response.content?.['application/json']?.schema?.properties;
        if (!properties || !('user' in properties) || !('message' in properties)) continue;
        response.headers = {
          ...response.headers,
          'Content-Language': { $ref: '#/components/headers/ContentLanguage' },
          Vary: { $ref: '#/components/headers/VaryAcceptLanguage' },
        };
      }
    }
  }
  const components = (document.components ?? {}) as Record<string, unknown>;
  return {
    ...document,
    components: {
      ...components,
      headers: {
        ...(components.headers as Record<string, unknown> | undefined),
        ContentLanguage: LANGUAGE_HEADERS['Content-Language'],
        VaryAcceptLanguage: LANGUAGE_HEADERS.Vary,
      },
    },
  };
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
          'payées en crédits, portefeuille et parrainage. Chaque réponse suit l’enveloppe {user, message, data, errors}. ' +
          'Langues : l’en-tête Accept-Language choisit le français (par défaut) ou l’anglais (`en`, `en-GB`, ' +
          'q-values comprises) ; un en-tête absent, illisible ou qui ne nomme aucune des deux donne le français, ' +
          'jamais une erreur. Chaque enveloppe porte Content-Language (`fr` ou `en`) et Vary: Accept-Language ; ' +
          'les fichiers servis (avatars, pièces jointes) n’en portent pas. Seuls les textes changent de langue : ' +
          'les clés, les noms de champs et les valeurs restent les mêmes.',
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
    transformObject: (documentObject) =>
      withLanguageHeaders((documentObject as { openapiObject: Record<string, unknown> }).openapiObject),
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
