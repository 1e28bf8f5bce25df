// The money capability, built once: the ledger's reports, the pack catalogue, checkout, cash-out
// (withdrawals and the payouts that pay them), the provider follow-up (webhooks and pollers) and the
// flags. Its parts call each other directly in here; the rest of the code is given what this
// returns, through the door (index.ts), and hands in only what money needs of it (the deps below).
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.js';
import type { Wakeups } from '../db/channels.js';
import type { Database } from '../db/client.js';
import type { Clock } from '../lib/clock.js';
import type { ApprovalDesk } from '../modules/admin/approvals.js';
import type { AuditRecorder } from '../modules/admin/service.js';
import type { AdminEventLog, UserEventLog } from '../modules/events/service.js';
import {
  createPaymentDrivers,
  createPaymentsDriver,
  type PaymentsDriver,
} from '../providers/payments/index.js';
import { createPayoutService } from './cash-out/payouts.js';
import { createWithdrawalService, type WithdrawalAccounts } from './cash-out/withdrawals.js';
import type { ActiveAccounts } from './checkout/flow.js';
import { createPaymentService } from './checkout/service.js';
import type { CommissionPolicy } from './commissions.js';
import { createFlagRaiser } from './flags/raise.js';
import { createFlagService } from './flags/service.js';
import type { Ledger } from './ledger/ledger.js';
import { createWalletService } from './ledger/service.js';
import { createPackService } from './packs/service.js';
import { createWebhookDispatch } from './provider/webhooks.js';

export interface MoneyDeps {
  db: Database;
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Moves balances with their ledger rows: the one ledger the whole container shares. */
  ledger: Ledger;
  /** The event logs: a payment's or a withdrawal's end to its owner, a request or a flag to the back office. */
  events: UserEventLog & AdminEventLog;
  /** The admins' audit trail: pack changes, withdrawal decisions, flag resolutions. */
  audit: AuditRecorder;
  /** Four eyes: large withdrawal approvals wait for a second admin. */
  approvals: ApprovalDesk;
  /** The accounts (the users module): held active during a checkout, their language, their names. */
  accounts: ActiveAccounts & WithdrawalAccounts;
  /** Wakes the payment pollers once a payment is committed. */
  wakeups: Wakeups;
  /** The affiliation's commission policy: who earns what on a payment that succeeded. */
  commissions: CommissionPolicy;
  /** Speaks to the payment provider; by default the driver PAYMENTS_DRIVER names. */
  paymentsDriver?: PaymentsDriver;
}

export function createMoney(deps: MoneyDeps) {
  const { db, config, clock, logger, ledger, events, audit, accounts } = deps;
  const paymentsDriver = deps.paymentsDriver ?? createPaymentsDriver(config, { clock });
  const drivers = createPaymentDrivers(config, { clock }, paymentsDriver);
  // The sandbox settles and pays out after its delay: the poller's first look comes one second later.
  const firstCheckAfterMs = paymentsDriver.name === 'sandbox' ? config.paymentSandboxDelayMs + 1000 : 5000;
  // Payments and payouts raise flags in their own transactions; the flag service reads and resolves them.
  const flagRaiser = createFlagRaiser(events);

  const wallet = createWalletService({ db, ledger });
  const packs = createPackService({ db, audit });
  const payouts = createPayoutService({
    db,
    clock,
    logger,
    drivers,
    config,
    firstCheckAfterMs,
    flags: flagRaiser,
    ledger,
    events,
    accounts,
  });
  const withdrawals = createWithdrawalService({
    db,
    clock,
    logger,
    config,
    audit,
    approvals: deps.approvals,
    payouts,
    ledger,
    events,
    accounts,
  });
  const payments = createPaymentService({
    db,
    clock,
    logger,
    drivers,
    packs,
    maxPending: config.rateLimit ? config.paymentMaxPending : null,
    ageGate: config.responsiblePlay.ageGate ? { minimum: config.responsiblePlay.ageMinimum } : null,
    firstCheckAfterMs,
    commissions: deps.commissions,
    wakeups: deps.wakeups,
    ledger,
    events,
    accounts,
    flags: flagRaiser,
  });
  // A provider's webhook goes straight to the owner of its event: checkout or cash-out.
  const webhooks = createWebhookDispatch({ drivers, payments, transfers: payouts });
  const flags = createFlagService({ db, audit, payments, withdrawals });

  return { ledger, wallet, packs, payments, payouts, withdrawals, webhooks, flags, paymentsDriver };
}

/** The money capability as the container holds it. */
export type Money = ReturnType<typeof createMoney>;
