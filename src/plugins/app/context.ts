// The service's shared context on the Fastify instance: configuration, database, clock. Tests
// build the same app with their own database and clock; nothing is patched.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config.js';
import type { Database, DatabaseHandle } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import type { Messenger } from '../../providers/messaging/index.js';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    database: DatabaseHandle;
    db: Database;
    clock: Clock;
    messenger: Messenger;
  }
}

export interface ContextOptions {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  messenger: Messenger;
  /** Close the database with the app (false when the caller owns it, as tests do). */
  closeDatabase: boolean;
}

async function contextPlugin(app: FastifyInstance, options: ContextOptions): Promise<void> {
  app.decorate('config', options.config);
  app.decorate('database', options.database);
  app.decorate('db', options.database.db);
  app.decorate('clock', options.clock);
  app.decorate('messenger', options.messenger);
  if (options.closeDatabase) {
    app.addHook('onClose', async () => {
      await options.database.close();
    });
  }
}

export default fp(contextPlugin, { name: 'context' });
