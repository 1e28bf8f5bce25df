// The payment poller: looks again at pending payments whose check is due (the payments module keeps
// each one's backoff in `next_check_at`) until the provider's final word or its expiry, so a lost
// webhook never loses a payment. It wakes at once on a new payment (LISTEN/NOTIFY on PostgreSQL,
// in-process on PGlite) and ticks every second; any number of pollers may share one PostgreSQL,
// since each due payment is claimed with FOR UPDATE SKIP LOCKED. It follows withdrawal payouts (the
// provider's transfers) the same way, through the same kind of step.
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../db/client.js';

export const PAYMENT_CREATED_CHANNEL = 'payment_created';

/** What the poller needs of the payments module (its service implements it). */
export interface PaymentChecks {
  /** Settles the most overdue pending payment; false when none is due. */
  checkDue(): Promise<boolean>;
}

export interface PaymentPollerDeps {
  database: DatabaseHandle;
  payments: PaymentChecks;
  /** Approved withdrawals whose transfer is not final yet (the affiliation service's step). */
  payouts?: PaymentChecks;
  logger: FastifyBaseLogger;
  /** The tick; a payment's first look is due one second after the sandbox's delay, so 1 s by default. */
  tickMs?: number;
}

export class PaymentPoller {
  #running = false;
  #busy: Promise<void> | undefined;
  #again = false;
  #timer: NodeJS.Timeout | undefined;
  #unlisten: (() => Promise<void>) | undefined;

  constructor(private readonly deps: PaymentPollerDeps) {}

  async start(): Promise<void> {
    if (this.#running) return;
    this.#running = true;
    this.#unlisten = await this.deps.database.listen(PAYMENT_CREATED_CHANNEL, () => this.wake());
    this.#timer = setInterval(() => this.wake(), this.deps.tickMs ?? 1000);
    this.#timer.unref();
    this.wake();
  }

  /** Payments may be due: checks them, or has the running pass look once more. */
  wake(): void {
    if (!this.#running) return;
    this.#again = true;
    if (this.#busy) return;
    this.#busy = this.pass()
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'payment poller pass failed'))
      .finally(() => {
        this.#busy = undefined;
      });
  }

  private async pass(): Promise<void> {
    while (this.#running && this.#again) {
      this.#again = false;
      let due = true;
      while (this.#running && due) due = await this.checkOne();
    }
  }

  /** Checks every due payment now; returns how many it checked (tests and the CLI). */
  async drain(): Promise<number> {
    let checked = 0;
    while (await this.checkOne()) checked += 1;
    return checked;
  }

  /** One due payment, else one due payout; false when neither is due. */
  private async checkOne(): Promise<boolean> {
    if (await this.deps.payments.checkDue()) return true;
    return (await this.deps.payouts?.checkDue()) ?? false;
  }

  async stop(): Promise<void> {
    if (!this.#running) return;
    this.#running = false;
    if (this.#timer) clearInterval(this.#timer);
    await this.#unlisten?.();
    await this.#busy;
  }
}
