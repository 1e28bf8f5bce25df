// Where a user's avatar is served: their own upload (the profile issue) or the default picture,
// served publicly by users/routes.ts. Paths start with `/` so clients join them to the API's origin.
// Pure: one of the helpers a module publishes to the others (docs/architecture.md, "Three ways of
// wiring").
export const DEFAULT_AVATAR_PATH = '/avatars/default.png';

export function avatarOf(user: { avatarPath: string | null }): string {
  return user.avatarPath ?? DEFAULT_AVATAR_PATH;
}

/** Where user avatars are served (beside the default one): `/avatars/<user id>-<32 hex>.webp`. */
export const USER_AVATAR_FILE = /^[1-9]\d{0,9}-[0-9a-f]{32}\.webp$/;
export const AVATAR_FOLDER = 'avatars';

/** The storage key of an uploaded avatar's public path, or undefined for the default one. */
export function avatarKeyOf(path: string | null): string | undefined {
  const file = path?.startsWith(`/${AVATAR_FOLDER}/`) ? path.slice(AVATAR_FOLDER.length + 2) : undefined;
  return file !== undefined && USER_AVATAR_FILE.test(file) ? `${AVATAR_FOLDER}/${file}` : undefined;
}
