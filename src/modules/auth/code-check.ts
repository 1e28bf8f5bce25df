// Checking a typed code against the phone's open one: its HMAC bound to the phone, compared in
// constant time, OTP_MAX_ATTEMPTS wrong tries voiding it for the client network that made them and
// three times that from all networks voiding it for everyone (DESIGN, "Sign-in").
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash, sameDigest } from '../../lib/crypto.js';
import { clientNetwork } from '../../lib/network.js';
import {
  closeCode,
  lockOpenCode,
  networkAttempts,
  type OtpCodeRow,
  type Purpose,
  recordWrongAttempt,
} from './otp-repository.js';

/** Wrong tries from all networks that void a code for good, in multiples of OTP_MAX_ATTEMPTS. */
export const TOTAL_ATTEMPTS_FACTOR = 3;
export const CODE_FORMAT = /^\d{6}$/;

export function codeHash(config: Pick<Config, 'appSecret'>, phone: string, code: string): string {
  // Bound to the phone: a code's hash is useless for any other number.
  return keyedHash(config.appSecret, 'otp', `${phone}:${code}`);
}

export function createCodeCheck(deps: {
  db: Database;
  config: Pick<Config, 'appSecret' | 'otpMaxAttempts'>;
  clock: Clock;
}) {
  const { db, config, clock } = deps;
  /**
   * Checks `code` against the phone's open code for `purpose` and, when it matches, closes it and
   * runs `onMatch` in the same transaction; undefined for every kind of failure. Decided inside the
   * transaction, thrown by the caller after it: a wrong try must be committed, not rolled back.
   */
  return async function consumeCode<T>(
    phone: string,
    code: string,
    purpose: Purpose,
    client: { ip: string },
    onMatch: (tx: Transaction, row: OtpCodeRow) => Promise<T | undefined>,
  ): Promise<T | undefined> {
    const now = clock.now();
    const network = clientNetwork(client.ip);
    return db.transaction(async (tx) => {
      const row = await lockOpenCode(tx, phone, purpose);
      if (!row || new Date(row.expiresAt).getTime() <= now.getTime()) return undefined;
      // Void for this network: not even checked, and not counted again, so one network's tries
      // never reach the ceiling over all networks on their own.
      if ((await networkAttempts(tx, row.id, network)) >= config.otpMaxAttempts) return undefined;
      // Constant time: the comparison must not tell how many leading characters matched.
      if (!sameDigest(codeHash(config, phone, code), row.codeHash)) {
        const ceiling = config.otpMaxAttempts * TOTAL_ATTEMPTS_FACTOR;
        await recordWrongAttempt(tx, row.id, network, ceiling, now);
        return undefined;
      }
      await closeCode(tx, row.id, now);
      return onMatch(tx, row);
    });
  };
}
