// Every choice the service's settings allow, each listed once: the configuration's schema checks
// against these lists, its error lines name them, and the union types are derived from them.

export const APP_ENVS = ['development', 'production', 'test'] as const;
export type AppEnv = (typeof APP_ENVS)[number];

/** What one process runs: the API and the worker, or one of them (two processes need PostgreSQL). */
export const ROLES = ['all', 'api', 'worker'] as const;
export type Role = (typeof ROLES)[number];

/** pino's levels, and `silent`. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Drivers that send SMS: MESSAGING_DRIVER. WhatsApp Cloud sends WhatsApp messages only. */
export const SMS_DRIVERS = ['log', 'twilio'] as const;
/** Drivers that send sign-in codes by any channel: WHATSAPP_DRIVER. */
export const MESSAGING_DRIVERS = [...SMS_DRIVERS, 'whatsapp-cloud'] as const;
export type MessagingDriverName = (typeof MESSAGING_DRIVERS)[number];

export const PAYMENT_PROVIDERS = ['sandbox', 'notchpay'] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const AI_DRIVERS = ['builtin', 'openai'] as const;
export type AiDriverName = (typeof AI_DRIVERS)[number];

export const STORAGE_DRIVERS = ['local', 's3'] as const;
export type StorageDriverName = (typeof STORAGE_DRIVERS)[number];

/** The documentation disagrees on NotchPay's direct-charge method: POST by default, PUT if the account needs it. */
export const NOTCHPAY_CHARGE_METHODS = ['POST', 'PUT'] as const;
export type NotchPayChargeMethod = (typeof NOTCHPAY_CHARGE_METHODS)[number];

/** A switch's words, compared lower-cased. */
export const SWITCH_ON = ['on', 'true', '1', 'yes'] as const;
export const SWITCH_OFF = ['off', 'false', '0', 'no'] as const;

/** Whether `value` is one of `values`, narrowing it to their union. */
export function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}
