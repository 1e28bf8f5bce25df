// A user's answers that other modules show too: the full user (the profile, the dashboard, the
// account's export) and the back office's account view. Pure: a row in, an answer out. One of the
// pure helpers a module publishes to the others (docs/architecture.md, "Three ways of wiring").
import type { Static } from 'typebox';
import { isoTimestamp } from '../../lib/time.js';
import { avatarOf } from './avatars.js';
import type { UserRow } from './repository.js';
import type { FullUserSchema } from './schemas.js';

export type FullUser = Static<typeof FullUserSchema>;

export function fullUserView(user: UserRow): FullUser {
  return {
    id: user.id,
    // Only a deleted account has no phone, and it has no token left to ask for its profile.
    phone: user.phone ?? '',
    country: user.country,
    name: user.name,
    username: user.username,
    avatar: avatarOf(user),
    affiliation_code: user.affiliationCode,
    credits_balance: user.creditsBalance,
    money_balance: user.moneyBalance,
  };
}

export function adminUserView(user: UserRow) {
  return {
    id: user.id,
    phone: user.phone,
    country: user.country,
    name: user.name,
    username: user.username,
    role: user.role,
    status: user.status,
    credits_balance: user.creditsBalance,
    money_balance: user.moneyBalance,
    created_at: isoTimestamp(user.createdAt),
  };
}

export type AdminUserView = ReturnType<typeof adminUserView>;
