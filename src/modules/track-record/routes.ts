// The track record: public figures (no authentication, cached a minute in the service), the
// caller's own, and the public page that draws them (HTML and a same-origin script: the CSP stays).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { pageLocale, scriptLocale } from '../../lib/page-locale.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope, UserId } from '../../schemas/common.js';
import { trackRecordPage, trackRecordScript } from './page.js';
import { ReturnsSchema, TrackRecordSchema } from './schemas.js';
import { RECORD_CACHE_MS } from './service.js';

const trackRecordRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { trackRecord } = app.services;

  app.get(
    '/api/track-record',
    {
      schema: {
        tags: ['track-record'],
        summary: 'Bilan public de toutes les analyses réglées (mis en cache une minute)',
        // The per-network request limit applies to every route.
        response: {
          200: Envelope(
            Type.Object({ track_record: TrackRecordSchema, returns: ReturnsSchema }),
            Type.Null(),
          ),
          429: ErrorEnvelope,
        },
      },
    },
    async (_request, reply) => {
      // The figures are the process's minute-old copy: a browser or a proxy may keep them as long.
      reply.header('cache-control', `public, max-age=${RECORD_CACHE_MS / 1000}`);
      return envelope({
        message: messages.trackRecord,
        data: { track_record: await trackRecord.publicRecord(), returns: await trackRecord.publicReturns() },
      });
    },
  );

  app.get(
    '/api/user/track-record',
    {
      schema: {
        tags: ['track-record'],
        summary: 'Le même bilan, sur mes propres analyses',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Object({ track_record: TrackRecordSchema }), UserId),
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.trackRecordOwn,
        data: { track_record: await trackRecord.userRecord(user.id) },
      });
    },
  );

  // The page in its reader's language (src/lib/page-locale.ts); an answer that sets the language
  // cookie is the reader's own, kept by no shared cache.
  app.get('/track-record', { schema: { hide: true } }, async (request, reply) => {
    const locale = pageLocale(request, reply);
    const scope = reply.hasHeader('set-cookie') ? 'private' : 'public';
    return reply
      .type('text/html; charset=utf-8')
      .header('cache-control', `${scope}, max-age=${RECORD_CACHE_MS / 1000}`)
      .send(trackRecordPage(locale));
  });
  // The page names its script's language in the address: one file per language, cached as such.
  app.get('/track-record/app.js', { schema: { hide: true } }, async (request, reply) =>
    reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .send(trackRecordScript(scriptLocale(request))),
  );
};

export default trackRecordRoutes;
