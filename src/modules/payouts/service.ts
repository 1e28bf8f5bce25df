// Payouts: the transfer that pays an approved withdrawal out, followed until the provider's final
// word. The approval's transaction opens the payout with `create_attempted_at`; the create request
// is then sent once, after that commit, in no transaction (`sendOnce`, the only caller of
// `sendTransfer`). Every later doubt — a timeout, a 404, a lost webhook — is resolved by reading the
// transfer under our reference (`followProviderOperation`), never by creating it again. A payout
// still not final at its deadline, or refused, or not what we asked, is escalated to an admin on its
// withdrawal; a final one is handed to the withdrawals module (`WithdrawalOutcomes`) in the same
// transaction: paid, or refunded. News against a final payout is flagged, never dropped.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import type { FlagKind, PaymentChannel, PayoutHandOutcome } from '../../lib/allowed-values.js';
import type { Clock } from '../../lib/clock.js';
import { withdrawalTexts } from '../../lib/messages.js';
import { maskPhone } from '../../lib/phone.js';
import { addSeconds, isoTimestamp } from '../../lib/time.js';
import {
  type PaymentDrivers,
  PaymentProviderError,
  type ProviderTransfer,
  providerTransferFailures,
  type TransferToSend,
} from '../../providers/payments/types.js';
import type { FlagRaiser } from '../flags/service.js';
import {
  DriverMissing,
  LATE_CHECK_SECONDS,
  leasedFollower,
  nextLookAt,
  type ProviderAnswer,
} from '../provider-operations/follow.js';
import {
  erasePayoutPhonesBefore,
  findPayout,
  findPayoutIdByReference,
  insertPayout,
  lockDuePayout,
  lockPayout,
  lockPayoutOfWithdrawal,
  type PayoutRow,
  payoutsOfWithdrawals,
  pendingBacklog,
  updatePayout,
} from './repository.js';
import type { PayoutView } from './schemas.js';

/** How long after an admin closed a payout by hand its transfer is still read for news against it. */
export const HAND_CLOSED_FOLLOW_SECONDS = 30 * 24 * 3600;

/** What a final or stuck payout means for its withdrawal (the withdrawals module implements it, payout-flow.ts). */
export interface WithdrawalOutcomes {
  /**
   * The payout is final: the withdrawal becomes `success`, or `cancelled` and refunded once, in the
   * caller's transaction. False when the withdrawal was already final (nothing changed).
   */
  payoutFinal(
    tx: Transaction,
    withdrawalId: number,
    outcome: { paid: true } | { paid: false; providerStatus: string },
  ): Promise<boolean>;
  /** The payout needs a person: the withdrawal is escalated (once), with the reason. */
  escalate(tx: Transaction, withdrawalId: number, reason: string): Promise<void>;
}

export interface PayoutServiceDeps {
  db: Database;
  clock: Clock;
  logger: FastifyBaseLogger;
  drivers: PaymentDrivers;
  withdrawals: WithdrawalOutcomes;
  config: Pick<Config, 'payoutStuckSeconds'>;
  /** The poller's first look after the approval (the sandbox's delay plus one second). */
  firstCheckAfterMs: number;
  /** Raises a flag (news against a final payout, a missing driver) in the payout's transaction. */
  flags: FlagRaiser;
}

export type PayoutOutcome = 'success' | 'cancelled' | 'pending' | 'escalated' | 'unchanged' | 'flagged';

/** The provider's word, or `not_found` when it has never heard of the transfer. */
type TransferWord = ProviderTransfer | { status: 'not_found' };

const transferFailures: ReadonlySet<string> = new Set(providerTransferFailures);

/** The payout's row as the back office shows it on the withdrawal (`PayoutSchema`). */
function payoutView(row: PayoutRow): PayoutView {
  const at = (value: string | null) => (value === null ? null : isoTimestamp(value));
  return {
    provider: row.provider,
    reference: row.reference,
    provider_reference: row.providerReference,
    provider_status: row.providerStatus,
    status: row.status,
    checks: row.checks,
    create_attempted_at: isoTimestamp(row.createAttemptedAt),
    create_answered_at: at(row.createAnsweredAt),
    next_check_at: at(row.nextCheckAt),
    deadline_at: isoTimestamp(row.deadlineAt),
    finished_at: at(row.finishedAt),
  };
}

