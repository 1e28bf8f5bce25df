// The service's shared context on the Fastify instance: configuration, database, clock and the
// service container (src/services.ts). Routes reach the modules only through `app.services`; tests
// build the same app with their own database, clock and providers; nothing is patched.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Services } from '../../services.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    /** The database itself: health checks and tests read it; modules go through their services. */
    db: Database;
    clock: Clock;
    services: Services;
  }
}

export interface ContextOptions {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  services: Services;
  /** Close the database with the app (false when the caller owns it, as tests do). */
  closeDatabase: boolean;
}

async function contextPlugin(app: FastifyInstance, options: ContextOptions): Promise<void> {
  app.decorate('config', options.config);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);
  app.decorate('clock', options.clock);
  app.decorate('services', options.services);
  if (options.closeDatabase) {
    app.addHook('onClose', async () => {
      await options.database.close();
    });
  }
}

export default fp(contextPlugin, { name: 'context' });
