// The sign-up challenge (decision 0104): while the strangers' share of an SMS budget is under
// pressure, a number that never verified a code gets its code only with a solved ALTCHA
// proof-of-work (altcha-lib, PBKDF2/SHA-256), bound to that number, good once, for a few minutes;
// the work asked grows with the pressure. The rules of who is asked live in the OTP service.
import { randomInt } from 'node:crypto';
import { type Challenge, createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { keyedHash } from '../../lib/crypto.js';
import { ValidationFailed } from '../../lib/errors.js';
import { messages } from '../../lib/messages.js';
import { insertSignupProof } from './otp-repository.js';

/** The strangers' share of a budget this much used (in the last hour) asks new numbers for a proof. */
export const CHALLENGE_PRESSURE = 0.5;
/** Under pressure, one stranger network may have this share (%) of the strangers' hourly budget. */
export const NETWORK_SHARE_PERCENT = 2;
/** How long a challenge may be solved and its proof presented. */
export const CHALLENGE_TTL_SECONDS = 300;
/** The longest `proof` accepted: a proof of ours is about 800 characters. */
export const PROOF_MAX_LENGTH = 4096;
export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';
/** Counters to try at the threshold; doubled at each eighth of the strangers' budget above it. */
const BASE_COUNTERS = 500;
const MAX_COUNTERS = 2000;
const PRESSURE_STEP = 0.125;

/**
 * The highest counter a challenge may hide at this pressure (its counter is drawn from the upper
 * half): 500 at half the strangers' share used, 1,000 from five eighths, 2,000 from three
 * quarters. At the default cost (0.4 ms a counter on this machine's core, Node or WebCrypto) that
 * is 0.1 to 0.2 s at the threshold and 0.4 to 0.9 s near exhaustion; a slow phone takes a few times more.
 */
export function challengeCounters(pressure: number): number {
  if (pressure < CHALLENGE_PRESSURE) return 0;
  const steps = Math.floor((pressure - CHALLENGE_PRESSURE) / PRESSURE_STEP + 1e-9);
  return Math.min(MAX_COUNTERS, BASE_COUNTERS * 2 ** steps);
}

/** Stranger SMS one network may have in the last hour while under pressure (at least 1). */
export function networkShare(strangerCap: number): number {
  return Math.max(1, Math.floor((strangerCap * NETWORK_SHARE_PERCENT) / 100));
}

interface Deps {
  db: Database;
  config: Pick<Config, 'appSecret' | 'signupChallengeCost'>;
  clock: Clock;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function createSignupChallenges({ db, config, clock }: Deps) {
  // Purpose keys derived from APP_SECRET, as for codes and tokens: a challenge's signature is
  // worth nothing anywhere else.
  const signatureSecret = keyedHash(config.appSecret, 'signup_challenge', 'challenge-signature');
  const keySignatureSecret = keyedHash(config.appSecret, 'signup_challenge', 'derived-key-signature');
  const phoneTag = (phone: string) =>
    keyedHash(config.appSecret, 'signup_challenge', `phone:${phone}`).slice(0, 32);
  const invalid = () => ValidationFailed.field('proof', messages.otpProofInvalid);

  return {
    /**
     * A signed challenge for `phone` at this pressure. Its expiry is in its signed `data`, read on
     * the app's clock: altcha-lib would check `expiresAt` on the process clock, which tests move.
     */
    async issue(phone: string, pressure: number): Promise<Challenge> {
      const highest = Math.max(2, challengeCounters(pressure));
      const expiresAt = Math.floor(clock.now().getTime() / 1000) + CHALLENGE_TTL_SECONDS;
      return createChallenge({
        algorithm: CHALLENGE_ALGORITHM,
        cost: config.signupChallengeCost,
        counter: randomInt(Math.floor(highest / 2), highest + 1),
        deriveKey,
        data: { expires_at: expiresAt, phone: phoneTag(phone) },
        hmacSignatureSecret: signatureSecret,
        hmacKeySignatureSecret: keySignatureSecret,
      });
    },

    /**
     * Accepts a proof (the ALTCHA payload: base64 of `{challenge, solution}`) for `phone` once:
     * signed by us, for this number, not expired, solved, and never presented before. Anything
     * else is a 422 on `proof`, the same for every reason.
     */
    async redeem(proof: string, phone: string): Promise<void> {
      let payload: unknown;
      try {
        payload = JSON.parse(Buffer.from(proof, 'base64').toString('utf8'));
      } catch {
        throw invalid();
      }
      if (!isRecord(payload) || !isRecord(payload.challenge) || !isRecord(payload.solution)) throw invalid();
      const { parameters, signature } = payload.challenge;
      if (!isRecord(parameters) || typeof signature !== 'string' || !isRecord(parameters.data)) {
        throw invalid();
      }
      const challenge = payload.challenge as unknown as Challenge;
      const solution = payload.solution as unknown as { counter: number; derivedKey: string };
      let verified = false;
      try {
        const result = await verifySolution({
          challenge,
          solution,
          deriveKey,
          hmacSignatureSecret: signatureSecret,
          hmacKeySignatureSecret: keySignatureSecret,
        });
        // The key's own signature must be what proved it: a challenge of ours always carries one.
        verified = result.verified && typeof parameters.keySignature === 'string';
      } catch {
        verified = false;
      }
      if (!verified || parameters.algorithm !== CHALLENGE_ALGORITHM) throw invalid();
      // Signed by us from here on: its data is ours.
      const { expires_at: expiresAt, phone: tag } = parameters.data as {
        expires_at?: unknown;
        phone?: unknown;
      };
      if (typeof expiresAt !== 'number' || tag !== phoneTag(phone)) throw invalid();
      if (expiresAt * 1000 <= clock.now().getTime()) throw invalid();
      if (!(await insertSignupProof(db, signature, new Date(expiresAt * 1000)))) throw invalid();
    },
  };
}

export type SignupChallenges = ReturnType<typeof createSignupChallenges>;
