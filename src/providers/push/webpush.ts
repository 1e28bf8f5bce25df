// Web Push (RFC 8030) with VAPID (RFC 8292) and an encrypted payload (RFC 8291, aes128gcm), through
// the `web-push` library: one POST to the subscription's endpoint per notification. The payload is
// the notification as JSON (`{title, body, data}`), which the web app's service worker shows.
// Answers: 201 taken; 404 and 410 mean the subscription is gone (the device is pruned); 429 and 5xx
// are retried later, after Retry-After when given; 400, 401, 403 and 413 refuse this message (our
// keys or its size): it is skipped and the device kept, so a wrong key is never a mass forget.
// The library only builds the request (headers, encrypted body); we send it ourselves, to the
// endpoint's normalized href checked again here, through an agent that connects to public addresses
// only, within one deadline for the whole exchange, so a slow push service holds nobody else.

import type { Agent } from 'node:https';
import { request } from 'node:https';
import type { FastifyBaseLogger } from 'fastify';
import webpush from 'web-push';
import { publicAgent } from './public-agent.js';
import { readSubscription } from './subscription.js';
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
  /** WEBPUSH_ALLOWED_HOSTS, checked again at each send (a subscription stored before a rule changed). */
  allowedHosts: readonly string[];
  /** Per send: connecting, sending and the whole answer. */
  timeoutMs?: number;
  /** A certificate authority to trust beside the system's (a test's own push service). */
  ca?: string;
}

export const DEFAULT_WEBPUSH_TIMEOUT_MS = 5_000;

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/** One POST within `timeoutMs`, answer read to its end; a timeout or a network error throws. */
function post(
  endpoint: string,
  details: { method: string; headers: Record<string, string | number>; body: Buffer | string | null },
  agent: Agent,
  timeoutMs: number,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(endpoint), { method: details.method, headers: details.headers, agent });
    const timer = setTimeout(() => req.destroy(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
    const fail = (error: Error) => {
      clearTimeout(timer);
      reject(error);
    };
    req.on('error', fail);
    req.on('response', (response) => {
      response.on('error', fail);
      response.resume();
      response.on('end', () => {
        clearTimeout(timer);
        resolve({ status: response.statusCode ?? 0, headers: response.headers });
      });
    });
    req.end(details.body ?? undefined);
  });
}

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
  const agent = publicAgent(deps.ca ? { ca: deps.ca } : {});
  return {
    name: 'webpush',
    async send(message: PushMessage): Promise<PushResult> {
      const target = readSubscription(message.token, deps.allowedHosts);
      if (typeof target === 'string') {
        return { outcome: 'unregistered', reason: `stored subscription: ${target} refused` };
      }
      const origin = endpointOrigin(target.endpoint);
      const payload = JSON.stringify({ title: message.title, body: message.body, data: message.data });
      let answer: Answer;
      try {
        const details = webpush.generateRequestDetails(target, payload, {
          vapidDetails: vapid,
          TTL: deps.ttlSeconds,
          urgency: 'normal',
          contentEncoding: 'aes128gcm',
        });
        answer = await post(target.endpoint, details, agent, timeout);
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return { outcome: 'retry', reason: `${origin}: ${reason}` };
      }
      const { status } = answer;
      if (status >= 200 && status <= 299) return { outcome: 'sent' };
      const reason = `${origin} answered ${status}`;
      if (status === 404 || status === 410) return { outcome: 'unregistered', reason };
      if (status === 429 || status >= 500) {
        const after = retryAfterMs(answer.headers);
        return after === undefined
          ? { outcome: 'retry', reason }
          : { outcome: 'retry', reason, retryAfterMs: after };
      }
      if (status === 400 || status === 401 || status === 403 || status === 413) {
        deps.logger.warn({ status, endpoint: origin }, 'web push refused the message');
        return { outcome: 'rejected', reason };
      }
      return { outcome: 'retry', reason };
    },
  };
}
