// buildApp(options): the whole HTTP service as one Fastify instance. Production (server.ts) and the
// tests build it the same way; tests pass their own database and clock instead of patching modules.

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawServerDefault,
} from 'fastify';
import type { Config } from './config.js';
import { type DatabaseHandle, databaseUrlOf, openDatabase } from './db/client.js';
import { type Clock, systemClock } from './lib/clock.js';
import healthRoutes from './modules/health/routes.js';
import coercion from './plugins/app/coercion.js';
import context from './plugins/app/context.js';
import errors, { frameworkErrorHandler } from './plugins/app/errors.js';
import requestId, { requestIdOf } from './plugins/app/request-id.js';
import openapi from './plugins/external/openapi.js';
import rateLimit from './plugins/external/rate-limit.js';
import security from './plugins/external/security.js';

export interface AppOptions {
  config: Config;
  /** An open, migrated database owned by the caller; by default the app opens the configured one. */
  database?: DatabaseHandle;
  clock?: Clock;
  /** Pino options, or false; by default JSON logs at LOG_LEVEL. */
  logger?: FastifyServerOptions['logger'];
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const serverOptions: FastifyServerOptions = {
    logger: options.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.authorization', 'req.headers.cookie'],
    },
    genReqId: requestIdOf,
    requestIdHeader: false,
    // A hop count is supported by Fastify (proxy-addr) though its types only list the other forms.
    trustProxy: config.trustProxy as FastifyServerOptions['trustProxy'],
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: 100 },
    ajv: { customOptions: { coerceTypes: false, allErrors: true } },
    frameworkErrors: frameworkErrorHandler,
  };
  const app = Fastify(serverOptions).withTypeProvider<TypeBoxTypeProvider>();

  let database = options.database;
  const ownsDatabase = database === undefined;
  if (!database) {
    database = await openDatabase({ url: databaseUrlOf(config) });
    try {
      await database.migrate();
    } catch (error) {
      await database.close();
      throw error;
    }
  }

  // JSON only: anything else is a 415 rather than a string that fails validation later.
  app.removeContentTypeParser('text/plain');

  await app.register(context, {
    config,
    database,
    clock: options.clock ?? systemClock,
    closeDatabase: ownsDatabase,
  });
  await app.register(requestId);
  await app.register(errors);
  await app.register(coercion);
  await app.register(security);
  await app.register(rateLimit);
  await app.register(openapi);

  await app.register(healthRoutes);

  return app;
}
