// The profile (read, name and username, avatar upload) and the avatars, public (no token): the
// default picture, kept beside the code (src/assets, copied into dist by the build) and read once at
// start, and each user's own, read from the storage driver.
import { readFile } from 'node:fs/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { envelope } from '../../lib/envelope.js';
import { NotFound, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { currentUser } from '../../plugins/app/auth.js';
import uploads, { nonEmptyFile, readForm, requireMultipart } from '../../plugins/external/uploads.js';
import { authErrors, commonErrors, Envelope, ErrorEnvelope, FileResponse } from '../../schemas/common.js';
import { avatarWebp } from './avatar-image.js';
import { DEFAULT_AVATAR_PATH } from './avatars.js';
import { FullUserSchema, UpdateProfileBody } from './schemas.js';

const DEFAULT_AVATAR_FILE = new URL('../../assets/avatars/default.png', import.meta.url);

/** 2 MB: DESIGN.md's limit on an avatar upload. */
export const AVATAR_MAX_BYTES = 2 * 1024 * 1024;

const userErrors = { ...authErrors, 404: ErrorEnvelope };

const userRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { profile } = app.services;
  const picture = await readFile(DEFAULT_AVATAR_FILE);
  await app.register(uploads);

  app.get(
    DEFAULT_AVATAR_PATH,
    {
      schema: {
        tags: ['users'],
        summary: 'Avatar par défaut (public, sans jeton)',
        response: {
          200: FileResponse(['image/png'], 'PNG 128×128'),
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

  app.get(
    '/avatars/:file',
    {
      schema: {
        tags: ['users'],
        summary: 'Avatar d’un utilisateur (public, sans jeton)',
        params: Type.Object({
          file: Type.String({ maxLength: 64, examples: ['12-0123456789abcdef0123456789abcdef.webp'] }),
        }),
        response: {
          // Streamed from the storage driver.
          200: FileResponse(['image/webp'], 'WebP 256×256'),
          404: ErrorEnvelope,
          ...commonErrors,
        },
      },
    },
    async (request, reply) => {
      const file = await profile.avatarFile(request.params.file);
      if (!file) throw new NotFound();
      return (
        reply
          .type('image/webp')
          .header('content-length', file.size)
          // A new upload gets a new name, so a name's bytes never change: cache for a year.
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('cross-origin-resource-policy', 'cross-origin')
          .send(file.body)
      );
    },
  );

  app.get(
    '/api/user/profile',
    {
      schema: {
        tags: ['profile'],
        summary: 'Mon profil (l’utilisateur complet)',
        security: [{ bearer: [] }],
        response: {
          200: Envelope(Type.Array(Type.Unknown(), { maxItems: 0 }), FullUserSchema),
          ...userErrors,
        },
      },
    },
    async (request) => {
      const user = await profile.profileOf(currentUser(request));
      return envelope({ user, message: messages.profile });
    },
  );

  app.post(
    '/api/user/profile/update',
    {
      schema: {
        tags: ['profile'],
        summary: 'Modifier le nom et/ou le nom d’utilisateur (unique)',
        security: [{ bearer: [] }],
        body: UpdateProfileBody,
        response: {
          200: Envelope(Type.Array(Type.Unknown(), { maxItems: 0 }), FullUserSchema),
          ...userErrors,
        },
      },
    },
    async (request) => {
      const user = await profile.update(currentUser(request), request.body);
      return envelope({ user, message: messages.profileUpdated });
    },
  );

  app.post(
    '/api/user/profile/avatar',
    {
      schema: {
        tags: ['profile'],
        summary: 'Changer d’avatar (multipart, champ avatar : JPEG, PNG ou WebP, 2 Mo au plus)',
        description:
          'L’image est réencodée en WebP 256×256 (recadrée au centre, sans métadonnées) ; 413 au-delà de 2 Mo.',
        security: [{ bearer: [] }],
        consumes: ['multipart/form-data'],
        response: {
          200: Envelope(
            Type.Object({
              avatar: Type.String({ description: 'Path starting with /, served without a token' }),
            }),
            FullUserSchema,
          ),
          ...userErrors,
        },
      },
    },
    async (request) => {
      const user = currentUser(request);
      requireMultipart(request);
      let webp: Buffer | undefined;
      // Every part is read, so the limits (parts, bytes) are enforced; other fields and files are
      // ignored, an empty `avatar` counts as none, and the avatar is stored only once the whole
      // form is known to be acceptable.
      await readForm(request, { fileSize: AVATAR_MAX_BYTES }, async (part) => {
        if (part.type !== 'file') return;
        const file = part.fieldname === 'avatar' && !webp ? await nonEmptyFile(request, part) : undefined;
        if (file) webp = await avatarWebp(file);
        else part.file.resume();
      });
      if (!webp) throw ValidationFailed.field('avatar', messages.avatarRequired);
      const updated = await profile.changeAvatar(user, webp);
      return envelope({ user: updated, message: messages.avatarUpdated, data: { avatar: updated.avatar } });
    },
  );
};

export default userRoutes;
