// The admin console (console/, built by `npm run build` into CONSOLE_DIR, dist/console by default)
// at /admin. Its hashed assets are cached for a year; every other path under /admin answers the
// single page's index.html (no-cache), so a deep link or a reload lands on the right screen. The
// console holds no data: it signs in and calls /api/admin/* with the typed client, whose guard
// answers a non-admin 403. Without a build (tests that do not build it) /admin says so in a 503.
// index.html is sent in the reader's language, chosen as for the public pages (?lang, the `lang`
// cookie the console's FR / EN switch sets, Accept-Language, French: src/lib/page-locale.ts): its
// `<html lang>` says it, and the console reads its texts' language from there.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Locale } from '../../lib/locale.js';
import { messages } from '../../lib/messages.js';
import { pageLocale } from '../../lib/page-locale.js';

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

/** The build's index.html with its `<html lang>` set to the reader's language. */
function inLanguage(index: Buffer, locale: Locale): string {
  return index.toString('utf8').replace(/<html lang="[^"]*"/, `<html lang="${locale}"`);
}

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

const consoleRoutes: FastifyPluginAsync = async (app) => {
  const root = normalize(app.config.consoleDir);

  const sendIndex = async (request: FastifyRequest, reply: FastifyReply) => {
    const index = await readOrNull(join(root, 'index.html'));
    if (!index) {
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(`${messages.consoleNotBuilt}\n`);
    }
    const locale = pageLocale(request, reply);
    // An answer that sets the language cookie is the reader's own, kept by no shared cache.
    return reply
      .type(TYPES['.html']!)
      .header('cache-control', reply.hasHeader('set-cookie') ? 'private, no-cache' : 'no-cache')
      .send(inLanguage(index, locale));
  };

  app.get('/admin', { schema: { hide: true } }, async (request, reply) => sendIndex(request, reply));
  app.get('/admin/*', { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    // Only the build's assets folder holds files; every other path is a screen of the single page.
    if (rest.startsWith('assets/')) {
      const file = normalize(join(root, rest));
      const type = TYPES[extname(file)];
      const body = type && file.startsWith(root + sep) ? await readOrNull(file) : null;
      if (!body) {
        return reply.code(404).type('text/plain; charset=utf-8').send(`${messages.fileNotFound}\n`);
      }
      // The file names carry a hash of their content: a new build is new names.
      return reply.type(type!).header('cache-control', 'public, max-age=31536000, immutable').send(body);
    }
    return sendIndex(request, reply);
  });
};

export default consoleRoutes;
