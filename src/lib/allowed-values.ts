// Every set of allowed values, once: the tables' checks (db/schema), the request and response
// schemas, the configuration and the types all derive from these constants, so a value added here
// is added everywhere (a migration then changes the check). Plain data: the engine may import it.

export const withdrawalStatuses = ['pending', 'success', 'cancelled'] as const;
export type WithdrawalStatus = (typeof withdrawalStatuses)[number];

export const withdrawalDecisions = ['approved', 'rejected'] as const;
export type WithdrawalDecision = (typeof withdrawalDecisions)[number];

/** What a flag is about. */
export const flagTargetTypes = ['payment', 'withdrawal'] as const;
export type FlagTargetType = (typeof flagTargetTypes)[number];

/**
 * The kinds of contradiction: a provider's word against our books or against itself.
 * `late_complete`: paid after we (or the provider) called it failed; `refund_after_success` and
 * `failed_after_success`: a final success contradicted; `amount_mismatch` / `currency_mismatch`:
 * not what we asked; `refunded_while_pending`; `stuck_pending`: still pending a day on;
 * `driver_missing`: its provider's driver is not configured; `contradicts_final`: news against a
 * withdrawal already final (paid, refunded, or resolved by hand).
 */
export const flagKinds = [
  'late_complete',
  'refund_after_success',
  'failed_after_success',
  'amount_mismatch',
  'currency_mismatch',
  'refunded_while_pending',
  'stuck_pending',
  'driver_missing',
  'contradicts_final',
] as const;
export type FlagKind = (typeof flagKinds)[number];

export const flagStatuses = ['open', 'resolved'] as const;
/** Four eyes (DESIGN, "Admin routes and the back office"): what waits for a second admin. */
export const approvalActions = ['user.promote', 'withdrawal.approve'] as const;
export type ApprovalAction = (typeof approvalActions)[number];
export const approvalStatuses = ['pending', 'confirmed', 'rejected'] as const;
export type ApprovalStatus = (typeof approvalStatuses)[number];
export const approvalTargetTypes = ['user', 'withdrawal'] as const;
/** What keys a tombstone's phone hash: APP_SECRET before the re-keying (issue 55), TOMBSTONE_KEY after. */
export const phoneHashKeys = ['app_secret', 'tombstone_key'] as const;
export type FlagStatus = (typeof flagStatuses)[number];

/** A payout's state in our books: under way (or unknown), or final. */
export const payoutStatuses = ['pending', 'paid', 'failed'] as const;
export type PayoutStatus = (typeof payoutStatuses)[number];

/** How an admin closes an escalated payout by hand: the two final states of `payoutStatuses`. */
export const payoutHandOutcomes = ['paid', 'failed'] as const satisfies readonly PayoutStatus[];
export type PayoutHandOutcome = (typeof payoutHandOutcomes)[number];

export const pronosticStatuses = ['processing', 'success', 'cancelled'] as const;
export type PronosticStatus = (typeof pronosticStatuses)[number];

/** `open` → `answered` (a support reply) → `open` again (a user reply) …; `closed` by either side, for good. */
export const ticketStatuses = ['open', 'answered', 'closed'] as const;
export type TicketStatus = (typeof ticketStatuses)[number];

export const ticketAuthors = ['user', 'support'] as const;
export type TicketAuthor = (typeof ticketAuthors)[number];

/** What a user's event log reports (DESIGN.md "Events"): each written with the change it reports. */
export const userEventTypes = [
  'pronostic.succeeded',
  'pronostic.cancelled',
  'payment.succeeded',
  'payment.failed',
  'withdrawal.succeeded',
  'withdrawal.cancelled',
  'credits.adjusted',
  'ticket.replied',
  'slip.settled',
] as const;
export type UserEventType = (typeof userEventTypes)[number];

/** What the back office's event log reports, for admins only, with its own sequence. */
export const adminEventTypes = [
  'withdrawal.requested',
  'ticket.created',
  'ticket.replied',
  'flag.raised',
  'push.pruning_paused',
  'approval.requested',
] as const;
export type AdminEventType = (typeof adminEventTypes)[number];

export const userRoles = ['user', 'admin'] as const;
export type UserRole = (typeof userRoles)[number];

/** The channels a sign-in code is sent by (the request's `method`). */
export const otpChannels = ['sms', 'whatsapp'] as const;
export type OtpChannel = (typeof otpChannels)[number];

/** What a one-time code is for: signing in, or confirming the deletion of one's account. */
export const otpPurposes = ['sign_in', 'account_delete', 'self_exclusion'] as const;
export type OtpPurpose = (typeof otpPurposes)[number];

/** `deleted`: the account's owner deleted it (issue 30); the row is a tombstone, never active again. */
export const userStatuses = ['active', 'blocked', 'deleted'] as const;
export type UserStatus = (typeof userStatuses)[number];

export const operationTypes = [
  'pack_purchase',
  'pronostic_debit',
  'pronostic_refund',
  'welcome_bonus',
  'referral_commission',
  'withdrawal',
  'withdrawal_refund',
  'admin_adjustment',
  'balance_forfeit',
] as const;
export type OperationType = (typeof operationTypes)[number];

export const currencies = ['credits', 'XAF'] as const;
export type Currency = (typeof currencies)[number];

export const paymentStatuses = ['pending', 'success', 'failed'] as const;
export type PaymentStatus = (typeof paymentStatuses)[number];

export const paymentProviders = ['sandbox', 'notchpay'] as const;
export type PaymentProvider = (typeof paymentProviders)[number];

