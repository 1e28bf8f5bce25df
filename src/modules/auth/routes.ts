// Sign-in: one-time codes by SMS or WhatsApp exchanged for a bearer token, and logout.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import { authErrors, EmptyArray, Envelope } from '../../schemas/common.js';
import { logout } from './tokens.js';

const authRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/api/user/logout',
    {
      schema: {
        tags: ['auth'],
        summary: 'Révoquer le jeton courant',
        security: [{ bearer: [] }],
        response: { 200: Envelope(EmptyArray, Type.Object({ id: Type.Integer() })), ...authErrors },
      },
    },
    async (request) => {
      const user = currentUser(request);
      await logout(app.db, user, app.clock.now());
      return envelope({ user: { id: user.id }, message: messages.loggedOut });
    },
  );
};

export default authRoutes;
