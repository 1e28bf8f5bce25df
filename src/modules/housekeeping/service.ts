// What expires and is deleted on a schedule: sign-in codes past retention, dead tokens, and stored
// idempotent answers past their 24 hours. One entry point for the API's timer and the CLI; each
// module deletes its own rows.
import type { Clock } from '../../lib/clock.js';
import type { OtpService } from '../auth/otp-service.js';
import type { TokenService } from '../auth/tokens.js';
import type { IdempotencyService } from '../idempotency/service.js';

export interface Purged {
  codes: number;
  tokens: number;
  idempotencyKeys: number;
}

export interface HousekeepingServiceDeps {
  clock: Clock;
  otp: OtpService;
  tokens: TokenService;
  idempotency: IdempotencyService;
}

export function createHousekeepingService({ clock, otp, tokens, idempotency }: HousekeepingServiceDeps) {
  return {
    /** One purge now, at the clock's time. */
    async purgeExpired(): Promise<Purged> {
      const codes = await otp.purgeExpired();
      const deadTokens = await tokens.purgeDead();
      const idempotencyKeys = await idempotency.purgeExpired(clock.now());
      return { codes, tokens: deadTokens, idempotencyKeys };
    },
  };
}
export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
