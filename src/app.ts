// buildApp(options): the whole HTTP service as one Fastify instance. Production (server.ts) and the
// tests build it the same way; tests pass their own database and clock instead of patching modules.

import type { IncomingMessage, ServerResponse } from 'node:http';
import SerializerSelector from '@fastify/fast-json-stringify-compiler';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyServerOptions,
  type RawServerDefault,
} from 'fastify';
import { type Config, configWarnings } from './config.js';
import type { DatabaseHandle } from './db/client.js';
import type { Clock } from './lib/clock.js';
import { logOptions } from './lib/log-options.js';
import accountRoutes from './modules/account/routes.js';
import adminRoutes from './modules/admin/routes.js';
import affiliationRoutes from './modules/affiliation/routes.js';
import authRoutes from './modules/auth/routes.js';
import backofficeRoutes, { approvalRoutes } from './modules/backoffice/routes.js';
import consoleRoutes from './modules/console/routes.js';
import dashboardRoutes from './modules/dashboard/routes.js';
import deviceRoutes from './modules/devices/routes.js';
import eventRoutes from './modules/events/routes.js';
import fixtureRoutes from './modules/fixtures/routes.js';
import healthRoutes from './modules/health/routes.js';
import metricsRoutes from './modules/metrics/routes.js';
import pronosticRoutes from './modules/pronostics/routes.js';
import slipRoutes from './modules/slips/routes.js';
import supportRoutes from './modules/support/routes.js';
import trackRecordRoutes from './modules/track-record/routes.js';
import playRoutes from './modules/users/play/routes.js';
import userRoutes from './modules/users/routes.js';
import webappRoutes from './modules/webapp/routes.js';
import {
  flagRoutes,
  packRoutes,
  paymentRoutes,
  walletRoutes,
  webhookRoutes,
  withdrawalRoutes,
} from './money/index.js';
import auth from './plugins/app/auth.js';
import coercion from './plugins/app/coercion.js';
import context from './plugins/app/context.js';
import errors, { frameworkErrorHandler } from './plugins/app/errors.js';
import gracefulClose from './plugins/app/graceful-close.js';
import idempotency from './plugins/app/idempotency.js';
import locale from './plugins/app/locale.js';
import metrics from './plugins/app/metrics.js';
import requestId, { requestIdOf } from './plugins/app/request-id.js';
import textGuard from './plugins/app/text-guard.js';
import openapi from './plugins/external/openapi.js';
import rateLimit from './plugins/external/rate-limit.js';
import security from './plugins/external/security.js';
import { openProcess } from './process.js';
import type { Messenger } from './providers/messaging/index.js';
import type { PaymentsDriver } from './providers/payments/index.js';
import type { PushDriver } from './providers/push/index.js';
import type { StorageDriver } from './providers/storage/index.js';
import type { WorkerOptions } from './runtime/analysis-worker.js';
import type { Runtime } from './runtime/runtime.js';
import type { Services } from './services.js';
import type { Analyst } from './types/analyst.js';

export interface AppOptions {
  config: Config;
  /** An open, migrated database owned by the caller; by default the app opens the configured one. */
  database?: DatabaseHandle;
  clock?: Clock;
  /** Sends sign-in codes; by default the drivers the configuration names. */
  messenger?: Messenger;
  /** Runs the analyses; by default the football analyst (statistical model, optional LLM text). */
  analyst?: Analyst;
  /** Run the background loops in this process: by default when ROLE=all. Tests drive `app.runtime` themselves. */
  runLoops?: boolean;
  /** Speaks to the payment provider; by default the driver PAYMENTS_DRIVER names. */
  paymentsDriver?: PaymentsDriver;
  /** Keeps uploaded files; by default the driver STORAGE_DRIVER names. */
  storage?: StorageDriver;
  /** Sends push notifications; by default the driver PUSH_DRIVER names. */
  pushDriver?: PushDriver;
  /** Worker tuning (backoff, lease, poll) over the configured concurrency and lease; the defaults suit production. */
  workerOptions?: Partial<WorkerOptions>;
  /** Pino options, or false; by default JSON logs at LOG_LEVEL (server.ts asks for readable ones on a terminal). */
  logger?: FastifyServerOptions['logger'];
}

// Declared here, beside the app that decorates them, not in a plugin: plugins sit below the
// container and the loops and read them only through these decorators.
declare module 'fastify' {
  interface FastifyInstance {
    /** The service container (services.ts): routes and plugins reach the modules through it. */
    services: Services;
    /** The background loops (runtime/runtime.ts), started with the app when it runs them. */
    runtime: Runtime;
  }
}

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/**
 * Fastify's `trustProxy`. A hop count is given as a function: Fastify 5 passed a bare number on
 * to a check that trusted no one, so `TRUST_PROXY=1` ignored X-Forwarded-For.
 */
function trustProxyOption(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust === 'number') return (_address: string, hop: number) => hop < trust;
  return trust;
}

/**
 * Fastify's own serializer compiler, with one compiled serializer per response schema object: the
 * error envelopes every route shares (401, 403, 404, 422, 429…) were compiled again for each route
 * and status, some 900 generated functions whose source text alone held 7 MB of the heap. A
 * schema's serializer depends only on the schema and the context's shared schemas, so each context
 * (each call of the factory) keeps its own cache.
 */
