// The service container: every module's service, built once from the same few dependencies and
// handed to whoever needs them. buildApp decorates the app with it (`app.services`), and the worker
// process and the CLI build the same one, so there is one way to wire a service everywhere.
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { wakeupsOver } from './db/channels.js';
import type { DatabaseHandle } from './db/client.js';
import type { Clock } from './lib/clock.js';
import { createAccountService } from './modules/account/service.js';
import { createApprovalService } from './modules/admin/approvals.js';
import { createAdminService } from './modules/admin/service.js';
import { createAffiliationService, createCommissionPolicy } from './modules/affiliation/service.js';
import { createOtpService } from './modules/auth/otp-service.js';
import { createTokenService } from './modules/auth/tokens.js';
import { createBackofficeService } from './modules/backoffice/service.js';
import { createBackupsService } from './modules/backups/service.js';
import { createDashboardService } from './modules/dashboard/service.js';
import { createPushDelivery } from './modules/devices/push.js';
import { createDeviceService } from './modules/devices/service.js';
import { createEventService } from './modules/events/service.js';
import { createEventStreams } from './modules/events/streams.js';
import { createFixtureService } from './modules/fixtures/service.js';
import { createAnalyst } from './modules/football/analyst.js';
import { threadFitter } from './modules/football/fit-pool.js';
import { createFootballService } from './modules/football/service.js';
import { createHousekeepingService } from './modules/housekeeping/service.js';
import { createIdempotencyService } from './modules/idempotency/service.js';
import { createMetricsService } from './modules/metrics/service.js';
import { createAnalysisAdmission } from './modules/pronostics/admission.js';
import { createAnalysisJobs } from './modules/pronostics/analysis-jobs.js';
import { createPronosticService } from './modules/pronostics/service.js';
import { createSlipService } from './modules/slips/service.js';
import { createSupportService, MAX_UNCLOSED_TICKETS } from './modules/support/service.js';
import { createTrackRecordService } from './modules/track-record/service.js';
import { createProfileService } from './modules/users/profile.js';
import { createUserService } from './modules/users/service.js';
import { createLedger, createMoney } from './money/index.js';
import { createNarrator } from './providers/ai/index.js';
import { createMessenger, type Messenger } from './providers/messaging/index.js';
import type { PaymentsDriver } from './providers/payments/index.js';
import { createPushDriver, type PushDriver } from './providers/push/index.js';
import { createStorage, type StorageDriver } from './providers/storage/index.js';
import type { Analyst } from './types/analyst.js';

export interface ServiceDeps {
  database: DatabaseHandle;
  config: Config;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** Sends sign-in codes; by default the drivers the configuration names. */
  messenger?: Messenger;
  /** Runs the analyses; by default the football analyst (statistical model, optional LLM text). */
  analyst?: Analyst;
  /** Speaks to the payment provider; by default the driver PAYMENTS_DRIVER names. */
  paymentsDriver?: PaymentsDriver;
  /** Keeps uploaded files; by default the driver STORAGE_DRIVER names. */
  storage?: StorageDriver;
  /** Sends push notifications; by default the driver PUSH_DRIVER names. */
  pushDriver?: PushDriver;
}

/** The hold on pronostic creation while the analysis queue is too deep. */
function analysisAdmission(db: ServiceDeps['database']['db'], clock: ServiceDeps['clock'], config: Config) {
  return createAnalysisAdmission({
    db,
    clock,
    options: {
      maxWaitSeconds: config.analysisQueueMaxWaitSeconds,
      holdSeconds: config.analysisQueueHoldSeconds,
    },
  });
}

