// Money's settings: what a new account, a withdrawal and a referral are worth, when a payout is
// escalated, and the payments driver (the sandbox, or NotchPay and its keys).
import { type Static, Type } from 'typebox';
import { notchpayChargeMethods, paymentProviders } from '../lib/allowed-values.js';
import { ConfigError, choice, httpUrl, onOff, optionalText, text, wholeNumber } from '../lib/env-settings.js';
import { inProduction, requireSet } from './common.js';
import type { MessagingConfig } from './messaging.js';
import type { ProcessConfig } from './process.js';

export const MoneySettings = Type.Object({
  welcomeCredits: wholeNumber('WELCOME_CREDITS', { default: 0, minimum: 0, maximum: 1_000_000 }),
  withdrawMin: wholeNumber('WITHDRAW_MIN', { default: 5000, minimum: 1, maximum: 100_000_000 }),
  withdrawalSecondApprovalXaf: wholeNumber('WITHDRAWAL_SECOND_APPROVAL_XAF', {
    default: 100_000,
    minimum: 1,
    maximum: 1_000_000_000,
    description:
      "An approval that brings the user's withdrawals approved over 24 h to this many XAF or more needs a second, different admin to confirm it.",
  }),
  referralCommissionPercent: wholeNumber('REFERRAL_COMMISSION_PERCENT', {
    default: 10,
    minimum: 0,
    maximum: 100,
  }),
  payoutStuckSeconds: wholeNumber('PAYOUT_STUCK_SECONDS', {
    default: 6 * 3600,
    minimum: 60,
    maximum: 30 * 24 * 3600,
    description:
      'A payout still not final this long after its approval is escalated to an admin (never refunded by itself).',
  }),
  paymentsDriver: choice('PAYMENTS_DRIVER', paymentProviders, { default: 'sandbox' }),
  paymentSandboxDelayMs: wholeNumber('PAYMENT_SANDBOX_DELAY_MS', {
    default: 2000,
    minimum: 0,
    maximum: 3_600_000,
  }),
  paymentMaxPending: wholeNumber('PAYMENT_MAX_PENDING', {
    default: 10,
    minimum: 1,
    maximum: 1000,
    description: 'Pending payments one user may hold at once (429 past it; lifted by RATE_LIMIT=off).',
  }),
  responsiblePlay: Type.Object({
    ageGate: onOff('AGE_GATE', {
      defaultFrom: (earlier) => inProduction(earlier),
      description:
        'A checkout needs a date of birth at least AGE_MINIMUM years ago (403 age_required / under_age). Default: on in production, off elsewhere.',
    }),
    ageMinimum: wholeNumber('AGE_MINIMUM', { default: 18, minimum: 1, maximum: 120 }),
    url: text('RESPONSIBLE_PLAY_URL', {
      default: '/responsible-play',
      description: 'The help link beside the 18+ notice on every page and in the web app.',
    }),
  }),
  notchpay: Type.Object({
    baseUrl: httpUrl('NOTCHPAY_BASE_URL', { default: 'https://api.notchpay.co' }),
    publicKey: optionalText('NOTCHPAY_PUBLIC_KEY'),
    privateKey: optionalText('NOTCHPAY_PRIVATE_KEY'),
    webhookSecret: optionalText('NOTCHPAY_WEBHOOK_SECRET', {
      description: 'The webhook hash key: HMAC-SHA256 of the raw body, hex, in `x-notch-signature`.',
    }),
    chargeMethod: choice('NOTCHPAY_CHARGE_METHOD', notchpayChargeMethods, { default: 'POST' }),
    timeoutMs: wholeNumber('NOTCHPAY_TIMEOUT_MS', {
      default: 15_000,
      minimum: 1000,
      maximum: 120_000,
      description: 'Per call to NotchPay.',
    }),
  }),
});
export type MoneyConfig = Static<typeof MoneySettings>;
type InEnvironment = MoneyConfig & Pick<ProcessConfig, 'appEnv'>;

/** The sandbox grants credits without money: never in production. */
export function refuseSandboxInProduction(config: InEnvironment): void {
  if (config.appEnv === 'production' && config.paymentsDriver === 'sandbox') {
    throw new ConfigError(
      'PAYMENTS_DRIVER=sandbox is for development: APP_ENV=production needs PAYMENTS_DRIVER=notchpay',
    );
  }
}

/** NotchPay without its keys is a start error, not a failure at the first checkout. */
export function requireNotchpaySettings(config: MoneyConfig): void {
  if (config.paymentsDriver === 'notchpay') {
    const { notchpay } = config;
    // Withdrawals are paid out by transfers, which need the private key (`X-Grant`).
    requireSet('PAYMENTS_DRIVER=notchpay is used', {
      NOTCHPAY_PUBLIC_KEY: notchpay.publicKey,
      NOTCHPAY_PRIVATE_KEY: notchpay.privateKey,
      NOTCHPAY_WEBHOOK_SECRET: notchpay.webhookSecret,
    });
  }
}

/**
 * NotchPay's test keys select its sandbox (INTEGRATIONS.md: they carry a `test_` marker, as in
 * `pk_test_…`): in production they would take no real money while the service grants credits.
 */
export function refuseTestKeysInProduction(config: InEnvironment): void {
  if (config.appEnv !== 'production' || config.paymentsDriver !== 'notchpay') return;
  for (const [name, value] of [
    ['NOTCHPAY_PUBLIC_KEY', config.notchpay.publicKey],
    ['NOTCHPAY_PRIVATE_KEY', config.notchpay.privateKey],
  ] as const) {
    if (value !== undefined && /(^|[._-])test([._-]|$)/i.test(value)) {
      throw new ConfigError(`${name} is a NotchPay test key: APP_ENV=production needs live keys`);
    }
  }
}

/**
 * What the start should say loudly: the sandbox payments driver grants credits without money;
 * beside a messaging driver that reaches real phones (APP_ENV left unset on a server, say), anyone
 * can sign in and buy credits for free.
 */
export function sandboxWarnings(
  config: InEnvironment & Pick<MessagingConfig, 'messagingDriver' | 'whatsappDriver'>,
): string[] {
  const realMessaging = config.messagingDriver !== 'log' || config.whatsappDriver !== 'log';
  if (config.paymentsDriver !== 'sandbox' || !realMessaging) return [];
  return [
    `PAYMENTS_DRIVER=sandbox grants credits without payment while sign-in codes go to real phones (MESSAGING_DRIVER=${config.messagingDriver}, WHATSAPP_DRIVER=${config.whatsappDriver}): anyone can buy credits for free. Set APP_ENV=production and PAYMENTS_DRIVER=notchpay on a server (APP_ENV=${config.appEnv}).`,
  ];
}
