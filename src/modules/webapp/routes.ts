// The web app (webapp/, built by `npm run build` into WEBAPP_DIR, dist/webapp by default) at /app/;
// `/` and `/app` send the browser there (302). DESIGN, "Web app": hashed assets are immutable,
// `index.html` and the service worker's script are `no-cache` (a new version is seen at the next
// start), and every file is sent precompressed by Accept-Encoding (the build writes .br and .gz
// beside each one) with `Vary: Accept-Encoding`. A path without a file extension is a screen of the
// single page (a deep link, a reload): it answers index.html. Without a build, a clear 503.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { messages } from '../../lib/messages.js';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
  '.webmanifest': 'application/manifest+json; charset=utf-8',
};

/** Already compressed: sent as they are. */
const COMPRESSED = new Set(['.png', '.ico', '.woff2']);

const IMMUTABLE = 'public, max-age=31536000, immutable';

async function readOrNull(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch {
    return null;
  }
}

/** The encodings the request accepts with a q above 0, from `Accept-Encoding`. */
function acceptedEncodings(request: FastifyRequest): Set<string> {
  const header = request.headers['accept-encoding'];
  const accepted = new Set<string>();
  if (typeof header !== 'string') return accepted;
  for (const part of header.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find((q) => q !== undefined);
    if (quality === undefined || Number(quality) > 0) accepted.add(name.trim());
  }
  return accepted;
}

const webappRoutes: FastifyPluginAsync = async (app) => {
  const root = normalize(app.config.webappDir);

  /** Sends a build file, its .br or .gz copy when the browser takes one; false when it is not there. */
  async function sendFile(request: FastifyRequest, reply: FastifyReply, file: string, cache: string) {
    const type = TYPES[extname(file)];
    if (!type || !(file === root || file.startsWith(root + sep))) return false;
    const accepted = acceptedEncodings(request);
    const compressible = !COMPRESSED.has(extname(file));
    for (const [encoding, suffix] of [
      ['br', '.br'],
      ['gzip', '.gz'],
    ] as const) {
      if (!compressible || !accepted.has(encoding)) continue;
      const body = await readOrNull(file + suffix);
      if (body) {
        return reply
          .type(type)
          .header('cache-control', cache)
          .header('content-encoding', encoding)
          .header('vary', 'Accept-Encoding')
          .send(body);
      }
    }
    const body = await readOrNull(file);
    if (!body) return false;
    reply.type(type).header('cache-control', cache);
    if (compressible) reply.header('vary', 'Accept-Encoding');
    return reply.send(body);
  }

  async function sendIndex(request: FastifyRequest, reply: FastifyReply) {
    const sent = await sendFile(request, reply, join(root, 'index.html'), 'no-cache');
    if (sent !== false) return sent;
    return reply
      .code(503)
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(`${messages.webappNotBuilt}\n`);
  }

  const toApp = async (_request: FastifyRequest, reply: FastifyReply) => reply.redirect('/app/', 302);
  app.get('/', { schema: { hide: true } }, toApp);
  app.get('/app', { schema: { hide: true } }, toApp);
  app.get('/app/*', { schema: { hide: true } }, async (request, reply) => {
    const rest = (request.params as { '*': string })['*'];
    if (extname(rest) === '') return sendIndex(request, reply);
    const file = normalize(join(root, rest));
    const cache = rest.startsWith('assets/')
      ? IMMUTABLE // named after a hash of their content: a new build is new names
      : rest === 'sw.js' || rest === 'index.html'
        ? 'no-cache'
        : 'public, max-age=3600';
    const sent = await sendFile(request, reply, file, cache);
    if (sent !== false) return sent;
    return reply.code(404).type('text/plain; charset=utf-8').send(`${messages.fileNotFound}\n`);
  });
};

export default webappRoutes;