export function createServices(deps: ServiceDeps) {
  const { database, config, clock, logger } = deps;
  const { db } = database;
  const messenger = deps.messenger ?? createMessenger({ config, logger, clock });
  const football = createFootballService({ db, config, clock });
  const admin = createAdminService({ db });
  const fixtures = createFixtureService({ db, clock, config, football, audit: admin });
  const analyst: Analyst = deps.analyst ?? footballAnalyst(config, football, logger, clock);
  const wakeups = wakeupsOver(database, logger);

  const ledger = createLedger();
  // The event logs, written by every module whose change a client or an admin is told about.
  const events = createEventService({ db, clock, retentionDays: config.eventsRetentionDays });
  // Push devices, and the delivery of their owners' events through the push driver.
  const devices = createDeviceService({
    db,
    clock,
    events,
    webpushHosts: config.webpush.allowedHosts,
    webpushOn: config.webpush.publicKey !== undefined,
    // Called at registration time, when `users` (created below) exists.
    accounts: { holdActive: (tx, userId) => users.holdActive(tx, userId) },
  });
  const pushDriver = deps.pushDriver ?? createPushDriver(config, { clock, logger });
  const push = createPushDelivery({
    db,
    clock,
    logger,
    events,
    driver: pushDriver,
    // Called at delivery time, when `users` (created below) exists.
    localeOf: (userId) => users.localeOf(db, userId),
    maxAgeSeconds: config.pushMaxAgeSeconds,
  });
  const tokens = createTokenService({ db, config, clock, database, devices, logger });
  // The live streams this process holds (none until a client opens one; LISTEN starts then).
  const eventStreams = createEventStreams({
    db,
    database,
    logger,
    clock,
    heartbeatSeconds: config.eventsHeartbeatSeconds,
    maxPerUser: config.eventsMaxStreamsPerUser,
    maxStreams: config.eventsMaxStreams,
    bufferEvents: config.eventsBufferEvents,
    tokenIdleTtlSeconds: config.tokenIdleTtlSeconds,
    tokenMaxAgeSeconds: config.tokenMaxAgeSeconds,
    keepTokensAlive: tokens.keepAlive,
  });
  // Four eyes: what one admin asks for and a second confirms (a promotion, a large withdrawal).
  const approvals = createApprovalService({ db, clock, audit: admin, events });
  const users = createUserService({ db, clock, config, audit: admin, ledger, events, approvals });
  const idempotency = createIdempotencyService({ db, clock });
  const otp = createOtpService({ db, config, clock, messenger, users, tokens });
  const pronostics = createPronosticService({
    db,
    clock,
    admission: analysisAdmission(db, clock, config),
    audit: admin,
    modelName: analyst.modelName,
    wakeups,
    ledger,
    accounts: users,
    fixtures,
  });
  const analysisJobs = createAnalysisJobs({ db, ledger, events });
  const slipNeeds = { db, clock, events, pronostics, fixtures, football };
  const slips = createSlipService({ ...slipNeeds, accounts: users, voidDays: config.slipVoidDays, logger });
  // Money, one capability: the ledger's reports, packs, checkout, cash-out, provider follow-up, flags.
  const money = createMoney({
    db,
    config,
    clock,
    logger,
    ledger,
    events,
    audit: admin,
    approvals,
    accounts: users,
    wakeups,
    commissions: createCommissionPolicy({ logger, config }),
    paymentsDriver: deps.paymentsDriver,
  });
  const { wallet, payments, payouts, withdrawals, flags } = money;
  const affiliation = createAffiliationService({ db, money: money.withdrawals });
  const dashboard = createDashboardService({ users, pronostics, wallet });
  const storage = deps.storage ?? createStorage(config);
  const profile = createProfileService({ db, clock, storage, logger });
  const support = createSupportService({
    db,
    storage,
    logger,
    audit: admin,
    events,
    accounts: users,
    maxUnclosed: config.rateLimit ? MAX_UNCLOSED_TICKETS : null,
  });

  const account = createAccountService({
    db,
    clock,
    logger,
    storage,
    ledger,
    audit: admin,
    otp,
    tokens,
    users,
    pronostics,
    slips,
    support,
    events,
    devices,
    idempotency,
    affiliation,
    withdrawals,
    payments,
    wallet,
  });

  const housekeeping = createHousekeepingService({
    clock,
    otp,
    tokens,
    idempotency,
    events,
    accountFiles: account,
    phones: [payments, withdrawals, payouts],
  });

  const backups = createBackupsService({
    database,
    config,
    clock,
    logger: logger.child({ component: 'backups' }),
  });

  // Only when something serves them (METRICS_TOKEN or METRICS_PORT): otherwise no hook, no route.
  const metrics =
    config.metricsToken !== undefined || config.metricsPort !== 0
      ? createMetricsService({
          clock,
          logger,
          database,
          sources: { analysis: analysisJobs, payments, payouts, sms: otp, backups, push },
        })
      : undefined;

  const trackRecord = createTrackRecordService({ db, clock, football, fixtures });
  const backoffice = createBackofficeService({
    clock,
    users,
    pronostics,
    payments,
    affiliation,
    withdrawals,
    flags,
    trackRecord,
    approvals,
    slips,
  });

  return {
    analyst,
    ...money,
    events,
    eventStreams,
    devices,
    pushDriver,
    push,
    messenger,
    football,
    fixtures,
    users,
    idempotency,
    otp,
    tokens,
    pronostics,
    analysisJobs,
    housekeeping,
    admin,
    approvals,
    dashboard,
    affiliation,
    storage,
    profile,
    support,
    account,
    trackRecord,
    slips,
    backoffice,
    backups,
    metrics,
  };
}

export type Services = ReturnType<typeof createServices>;

/** The default analyst: the statistical model fitted off the event loop, with the configured narrator. */
function footballAnalyst(
  config: Config,
  football: ReturnType<typeof createFootballService>,
  logger: FastifyBaseLogger,
  clock: Clock,
): Analyst {
  return createAnalyst({
    football,
    logger,
    clock,
    narrator: createNarrator(config, { logger }),
    fitter: threadFitter(),
  });
}
