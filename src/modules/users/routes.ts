// The default avatar, public (no token) like every avatar: a small PNG kept beside the code
// (src/assets, copied into dist by the build) and read once at start.
import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { commonErrors } from '../../schemas/common.js';
import { DEFAULT_AVATAR_PATH } from './avatars.js';

const DEFAULT_AVATAR_FILE = new URL('../../assets/avatars/default.png', import.meta.url);

const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const picture = await readFile(DEFAULT_AVATAR_FILE);

  app.get(
    DEFAULT_AVATAR_PATH,
    {
      schema: {
        tags: ['users'],
        summary: 'Avatar par défaut (public, sans jeton)',
        response: {
          // Sent as bytes: Fastify never serializes a Buffer.
          200: Type.Unsafe<Buffer>({
            type: 'string',
            contentMediaType: 'image/png',
            description: 'PNG 128×128',
          }),
          ...commonErrors,
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('image/png')
        .header('cache-control', 'public, max-age=86400')
        // Avatars are public: a web client on another origin may show them.
        .header('cross-origin-resource-policy', 'cross-origin')
        .send(picture),
  );
};

export default userRoutes;
