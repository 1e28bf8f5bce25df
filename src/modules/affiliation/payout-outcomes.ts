// What a payout's end means for its withdrawal, published to the payouts module (which calls it in
// its own transaction, with the payout row locked): a final payout makes the withdrawal `success`,
// or `cancelled` and refunded once; a stuck or doubtful one escalates the withdrawal to an admin.
// The rejection and the hand resolution refund through the same `refundWithdrawal`.
import type { Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { withdrawalTexts } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import type { UserEventLog } from '../events/service.js';
import type { WithdrawalOutcomes } from '../payouts/service.js';
import type { Ledger } from '../wallet/ledger.js';
import { lockWithdrawal, updateWithdrawal, type WithdrawalRow } from './repository.js';

/** A withdrawal as its owner sees it (the list's item, and the data of the withdrawal events). */
export function withdrawalView(row: WithdrawalRow) {
  return {
    id: row.id,
    amount: row.amount,
    status: row.status,
    message: row.message,
    meta: { phone: row.phone, operator: { name: row.operator.name, icon: row.operator.icon } },
    created_at: isoTimestamp(row.createdAt),
  };
}

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

export function createWithdrawalOutcomes(deps: {
  clock: Clock;
  ledger: Ledger;
  /** The user's event log: the withdrawal's end is reported in the payout's transaction. */
  events: UserEventLog;
}): WithdrawalOutcomes {
  const { clock, ledger, events } = deps;
  return {
    async payoutFinal(tx: Transaction, withdrawalId, outcome) {
      const row = await lockWithdrawal(tx, withdrawalId);
      if (row?.status !== 'pending') return false;
      const now = clock.now().toISOString();
      if (outcome.paid) {
        const paid = await updateWithdrawal(tx, row.id, {
          status: 'success',
          message: withdrawalTexts.paid,
          finishedAt: now,
        });
        await events.append(tx, row.userId, 'withdrawal.succeeded', withdrawalView(paid));
        return true;
      }
      const reason = failureText(outcome.providerStatus);
      const cancelled = await updateWithdrawal(tx, row.id, {
        status: 'cancelled',
        message: reason,
        finishedAt: now,
      });
      await refundWithdrawal(ledger, tx, row);
      await events.append(tx, row.userId, 'withdrawal.cancelled', { ...withdrawalView(cancelled), reason });
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
