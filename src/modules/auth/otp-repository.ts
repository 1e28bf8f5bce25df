// Queries for one-time codes. A row is a code the provider accepted; only its HMAC is stored.
import { and, asc, count, desc, eq, gt, isNull, lt, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { otpCodes } from '../../db/schema/index.js';

export type OtpCodeRow = typeof otpCodes.$inferSelect;
export type Channel = OtpCodeRow['channel'];

/** Who the per-hour limits count: one phone, or one client network. */
export type SenderKey = { phone: string } | { ip: string };

function keyFilter(key: SenderKey) {
  return 'phone' in key ? eq(otpCodes.phone, key.phone) : eq(otpCodes.ip, key.ip);
}

/** When the phone's newest code was delivered, or undefined. */
export async function lastSentAt(db: Executor, phone: string): Promise<string | undefined> {
  const [row] = await db
    .select({ sentAt: otpCodes.sentAt })
    .from(otpCodes)
    .where(eq(otpCodes.phone, phone))
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

/** Voids the phone's codes still open (a newer one was just delivered). */
export async function closeOpenCodes(db: Executor, phone: string, now: Date): Promise<void> {
  await db
    .update(otpCodes)
    .set({ closedAt: now.toISOString() })
    .where(and(eq(otpCodes.phone, phone), isNull(otpCodes.closedAt)));
}

export async function insertCode(
  db: Executor,
  values: {
    userId: number;
    phone: string;
    channel: Channel;
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

/** The phone's open code, locked until the transaction ends so tries on it are counted one by one. */
export async function lockOpenCode(db: Executor, phone: string): Promise<OtpCodeRow | undefined> {
  const [row] = await db
    .select()
    .from(otpCodes)
    .where(and(eq(otpCodes.phone, phone), isNull(otpCodes.closedAt)))
    .orderBy(desc(otpCodes.sentAt), desc(otpCodes.id))
    .limit(1)
    .for('update');
  return row;
}

/** Counts a wrong try; the try that reaches `maxAttempts` closes the code. */
export async function recordWrongAttempt(
  db: Executor,
  id: number,
  maxAttempts: number,
  now: Date,
): Promise<void> {
  await db
    .update(otpCodes)
    .set({
      attempts: sql`${otpCodes.attempts} + 1`,
      closedAt: sql`case when ${otpCodes.attempts} + 1 >= ${maxAttempts} then ${now.toISOString()}::timestamptz else ${otpCodes.closedAt} end`,
    })
    .where(eq(otpCodes.id, id));
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
