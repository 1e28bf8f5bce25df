// Guards /api/user/*, /api/fixtures*, /api/competitions and /api/admin/* by path, so no route there can forget its
// check: a valid bearer token is required, and the admin area also needs the admin role. The two
// event streams also open with a single-use `stream_key` in the query (a browser's EventSource
// cannot send a header); a header, when sent, is what counts.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AdminOnly } from '../../lib/errors.js';
import type { AuthUser } from '../../types/auth.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on /api/user/*, /api/fixtures* and /api/admin/* once the token checks out. */
    user: AuthUser | null;
  }
}

/** The signed-in user of a guarded route (the plugin ran before the handler). */
export function currentUser(request: { user: AuthUser | null }): AuthUser {
  if (!request.user) throw new Error('currentUser() called outside a guarded route');
  return request.user;
}

/** The routes a stream key opens (DESIGN.md "Events"). */
const STREAM_ROUTES: ReadonlySet<string> = new Set(['/api/user/events', '/api/admin/events']);

async function authPlugin(app: FastifyInstance): Promise<void> {
  app.decorateRequest('user', null);
  // The token cache answers only while this process hears the database's auth announcements.
  let stopWatching: (() => Promise<void>) | undefined;
  app.addHook('onReady', async () => {
    stopWatching = await app.services.tokens.watchChanges();
  });
  app.addHook('onClose', async () => {
    await stopWatching?.();
  });
  app.addHook('onRequest', async (request) => {
    // The matched route's pattern, not the raw URL: `/api/%75ser/…` routes to a user path too.
    const path = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
    const admin = path.startsWith('/api/admin/') || path === '/api/admin';
    const user = path.startsWith('/api/user/') || path === '/api/user';
    // DESIGN.md "Fixtures": the fixtures and competitions lists are for signed-in users, though
    // outside /api/user.
    const fixtures =
      path === '/api/fixtures' || path.startsWith('/api/fixtures/') || path === '/api/competitions';
    if (!admin && !user && !fixtures) return;
    const streamKey = (request.query as { stream_key?: unknown }).stream_key;
    request.user =
      STREAM_ROUTES.has(path) && request.headers.authorization === undefined && typeof streamKey === 'string'
        ? await app.services.tokens.authenticateStreamKey(streamKey)
        : await app.services.tokens.authenticate(request.headers.authorization);
    if (admin && request.user.role !== 'admin') throw new AdminOnly();
  });
}

export default fp(authPlugin, { name: 'auth', dependencies: ['context'] });
