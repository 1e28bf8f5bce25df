// The payments driver the configuration names (PAYMENTS_DRIVER): the sandbox in development, NotchPay
// in production (config refuses the sandbox there).
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { createNotchPayDriver } from './notchpay.js';
import { createSandboxDriver } from './sandbox.js';
import type { PaymentsDriver } from './types.js';

export * from './types.js';

export interface PaymentsDriverDeps {
  clock: Clock;
  fetch?: typeof fetch;
}

export function createPaymentsDriver(config: Config, deps: PaymentsDriverDeps): PaymentsDriver {
  switch (config.paymentsDriver) {
    case 'sandbox':
      return createSandboxDriver({
        appSecret: config.appSecret,
        delayMs: config.paymentSandboxDelayMs,
        clock: deps.clock,
      });
    case 'notchpay':
      return createNotchPayDriver(config.notchpay, deps.fetch ? { fetch: deps.fetch } : {});
  }
}
