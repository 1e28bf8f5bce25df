// Payouts: the provider step of cash-out. The steps themselves (open, send once, read, apply, settle,
// refund, escalate) are written top to bottom in flow.ts; this service holds them over the payout
// rows for their callers: the leased claims of ../provider/follow.ts (a `transfer.*` webhook, the
// poller), the back office's views, housekeeping and the metrics.
import { isoTimestamp } from '../../lib/time.js';
import { leasedFollower } from '../provider/follow.js';
import {
  applyTransferWord,
  type CashOutDeps,
  type PayoutOutcome,
  readTransfer,
  sendPayoutOnce,
} from './flow.js';
import {
  erasePayoutPhonesBefore,
  findPayoutIdByReference,
  lockDuePayout,
  lockPayout,
  type PayoutRow,
  payoutsOfWithdrawals,
  pendingBacklog,
  updatePayout,
} from './payout-repository.js';
import type { PayoutView } from './payout-schemas.js';

export type { PayoutOutcome } from './flow.js';

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

export function createPayoutService(deps: CashOutDeps) {
  const { db, clock, drivers } = deps;

  // The claims (by id, and the poller's most overdue; a payout closed by hand is still due while
  // it is read for news) over this step's rows; the ask and the apply are flow.ts's step 5.
  const follower = leasedFollower({
    db,
    clock,
    rows: { lockDue: lockDuePayout, lock: lockPayout, recordLook: updatePayout },
    ask: (row: PayoutRow) => readTransfer(drivers, row),
    apply: (tx, claimed: PayoutRow, answer, source: string, event?: string | null) =>
      applyTransferWord(deps, tx, claimed.id, answer, source, false, event ?? null),
  });
  const follow = follower.follow;

  return {
    /** What the cash-out steps run on (withdrawals.ts hands it to the approval, steps 2 to 4). */
    steps: deps,

    /** Final payouts older than `before` lose their receiving phone, `limit` at most (housekeeping); how many. */
    erasePhonesBefore(before: Date, limit: number): Promise<number> {
      return erasePayoutPhonesBefore(db, before.toISOString(), limit);
    },

    /** Payouts not final yet in all, and the oldest one's creation in epoch seconds (the metrics). */
    pendingBacklog() {
      return pendingBacklog(db);
    },

    /** Step 4 of flow.ts: the payout's one create request, after the approval's commit. */
    sendOnce(payoutId: number): Promise<PayoutOutcome> {
      return sendPayoutOnce(deps, payoutId);
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

    /** The payouts of these withdrawals, by withdrawal id (the back office's views). */
    async viewsOf(withdrawalIds: number[]): Promise<Map<number, PayoutView>> {
      const rows = await payoutsOfWithdrawals(db, withdrawalIds);
      return new Map(rows.map((row) => [row.withdrawalId, payoutView(row)]));
    },
  };
}

export type PayoutService = ReturnType<typeof createPayoutService>;
