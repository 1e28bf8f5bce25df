// Keyed hashes and secrets. Codes and tokens are stored only as HMACs keyed by APP_SECRET, with a
// purpose prefix so a code's hash can never stand for a token's.
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export function keyedHash(
  secret: string,
  purpose: 'otp' | 'token' | 'stream_key' | 'idempotency' | 'welcomed_phone' | 'signup_challenge' | 'otp_ask',
  value: string,
): string {
  return createHmac('sha256', secret).update(`${purpose}:${value}`).digest('hex');
}

/** Constant-time comparison of two hex digests. */
export function sameDigest(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && timingSafeEqual(left, right);
}

/** A bearer token: 256 random bits, URL-safe. */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** A 6-digit one-time code from the CSPRNG. */
export function newOtpCode(): string {
  return randomInt(0, 1_000_000).toString().padStart(6, '0');
}
