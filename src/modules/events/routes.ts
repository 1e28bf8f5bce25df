// The event logs' routes: the live stream of a user's log (text/event-stream, replaying after
// Last-Event-ID), and the history by request, ascending by seq after the last one a client has.
// Each user reads only their own log; the back office's log is under /api/admin/ (guarded by the
// auth plugin).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, Envelope, ErrorEnvelope, FileResponse, UserId } from '../../schemas/common.js';
import { AdminHistoryData, HistoryQuery, StreamKeyData, UserHistoryData } from './schemas.js';

const eventRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { events, eventStreams, tokens } = app.services;

  // Shutdown ends the streams (clients reconnect with Last-Event-ID): an open one would hold the
  // server's close forever.
  app.addHook('preClose', () => eventStreams.closeAll());

  /** The stream's answer: 200 text/event-stream, its body following the log as it commits. */
  async function streamOf(request: FastifyRequest, reply: FastifyReply, admin: boolean) {
    const user = currentUser(request);
    const raw = request.headers['last-event-id'];
    const after = raw === undefined || raw === '' ? 0 : Number(raw);
    if (!Number.isSafeInteger(after) || after < 0 || after > 2_147_483_647) {
      throw ValidationFailed.field('last-event-id', messages.lastEventIdInvalid);
    }
    // Watched from the start of the handler: a client that hangs up while the stream opens (its
    // replay queries) must not leave the stream registered. The authentication hook's reads came
    // before this, so a socket already gone is seen here too.
    const gone = new AbortController();
    reply.raw.once('close', () => gone.abort());
    if (request.raw.socket?.destroyed) gone.abort();
    const stream = await eventStreams.open(user, after, admin, gone.signal);
    return (
      reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-cache, no-transform')
        // A proxy that buffers (nginx) would hold the events back.
        .header('x-accel-buffering', 'no')
        .send(stream.body)
    );
  }

  const streamDescription =
    'Not an envelope: `text/event-stream`. Each message is `id: <seq>` and `data: {"id","type","created_at","data"}`; ' +
    'a `: ping` comment every EVENTS_HEARTBEAT_SECONDS; past the retention a `stream.reset` message without id. ' +
    'Errors before the stream starts (401, 422, 429) are enveloped.';
  const LastEventId = Type.Object({ 'last-event-id': Type.Optional(Type.String({ maxLength: 20 })) });
  const StreamQuery = Type.Object({
    stream_key: Type.Optional(
      Type.String({
        maxLength: 128,
        description:
          'A single-use key from POST /api/user/events/key, for clients that cannot send a header.',
      }),
    ),
  });

  app.get(
    '/api/user/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Mes événements en direct (Server-Sent Events), rejoués après Last-Event-ID',
        description: streamDescription,
        security: [{ bearer: [] }, { streamKey: [] }],
        headers: LastEventId,
        querystring: StreamQuery,
        response: {
          // Not an envelope (like a served file): the stream's text, sent as events commit.
          200: FileResponse(['text/event-stream'], 'The stream of the user’s events'),
          ...authErrors,
          429: ErrorEnvelope,
        },
      },
    },
    (request, reply) => streamOf(request, reply, false),
  );

  app.get(
    '/api/admin/events',
    {
      schema: {
        tags: ['events'],
        summary: 'Événements du back-office en direct (Server-Sent Events), rejoués après Last-Event-ID',
        description: streamDescription,
        security: [{ bearer: [] }, { streamKey: [] }],
        headers: LastEventId,
        querystring: StreamQuery,
        response: {
          200: FileResponse(['text/event-stream'], 'The stream of the back office’s events'),
          ...authErrors,
          403: ErrorEnvelope,
          429: ErrorEnvelope,
        },
      },
    },
    (request, reply) => streamOf(request, reply, true),
  );

  app.post(
    '/api/user/events/key',
    {
      schema: {
        tags: ['events'],
        summary: 'Une clé à usage unique (60 s) pour ouvrir mon flux d’événements depuis un navigateur',
        description:
          'For EventSource, which cannot send an Authorization header: `GET /api/user/events?stream_key=…` ' +
          '(or /api/admin/events for an admin) opens one stream with the token that asked for the key.',
        security: [{ bearer: [] }],
        response: { 200: Envelope(StreamKeyData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.streamKeyIssued,
        data: await tokens.issueStreamKey(user),
      });
    },
  );

  app.get(
    '/api/user/events/history',
    {
      schema: {
        tags: ['events'],
        summary: 'Mes événements après un seq donné, du plus ancien au plus récent',
        security: [{ bearer: [] }],
        querystring: HistoryQuery,
        response: { 200: Envelope(UserHistoryData, UserId), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.eventHistory,
        data: await events.history(user, request.query),
      });
    },
  );

  app.get(
    '/api/admin/events/history',
    {
      schema: {
        tags: ['events'],
        summary: 'Événements du back-office après un seq donné, du plus ancien au plus récent',
        security: [{ bearer: [] }],
        querystring: HistoryQuery,
        response: { 200: Envelope(AdminHistoryData, UserId), ...authErrors, 403: ErrorEnvelope },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.adminEventHistory,
        data: await events.adminHistory(request.query),
      });
    },
  );
};

export default eventRoutes;
