// The payments driver the configuration names (PAYMENTS_DRIVER): the sandbox in development, NotchPay
// in production (config refuses the sandbox there).
import type { Config } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { createNotchPayDriver } from './notchpay.js';
import { createSandboxDriver } from './sandbox.js';
import type { PaymentDrivers, PaymentsDriver } from './types.js';

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

/**
 * The current driver and every other one this configuration can build, for rows made before a
 * change of PAYMENTS_DRIVER: NotchPay when its keys are set; the sandbox outside production (it is
 * stateless, so it answers for its old rows without its timers).
 */
export function createPaymentDrivers(
  config: Config,
  deps: PaymentsDriverDeps,
  current: PaymentsDriver = createPaymentsDriver(config, deps),
): PaymentDrivers {
  const all = new Map<string, PaymentsDriver>([[current.name, current]]);
  const { notchpay } = config;
  if (!all.has('notchpay') && notchpay.publicKey && notchpay.privateKey && notchpay.webhookSecret) {
    all.set('notchpay', createPaymentsDriver({ ...config, paymentsDriver: 'notchpay' }, deps));
  }
  if (!all.has('sandbox') && config.appEnv !== 'production') {
    all.set('sandbox', createPaymentsDriver({ ...config, paymentsDriver: 'sandbox' }, deps));
  }
  return { current, byName: (name) => all.get(name) };
}
