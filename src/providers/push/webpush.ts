// Web Push (RFC 8030) with VAPID (RFC 8292) and an encrypted payload (RFC 8291, aes128gcm), through
// the `web-push` library: one POST to the subscription's endpoint per notification. The payload is
// the notification as JSON (`{title, body, data}`), which the web app's service worker shows.
// Answers: 201 taken; 404 and 410 mean the subscription is gone (the device is pruned); 429 and 5xx
// are retried later, after Retry-After when given; 400, 401, 403 and 413 refuse this message (our
// keys or its size): it is skipped and the device kept, so a wrong key is never a mass forget.
import type { Agent } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { parseSubscription } from './subscription.js';
import type { PushDriver, PushMessage, PushResult } from './types.js';

export interface VapidSettings {
  publicKey: string;
  privateKey: string;
  /** VAPID `sub`: a mailto: address or an https URL. */
  subject: string;
}

export interface WebPushDeps {
  logger: FastifyBaseLogger;
  /** PUSH_MAX_AGE_SECONDS: the push service drops a message it could not deliver by then. */
  ttlSeconds: number;
  /** Per send, the answer included. */
  timeoutMs?: number;
  /** The TLS agent (tests trust their fake push service's certificate with it). */
  agent?: Agent;
}

export const DEFAULT_WEBPUSH_TIMEOUT_MS = 10_000;

/** The endpoint's origin only: a subscription's path is a capability, never logged. */
function endpointOrigin(endpoint: string): string {
  try {
    return new URL(endpoint).origin;
  } catch {
    return 'invalid endpoint';
  }
}

function retryAfterMs(headers: Record<string, string | string[] | undefined>): number | undefined {
  const value = headers['retry-after'];
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const seconds = Number(text);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

export function createWebPushDriver(vapid: VapidSettings, deps: WebPushDeps): PushDriver {
  const timeout = deps.timeoutMs ?? DEFAULT_WEBPUSH_TIMEOUT_MS;
  return {
    name: 'webpush',
    async send(message: PushMessage): Promise<PushResult> {
      // Registration checked the host against WEBPUSH_ALLOWED_HOSTS; here only the shape matters.
      const target = parseSubscription(message.token);
      if (typeof target === 'string') {
        return { outcome: 'unregistered', reason: `stored subscription is ${target}` };
      }
      const payload = JSON.stringify({ title: message.title, body: message.body, data: message.data });
      try {
        await webpush.sendNotification(target, payload, {
          vapidDetails: vapid,
          TTL: deps.ttlSeconds,
          urgency: 'normal',
          contentEncoding: 'aes128gcm',
          timeout,
          ...(deps.agent ? { agent: deps.agent } : {}),
        });
        return { outcome: 'sent' };
      } catch (error) {
        if (!(error instanceof webpush.WebPushError)) {
          const reason = error instanceof Error ? error.message : String(error);
          return { outcome: 'retry', reason: `${endpointOrigin(target.endpoint)}: ${reason}` };
        }
        const reason = `${endpointOrigin(target.endpoint)} answered ${error.statusCode}`;
        const status = error.statusCode;
        if (status === 404 || status === 410) return { outcome: 'unregistered', reason };
        if (status === 429 || status >= 500) {
          const after = retryAfterMs(error.headers);
          return after === undefined
            ? { outcome: 'retry', reason }
            : { outcome: 'retry', reason, retryAfterMs: after };
        }
        if (status === 400 || status === 401 || status === 403 || status === 413) {
          deps.logger.warn(
            { status, endpoint: endpointOrigin(target.endpoint) },
            'web push refused the message',
          );
          return { outcome: 'rejected', reason };
        }
        return { outcome: 'retry', reason };
      }
    },
  };
}
