// A browser's PushSubscription (the Push API's `subscription.toJSON()`): where its push service
// takes messages for it, and the keys its payloads are encrypted to (RFC 8291). The web app sends it
// as a `webpush` device's token; the service posts to its endpoint, so the endpoint is checked
// against the push services we trust (WEBPUSH_ALLOWED_HOSTS) before it is stored and again before
// each send. Only a plain host name (letters, digits, dots, hyphens) on 443 passes, one that Node's
// legacy `url.parse` (what web-push libraries read) sees as the WHATWG parser does, so no character
// can make the allow-list read one host and the request go to another; the normalized `href` is
// what is stored and posted to (docs/decisions/0121-webpush-endpoint-checks.md).
import { isIP } from 'node:net';
import { parse as legacyParse } from 'node:url';

export interface WebPushSubscription {
  endpoint: string;
  keys: { p256dh: string; auth: string };
}

/** The longest token a `webpush` device may carry (DESIGN, "Events"). */
export const SUBSCRIPTION_MAX_LENGTH = 2048;

// p256dh: an uncompressed P-256 point (65 bytes, base64url without padding); auth: 16 bytes.
const P256DH = /^[A-Za-z0-9_-]{87}$/;
const AUTH = /^[A-Za-z0-9_-]{22}$/;

// What a push service's host name is made of: no `;`, `'`, `{`, `"`, `%` or brackets.
const HOST_NAME = /^[a-z0-9.-]+$/;

/** Why a token is not a subscription we will post to, in the registration's words. */
export type SubscriptionFault = 'malformed' | 'endpoint' | 'host';

/**
 * The subscription a token holds, its endpoint normalized, or its fault: `malformed` (not the JSON
 * of a subscription, or its keys are not keys), `endpoint` (not a plain https URL), `host` (a push
 * service, or a port, we do not post to).
 */
export function readSubscription(
  token: string,
  allowedHosts: readonly string[],
): WebPushSubscription | SubscriptionFault {
  const subscription = parseSubscription(token);
  if (typeof subscription === 'string') return subscription;
  return hostAllowed(new URL(subscription.endpoint), allowedHosts) ? subscription : 'host';
}

/** The subscription a token holds, its endpoint normalized, its host not yet matched to the list. */
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
  if (!HOST_NAME.test(url.hostname) || !sameHostForBothParsers(endpoint, url)) return 'endpoint';
  return { endpoint: url.href, keys: { p256dh, auth } };
}

/** Whether Node's legacy parser reads the host and port the WHATWG parser read, raw and normalized. */
function sameHostForBothParsers(endpoint: string, url: URL): boolean {
  for (const text of [endpoint, url.href]) {
    let legacy: ReturnType<typeof legacyParse>;
    try {
      legacy = legacyParse(text);
    } catch {
      return false;
    }
    if ((legacy.hostname ?? '').toLowerCase() !== url.hostname) return false;
    if ((legacy.port ?? '') !== url.port && !(legacy.port === '443' && url.port === '')) return false;
  }
  return true;
}

/**
 * A host is allowed when the list names it, or names `*.` and a domain it is under. An address
 * (private, loopback, link-local or not) passes only when listed as it is: a wildcard names domains.
 * The port is 443 unless the list names the host with that port (`host:port`, a test's push service).
 */
export function hostAllowed(url: URL, allowedHosts: readonly string[]): boolean {
  const host = url.hostname.toLowerCase();
  if (url.port !== '') return allowedHosts.includes(`${host}:${url.port}`);
  for (const allowed of allowedHosts) {
    if (allowed === host) return true;
    if (allowed.startsWith('*.') && isIP(host) === 0 && host.endsWith(allowed.slice(1))) return true;
  }
  return false;
}
