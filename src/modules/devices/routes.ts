// Push devices: a user registers a phone or browser for push notifications of their events, lists
// their devices and forgets one. Only the owner's devices, ever: another user's id is a 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { NotFound } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, EmptyArray, Envelope, ErrorEnvelope, IdParams, UserId } from '../../schemas/common.js';
import {
  DeviceSchema,
  ListedDeviceSchema,
  MAX_DEVICES_PER_USER,
  RegisterDeviceBody,
  WebpushKeyData,
} from './schemas.js';

const deviceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { devices } = app.services;

  app.post(
    '/api/user/devices',
    {
      schema: {
        tags: ['devices'],
        summary: 'Enregistrer un appareil pour recevoir mes événements en notification push',
        description:
          `One device per token: a token already registered (by this user or another) is moved to the caller, never duplicated. ` +
          `At most ${MAX_DEVICES_PER_USER} devices per user: registering another forgets the least recently registered one. ` +
          'A new device receives the events that happen after its registration.',
        security: [{ bearer: [] }],
        body: RegisterDeviceBody,
        response: { 201: Envelope(Type.Object({ device: DeviceSchema }), UserId), ...authErrors },
      },
    },
    async (request, reply) => {
      const user = currentUser(request);
      const device = await devices.register(user, request.body);
      return reply
        .code(201)
        .send(envelope({ user: { id: user.id }, message: messages.deviceRegistered, data: { device } }));
    },
  );

  app.get(
    '/api/user/devices',
    {
      schema: {
        tags: ['devices'],
        summary: 'Mes appareils enregistrés, du plus récemment enregistré au plus ancien',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Object({ devices: Type.Array(ListedDeviceSchema) }), UserId),
          ...authErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      return envelope({
        user: { id: user.id },
        message: messages.deviceList,
        data: { devices: await devices.list(user) },
      });
    },
  );

  app.get(
    '/api/push/webpush-key',
    {
      schema: {
        tags: ['devices'],
        summary: 'La clé publique VAPID avec laquelle un navigateur s’abonne aux notifications web',
        description:
          'No token needed: the web app subscribes (`pushManager.subscribe({applicationServerKey})`) before it registers the subscription as a `webpush` device. 404 when the service has no VAPID key (web push off).',
        response: { 200: Envelope(WebpushKeyData, Type.Null()), 404: ErrorEnvelope },
      },
    },
    async () => {
      const publicKey = app.config.webpush.publicKey;
      if (publicKey === undefined) throw new NotFound(messages.webpushOff);
      return envelope({ message: messages.webpushKey, data: { public_key: publicKey } });
    },
  );

  app.delete(
    '/api/user/devices/:id',
    {
      schema: {
        tags: ['devices'],
        summary: 'Oublier un de mes appareils : il ne recevra plus de notifications',
        security: [{ bearer: [] }],
        params: IdParams,
        response: { 200: Envelope(EmptyArray, UserId), ...authErrors, 404: ErrorEnvelope },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await devices.forget(user, request.params.id);
      return envelope({ user: { id: user.id }, message: messages.deviceForgotten });
    },
  );
};

export default deviceRoutes;
