// What expires and is deleted on a schedule: sign-in codes past retention, dead tokens, and stored
// idempotent answers past their 24 hours. One entry point for the API's timer and the CLI.
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { purgeSignInData } from '../auth/otp-service.js';
import type { IdempotencyService } from '../idempotency/service.js';

export interface Purged {
  codes: number;
  tokens: number;
  idempotencyKeys: number;
}

export interface HousekeepingServiceDeps {
  db: Database;
  config: Pick<Config, 'tokenIdleTtlSeconds' | 'tokenMaxAgeSeconds'>;
  clock: Clock;
  idempotency: IdempotencyService;
}

export function createHousekeepingService({ db, config, clock, idempotency }: HousekeepingServiceDeps) {
  return {
    /** One purge now, at the clock's time. */
    async purgeExpired(): Promise<Purged> {
      const now = clock.now();
      const signIn = await purgeSignInData(db, config, now);
      const idempotencyKeys = await idempotency.purgeExpired(now);
      return { ...signIn, idempotencyKeys };
    },
  };
}
