// The payment poller: looks again at pending payments whose check is due (money's checkout keeps
// each one's backoff in `next_check_at`) until the provider's final word or its expiry, so a lost
// webhook never loses a payment. It wakes at once on a new payment (LISTEN/NOTIFY on PostgreSQL,
// in-process on PGlite) and ticks every second; any number of pollers may share one PostgreSQL,
// since each due payment is claimed with FOR UPDATE SKIP LOCKED. It follows withdrawal payouts (the
// provider's transfers) the same way, through the same kind of step.
import type { FastifyBaseLogger } from 'fastify';
import { channels } from '../db/channels.js';
import type { DatabaseHandle } from '../db/client.js';

/** What the poller needs of money's payments and payouts (their services implement it). */
export interface DueChecks {
  /** Follows the most overdue pending operation one step; false when none is due. */
  checkDue(): Promise<boolean>;
}

export interface PaymentPollerDeps {
  database: DatabaseHandle;
  payments: DueChecks;
  /** Approved withdrawals whose transfer is not final yet. */
  payouts: DueChecks;
  logger: FastifyBaseLogger;
  /** The tick; a payment's first look is due one second after the sandbox's delay, so 1 s by default. */
  tickMs?: number;
}

export type PaymentPoller = ReturnType<typeof createPaymentPoller>;

export function createPaymentPoller(deps: PaymentPollerDeps) {
  const { database, payments, payouts, logger } = deps;
  let running = false;
  let busy: Promise<void> | undefined;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let unlisten: (() => Promise<void>) | undefined;

  /** Payments may be due: checks them, or has the running pass look once more. */
  function wake(): void {
    if (!running) return;
    again = true;
    if (busy) return;
    busy = pass()
      .catch((error: unknown) => logger.error({ err: error }, 'payment poller pass failed'))
      .finally(() => {
        busy = undefined;
      });
  }

  async function pass(): Promise<void> {
    while (running && again) {
      again = false;
      let due = true;
      while (running && due) due = await checkOne();
    }
  }

  /** One due payment, else one due payout; false when neither is due. */
  async function checkOne(): Promise<boolean> {
    if (await payments.checkDue()) return true;
    return payouts.checkDue();
  }

  return {
    async start(): Promise<void> {
      if (running) return;
      running = true;
      unlisten = await database.listen(channels.paymentCreated, wake);
      timer = setInterval(wake, deps.tickMs ?? 1000);
      timer.unref();
      wake();
    },

    wake,

    /** Checks every due payment and payout now; returns how many it checked (tests and the CLI). */
    async drain(): Promise<number> {
      let checked = 0;
      while (await checkOne()) checked += 1;
      return checked;
    },

    async stop(): Promise<void> {
      if (!running) return;
      running = false;
      if (timer) clearInterval(timer);
      await unlisten?.();
      await busy;
    },
  };
}
