// The admin console (console/, built by `npm run build` into CONSOLE_DIR, dist/console by default)
// at /admin. Its hashed assets are cached for a year; every other path under /admin answers the
// single page's index.html (no-cache), so a deep link or a reload lands on the right screen. The
// console holds no data: it signs in and calls /api/admin/* with the typed client, whose guard
// answers a non-admin 403. Without a build (tests that do not build it) /admin says so in a 503.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

const NOT_BUILT =
  'Console d’administration non construite : lancez `npm run build` (ou `npm start`, qui la construit).\n';

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

const consoleRoutes: FastifyPluginAsync = async (app) => {
  const root = normalize(app.config.consoleDir);

  const sendIndex = async (reply: FastifyReply) => {
    const index = await readOrNull(join(root, 'index.html'));
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(NOT_BUILT);
    }
    return reply.type(TYPES['.html']!).header('cache-control', 'no-cache').send(index);
  };

  app.get('/admin', { schema: { hide: true } }, async (_request, reply) => sendIndex(reply));
  app.get('/admin/*', { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // Only the build's assets folder holds files; every other path is a screen of the single page.
    if (rest.startsWith('assets/')) {
      const file = normalize(join(root, rest));
      const type = TYPES[extname(file)];
      const body = type && file.startsWith(root + sep) ? await readOrNull(file) : null;
      if (!body) {
        return reply.code(404).type('text/plain; charset=utf-8').send('Fichier introuvable.\n');
      }
      // The file names carry a hash of their content: a new build is new names.
      return reply.type(type!).header('cache-control', 'public, max-age=31536000, immutable').send(body);
    }
    return sendIndex(reply);
  });
};

export default consoleRoutes;
