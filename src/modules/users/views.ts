// A user's answers that other modules show too: the full user (the profile, the dashboard, the
// account's export) and the back office's account view. Pure: a row in, an answer out. One of the
// pure helpers a module publishes to the others (docs/architecture.md, "Three ways of wiring").
import type { Static } from 'typebox';
import { messages } from '../../lib/messages.js';
import { maskPhone } from '../../lib/phone.js';
import { isoTimestamp } from '../../lib/time.js';
import { avatarOf } from './avatars.js';
import type { UserRow } from './repository.js';
import type { AdminUserSchema, FullUserSchema } from './schemas.js';

export type FullUser = Static<typeof FullUserSchema>;
export type AdminUserView = Static<typeof AdminUserSchema>;

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
    locale: user.locale,
    birth_date: user.birthDate,
    self_excluded_until: user.selfExcludedUntil === null ? null : isoTimestamp(user.selfExcludedUntil),
  };
}

/** An account as the back office lists it. */
export function adminUserView(user: UserRow): AdminUserView {
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

/** The public name of a user: their name, else their username, else their phone with the middle hidden. */
export function publicName(user: {
  name: string | null;
  username: string | null;
  phone: string | null;
}): string {
  // A deleted account keeps no name, username nor phone.
  if (user.phone === null) return user.name ?? user.username ?? messages.deletedAccountName;
  return user.name ?? user.username ?? maskPhone(user.phone);
}
