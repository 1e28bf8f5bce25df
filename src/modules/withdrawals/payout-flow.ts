// How an approved withdrawal becomes money on a phone, start to end. Read it top to bottom:
//
//   1. approve      one transaction: the admin's decision, the payout opened (its one create
//                   recorded as attempted), the audit row. Nothing is asked of the provider yet.
//   2. send once    after that commit, in no transaction: `payouts.sendOnce`, the only call that
//                   creates a transfer.
//   3. outcome      later, the provider's word on the transfer, read (never created again) by the
//                   payouts module: from a `transfer.*` webhook (provider-operations dispatch) or the
//                   payment poller, each through the shared leased claim (provider-operations/follow.ts).
//   4. ledger       in that same transaction, `WithdrawalOutcomes` below: paid → `success`; a final
//                   failure → `cancelled` and refunded once; stuck or doubtful → escalated to an admin.
//
// The request (the debit), the rejection and the hand resolution are in service.ts; they refund
// through the same `refundWithdrawal`.
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client.js';
import type { Locale } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { AlreadyDecided, NotFound, OwnWithdrawal } from '../../lib/errors.js';
import { catalogueFor, messages } from '../../lib/messages.js';
import type { AccountLocales } from '../../types/locale.js';
import type { AuditRecorder } from '../admin/service.js';
import type { UserEventLog } from '../events/service.js';
import type { PayoutService, WithdrawalOutcomes } from '../payouts/service.js';
import type { Ledger } from '../wallet/ledger.js';
import { lockWithdrawal, updateWithdrawal } from './repository.js';
import { withdrawalView } from './views.js';

export interface ApprovalDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  audit: AuditRecorder;
  payouts: Pick<PayoutService, 'open' | 'sendOnce'>;
  /** The owner's language: the withdrawal's message is written in it, not in the admin's. */
  accounts: AccountLocales;
}

/**
 * Steps 1 and 2: approves a withdrawal (AlreadyDecided when it has a decision; OwnWithdrawal for the
 * admin's own) and sends its payout once. The withdrawal stays `pending`: only the payout's final
 * word (step 4) ends it.
 */
export async function approveWithdrawal(
  deps: ApprovalDeps,
  admin: { id: number },
  id: number,
  message?: string,
): Promise<void> {
  const { db, clock, logger, audit, payouts, accounts } = deps;
  // Step 1. The decision, the payout and the audit row commit together or not at all: a payout
  // never exists without its approval, and the row records that a create is about to be attempted
  // (`create_attempted_at`) before the provider hears of it, so a crash after the send is read back,
  // never sent twice.
  const payout = await db.transaction(async (tx) => {
    const current = await lockWithdrawal(tx, id);
    if (!current) throw new NotFound(messages.withdrawalNotFound);
    if (current.userId === admin.id) throw new OwnWithdrawal();
    if (current.decision !== null) throw new AlreadyDecided();
    const note = message?.trim() || null;
    const row = await updateWithdrawal(tx, id, {
      decision: 'approved',
      decidedBy: admin.id,
      decidedAt: clock.now().toISOString(),
      decisionMessage: note,
      message: catalogueFor(await accounts.localeOf(tx, current.userId)).withdrawalTexts.paying,
    });
    const opened = await payouts.open(tx, row);
    await audit.record(tx, {
      adminId: admin.id,
      action: 'withdrawal.approve',
      targetType: 'withdrawal',
      targetId: id,
      details: {
        user_id: row.userId,
        amount: row.amount,
        phone: row.phone,
        message: note,
        provider: opened.provider,
      },
    });
    return opened;
  });
  // Step 2. After the commit, outside any transaction: a provider call never holds a row lock or a
  // connection, and a rolled-back approval can never have sent money.
  try {
    await payouts.sendOnce(payout.id);
  } catch (error) {
    // Only our own database can fail here (the provider's answers are applied, never thrown):
    // the payout stays pending and the poller reads it (step 3); it is never sent again.
    logger.error({ err: error, withdrawal_id: id }, 'payout create answer could not be recorded');
  }
}

/**
 * Gives a withdrawal's amount back, once (the refund's ledger reference is unique); its ledger row in
 * the owner's language.
 */
export async function refundWithdrawal(
  ledger: Ledger,
  tx: Transaction,
  withdrawal: { id: number; userId: number; amount: number },
  locale: Locale,
): Promise<void> {
  await ledger.post(tx, {
    userId: withdrawal.userId,
    type: 'withdrawal_refund',
    currency: 'XAF',
    amount: withdrawal.amount,
    description: catalogueFor(locale).withdrawalTexts.refund(withdrawal.amount),
    reference: `withdrawal:${withdrawal.id}:refund`,
  });
}

/** What the user reads when the provider did not pay: the reason, and that the money is back. */
function failureText(status: string, locale: Locale): string {
  const texts = catalogueFor(locale).withdrawalTexts;
  if (status === 'rejected') return texts.refused;
  if (status === 'expired') return texts.expired;
  return texts.failed;
}

/**
 * Step 4: what a payout's end means for its withdrawal. The payouts module calls it in the
 * transaction that records the provider's word, with the payout row locked, so the payout and its
 * withdrawal (and the refund) are final together or not at all.
 */
export function createWithdrawalOutcomes(deps: {
  clock: Clock;
  ledger: Ledger;
  /** The user's event log: the withdrawal's end is reported in the payout's transaction. */
  events: UserEventLog;
  /** The owner's language: what the withdrawal tells them is written in it (no request is there). */
  accounts: AccountLocales;
}): WithdrawalOutcomes {
  const { clock, ledger, events, accounts } = deps;
  return {
    async payoutFinal(tx: Transaction, withdrawalId, outcome) {
      const row = await lockWithdrawal(tx, withdrawalId);
      // Already final (resolved by hand meanwhile): nothing moves; the payouts module flags news against it.
      if (row?.status !== 'pending') return false;
      const now = clock.now().toISOString();
      const locale = await accounts.localeOf(tx, row.userId);
      if (outcome.paid) {
        const paid = await updateWithdrawal(tx, row.id, {
          status: 'success',
          message: catalogueFor(locale).withdrawalTexts.paid,
          finishedAt: now,
        });
        await events.append(tx, row.userId, 'withdrawal.succeeded', withdrawalView(paid));
        return true;
      }
      // The provider's final word that nothing was paid: the money goes back, once.
      const reason = failureText(outcome.providerStatus, locale);
      const cancelled = await updateWithdrawal(tx, row.id, {
        status: 'cancelled',
        message: reason,
        finishedAt: now,
      });
      await refundWithdrawal(ledger, tx, row, locale);
      await events.append(tx, row.userId, 'withdrawal.cancelled', { ...withdrawalView(cancelled), reason });
      return true;
    },

    async escalate(tx: Transaction, withdrawalId, reason) {
      const row = await lockWithdrawal(tx, withdrawalId);
      if (!row || row.escalatedAt !== null || row.status !== 'pending') return;
      // Never refunded here: the money may have left. An admin resolves it (service.ts,
      // `resolveEscalated`); the payouts module logs the escalation with its evidence.
      await updateWithdrawal(tx, row.id, {
        escalatedAt: clock.now().toISOString(),
        escalationReason: reason,
      });
    },
  };
}
