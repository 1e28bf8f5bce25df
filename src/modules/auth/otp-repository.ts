// Queries for one-time codes. A row is a code the provider accepted; only its HMAC is stored.
import { and, asc, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import {
  otpAsks,
  otpCodes,
  otpNetworkAttempts,
  signupProofs,
  smsBudgetSpend,
} from '../../db/schema/users.js';

export type OtpCodeRow = typeof otpCodes.$inferSelect;
export type Channel = OtpCodeRow['channel'];

/**
 * What the per-hour limits count: one phone (from one client network, or from all), one client
 * network, one country calling code, or every code.
 */
export type SenderKey =
  | { phone: string; ip?: string }
  | { ip: string }
  | { callingCode: string }
  | { everyone: true };

function keyFilter(key: SenderKey) {
  if ('phone' in key) {
    const phone = eq(otpCodes.phone, key.phone);
    return key.ip === undefined ? phone : and(phone, eq(otpCodes.ip, key.ip));
  }
  if ('ip' in key) return eq(otpCodes.ip, key.ip);
  if ('callingCode' in key) return eq(otpCodes.callingCode, key.callingCode);
  return undefined;
}

export type Purpose = OtpCodeRow['purpose'];

/** When the phone's newest code for `purpose` was delivered, or undefined (the cooldown is per purpose). */
export async function lastSentAt(db: Executor, phone: string, purpose: Purpose): Promise<string | undefined> {
  const [row] = await db
    .select({ sentAt: otpCodes.sentAt })
    .from(otpCodes)
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose)))
    .orderBy(desc(otpCodes.sentAt))
    .limit(1);
  return row?.sentAt;
}

/** Codes delivered for the key after `since`. */
export async function countSentSince(db: Executor, key: SenderKey, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(otpCodes)
    .where(and(keyFilter(key), gt(otpCodes.sentAt, since.toISOString())));
  return row?.total ?? 0;
}

/** The delivery time of the key's `offset`-th oldest code after `since` (0 = the oldest). */
export async function sentAtByAge(
  db: Executor,
  key: SenderKey,
  since: Date,
  offset: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ sentAt: otpCodes.sentAt })
    .from(otpCodes)
    .where(and(keyFilter(key), gt(otpCodes.sentAt, since.toISOString())))
    .orderBy(asc(otpCodes.sentAt))
    .offset(offset)
    .limit(1);
  return row?.sentAt;
}

/** Voids the phone's codes for `purpose` still open (a newer one was just delivered). */
export async function closeOpenCodes(
  db: Executor,
  phone: string,
  purpose: Purpose,
  now: Date,
): Promise<void> {
  await db
    .update(otpCodes)
    .set({ closedAt: now.toISOString() })
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose), isNull(otpCodes.closedAt)));
}

/** Deletes every code sent for the account (its deletion: the phone is personal data). */
export async function deleteCodesOfUser(db: Executor, userId: number): Promise<void> {
  await db.delete(otpCodes).where(eq(otpCodes.userId, userId));
}

export async function insertCode(
  db: Executor,
  values: {
    userId: number;
    phone: string;
    callingCode: string;
    channel: Channel;
    purpose: Purpose;
    codeHash: string;
    ip: string;
    sentAt: Date;
    expiresAt: Date;
  },
): Promise<void> {
  await db.insert(otpCodes).values({
    ...values,
    sentAt: values.sentAt.toISOString(),
    expiresAt: values.expiresAt.toISOString(),
  });
}

/** The phone's open code for `purpose`, locked until the transaction ends so tries on it are counted one by one. */
export async function lockOpenCode(
  db: Executor,
  phone: string,
  purpose: Purpose,
): Promise<OtpCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.phone, phone), eq(otpCodes.purpose, purpose), isNull(otpCodes.closedAt)))
    .orderBy(desc(otpCodes.sentAt), desc(otpCodes.id))
    .limit(1)
    .for('update');
  return row;
}

/** Wrong tries already made on the code from the client network. */
export async function networkAttempts(db: Executor, codeId: number, network: string): Promise<number> {
  const [row] = await db
    .select({ attempts: otpNetworkAttempts.attempts })
    .from(otpNetworkAttempts)
    .where(and(eq(otpNetworkAttempts.codeId, codeId), eq(otpNetworkAttempts.network, network)));
  return row?.attempts ?? 0;
}

/**
 * Counts a wrong try for the client network and for the code; the try that brings the code's
 * total (all networks) to `maxTotal` closes it for good.
 */
export async function recordWrongAttempt(
  db: Executor,
  codeId: number,
  network: string,
  maxTotal: number,
  now: Date,
): Promise<void> {
  await db
    .insert(otpNetworkAttempts)
    .values({ codeId, network, attempts: 1 })
    .onConflictDoUpdate({
      target: [otpNetworkAttempts.codeId, otpNetworkAttempts.network],
      set: { attempts: sql`${otpNetworkAttempts.attempts} + 1` },
    });
  await db
    .update(otpCodes)
    .set({
      attempts: sql`${otpCodes.attempts} + 1`,
      closedAt: sql`case when ${otpCodes.attempts} + 1 >= ${maxTotal} then ${now.toISOString()}::timestamptz else ${otpCodes.closedAt} end`,
    })
    .where(eq(otpCodes.id, codeId));
}

export async function closeCode(db: Executor, id: number, now: Date): Promise<void> {
  await db.update(otpCodes).set({ closedAt: now.toISOString() }).where(eq(otpCodes.id, id));
}

/** Codes delivered before `before`: long expired, and too old for the hourly counts. */
export async function deleteCodesSentBefore(db: Executor, before: Date): Promise<number> {
  const deleted = await db
    .delete(otpCodes)
    .where(lt(otpCodes.sentAt, before.toISOString()))
    .returning({ id: otpCodes.id });
  return deleted.length;
}

