// Asking for a sign-in code with the sign-up challenge handled (decision 0104): while the service's
// SMS budget is under pressure, `POST /api/otp/generate` answers a number that never signed in with
// a 428 and an ALTCHA challenge; this solves it with altcha-lib (WebCrypto: browsers, React Native
// with a WebCrypto polyfill, Node 20+) and sends the same request again with the proof.
import { type Challenge, solveChallenge } from 'altcha-lib';
import { deriveKey as pbkdf2Key } from 'altcha-lib/algorithms/web/pbkdf2';
import { deriveKey as shaKey } from 'altcha-lib/algorithms/web/sha';
import { ApiError, type PronosticsClient } from './client.js';
import type { paths } from './schema.js';

export type GenerateBody = Omit<
  paths['/api/otp/generate']['post']['requestBody']['content']['application/json'],
  'proof'
>;

export interface RequestCodeOptions {
  /** Called when the service asks for the challenge, before solving (show "checking your device…"). */
  onChallenge?: (challenge: Challenge) => void;
  /** Cancels the solving (the user left the screen). */
  signal?: AbortSignal;
  /** The longest the solving may take, ms (60 s by default). */
  timeoutMs?: number;
}

/** The ALTCHA payload the service takes as `proof`: base64 of `{challenge, solution}`. */
export function proofFor(challenge: Challenge, solution: { counter: number; derivedKey: string }): string {
  return btoa(JSON.stringify({ challenge, solution }));
}

/** Solves a challenge of the service's with the matching WebCrypto key derivation. */
export async function solveSignupChallenge(
  challenge: Challenge,
  options: Pick<RequestCodeOptions, 'signal' | 'timeoutMs'> = {},
): Promise<string> {
  const algorithm = challenge.parameters.algorithm;
  const deriveKey = algorithm.startsWith('PBKDF2/') ? pbkdf2Key : shaKey;
  const controller = new AbortController();
  options.signal?.addEventListener('abort', () => controller.abort());
  const solution = await solveChallenge({
    challenge,
    deriveKey,
    controller,
    timeout: options.timeoutMs ?? 60_000,
  });
  if (!solution) throw new Error('the sign-up challenge was not solved in time');
  return proofFor(challenge, solution);
}

/**
 * `POST /api/otp/generate`, solving the sign-up challenge when the service asks for one: resolves
 * with the normalized phone (`data.phone`), throws an `ApiError` for any other refusal (a 429's
 * `body.data.retry_after` says when to come back; a 422 on `proof` means ask again).
 */
export async function requestSignInCode(
  api: PronosticsClient,
  body: GenerateBody,
  options: RequestCodeOptions = {},
): Promise<{ phone: string }> {
  const first = await api.POST('/api/otp/generate', { body });
  if (first.data) return first.data.data;
  if (first.response.status !== 428) throw new ApiError(first.response.status, first.error);
  const challenge = (first.error as { data: { challenge: Challenge } }).data.challenge;
  options.onChallenge?.(challenge);
  const proof = await solveSignupChallenge(challenge, options);
  const second = await api.POST('/api/otp/generate', { body: { ...body, proof } });
  if (second.data) return second.data.data;
  throw new ApiError(second.response.status, second.error);
}
