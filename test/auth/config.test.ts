// The sign-in settings added for hardening: their defaults, and a bad value naming the variable.
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

const load = (env: Record<string, string>) => loadConfig({ APP_SECRET: 'x'.repeat(40), ...env }, '/srv/app');

describe('sign-in configuration', () => {
  it('defaults: tokens live 30 days at most; 500 codes per calling code and 1500 in all an hour', () => {
    expect(load({})).toMatchObject({
      tokenMaxAgeSeconds: 2_592_000,
      otpCountryHourlyBudget: 500,
      otpGlobalHourlyBudget: 1500,
    });
  });

  it('reads the variables', () => {
    expect(
      load({
        TOKEN_MAX_AGE_SECONDS: '86400',
        OTP_COUNTRY_HOURLY_BUDGET: '50',
        OTP_GLOBAL_HOURLY_BUDGET: '80',
      }),
    ).toMatchObject({ tokenMaxAgeSeconds: 86_400, otpCountryHourlyBudget: 50, otpGlobalHourlyBudget: 80 });
  });

  it.each([
    ['TOKEN_MAX_AGE_SECONDS', 'forever'],
    ['TOKEN_MAX_AGE_SECONDS', '10'],
    ['OTP_COUNTRY_HOURLY_BUDGET', '0'],
    ['OTP_GLOBAL_HOURLY_BUDGET', '-5'],
  ])('%s=%s stops the start with one line naming it', (name, value) => {
    expect(() => load({ [name]: value })).toThrow(ConfigError);
    expect(() => load({ [name]: value })).toThrow(
      new RegExp(`^${name}="${value}" is invalid: expected a whole number`),
    );
  });
});
