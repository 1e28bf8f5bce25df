// What expires and is deleted on a schedule: sign-in codes past retention, dead tokens, and stored
// idempotent answers past their 24 hours, events past EVENTS_RETENTION_DAYS, deleted accounts'
// files whose first removal failed, and the paying and receiving phones of payments, withdrawals
// and payouts past the 10-year accounting retention. One entry point for the API's timer and the
// CLI; each module deletes (or erases) its own rows.
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
  /** Payments, withdrawals and payouts whose phone was erased past PHONE_RETENTION_YEARS. */
  phones: number;
}

/**
 * OHADA (Uniform Act on accounting, art. 24): records of transactions are kept ten years. Past it,
 * a payment's paying phone and a withdrawal's or payout's receiving phone are erased ('').
 */
export const PHONE_RETENTION_YEARS = 10;
/** Rows one erasure query changes. */
export const PHONE_ERASE_BATCH = 500;
/** Batches per table per run: a run stays short; the next run goes on. */
const PHONE_ERASE_BATCHES = 20;

/** A module whose rows keep a phone for the retention: payments, withdrawals, payouts. */
export interface PhoneRetention {
  erasePhonesBefore(before: Date, limit: number): Promise<number>;
}

export interface HousekeepingServiceDeps {
  clock: Clock;
  otp: OtpService;
  tokens: TokenService;
  idempotency: IdempotencyService;
  events: Pick<EventService, 'purgeExpired'>;
  /** Retries the removal of deleted accounts' files the storage refused. */
  accountFiles: Pick<AccountService, 'retryFileDeletions'>;
  /** The owners of the rows whose phone is erased past the retention. */
  phones: readonly PhoneRetention[];
}

/** The moment PHONE_RETENTION_YEARS before `now`, by the calendar (UTC). */
export function phoneRetentionCutoff(now: Date): Date {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - PHONE_RETENTION_YEARS);
  return cutoff;
}

export function createHousekeepingService({
  clock,
  otp,
  tokens,
  idempotency,
  events,
  accountFiles,
  phones,
}: HousekeepingServiceDeps) {
  /** Erases the phones past the retention, in bounded batches per owner; how many rows. */
  async function erasePhones(): Promise<number> {
    const cutoff = phoneRetentionCutoff(clock.now());
    let erased = 0;
    for (const owner of phones) {
      for (let batch = 0; batch < PHONE_ERASE_BATCHES; batch += 1) {
        const count = await owner.erasePhonesBefore(cutoff, PHONE_ERASE_BATCH);
        erased += count;
        if (count < PHONE_ERASE_BATCH) break;
      }
    }
    return erased;
  }

  return {
    /** One purge now, at the clock's time. */
    async purgeExpired(): Promise<Purged> {
      const codes = await otp.purgeExpired();
      const deadTokens = await tokens.purgeDead();
      const streamKeys = await tokens.purgeExpiredStreamKeys();
      const idempotencyKeys = await idempotency.purgeExpired(clock.now());
      const purgedEvents = await events.purgeExpired();
      const files = await accountFiles.retryFileDeletions();
      const erasedPhones = await erasePhones();
      return {
        codes,
        tokens: deadTokens,
        streamKeys,
        idempotencyKeys,
        events: purgedEvents,
        files,
        phones: erasedPhones,
      };
    },
  };
}
export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