export function createPayoutService(deps: PayoutServiceDeps) {
  const { db, clock, logger, drivers, withdrawals, config } = deps;

  function toSend(row: PayoutRow): TransferToSend {
    return {
      reference: row.reference,
      amount: row.amount,
      currency: 'XAF',
      phone: row.phone,
      channel: row.channel,
      recipientName: maskPhone(row.phone),
      description: withdrawalTexts.payoutDescription(row.withdrawalId),
      approvedAt: new Date(row.createAttemptedAt),
    };
  }

  function driverOf(row: PayoutRow) {
    const own = drivers.byName(row.provider);
    if (!own) throw new DriverMissing(row.provider);
    return own;
  }

  /** Reads the transfer (no transaction is open here); a 404 is `not_found`, never a reason to create it. */
  async function read(row: PayoutRow): Promise<TransferWord> {
    try {
      return await driverOf(row).fetchTransfer(toSend(row));
    } catch (error) {
      if (error instanceof PaymentProviderError && error.status === 404) return { status: 'not_found' };
      throw error;
    }
  }

  /**
   * Applies an answer on the payout, locked again and re-read. `send` marks the create's own answer:
   * it is recorded as answered and keeps the first look the approval scheduled.
   */
  async function apply(
    tx: Transaction,
    claimedId: number,
    answer: ProviderAnswer<TransferWord>,
    source: string,
    send = false,
    event: string | null = null,
  ): Promise<PayoutOutcome> {
    const row = await lockPayout(tx, claimedId);
    if (!row) return 'unchanged';
    const log = logger.child({ withdrawal_id: row.withdrawalId, reference: row.reference, source });
    const now = clock.now();
    const pastDeadline = now >= new Date(row.deadlineAt);
    const flag = async (kind: FlagKind, details: Record<string, unknown>) => {
      await deps.flags.raise(
        tx,
        {
          kind,
          targetType: 'withdrawal',
          targetId: row.withdrawalId,
          details: { payout_status: row.status, reference: row.reference, ...details },
          providerEvent: event,
        },
        log,
      );
    };
    const escalate = async (reason: string) => {
      await withdrawals.escalate(tx, row.withdrawalId, reason);
      log.warn(
        {
          reason,
          create_attempted_at: row.createAttemptedAt,
          create_answered_at: row.createAnsweredAt,
          checks: row.checks,
          provider_status: row.providerStatus,
        },
        'withdrawal payout escalated to an admin: it is not final and is never refunded automatically',
      );
    };
    /** Still under way: the next look (hourly once past the deadline), escalated at the deadline. */
    const keepPending = async (changes: Partial<PayoutRow>, late: boolean, why: string) => {
      const nextCheckAt =
        send && !late
          ? row.nextCheckAt
          : late
            ? addSeconds(now, LATE_CHECK_SECONDS).toISOString()
            : nextLookAt(now, row.checks, new Date(row.deadlineAt)).toISOString();
      await updatePayout(tx, row.id, { ...changes, nextCheckAt });
      if (late) {
        await escalate(why);
        return 'escalated' as const;
      }
      return 'pending' as const;
    };

    /**
     * A payout an admin closed by hand is read hourly until the provider's final word (so news
     * against the admin's call reaches a flag without a webhook), for HAND_CLOSED_FOLLOW_SECONDS.
     */
    const keepReadingClosed = async (status: string | undefined) => {
      const final = status !== undefined && (status === 'complete' || transferFailures.has(status));
      const closedAt = new Date(row.finishedAt ?? now.toISOString()).getTime();
      const over = now.getTime() >= closedAt + HAND_CLOSED_FOLLOW_SECONDS * 1000;
      await updatePayout(tx, row.id, {
        ...(status !== undefined ? { providerStatus: status } : {}),
        nextCheckAt: final || over ? null : addSeconds(now, LATE_CHECK_SECONDS).toISOString(),
      });
    };

    if (!answer.ok) {
      if (answer.error instanceof DriverMissing) {
        // No driver here can ask its provider: left alone (never read, never created), for a person.
        await updatePayout(tx, row.id, { nextCheckAt: null });
        await flag('driver_missing', { provider: row.provider });
        if (row.status !== 'pending') return 'flagged';
        await escalate('driver_missing');
        return 'escalated';
      }
      const refused = answer.error instanceof PaymentProviderError && !answer.error.retryable;
      log.warn({ err: answer.error }, 'payout provider could not be asked or refused; will look again');
      if (row.status !== 'pending') {
        if (row.nextCheckAt !== null) await keepReadingClosed(undefined);
        return 'unchanged';
      }
      const status = answer.error instanceof PaymentProviderError ? answer.error.status : undefined;
      if (refused && send) {
        // Refused outright at create (a bad number, a missing key…): no transfer exists; a person decides.
        await updatePayout(tx, row.id, { createAnsweredAt: now.toISOString(), nextCheckAt: null });
        await escalate(`provider_refused${status ? `_${status}` : ''}`);
        return 'escalated';
      }
      return keepPending(
        {},
        refused || pastDeadline,
        refused ? `provider_refused${status ? `_${status}` : ''}` : 'stuck_unknown',
      );
    }

    const word = answer.word;
    const status = String(word.status);
    const found = 'reference' in word ? word : undefined;
    const seen = {
      providerStatus: status,
      providerReference: found?.providerReference ?? row.providerReference,
      ...(send ? { createAnsweredAt: now.toISOString() } : {}),
    };
    const said = { provider_status: status, amount: found?.amount, currency: found?.currency };

    if (row.status !== 'pending') {
      // Closed by an admin before the provider's final word: read hourly until that word comes.
      if (row.nextCheckAt !== null) await keepReadingClosed(status);
      // Final in our books (paid, refunded, or closed by an admin): the provider saying otherwise needs a person.
      const contradicts =
        (row.status === 'failed' && status === 'complete') ||
        (row.status === 'paid' && transferFailures.has(status));
      if (contradicts) {
        await flag('contradicts_final', said);
        return 'flagged';
      }
      return 'unchanged';
    }

    if (found && status === 'complete') {
      if (found.amount !== row.amount || found.currency !== row.currency) {
        // Paid, but not what we asked: neither paid nor refunded in our books; a person must look.
        await updatePayout(tx, row.id, { ...seen, nextCheckAt: null });
        await flag(found.amount !== row.amount ? 'amount_mismatch' : 'currency_mismatch', said);
        await escalate(found.amount !== row.amount ? 'amount_mismatch' : 'currency_mismatch');
        return 'escalated';
      }
      await updatePayout(tx, row.id, {
        ...seen,
        status: 'paid',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      await withdrawals.payoutFinal(tx, row.withdrawalId, { paid: true });
      log.info({ amount: row.amount }, 'withdrawal paid out');
      return 'success';
    }
    if (transferFailures.has(status)) {
      await updatePayout(tx, row.id, {
        ...seen,
        status: 'failed',
        finishedAt: now.toISOString(),
        nextCheckAt: null,
      });
      // The provider's final word that nothing was paid: the money goes back, once (unique reference).
      await withdrawals.payoutFinal(tx, row.withdrawalId, { paid: false, providerStatus: status });
      log.info({ provider_status: status }, 'withdrawal payout failed; refunded');
      return 'cancelled';
    }
    // `pending`, `sent`, `not_found`, or a word we do not know: under way, or unknown. A transfer the
    // provider never heard of is read again until the deadline, then escalated: never created again.
    return keepPending(seen, pastDeadline, `stuck_${status}`);
  }

  // The claims (by id, and the poller's most overdue; a payout closed by hand is still due while
  // it is read for news) are the provider-operations module's, over this module's rows.
  const follower = leasedFollower({
    db,
    clock,
    rows: { lockDue: lockDuePayout, lock: lockPayout, recordLook: updatePayout },
    ask: read,
    apply: (
      tx,
      claimed: PayoutRow,
      answer: ProviderAnswer<TransferWord>,
      source: string,
      event?: string | null,
    ) => apply(tx, claimed.id, answer, source, false, event ?? null),
  });
  const follow = follower.follow;

  return {
    /** Final payouts older than `before` lose their receiving phone, `limit` at most (housekeeping); how many. */
    erasePhonesBefore(before: Date, limit: number): Promise<number> {
      return erasePayoutPhonesBefore(db, before.toISOString(), limit);
    },

    /** Payouts not final yet in all, and the oldest one's creation in epoch seconds (the metrics). */
    pendingBacklog() {
      return pendingBacklog(db);
    },

    /**
     * Opens the payout of an approved withdrawal in the approval's transaction, recording that its
     * one create is about to be attempted. The caller sends it with `sendOnce` after the commit.
     */
    async open(
      tx: Transaction,
      withdrawal: { id: number; amount: number; phone: string; channel: PaymentChannel },
    ): Promise<PayoutRow> {
      const now = clock.now();
      return insertPayout(tx, {
        withdrawalId: withdrawal.id,
        provider: drivers.current.name,
        reference: `wd-${withdrawal.id}`,
        amount: withdrawal.amount,
        currency: 'XAF',
        phone: withdrawal.phone,
        channel: withdrawal.channel,
        createAttemptedAt: now.toISOString(),
        nextCheckAt: new Date(now.getTime() + deps.firstCheckAfterMs).toISOString(),
        deadlineAt: addSeconds(now, config.payoutStuckSeconds).toISOString(),
      });
    },

    /**
     * Sends the payout's one create request, in no transaction, then applies its answer. Called once,
     * right after the approval commits; nothing else ever asks the provider to create a transfer.
     */
    async sendOnce(payoutId: number): Promise<PayoutOutcome> {
      const row = await findPayout(db, payoutId);
      if (row?.status !== 'pending' || row.createAnsweredAt !== null) return 'unchanged';
      let answer: ProviderAnswer<TransferWord>;
      try {
        answer = { ok: true, word: await driverOf(row).sendTransfer(toSend(row)) };
      } catch (error) {
        // A 404 here is the driver's re-read after an uncertain create: nothing exists yet. The
        // poller reads it again; it is never sent a second time.
        answer =
          error instanceof PaymentProviderError && error.status === 404
            ? { ok: true, word: { status: 'not_found' } }
            : { ok: false, error };
      }
      return db.transaction((tx) => apply(tx, payoutId, answer, 'approve', true));
    },

    /** Reads the transfer now and applies the word once (tests, and a `transfer.*` webhook). */
    follow,

    /**
     * A `transfer.*` webhook's reference (already authenticated): only a hint to read it again; its
     * id names the news a flag it raises carries (a replay raises nothing).
     */
    async onTransferEvent(
      reference: string,
      eventId: string | null = null,
    ): Promise<PayoutOutcome | undefined> {
      const id = await findPayoutIdByReference(db, reference);
      return id === undefined ? undefined : follow(id, 'webhook', eventId);
    },

    /** The poller's step: follows the most overdue pending payout; false when none is due. */
    checkDue: follower.checkDue,

    /**
     * The provider's word on a withdrawal's transfer, read now (no transaction): what an admin's
     * hand resolution rests on. Undefined when it has no payout.
     */
    async freshWord(withdrawalId: number): Promise<{ status: string; final_failure: boolean } | undefined> {
      const [row] = await payoutsOfWithdrawals(db, [withdrawalId]);
      if (!row) return undefined;
      const word = await read(row);
      const status = String(word.status);
      return { status, final_failure: transferFailures.has(status) };
    },

    /**
     * Closes a withdrawal's payout by an admin's hand, in the admin's transaction. Unless the
     * provider's final word is already known (`providerFinal`), its transfer is still read hourly:
     * later news against the admin's call is flagged, webhook or not.
     */
    async closeByHand(
      tx: Transaction,
      withdrawalId: number,
      outcome: PayoutHandOutcome,
      providerFinal = false,
    ): Promise<void> {
      const row = await lockPayoutOfWithdrawal(tx, withdrawalId);
      if (row?.status !== 'pending') return;
      const now = clock.now();
      const followable = !providerFinal && drivers.byName(row.provider) !== undefined;
      await updatePayout(tx, row.id, {
        status: outcome,
        finishedAt: now.toISOString(),
        nextCheckAt: followable ? addSeconds(now, LATE_CHECK_SECONDS).toISOString() : null,
      });
    },

    /** The payouts of these withdrawals, by withdrawal id (the back office's views). */
    async viewsOf(withdrawalIds: number[]): Promise<Map<number, PayoutView>> {
      const rows = await payoutsOfWithdrawals(db, withdrawalIds);
      return new Map(rows.map((row) => [row.withdrawalId, payoutView(row)]));
    },
  };
}

export type PayoutService = ReturnType<typeof createPayoutService>;
