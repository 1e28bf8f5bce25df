// Queries on user accounts.
import { and, count, desc, eq, gte, inArray, isNotNull, lt, or, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { type Paged, pageOf } from '../../db/page-of.js';
import { users } from '../../db/schema/users.js';
import type { Locale, UserRole, UserStatus } from '../../lib/allowed-values.js';
import type { PageRequest } from '../../lib/pagination.js';
import { escapeLike } from '../../lib/text.js';

export type UserRow = typeof users.$inferSelect;

export async function findUserByPhone(db: Executor, phone: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.phone, phone)).limit(1);
  return row;
}

export async function findUserById(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** The account's language alone (a push, a payout message, a ledger row written with no request). */
export async function findUserLocale(db: Executor, id: number): Promise<Locale | undefined> {
  const [row] = await db.select({ locale: users.locale }).from(users).where(eq(users.id, id)).limit(1);
  return row?.locale;
}

/** Inserts the account unless the phone has one; returns the new row, or undefined when it existed. */
export async function insertUserIfAbsent(
  db: Executor,
  values: { phone: string; country: string; affiliationCode: string; locale?: Locale },
): Promise<UserRow | undefined> {
  const [row] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.phone })
    .returning();
  return row;
}

export async function affiliationCodeTaken(db: Executor, code: string): Promise<boolean> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.affiliationCode, code)).limit(1);
  return row !== undefined;
}

export async function setUserRole(db: Executor, id: number, role: UserRole): Promise<void> {
  await db.update(users).set({ role }).where(eq(users.id, id));
}

export async function updateUserProfile(
  db: Executor,
  id: number,
  changes: { name?: string; username?: string; locale?: Locale },
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ ...changes, updatedAt: sql`now()` })
    // An account deleted meanwhile is not changed: the row's new version (the tombstone) is what
    // the condition reads once the deletion's lock is released.
    .where(and(eq(users.id, id), eq(users.status, 'active')))
    .returning();
  return row;
}

/**
 * Whether the account is active, its row held (FOR KEY SHARE) until the caller's transaction ends:
 * a deletion (which locks the row FOR UPDATE) waits for the write, or the write sees the tombstone.
 * Writes of one account do not wait for each other, nor for a balance update.
 */
export async function holdActiveUser(db: Executor, id: number): Promise<boolean> {
  const [row] = await db
    .select({ status: users.status })
    .from(users)
    .where(eq(users.id, id))
    .for('key share');
  return row?.status === 'active';
}

/** The user's row, locked until the caller's transaction ends (two avatar uploads apply one after the other). */
export async function lockUser(db: Executor, id: number): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).for('update').limit(1);
  return row;
}

export async function setAvatarPath(db: Executor, id: number, avatarPath: string): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ avatarPath, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export interface UserListFilter {
  /** Digits of a phone (partial), or a username/name fragment (case-insensitive); already trimmed. */
  search?: string;
  role?: UserRole;
  status?: UserStatus;
}

function userListConditions(filter: UserListFilter) {
  const search = filter.search;
  const digits = search?.replace(/[\s+().-]/g, '');
  const bySearch =
    search === undefined || search === ''
      ? undefined
      : or(
          digits !== undefined && /^\d+$/.test(digits)
            ? sql`${users.phone} LIKE ${`%${escapeLike(digits)}%`}`
            : undefined,
          sql`lower(${users.username}) LIKE ${`%${escapeLike(search.toLowerCase())}%`}`,
          sql`lower(${users.name}) LIKE ${`%${escapeLike(search.toLowerCase())}%`}`,
        );
  return and(
    bySearch,
    filter.role ? eq(users.role, filter.role) : undefined,
    filter.status ? eq(users.status, filter.status) : undefined,
  );
}

/** A page of accounts for the back office, newest first. */
export function pageOfUsers(
  db: Executor,
  filter: UserListFilter,
  page: PageRequest,
): Promise<Paged<UserRow>> {
  return pageOf(
    db,
    users,
    { where: userListConditions(filter), orderBy: [desc(users.createdAt), desc(users.id)] },
    page,
  );
}

/** The accounts of these ids (the back office shows who a ticket or a withdrawal is from). */
export async function findUsersByIds(db: Executor, ids: readonly number[]): Promise<UserRow[]> {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(users)
    .where(inArray(users.id, [...ids]));
}

