// The profile: the full user (what the dashboard shows too), the name and username, and the avatar.
// An avatar is stored under a new key on each upload (so its URL can be cached for ever), the row
// points at it in a transaction that locks the user, and only then is the old file removed; if the
// row cannot be written, the new file is removed, so a failure leaves neither file nor row.
import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Static } from 'typebox';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import type { Locale } from '../../lib/allowed-values.js';
import { NotFound, Unauthenticated, ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import type { StorageDriver, StoredFile } from '../../providers/storage/index.js';
import { AVATAR_FOLDER, avatarKeyOf, USER_AVATAR_FILE } from './avatars.js';
import { findUserById, lockUser, setAvatarPath, type UserRow, updateUserProfile } from './repository.js';
import type { UpdateProfileBody } from './schemas.js';
import { type FullUser, fullUserView } from './views.js';

export interface ProfileServiceDeps {
  db: Database;
  storage: StorageDriver;
  logger: FastifyBaseLogger;
}

export function createProfileService({ db, storage, logger }: ProfileServiceDeps) {
  return {
    async profileOf(user: { id: number }): Promise<FullUser> {
      const row = await findUserById(db, user.id);
      if (!row) throw new NotFound();
      return fullUserView(row);
    },

    /**
     * Changes the name, the username and/or the language, each valid alone; a username another
     * account holds is a 422, even in a race.
     */
    async update(user: { id: number }, input: Static<typeof UpdateProfileBody>): Promise<FullUser> {
      if (input.name === undefined && input.username === undefined && input.locale === undefined) {
        throw ValidationFailed.field('body', messages.profileNothingToChange);
      }
      const changes: { name?: string; username?: string; locale?: Locale } = {};
      if (input.locale !== undefined) changes.locale = input.locale;
      if (input.name !== undefined) {
        const name = input.name.trim();
        if (name.length < 2) throw ValidationFailed.field('name', messages.profileNameBlank);
        changes.name = name;
      }
      if (input.username !== undefined) changes.username = input.username;
      try {
        const updated = await updateUserProfile(db, user.id, changes);
        // Deleted after this request was authenticated: its token is revoked, nothing is written.
        if (!updated) throw new Unauthenticated();
        return fullUserView(updated);
      } catch (error) {
        // The unique index decides, so two accounts racing for one username cannot both get it.
        if (isUniqueViolation(error, 'users_username_unique')) {
          throw ValidationFailed.field('username', messages.usernameTaken);
        }
        throw error;
      }
    },

    /** Stores the (already re-encoded) WebP as the user's avatar and removes the previous file. */
    async changeAvatar(user: { id: number }, webp: Uint8Array): Promise<FullUser> {
      const key = `${AVATAR_FOLDER}/${user.id}-${randomBytes(16).toString('hex')}.webp`;
      await storage.put(key, webp, { contentType: 'image/webp' });
      let previous: string | null;
      let updated: UserRow;
      try {
        ({ previous, updated } = await db.transaction(async (tx) => {
          const current = await lockUser(tx, user.id);
          // Deleted after this request was authenticated: the stored file goes, nothing is written.
          if (current?.status !== 'active') throw new Unauthenticated();
          return { previous: current.avatarPath, updated: await setAvatarPath(tx, user.id, `/${key}`) };
        }));
      } catch (error) {
        await storage.delete(key).catch((cleanup: unknown) => {
          logger.error({ err: cleanup, key }, 'could not remove an avatar whose row was not written');
        });
        throw error;
      }
      const previousKey = avatarKeyOf(previous);
      if (previousKey) {
        // The row no longer names it; a failure here leaves an orphan file, never a broken avatar.
        await storage.delete(previousKey).catch((cleanup: unknown) => {
          logger.warn({ err: cleanup, key: previousKey }, 'could not remove a replaced avatar');
        });
      }
      return fullUserView(updated);
    },

    /** A user's avatar file by its public name, or undefined. */
    async avatarFile(file: string): Promise<StoredFile | undefined> {
      if (!USER_AVATAR_FILE.test(file)) return undefined;
      return storage.get(`${AVATAR_FOLDER}/${file}`);
    },
  };
}

export type ProfileService = ReturnType<typeof createProfileService>;
