// GET /metrics on the service's port: the Prometheus text (service.ts), only for the METRICS_TOKEN
// bearer, compared in constant time (401 otherwise). Without METRICS_TOKEN the route does not exist
// (404); METRICS_PORT serves the same text on 127.0.0.1 (plugins/app/metrics.ts). Not part of the
// API: hidden from the OpenAPI document, answered outside the envelope like a served file.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { Unauthenticated } from '../../lib/errors.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/** Whether `Authorization` is `Bearer <token>`: the digests are compared, so in constant time whatever the length. */
function bearerMatches(header: string | undefined, expected: Buffer): boolean {
  const match = header ? /^Bearer[ \t]+(\S+)\s*$/i.exec(header) : null;
  return match?.[1] !== undefined && timingSafeEqual(digest(match[1]), expected);
}

const metricsRoutes: FastifyPluginAsync = async (app) => {
  const { metrics } = app.services;
  const token = app.config.metricsToken;
  if (!metrics || token === undefined) return;
  const expected = digest(token);
  app.get('/metrics', { schema: { hide: true } }, async (request, reply) => {
    if (!bearerMatches(request.headers.authorization, expected)) throw new Unauthenticated();
    const { contentType, body } = await metrics.render();
    return reply.type(contentType).header('cache-control', 'no-store').send(body);
  });
};

export default metricsRoutes;
