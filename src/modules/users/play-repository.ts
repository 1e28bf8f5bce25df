// Responsible play's queries on the account (DESIGN, "Responsible play"): the date of birth, the
// self-exclusion, the spending limits, and what a tombstone hands to a new account on its number.
import { and, desc, eq, inArray, isNull, or, sql } from 'drizzle-orm';
import { type Executor, type NamedStatement, namedQuery } from '../../db/client.js';
import { spendingLimits, users } from '../../db/schema/users.js';
import type { Locale, SpendingPeriod, UserStatus } from '../../lib/allowed-values.js';
import type { UserRow } from './repository.js';

export type LimitRow = typeof spendingLimits.$inferSelect;

/** The date of birth, written unless another one is already recorded; undefined when refused or not active. */
export async function setBirthDateOnce(
  db: Executor,
  id: number,
  birthDate: string,
): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ birthDate, updatedAt: sql`now()` })
    .where(
      and(
        eq(users.id, id),
        eq(users.status, 'active'),
        or(isNull(users.birthDate), eq(users.birthDate, birthDate)),
      ),
    )
    .returning();
  return row;
}

/** An admin's correction of the date of birth (the caller holds the row's lock). */
export async function setBirthDate(db: Executor, id: number, birthDate: string): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ birthDate, updatedAt: sql`now()` })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** The self-exclusion's end, only ever pushed later; the end it has now. */
export async function lengthenExclusion(db: Executor, id: number, until: string): Promise<string> {
  const [row] = await db
    .update(users)
    .set({
      selfExcludedUntil: sql`GREATEST(COALESCE(${users.selfExcludedUntil}, ${until}::timestamptz), ${until}::timestamptz)`,
      updatedAt: sql`now()`,
    })
    .where(eq(users.id, id))
    .returning({ until: users.selfExcludedUntil });
  return row!.until!;
}

/** A limit row as a checkout needs it (`limitsView`'s input). */
export type LimitTerms = Pick<LimitRow, 'period' | 'amount' | 'pendingAmount' | 'pendingAt'>;

/**
 * The account a checkout holds (FOR KEY SHARE, as `holdActiveUser`) with what it reads of it: its
 * status, language, date of birth, self-exclusion and limit rows. One fixed statement instead of
 * four (issue 57); the timestamps as text, as Drizzle reads them.
 */
const checkoutAccountStatement: NamedStatement = {
  name: 'users_checkout_account',
  text: `SELECT u.status, u.locale, u.birth_date::text AS "birthDate",
      u.self_excluded_until::text AS "selfExcludedUntil",
      (SELECT json_agg(json_build_object('period', l.period, 'amount', l.amount,
          'pendingAmount', l.pending_amount, 'pendingAt', l.pending_at::text))
        FROM spending_limits l WHERE l.user_id = u.id) AS limits
    FROM users u
    WHERE u.id = $1
    FOR KEY SHARE OF u`,
};

export interface CheckoutAccountRow {
  status: UserStatus;
  locale: Locale;
  birthDate: string | null;
  selfExcludedUntil: string | null;
  /** Null when the account has no limit row. */
  limits: LimitTerms[] | null;
}

export async function holdCheckoutAccount(db: Executor, id: number): Promise<CheckoutAccountRow | undefined> {
  const [row] = await namedQuery<CheckoutAccountRow>(db, checkoutAccountStatement, [id]);
  return row;
}

/** The account's date of birth and self-exclusion. */
export async function playColumnsOf(
  db: Executor,
  id: number,
): Promise<{ birthDate: string | null; selfExcludedUntil: string | null } | undefined> {
  const [row] = await db
    .select({ birthDate: users.birthDate, selfExcludedUntil: users.selfExcludedUntil })
    .from(users)
    .where(eq(users.id, id));
  return row;
}

export async function limitRowsOf(db: Executor, userId: number): Promise<LimitRow[]> {
  return db.select().from(spendingLimits).where(eq(spendingLimits.userId, userId));
}

export async function writeLimit(
  db: Executor,
  row: {
    userId: number;
    period: SpendingPeriod;
    amount: number | null;
    pendingAmount: number | null;
    pendingAt: string | null;
  },
): Promise<void> {
  await db
    .insert(spendingLimits)
    .values(row)
    .onConflictDoUpdate({
      target: [spendingLimits.userId, spendingLimits.period],
      set: {
        amount: row.amount,
        pendingAmount: row.pendingAmount,
        pendingAt: row.pendingAt,
        updatedAt: sql`now()`,
      },
    });
}

/**
 * What the tombstones of a number (by their keyed phone hash) leave to a new account on it: the
 * latest self-exclusion end, and each period's limit row of the most recent tombstone that has one.
 */
export async function tombstonePlayOf(
  db: Executor,
  phoneHash: string,
): Promise<{ until: string | null; limits: LimitRow[] }> {
  const stones = await db
    .select({ id: users.id, until: users.selfExcludedUntil })
    .from(users)
    .where(eq(users.welcomedPhoneHash, phoneHash))
    .orderBy(desc(users.id));
  if (stones.length === 0) return { until: null, limits: [] };
  const until = stones.reduce<string | null>(
    (latest, stone) =>
      stone.until !== null && (latest === null || Date.parse(stone.until) > Date.parse(latest))
        ? stone.until
        : latest,
    null,
  );
  const rows = await db
    .select()
    .from(spendingLimits)
    .where(
      inArray(
        spendingLimits.userId,
        stones.map((stone) => stone.id),
      ),
    )
    .orderBy(desc(spendingLimits.userId));
  const seen = new Set<string>();
  const limits = rows.filter((row) => !seen.has(row.period) && seen.add(row.period));
  return { until, limits };
}