function sharedSerializers(): SerializerSelector.SerializerFactory {
  const build = SerializerSelector();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    const compiled = new WeakMap<object, SerializerSelector.Serializer>();
    return (route) => {
      if (typeof route.schema !== 'object' || route.schema === null) return compile(route);
      let serializer = compiled.get(route.schema);
      if (!serializer) {
        serializer = compile(route);
        compiled.set(route.schema, serializer);
      }
      return serializer;
    };
  };
}

export async function buildApp(options: AppOptions): Promise<App> {
  const { config } = options;
  const serverOptions: FastifyServerOptions = {
    logger: options.logger ?? logOptions(config),
    genReqId: requestIdOf,
    requestIdHeader: false,
    trustProxy: trustProxyOption(config.trustProxy),
    bodyLimit: config.bodyLimitBytes,
    routerOptions: { maxParamLength: 100 },
    ajv: { customOptions: { coerceTypes: false, allErrors: true } },
    schemaController: { compilersFactory: { buildSerializer: sharedSerializers() } },
    frameworkErrors: frameworkErrorHandler,
    // A request that reaches a kept-alive connection while the app closes is served (its answer says
    // `Connection: close`, see graceful-close.ts) instead of Fastify's bare 503 outside the envelope:
    // the server still waits for it before the database closes.
    return503OnClosing: false,
  };
  const app = Fastify(serverOptions).withTypeProvider<TypeBoxTypeProvider>();

  // JSON only: anything else is a 415 rather than a string that fails validation later.
  app.removeContentTypeParser('text/plain');

  // The database (the service's own unless the caller passes one; an embedded one is locked and
  // shared with local commands through its socket), the container and the loops, and their one close.
  const { database, clock, services, runtime, close } = await openProcess({
    role: 'service',
    config,
    logger: app.log,
    ...(options.database ? { database: options.database } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.messenger ? { messenger: options.messenger } : {}),
    ...(options.analyst ? { analyst: options.analyst } : {}),
    ...(options.paymentsDriver ? { paymentsDriver: options.paymentsDriver } : {}),
    ...(options.storage ? { storage: options.storage } : {}),
    ...(options.pushDriver ? { pushDriver: options.pushDriver } : {}),
    ...(options.workerOptions ? { workerOptions: options.workerOptions } : {}),
  });
  // Registered before every plugin, so it runs after all their onClose hooks (Fastify runs them last
  // registered first): the token watch and the metrics port are closed before the database.
  app.addHook('onClose', () => close());
  app.decorate('services', services);
  app.decorate('runtime', runtime);
  await app.register(context, { config, database, clock });
  // First of the request hooks: every answer after it, a rate limit's included, is in the caller's language.
  await app.register(locale);
  // Before every route: each route gets its duration recorder as it is registered.
  await app.register(metrics);
  await app.register(requestId);
  await app.register(gracefulClose);
  await app.register(errors);
  await app.register(security);
  // Before auth: a flood of guessed tokens is turned away without a database lookup.
  await app.register(rateLimit);
  await app.register(coercion);
  await app.register(auth);
  // App-wide and before every route: text the database cannot store never reaches a handler.
  await app.register(textGuard);
  // After validation, authentication and the text guard: a bad request claims no key.
  await app.register(idempotency);
  await app.register(openapi);

  // Tombstone hashes written under APP_SECRET alone are keyed by TOMBSTONE_KEY before the first
  // request (once; a no-op after, decision 0125).
  app.addHook('onReady', async () => {
    const rekeyed = await services.users.rekeyTombstones();
    if (rekeyed > 0) app.log.info({ rekeyed }, 'tombstone phone hashes re-keyed with TOMBSTONE_KEY');
  });

  // Valid but dangerous settings are said at every start, as loudly as the log allows.
  const warnings = configWarnings(config);
  if (warnings.length > 0) {
    app.addHook('onReady', async () => {
      for (const warning of warnings) app.log.warn({ config_warning: true }, warning);
    });
  }
  if (options.runLoops ?? config.role === 'all') {
    app.addHook('onReady', () => runtime.start());
    // Finish or hand back the work under way while the requests in flight finish, before close.
    app.addHook('preClose', () => runtime.stop());
  }

  await app.register(healthRoutes);
  await app.register(authRoutes);
  await app.register(pronosticRoutes);
  await app.register(fixtureRoutes);
  await app.register(packRoutes);
  await app.register(adminRoutes);
  await app.register(backofficeRoutes);
  await app.register(approvalRoutes);
  await app.register(flagRoutes);
  await app.register(paymentRoutes);
  await app.register(webhookRoutes);

  await app.register(walletRoutes);
  await app.register(dashboardRoutes);
  await app.register(userRoutes);
  await app.register(playRoutes);
  await app.register(affiliationRoutes);
  await app.register(withdrawalRoutes);
  await app.register(supportRoutes);
  await app.register(eventRoutes);
  await app.register(deviceRoutes);
  await app.register(trackRecordRoutes);
  await app.register(slipRoutes);
  await app.register(accountRoutes);
  await app.register(consoleRoutes);
  await app.register(webappRoutes);
  await app.register(metricsRoutes);

  return app;
}