export async function setUserStatus(db: Executor, id: number, status: UserStatus): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ status, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

export async function setUserRoleReturning(db: Executor, id: number, role: UserRole): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** Sign-ups from `from` (inclusive) to `before` (exclusive), in total and per UTC day: one query. */
export async function signupsByDay(
  db: Executor,
  range: { from: string; before: string },
): Promise<{ day: string; total: number }[]> {
  const day = sql<string>`to_char(${users.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD')`;
  const rows = await db
    .select({ day, total: count() })
    .from(users)
    .where(and(gte(users.createdAt, range.from), lt(users.createdAt, range.before)))
    .groupBy(day);
  return rows.map((row) => ({ day: row.day, total: Number(row.total) }));
}

/** Records the first verified sign-in code of the account's phone (a returning number from then on). */
export async function markPhoneVerified(db: Executor, id: number): Promise<void> {
  await db
    .update(users)
    .set({ phoneVerifiedAt: sql`now()` })
    .where(and(eq(users.id, id), sql`${users.phoneVerifiedAt} IS NULL`));
}

/**
 * Records the language a request asked for on the account, unless it already has it (no write, no
 * `updated_at` change, on the usual sign-in); a tombstone keeps none.
 */
export async function setUserLocale(db: Executor, id: number, locale: Locale): Promise<void> {
  await db
    .update(users)
    .set({ locale, updatedAt: sql`now()` })
    .where(and(eq(users.id, id), sql`${users.locale} <> ${locale}`, sql`${users.status} <> 'deleted'`));
}

/** Admins other than `id` whose accounts are active (the last admin may not delete their account). */
/** The advisory-lock key of the admin roster: deletions, role changes and blocks take turns under it. */
const ADMIN_ROSTER_LOCK = 7_300_001;

/**
 * Taken first by whatever may remove an active admin (an account's deletion, a role change, a
 * block), before any row lock, so two of them never both count the other as the admin who remains.
 */
export async function lockAdminRoster(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${ADMIN_ROSTER_LOCK})`);
}

export async function countOtherActiveAdmins(db: Executor, id: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .where(and(eq(users.role, 'admin'), eq(users.status, 'active'), sql`${users.id} <> ${id}`));
  return Number(row?.total ?? 0);
}

/**
 * The account becomes a tombstone: no phone (free for a new account), name, username nor avatar,
 * status `deleted`; only a keyed hash of the phone stays, so the number gets no second welcome. The id, country, role, referral code, balances and creation date stay, for the
 * financial rows that point at it.
 */
export async function tombstoneUser(
  db: Executor,
  id: number,
  welcomedPhoneHash: string | null,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({
      phone: null,
      welcomedPhoneHash,
      welcomedPhoneHashKey: welcomedPhoneHash === null ? null : 'tombstone_key',
      name: null,
      username: null,
      avatarPath: null,
      phoneVerifiedAt: null,
      // Personal; the self-exclusion and the limits stay, for a new account on the number (play.ts).
      birthDate: null,
      status: 'deleted',
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** Whether a deleted account had this phone (its keyed hash): the number had its welcome credits. */
export async function phoneWasWelcomed(db: Executor, welcomedPhoneHash: string): Promise<boolean> {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.welcomedPhoneHash, welcomedPhoneHash))
    .limit(1);
  return row !== undefined;
}

/** Tombstones whose phone hash is still keyed by APP_SECRET alone, locked for their re-keying. */
export async function lockHashesKeyedByAppSecret(db: Executor): Promise<{ id: number; hash: string }[]> {
  const rows = await db
    .select({ id: users.id, hash: users.welcomedPhoneHash })
    .from(users)
    .where(and(eq(users.welcomedPhoneHashKey, 'app_secret'), isNotNull(users.welcomedPhoneHash)))
    .orderBy(users.id)
    .for('update');
  return rows.map((row) => ({ id: row.id, hash: row.hash! }));
}

/** One tombstone's re-keyed hash, only if it is still keyed by APP_SECRET (never keyed twice). */
export async function setRekeyedPhoneHash(db: Executor, id: number, hash: string): Promise<void> {
  await db
    .update(users)
    .set({ welcomedPhoneHash: hash, welcomedPhoneHashKey: 'tombstone_key' })
    .where(and(eq(users.id, id), eq(users.welcomedPhoneHashKey, 'app_secret')));
}
