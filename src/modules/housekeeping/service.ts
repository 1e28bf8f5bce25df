// What expires and is deleted on a schedule: sign-in codes past retention, dead tokens, and stored
// idempotent answers past their 24 hours. One entry point for the API's timer and the CLI.
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { purgeSignInData } from '../auth/otp-service.js';
import { deleteExpiredKeys } from '../idempotency/repository.js';

export interface Purged {
  codes: number;
  tokens: number;
  idempotencyKeys: number;
}

export async function purgeExpired(
  db: Database,
  config: Pick<Config, 'tokenIdleTtlSeconds' | 'tokenMaxAgeSeconds'>,
  now: Date,
): Promise<Purged> {
  const signIn = await purgeSignInData(db, config, now);
  const idempotencyKeys = await deleteExpiredKeys(db, now);
  return { ...signIn, idempotencyKeys };
}
