// The affiliation's queries: the godfather link (`users.godfather_id`, this module's column of the
// users table, as the balances are money's) and the godchildren a user sees. The referral wallet
// (balance, withdrawals) is money's.
import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/client.js';
import { users } from '../../db/schema/users.js';
import type { Locale, UserStatus } from '../../lib/allowed-values.js';

/** The advisory-lock key of every change of the godfather graph (one at a time: no cycle can race in). */
const AFFILIATION_GRAPH_LOCK = 0x61666631;

/** Serializes the applies of referral codes until the transaction ends. */
export async function lockAffiliationGraph(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${AFFILIATION_GRAPH_LOCK})`);
}

export interface Referrer {
  id: number;
  status: UserStatus;
  name: string | null;
  username: string | null;
  /** Null once the account is deleted. */
  phone: string | null;
}

const referrerColumns = {
  id: users.id,
  status: users.status,
  name: users.name,
  username: users.username,
  phone: users.phone,
};

export async function findUserByAffiliationCode(db: Executor, code: string): Promise<Referrer | undefined> {
  const [row] = await db.select(referrerColumns).from(users).where(eq(users.affiliationCode, code)).limit(1);
  return row;
}

/** The user's own godfather link, locked until the transaction ends. */
export async function lockGodfatherLink(
  db: Executor,
  userId: number,
): Promise<{ godfatherId: number | null } | undefined> {
  const [row] = await db
    .select({ godfatherId: users.godfatherId })
    .from(users)
    .where(eq(users.id, userId))
    .for('update');
  return row;
}

/**
 * Whether `userId` is `godfatherId` or one of its godfathers, however far up: the chain is walked in
 * SQL (a recursive CTE; UNION stops on a loop, the depth bound on anything unexpected).
 */
export async function isInGodfatherChain(
  db: Executor,
  godfatherId: number,
  userId: number,
): Promise<boolean> {
  const result = await db.execute(sql`
    WITH RECURSIVE chain(id, godfather_id, depth) AS (
      SELECT id, godfather_id, 1 FROM users WHERE id = ${godfatherId}
      UNION
      SELECT u.id, u.godfather_id, c.depth + 1
        FROM users u JOIN chain c ON u.id = c.godfather_id
       WHERE c.depth < 100000
    )
    SELECT 1 AS found FROM chain WHERE id = ${userId} LIMIT 1`);
  return (result as unknown as { rows: unknown[] }).rows.length > 0;
}

export async function setGodfather(db: Executor, userId: number, godfatherId: number): Promise<boolean> {
  const updated = await db
    .update(users)
    .set({ godfatherId, updatedAt: sql`now()` })
    .where(and(eq(users.id, userId), sql`${users.godfatherId} IS NULL`))
    .returning({ id: users.id });
  return updated.length > 0;
}

/** The godfather a user has now (the one a payment's commission goes to), if any. */
/** The account's godfather, with the language his commission's ledger row is written in. */
export async function findGodfatherOf(
  db: Executor,
  userId: number,
): Promise<(Referrer & { locale: Locale }) | undefined> {
  const godfather = alias(users, 'godfather');
  const [row] = await db
    .select({
      id: godfather.id,
      status: godfather.status,
      locale: godfather.locale,
      name: godfather.name,
      username: godfather.username,
      phone: godfather.phone,
    })
    .from(users)
    .innerJoin(godfather, eq(godfather.id, users.godfatherId))
    .where(eq(users.id, userId));
  return row;
}

export interface GodchildRow {
  id: number;
  name: string | null;
  username: string | null;
  phone: string | null;
  avatarPath: string | null;
  createdAt: string;
}

/** The active godchildren, newest first, at most `limit`. */
export async function listGodchildren(
  db: Executor,
  godfatherId: number,
  limit: number,
): Promise<GodchildRow[]> {
  return db
    .select({
      id: users.id,
      name: users.name,
      username: users.username,
      phone: users.phone,
      avatarPath: users.avatarPath,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(and(eq(users.godfatherId, godfatherId), eq(users.status, 'active')))
    .orderBy(desc(users.createdAt), desc(users.id))
    .limit(limit);
}

export async function countActiveGodchildren(db: Executor, godfatherId: number): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(users)
    .where(and(eq(users.godfatherId, godfatherId), eq(users.status, 'active')));
  return Number(row?.total ?? 0);
}

/** Every godchild of a user, blocked ones included (the back office's user detail). */
export async function countAllGodchildren(db: Executor, godfatherId: number): Promise<number> {
  const [row] = await db.select({ total: count() }).from(users).where(eq(users.godfatherId, godfatherId));
  return Number(row?.total ?? 0);
}

/** The account is deleted: its godchildren keep their accounts without a godfather, and it keeps none. */
export async function releaseReferralLinks(db: Executor, userId: number): Promise<number> {
  const released = await db
    .update(users)
    .set({ godfatherId: null, updatedAt: sql`now()` })
    .where(eq(users.godfatherId, userId))
    .returning({ id: users.id });
  await db.update(users).set({ godfatherId: null }).where(eq(users.id, userId));
  return released.length;
}

/** The user's referral links for the data export: their own code, their godfather, their godchildren's ids. */
export async function referralLinksOf(
  db: Executor,
  userId: number,
): Promise<{ affiliationCode: string; godfatherId: number | null; godchildren: number[] } | undefined> {
  const [own] = await db
    .select({ affiliationCode: users.affiliationCode, godfatherId: users.godfatherId })
    .from(users)
    .where(eq(users.id, userId));
  if (!own) return undefined;
  const children = await db
    .select({ id: users.id })
    .from(users)
    .where(eq(users.godfatherId, userId))
    .orderBy(asc(users.id));
  return { ...own, godchildren: children.map((child) => child.id) };
}