/** The advisory-lock key of the SMS budgets: reservations on every process take turns under it. */
const SMS_BUDGET_LOCK = 0x736d7362;

/** Serializes SMS budget reservations until the transaction ends (counting and reserving are one step). */
export async function lockSmsBudgets(db: Executor): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${SMS_BUDGET_LOCK})`);
}

/** One country calling code's budget, or every code's. */
export type BudgetKey = { callingCode: string } | { everyone: true };

function budgetFilter(key: BudgetKey, since: Date) {
  const recent = gt(smsBudgetSpend.spentAt, since.toISOString());
  return 'callingCode' in key ? and(eq(smsBudgetSpend.callingCode, key.callingCode), recent) : recent;
}

/** SMS reserved or sent for the key after `since`. */
export async function countSpendSince(db: Executor, key: BudgetKey, since: Date): Promise<number> {
  const [row] = await db.select({ total: count() }).from(smsBudgetSpend).where(budgetFilter(key, since));
  return row?.total ?? 0;
}

/** When the key's `offset`-th oldest SMS after `since` was reserved (0 = the oldest). */
export async function spentAtByAge(
  db: Executor,
  key: BudgetKey,
  since: Date,
  offset: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ spentAt: smsBudgetSpend.spentAt })
    .from(smsBudgetSpend)
    .where(budgetFilter(key, since))
    .orderBy(asc(smsBudgetSpend.spentAt))
    .offset(offset)
    .limit(1);
  return row?.spentAt;
}

/** SMS reserved or sent for strangers from `network` (lib/network.ts strangerNetwork) after `since`. */
export async function countNetworkSpendSince(db: Executor, network: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ total: count() })
    .from(smsBudgetSpend)
    .where(and(eq(smsBudgetSpend.network, network), gt(smsBudgetSpend.spentAt, since.toISOString())));
  return row?.total ?? 0;
}

/** When the network's `offset`-th oldest stranger SMS after `since` was reserved (0 = the oldest). */
export async function networkSpentAtByAge(
  db: Executor,
  network: string,
  since: Date,
  offset: number,
): Promise<string | undefined> {
  const [row] = await db
    .select({ spentAt: smsBudgetSpend.spentAt })
    .from(smsBudgetSpend)
    .where(and(eq(smsBudgetSpend.network, network), gt(smsBudgetSpend.spentAt, since.toISOString())))
    .orderBy(asc(smsBudgetSpend.spentAt))
    .offset(offset)
    .limit(1);
  return row?.spentAt;
}

/** Records a sign-up proof as used; false when it already was (a replay). */
export async function insertSignupProof(db: Executor, signature: string, expiresAt: Date): Promise<boolean> {
  const rows = await db
    .insert(signupProofs)
    .values({ signature, expiresAt: expiresAt.toISOString() })
    .onConflictDoNothing()
    .returning({ signature: signupProofs.signature });
  return rows.length === 1;
}

/** Proofs whose challenge expired before `before`: no one can present them again anyway. */
export async function deleteSignupProofsBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(signupProofs)
    .where(lt(signupProofs.expiresAt, before.toISOString()))
    .returning({ signature: signupProofs.signature });
  return rows.length;
}

export async function insertSpend(
  db: Executor,
  values: { callingCode: string; returning: boolean; network: string | null; spentAt: Date },
): Promise<number> {
  const [row] = await db
    .insert(smsBudgetSpend)
    .values({ ...values, spentAt: values.spentAt.toISOString() })
    .returning({ id: smsBudgetSpend.id });
  return row!.id;
}

/** Gives a reservation back (its send failed, or was not made). */
export async function deleteSpend(db: Executor, id: number): Promise<void> {
  await db.delete(smsBudgetSpend).where(eq(smsBudgetSpend.id, id));
}

export async function deleteSpendBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(smsBudgetSpend)
    .where(lt(smsBudgetSpend.spentAt, before.toISOString()))
    .returning({ id: smsBudgetSpend.id });
  return rows.length;
}

/** SMS reserved or sent after `since`, per country calling code. */
export async function spendByCallingCodeSince(
  db: Executor,
  since: Date,
): Promise<{ callingCode: string; used: number }[]> {
  const rows = await db
    .select({ callingCode: smsBudgetSpend.callingCode, used: count() })
    .from(smsBudgetSpend)
    .where(gt(smsBudgetSpend.spentAt, since.toISOString()))
    .groupBy(smsBudgetSpend.callingCode);
  return rows.map((row) => ({ callingCode: row.callingCode, used: Number(row.used) }));
}

/**
 * Records that `network` asked for the number tagged `phoneTag` now, and returns how many distinct
 * numbers it asked for since `since`, this one included.
 */
export async function recordAsk(
  db: Executor,
  network: string,
  phoneTag: string,
  at: Date,
  since: Date,
): Promise<number> {
  await db
    .insert(otpAsks)
    .values({ network, phoneTag, askedAt: at.toISOString() })
    .onConflictDoUpdate({ target: [otpAsks.network, otpAsks.phoneTag], set: { askedAt: at.toISOString() } });
  const [row] = await db
    .select({ total: count() })
    .from(otpAsks)
    .where(and(eq(otpAsks.network, network), gt(otpAsks.askedAt, since.toISOString())));
  return Number(row?.total ?? 0);
}

export async function deleteAsksBefore(db: Executor, before: Date): Promise<number> {
  const rows = await db
    .delete(otpAsks)
    .where(lt(otpAsks.askedAt, before.toISOString()))
    .returning({ network: otpAsks.network });
  return rows.length;
}
