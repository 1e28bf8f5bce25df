// Where a user's avatar is served: their own upload (the profile issue) or the default picture,
// served publicly by users/routes.ts. Paths start with `/` so clients join them to the API's origin.
export const DEFAULT_AVATAR_PATH = '/avatars/default.png';

export function avatarOf(user: { avatarPath: string | null }): string {
  return user.avatarPath ?? DEFAULT_AVATAR_PATH;
}
