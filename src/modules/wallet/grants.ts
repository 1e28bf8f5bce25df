// Credits granted by an operator (support gesture, promotion): an `admin_adjustment` ledger row.
// Until the wallet's pack purchases exist, this is how credits reach accounts besides the welcome bonus.
import type { Database } from '../../db/client.js';
import { accountOfPhone } from '../users/service.js';
import { postOperation } from './ledger.js';

export const GRANT_MAX = 1_000_000;

/** Adds (or, negative, removes) credits; a plain Error (the CLI prints it) for bad input. */
export async function grantCredits(
  db: Database,
  rawPhone: string,
  amount: number,
  reason: string,
): Promise<{ userId: number; phone: string; balance: number }> {
  if (!Number.isSafeInteger(amount) || amount === 0 || Math.abs(amount) > GRANT_MAX) {
    throw new Error(`the amount must be a non-zero whole number of credits up to ${GRANT_MAX}`);
  }
  const description = reason.trim();
  if (description.length < 3 || description.length > 200) {
    throw new Error(
      'the reason must be 3 to 200 characters (it is shown to the user in the operations history)',
    );
  }
  const user = await accountOfPhone(db, rawPhone);
  const posted = await db.transaction((tx) =>
    postOperation(tx, {
      userId: user.id,
      type: 'admin_adjustment',
      currency: 'credits',
      amount,
      description,
    }),
  );
  if (!posted) throw new Error(`the account has ${user.creditsBalance} credits: it cannot go below zero`);
  return { userId: user.id, phone: user.phone, balance: posted.balanceAfter };
}