/** NotchPay's mobile-money channels: MTN, Orange, or its generic Cameroon channel. */
export const paymentChannels = ['cm.mtn', 'cm.orange', 'cm.mobile'] as const;
export type PaymentChannel = (typeof paymentChannels)[number];

/**
 * The pronostic types the engine answers, in the seeded order: the one list from which the type,
 * the `pronostic_types.slug` column and the tests derive.
 */
export const pronosticTypeSlugs = [
  '1x2',
  'double-chance',
  'btts',
  'over-under-2-5',
  'exact-score',
  'full-analysis',
] as const;
export type PronosticTypeSlug = (typeof pronosticTypeSlugs)[number];

/**
 * What the market told an analysis (`result.data_quality.odds`, DESIGN "Fixtures"): the fixture's
 * own pre-match odds (`prematch`), past matches' odds through the market rating alone (`market`),
 * or nothing (`none`: results only).
 */
export const oddsModes = ['prematch', 'market', 'none'] as const;

export const settlementOutcomes = ['won', 'lost', 'void'] as const;
export type SettlementOutcome = (typeof settlementOutcomes)[number];

/** The pronostic list's `outcome` filter: a settled outcome, or `pending` (not settled yet, not cancelled). */
/** A saved slip (DESIGN "Slips"): `open` until every leg is decided, then won, lost or void. */
export const slipStatuses = ['open', 'won', 'lost', 'void'] as const;
export type SlipStatus = (typeof slipStatuses)[number];

/** The markets a slip's leg may name (a full analysis offers them all). */
export const slipMarkets = ['1x2', 'double_chance', 'btts', 'over_under_2_5', 'exact_score'] as const;
export type SlipMarket = (typeof slipMarkets)[number];

export const outcomeFilters = [...settlementOutcomes, 'pending'] as const;
export type OutcomeFilter = (typeof outcomeFilters)[number];

// The configuration's choices (config.ts).

export const appEnvs = ['development', 'production', 'test'] as const;
export type AppEnv = (typeof appEnvs)[number];

/** What one process runs: the API and the worker, or one of them (two processes need PostgreSQL). */
export const roles = ['all', 'api', 'worker'] as const;
export type Role = (typeof roles)[number];

/** pino's levels, and `silent`. */
export const logLevels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** Drivers that send SMS: MESSAGING_DRIVER. WhatsApp Cloud sends WhatsApp messages only. */
export const smsDrivers = ['log', 'twilio'] as const;
/** Drivers that send sign-in codes by any channel: WHATSAPP_DRIVER. */
export const messagingDrivers = [...smsDrivers, 'whatsapp-cloud'] as const;
export type MessagingDriverName = (typeof messagingDrivers)[number];

export const aiDrivers = ['builtin', 'openai'] as const;
export type AiDriverName = (typeof aiDrivers)[number];

export const storageDrivers = ['local', 's3'] as const;
export type StorageDriverName = (typeof storageDrivers)[number];

/** PUSH_DRIVER: `log` writes what it would send (development), `fcm` sends through Firebase Cloud Messaging. */
export const pushDrivers = ['log', 'fcm'] as const;
/** A push driver's name: PUSH_DRIVER's, or `webpush` for the driver of `webpush` devices. */
export type PushDriverName = (typeof pushDrivers)[number] | 'webpush';

/** WEBPUSH_DRIVER: `log` writes what it would send to `webpush` devices, `vapid` sends it (Web Push). */
export const webpushDrivers = ['log', 'vapid'] as const;
export type WebpushDriverName = (typeof webpushDrivers)[number];

/**
 * What a push device is (`POST /api/user/devices`' `platform`): `android`, `ios` and `web` hold FCM
 * registration tokens; `webpush` a browser's PushSubscription, sent to by Web Push (VAPID).
 */
export const pushPlatforms = ['android', 'ios', 'web', 'webpush'] as const;
export type PushPlatform = (typeof pushPlatforms)[number];

/** The documentation disagrees on NotchPay's direct-charge method: POST by default, PUT if the account needs it. */
export const notchpayChargeMethods = ['POST', 'PUT'] as const;
export type NotchPayChargeMethod = (typeof notchpayChargeMethods)[number];

/** A switch's words, compared lower-cased. */
export const switchOn = ['on', 'true', '1', 'yes'] as const;
export const switchOff = ['off', 'false', '0', 'no'] as const;

/** Whether `value` is one of `values`, narrowing it to their union. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/**
 * An upcoming match's state: `scheduled` (in the fixtures file, or not yet closed), `played` (a
 * stored result closed it, with its score), `postponed` (no result a week after kick-off; a new
 * date in the file makes it `scheduled` again).
 */
export const fixtureStatuses = ['scheduled', 'played', 'postponed'] as const;
export type FixtureStatus = (typeof fixtureStatuses)[number];

/** What a competition is (DESIGN, "Fixtures"): a league, a cup, or national teams. */
export const competitionKinds = ['league', 'cup', 'international'] as const;

/** The languages a text is written in (DESIGN, "Languages"); French is the default. */
export const locales = ['fr', 'en'] as const;
export type Locale = (typeof locales)[number];

/** Responsible play: the windows of a spending limit (Africa/Douala calendar day, ISO week, month). */
export const spendingPeriods = ['daily', 'weekly', 'monthly'] as const;
export type SpendingPeriod = (typeof spendingPeriods)[number];

/** Why a checkout (or an analysis, a slip) was refused for responsible play: `data.reason` of the 403. */
export const playRefusals = ['age_required', 'under_age', 'limit_reached', 'self_excluded'] as const;
export type PlayRefusal = (typeof playRefusals)[number];
