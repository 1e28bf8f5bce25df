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
import type { Clock } from '../../lib/clock.js';
import { NotFound, Unauthenticated, ValidationFailed } from '../../lib/errors.js';
import { messages, playTexts } from '../../lib/messages.js';
import { acceptableBirthDate, doualaDate } from '../../lib/play-calendar.js';
import type { StorageDriver, StoredFile } from '../../providers/storage/index.js';
import { AVATAR_FOLDER, avatarKeyOf, USER_AVATAR_FILE } from './avatars.js';
import { setBirthDateOnce } from './play-repository.js';
import { findUserById, lockUser, setAvatarPath, type UserRow, updateUserProfile } from './repository.js';
import type { UpdateProfileBody } from './schemas.js';
import { type FullUser, fullUserView } from './views.js';

export interface ProfileServiceDeps {
  db: Database;
  clock: Clock;
  storage: StorageDriver;
  logger: FastifyBaseLogger;
}

export function createProfileService({ db, clock, storage, logger }: ProfileServiceDeps) {
  return {
    async profileOf(user: { id: number }): Promise<FullUser> {
      const row = await findUserById(db, user.id);
      if (!row) throw new NotFound();
      return fullUserView(row);
    },

    /**
     * Changes the name, the username, the language and/or the date of birth, each valid alone; a
     * username another account holds is a 422, even in a race. The date of birth is set once: another
     * one afterwards is a 422 (only an admin changes it), the same one again changes nothing.
     */
    async update(user: { id: number }, input: Static<typeof UpdateProfileBody>): Promise<FullUser> {
      if (
        input.name === undefined &&
        input.username === undefined &&
        input.locale === undefined &&
        input.birth_date === undefined
      ) {
        throw ValidationFailed.field('body', messages.profileNothingToChange);
      }
      // Every field checked before anything is written.
      if (input.name !== undefined && input.name.trim().length < 2) {
        throw ValidationFailed.field('name', messages.profileNameBlank);
      }
      if (input.birth_date !== undefined) {
        if (!acceptableBirthDate(input.birth_date, doualaDate(clock.now()))) {
          throw ValidationFailed.field('birth_date', playTexts.birthDateInvalid);
        }
        const row = await setBirthDateOnce(db, user.id, input.birth_date);
        if (!row) {
          const current = await findUserById(db, user.id);
          if (current?.status !== 'active') throw new Unauthenticated();
          throw ValidationFailed.field('birth_date', playTexts.birthDateLocked);
        }
        if (input.name === undefined && input.username === undefined && input.locale === undefined) {
          return fullUserView(row);
        }
      }
      const changes: { name?: string; username?: string; locale?: Locale } = {};
      if (input.locale !== undefined) changes.locale = input.locale;
      if (input.name !== undefined) changes.name = input.name.trim();
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
