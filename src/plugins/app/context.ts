// The service's shared context on the Fastify instance: configuration, database and clock. The
// container (`app.services`) and the loops (`app.runtime`) are decorated by buildApp itself, beside
// their types (src/app.ts): a plugin names no type of the layers above it. Closing the database is
// the process's close (src/process.ts), not this plugin's.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    /** The database itself: health checks and tests read it; modules go through their services. */
    db: Database;
    clock: Clock;
  }
}

export interface ContextOptions {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
}

async function contextPlugin(app: FastifyInstance, options: ContextOptions): Promise<void> {
  app.decorate('config', options.config);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);
  app.decorate('clock', options.clock);
}

export default fp(contextPlugin, { name: 'context' });
