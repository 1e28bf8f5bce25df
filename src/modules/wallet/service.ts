// The wallet's operations outside a request's own transaction: credits granted by an operator
// (support gesture, promotion) as `admin_adjustment` ledger rows. Other modules change balances
// inside their own transactions through ledger.ts.
import type { Database } from '../../db/client.js';
import { postOperation } from './ledger.js';

export const GRANT_MAX = 1_000_000;

export interface WalletServiceDeps {
  db: Database;
}

export function createWalletService({ db }: WalletServiceDeps) {
  return {
    /** Adds (or, negative, removes) credits; a plain Error (the CLI prints it) for bad input. */
    async grantCredits(
      account: { id: number; creditsBalance: number },
      amount: number,
      reason: string,
    ): Promise<{ balance: number }> {
      if (!Number.isSafeInteger(amount) || amount === 0 || Math.abs(amount) > GRANT_MAX) {
        throw new Error(`the amount must be a non-zero whole number of credits up to ${GRANT_MAX}`);
      }
      const description = reason.trim();
      if (description.length < 3 || description.length > 200) {
        throw new Error(
          'the reason must be 3 to 200 characters (it is shown to the user in the operations history)',
        );
      }
      const posted = await db.transaction((tx) =>
        postOperation(tx, {
          userId: account.id,
          type: 'admin_adjustment',
          currency: 'credits',
          amount,
          description,
        }),
      );
      if (!posted) {
        throw new Error(`the account has ${account.creditsBalance} credits: it cannot go below zero`);
      }
      return { balance: posted.balanceAfter };
    },
  };
}

export type WalletService = ReturnType<typeof createWalletService>;
