// A browser's PushSubscription (the Push API's `subscription.toJSON()`): where its push service
// takes messages for it, and the keys its payloads are encrypted to (RFC 8291). The web app sends it
// as a `webpush` device's token; the service posts to its endpoint, so the endpoint is checked
// against the push services we trust (WEBPUSH_ALLOWED_HOSTS) before it is ever stored.
import { isIP } from 'node:net';

export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The longest token a `webpush` device may carry (DESIGN, "Events"). */
export const SUBSCRIPTION_MAX_LENGTH = 2048;

// p256dh: an uncompressed P-256 point (65 bytes, base64url without padding); auth: 16 bytes.
const P256DH = /^[A-Za-z0-9_-]{87}$/;
const AUTH = /^[A-Za-z0-9_-]{22}$/;

/** Why a token is not a subscription we will post to, in the registration's words. */
export type SubscriptionFault = 'malformed' | 'endpoint' | 'host';

/**
 * The subscription a token holds, or its fault: `malformed` (not the JSON of a subscription, or its
 * keys are not keys), `endpoint` (not an https URL), `host` (a push service we do not post to).
 */
export function readSubscription(
  token: string,
  allowedHosts: readonly string[],
): WebPushSubscription | SubscriptionFault {
  const subscription = parseSubscription(token);
  if (typeof subscription === 'string') return subscription;
  return hostAllowed(new URL(subscription.endpoint).hostname, allowedHosts) ? subscription : 'host';
}

/** The subscription a token holds, its host unchecked (a stored one was checked at registration). */
export function parseSubscription(token: string): WebPushSubscription | Exclude<SubscriptionFault, 'host'> {
  if (token.length > SUBSCRIPTION_MAX_LENGTH) return 'malformed';
  let parsed: unknown;
  try {
    parsed = JSON.parse(token);
  } catch {
    return 'malformed';
  }
  if (typeof parsed !== 'object' || parsed === null) return 'malformed';
  const { endpoint, keys } = parsed as { endpoint?: unknown; keys?: unknown };
  if (typeof keys !== 'object' || keys === null) return 'malformed';
  const { p256dh, auth } = keys as { p256dh?: unknown; auth?: unknown };
  if (typeof p256dh !== 'string' || !P256DH.test(p256dh) || typeof auth !== 'string' || !AUTH.test(auth)) {
    return 'malformed';
  }
  if (typeof endpoint !== 'string') return 'malformed';
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return 'endpoint';
  }
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '') return 'endpoint';
  return { endpoint, keys: { p256dh, auth } };
}

/**
 * A host is allowed when the list names it, or names `*.` and a domain it is under. An address
 * (private, loopback, link-local or not) passes only when listed as it is: a wildcard names domains.
 */
export function hostAllowed(hostname: string, allowedHosts: readonly string[]): boolean {
  const host = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  for (const allowed of allowedHosts) {
    if (allowed === host) return true;
    if (allowed.startsWith('*.') && isIP(host) === 0 && host.endsWith(allowed.slice(1))) return true;
  }
  return false;
}
