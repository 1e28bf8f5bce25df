// What expires and is deleted on a schedule: sign-in codes past retention, dead tokens, and stored
// idempotent answers past their 24 hours, events past EVENTS_RETENTION_DAYS. One entry point for the API's timer and the CLI; each
// module deletes its own rows.
import type { Clock } from '../../lib/clock.js';
import type { OtpService } from '../auth/otp-service.js';
import type { TokenService } from '../auth/tokens.js';
import type { EventService } from '../events/service.js';
import type { IdempotencyService } from '../idempotency/service.js';

export interface Purged {
  codes: number;
  tokens: number;
  streamKeys: number;
  idempotencyKeys: number;
  events: number;
}

export interface HousekeepingServiceDeps {
  clock: Clock;
  otp: OtpService;
  tokens: TokenService;
  idempotency: IdempotencyService;
  events: Pick<EventService, 'purgeExpired'>;
}

export function createHousekeepingService({
  clock,
  otp,
  tokens,
  idempotency,
  events,
}: HousekeepingServiceDeps) {
  return {
    /** One purge now, at the clock's time. */
    async purgeExpired(): Promise<Purged> {
      const codes = await otp.purgeExpired();
      const deadTokens = await tokens.purgeDead();
      const streamKeys = await tokens.purgeExpiredStreamKeys();
      const idempotencyKeys = await idempotency.purgeExpired(clock.now());
      const purgedEvents = await events.purgeExpired();
      return { codes, tokens: deadTokens, streamKeys, idempotencyKeys, events: purgedEvents };
    },
  };
}
export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
