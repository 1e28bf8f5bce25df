// The ledger rule: a balance changes only together with its `wallet_operations` row, in the caller's
// transaction, and never goes below zero. The ledger is published through money's door (the
// container builds one and hands it to each service that moves money), and is the only writer of the
// balance columns of `users` (docs/architecture.md). The conditional UPDATE is atomic, so concurrent debits
// cannot overspend on either database (PostgreSQL re-checks the condition after a row lock wait).
import { and, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import { walletOperations } from '../../db/schema/money.js';
import { users } from '../../db/schema/users.js';
import type { Currency, OperationType } from '../../lib/allowed-values.js';
import { InsufficientCredits } from '../../lib/errors.js';
import type { Ledger, OperationInput, PostedOperation } from '../../types/ledger.js';

export type { Ledger } from '../../types/ledger.js';

/** Applies the operation, or returns null (and changes nothing) when the balance would go negative. */
async function postOperation(db: Executor, operation: OperationInput): Promise<PostedOperation | null> {
  if (!Number.isSafeInteger(operation.amount))
    throw new Error(`amount must be an integer: ${operation.amount}`);
  const balance = operation.currency === 'credits' ? users.creditsBalance : users.moneyBalance;
  const column = operation.currency === 'credits' ? 'creditsBalance' : 'moneyBalance';
  const [updated] = await db
    .update(users)
    .set({ [column]: sql`${balance} + ${operation.amount}`, updatedAt: sql`now()` })
    .where(and(eq(users.id, operation.userId), sql`${balance} + ${operation.amount} >= 0`))
    .returning({ balance });
  if (!updated) return null;
  const [inserted] = await db
    .insert(walletOperations)
    .values({
      userId: operation.userId,
      type: operation.type,
      currency: operation.currency,
      amount: operation.amount,
      balanceAfter: updated.balance,
      description: operation.description,
      reference: operation.reference ?? null,
    })
    .returning({ id: walletOperations.id, createdAt: walletOperations.createdAt });
  return { id: inserted!.id, balanceAfter: updated.balance, createdAt: inserted!.createdAt };
}

/**
 * Debits `credits` credits, or throws InsufficientCredits (with the balance as it is) so that the
 * caller's transaction rolls back whatever it did before.
 */
async function spendCredits(
  db: Executor,
  spending: { userId: number; credits: number; type: OperationType; description: string; reference: string },
): Promise<PostedOperation> {
  const posted = await postOperation(db, {
    userId: spending.userId,
    type: spending.type,
    currency: 'credits',
    amount: -spending.credits,
    description: spending.description,
    reference: spending.reference,
  });
  if (posted) return posted;
  const [row] = await db
    .select({ balance: users.creditsBalance })
    .from(users)
    .where(eq(users.id, spending.userId));
  throw new InsufficientCredits(spending.userId, row?.balance ?? 0, spending.credits);
}

/** The balances the ledger says a user has; they must equal the user's row (tests check it). */
async function ledgerSums(db: Executor, userId: number): Promise<{ credits: number; money: number }> {
  const rows = await db
    .select({
      currency: walletOperations.currency,
      total: sql<string>`coalesce(sum(${walletOperations.amount}), 0)`,
    })
    .from(walletOperations)
    .where(eq(walletOperations.userId, userId))
    .groupBy(walletOperations.currency);
  const sum = (currency: Currency) => Number(rows.find((row) => row.currency === currency)?.total ?? 0);
  return { credits: sum('credits'), money: sum('XAF') };
}

/** The ledger's three steps; each runs on the executor it is given (the caller's transaction). */
export function createLedger(): Ledger {
  return {
    /** Applies the operation, or returns null (and changes nothing) when the balance would go negative. */
    post: postOperation,
    /** Debits credits, or throws InsufficientCredits so the caller's transaction rolls back. */
    spendCredits,
    /** The balances the ledger says a user has; they must equal the user's row. */
    sums: ledgerSums,
  };
}
