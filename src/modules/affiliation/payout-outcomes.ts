// What a payout's end means for its withdrawal, published to the payouts module (which calls it in
// its own transaction, with the payout row locked): a final payout makes the withdrawal `success`,
// or `cancelled` and refunded once; a stuck or doubtful one escalates the withdrawal to an admin.
// The rejection and the hand resolution refund through the same `refundWithdrawal`.
import type { Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { withdrawalTexts } from '../../lib/messages.js';
import type { WithdrawalOutcomes } from '../payouts/service.js';
import type { Ledger } from '../wallet/ledger.js';
import { lockWithdrawal, updateWithdrawal } from './repository.js';

/** Gives a withdrawal's amount back, once (the refund's ledger reference is unique). */
export async function refundWithdrawal(
  ledger: Ledger,
  tx: Transaction,
  withdrawal: { id: number; userId: number; amount: number },
): Promise<void> {
  await ledger.post(tx, {
    userId: withdrawal.userId,
    type: 'withdrawal_refund',
    currency: 'XAF',
    amount: withdrawal.amount,
    description: withdrawalTexts.refund(withdrawal.amount),
    reference: `withdrawal:${withdrawal.id}:refund`,
  });
}

/** What the user reads when the provider did not pay: the reason, and that the money is back. */
function failureText(status: string): string {
  if (status === 'rejected') return withdrawalTexts.refused;
  if (status === 'expired') return withdrawalTexts.expired;
  return withdrawalTexts.failed;
}

export function createWithdrawalOutcomes(deps: { clock: Clock; ledger: Ledger }): WithdrawalOutcomes {
  const { clock, ledger } = deps;
  return {
    async payoutFinal(tx: Transaction, withdrawalId, outcome) {
      const row = await lockWithdrawal(tx, withdrawalId);
      if (row?.status !== 'pending') return false;
      const now = clock.now().toISOString();
      if (outcome.paid) {
        await updateWithdrawal(tx, row.id, {
          status: 'success',
          message: withdrawalTexts.paid,
          finishedAt: now,
        });
        return true;
      }
      await updateWithdrawal(tx, row.id, {
        status: 'cancelled',
        message: failureText(outcome.providerStatus),
        finishedAt: now,
      });
      await refundWithdrawal(ledger, tx, row);
      return true;
    },

    async escalate(tx: Transaction, withdrawalId, reason) {
      const row = await lockWithdrawal(tx, withdrawalId);
      if (!row || row.escalatedAt !== null || row.status !== 'pending') return;
      // The payouts module logs the escalation with its evidence.
      await updateWithdrawal(tx, row.id, {
        escalatedAt: clock.now().toISOString(),
        escalationReason: reason,
      });
    },
  };
}
