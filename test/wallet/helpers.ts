// Ledger rows for history tests: posted through the ledger function (balances stay equal to their
// sums), then dated as the test needs (the database's now() is not the test clock).
import { inArray, sql } from 'drizzle-orm';
import { walletOperations } from '../../src/db/schema/index.js';
import type { Currency, OperationType } from '../../src/lib/allowed-values.js';
import type { TestApp } from '../helpers.js';

export interface SeededOperation {
  type: OperationType;
  currency: Currency;
  amount: number;
  /** ISO timestamp. */
  at: string;
  description?: string;
  reference?: string;
}

/** Posts the operations in order; returns their ids. */
export async function seedOperations(
  t: TestApp,
  userId: number,
  operations: SeededOperation[],
): Promise<number[]> {
  const ids: number[] = [];
  for (const operation of operations) {
    const posted = await t.app.db.transaction((tx) =>
      t.app.services.ledger.post(tx, {
        userId,
        type: operation.type,
        currency: operation.currency,
        amount: operation.amount,
        description: operation.description ?? `Opération de test ${operation.type}`,
        reference: operation.reference ?? null,
      }),
    );
    if (!posted) throw new Error(`seedOperations: ${operation.amount} would take the balance below zero`);
    await t.app.db
      .update(walletOperations)
      .set({ createdAt: operation.at })
      .where(inArray(walletOperations.id, [posted.id]));
    ids.push(posted.id);
  }
  return ids;
}

/** Moves every operation of the user to a fixed old date (so seeded ones are the newest). */
export async function ageOperations(t: TestApp, userId: number, at = '2020-01-01T00:00:00Z'): Promise<void> {
  await t.app.db.execute(sql`UPDATE wallet_operations SET created_at = ${at} WHERE user_id = ${userId}`);
}
