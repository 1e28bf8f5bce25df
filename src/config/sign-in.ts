// Signing in and staying signed in: the tokens' lifetimes and cache, the one-time codes and the SMS
// budgets that cap them, the sign-up challenge.
import { type Static, Type } from 'typebox';
import { wholeNumber } from '../lib/env-settings.js';
import { inTests } from './common.js';

export const SignInSettings = Type.Object({
  tokenIdleTtlSeconds: wholeNumber('TOKEN_IDLE_TTL_SECONDS', {
    default: 600,
    minimum: 10,
    maximum: 30 * 24 * 3600,
  }),
  tokenMaxAgeSeconds: wholeNumber('TOKEN_MAX_AGE_SECONDS', {
    default: 30 * 24 * 3600,
    minimum: 60,
    maximum: 366 * 24 * 3600,
    description: 'Absolute lifetime of a token, whatever its activity.',
  }),
  tokenCacheSeconds: wholeNumber('TOKEN_CACHE_SECONDS', {
    // Off in tests, which change users and tokens behind the service's back and look at once;
    // the cache's own tests turn it on. A minute elsewhere: invalidation is exact (triggers and
    // NOTIFY), so the lifetime only sets how often an active user's token is read (decision 0166).
    defaultFrom: (earlier) => (inTests(earlier) ? 0 : 60),
    minimum: 0,
    maximum: 300,
    description:
      'How long a process may answer for a checked token from memory (0: every request reads the database).',
  }),
  otpTtlSeconds: wholeNumber('OTP_TTL_SECONDS', { default: 600, minimum: 30, maximum: 3600 }),
  otpMaxAttempts: wholeNumber('OTP_MAX_ATTEMPTS', { default: 5, minimum: 1, maximum: 20 }),
  otpResendCooldownSeconds: wholeNumber('OTP_RESEND_COOLDOWN_SECONDS', {
    default: 60,
    minimum: 0,
    maximum: 3600,
  }),
  // docs/decisions/0020-sms-budgets.md: sized for a Cameroon-first launch.
  otpCountryHourlyBudget: wholeNumber('OTP_COUNTRY_HOURLY_BUDGET', {
    default: 500,
    minimum: 1,
    maximum: 10_000_000,
    description: 'Codes delivered per country calling code in a rolling hour (SMS-fraud cap).',
  }),
  otpGlobalHourlyBudget: wholeNumber('OTP_GLOBAL_HOURLY_BUDGET', {
    default: 1500,
    minimum: 1,
    maximum: 10_000_000,
    description: 'Codes delivered in all in a rolling hour (SMS-fraud cap).',
  }),
  otpReturningSharePercent: wholeNumber('OTP_RETURNING_SHARE_PERCENT', {
    default: 50,
    minimum: 0,
    maximum: 100,
    description: 'Share (%) of each SMS budget kept for numbers that verified a code before.',
  }),
  // docs/decisions/0104-signup-challenge.md: about 0.5 ms of a server core per counter tried.
  signupChallengeCost: wholeNumber('SIGNUP_CHALLENGE_COST', {
    default: 1000,
    minimum: 1,
    maximum: 100_000,
    description:
      'PBKDF2 iterations per counter a sign-up challenge makes the client try (its work per try; the tries grow with the pressure).',
  }),
});
export type SignInConfig = Static<typeof SignInSettings>;
