// What expires and is deleted on a schedule: sign-in codes past retention, dead tokens, and stored
// idempotent answers past their 24 hours, events past EVENTS_RETENTION_DAYS, and deleted accounts'
// files whose first removal failed. One entry point for the API's timer and the CLI; each
// module deletes its own rows.
import type { Clock } from '../../lib/clock.js';
import type { AccountService } from '../account/service.js';
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
  /** Files of deleted accounts removed on a retry (their first removal failed). */
  files: number;
}

export interface HousekeepingServiceDeps {
  clock: Clock;
  otp: OtpService;
  tokens: TokenService;
  idempotency: IdempotencyService;
  events: Pick<EventService, 'purgeExpired'>;
  /** Retries the removal of deleted accounts' files the storage refused. */
  accountFiles: Pick<AccountService, 'retryFileDeletions'>;
}

export function createHousekeepingService({
  clock,
  otp,
  tokens,
  idempotency,
  events,
  accountFiles,
}: HousekeepingServiceDeps) {
  return {
    /** One purge now, at the clock's time. */
    async purgeExpired(): Promise<Purged> {
      const codes = await otp.purgeExpired();
      const deadTokens = await tokens.purgeDead();
      const streamKeys = await tokens.purgeExpiredStreamKeys();
      const idempotencyKeys = await idempotency.purgeExpired(clock.now());
      const purgedEvents = await events.purgeExpired();
      const files = await accountFiles.retryFileDeletions();
      return { codes, tokens: deadTokens, streamKeys, idempotencyKeys, events: purgedEvents, files };
    },
  };
}
export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
