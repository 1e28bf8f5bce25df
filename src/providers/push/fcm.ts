// Firebase Cloud Messaging, HTTP v1 API: one message per device token.
//
// Auth: a Google service account. We sign a JWT (RS256, node:crypto) with its private key — iss its
// client_email, scope firebase.messaging, aud its token_uri, valid one hour — and trade it at
// token_uri (grant_type jwt-bearer) for an OAuth access token, kept until a minute before it
// expires; a 401 on a send drops it and fetches a new one, once.
// Send: POST {base}/v1/projects/{project}/messages:send with `Authorization: Bearer`.
// Answers (https://firebase.google.com/docs/cloud-messaging/error-codes): 404 NOT_FOUND or the
// FcmError `UNREGISTERED`, a 400 INVALID_ARGUMENT about the token, and SENDER_ID_MISMATCH mean the
// token is dead (the device is pruned); 429 and 5xx are retried later, after Retry-After when given;
// any other refusal of the message skips it and keeps the device.
import { sign } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { ServiceAccount } from '../../config.js';
import type { Clock } from '../../lib/clock.js';
import { describeFetchError, isRecord, isTimeout, parseJson } from '../http-answers.js';
import { tokenHint } from './log.js';
import type { PushDriver, PushMessage, PushResult } from './types.js';

export const FCM_SCOPE = 'https://www.googleapis.com/auth/firebase.messaging';
const JWT_BEARER = 'urn:ietf:params:oauth:grant-type:jwt-bearer';
const FCM_ERROR = 'type.googleapis.com/google.firebase.fcm.v1.FcmError';
const BAD_REQUEST = 'type.googleapis.com/google.rpc.BadRequest';
/** An access token is used until this long before Google says it expires. */
const TOKEN_MARGIN_MS = 60_000;
export const DEFAULT_FCM_TIMEOUT_MS = 10_000;

export interface FcmSettings {
  serviceAccount: ServiceAccount;
  /** Unset: the service account's project_id. */
  projectId?: string | undefined;
  /** https://fcm.googleapis.com (tests point it at the fake). */
  baseUrl: string;
}

export interface FcmDeps {
  clock: Clock;
  logger: FastifyBaseLogger;
  fetch?: typeof fetch;
  /** Per HTTP call, the answer read included. */
  timeoutMs?: number;
}

const base64url = (data: string | Buffer) => Buffer.from(data).toString('base64url');

/** The signed JWT the token endpoint trades for an access token (RFC 7523). */
export function serviceAccountAssertion(account: ServiceAccount, nowMs: number): string {
  const iat = Math.floor(nowMs / 1000);
  const header = base64url(JSON.stringify({ alg: 'RS256', typ: 'JWT' }));
  const claims = base64url(
    JSON.stringify({
      iss: account.clientEmail,
      scope: FCM_SCOPE,
      aud: account.tokenUri,
      iat,
      exp: iat + 3600,
    }),
  );
  const signature = sign('RSA-SHA256', Buffer.from(`${header}.${claims}`), account.privateKey);
  return `${header}.${claims}.${base64url(signature)}`;
}

/** A failure to get an access token: the send is retried later. */
class TokenFailure extends Error {}

/** Retry-After in milliseconds: delta-seconds or an HTTP date. */
export function retryAfterMs(header: string | null, nowMs: number): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, at - nowMs);
}

/** What an FCM error answer means for this device and message. */
export function classifyFcmError(status: number, body: unknown, retryAfter?: number): PushResult {
  const error = isRecord(body) && isRecord(body.error) ? body.error : {};
  const details = Array.isArray(error.details) ? error.details.filter(isRecord) : [];
  const fcmCode = details.find((detail) => detail['@type'] === FCM_ERROR)?.errorCode;
  const violations = details
    .filter((detail) => detail['@type'] === BAD_REQUEST && Array.isArray(detail.fieldViolations))
    .flatMap((detail) => (detail.fieldViolations as unknown[]).filter(isRecord))
    .map((violation) => String(violation.field ?? ''));
  const reason = `${status} ${String(error.status ?? '')}${fcmCode ? `/${String(fcmCode)}` : ''}: ${String(error.message ?? '')}`;
  const withDelay = (result: { outcome: 'retry'; reason: string }): PushResult =>
    retryAfter === undefined ? result : { ...result, retryAfterMs: retryAfter };

  if (fcmCode === 'UNREGISTERED' || status === 404) return { outcome: 'unregistered', reason };
  // The token belongs to another Firebase project: it will never take our messages.
  if (fcmCode === 'SENDER_ID_MISMATCH') return { outcome: 'unregistered', reason };
  if (status === 400) {
    // The token's own fault: FCM's INVALID_ARGUMENT without a field, or one naming message.token.
    const aboutToken =
      violations.includes('message.token') || (fcmCode === 'INVALID_ARGUMENT' && violations.length === 0);
    return aboutToken ? { outcome: 'unregistered', reason } : { outcome: 'rejected', reason };
  }
  if (status === 429 || fcmCode === 'QUOTA_EXCEEDED' || status >= 500)
    return withDelay({ outcome: 'retry', reason });
  // 401 after a fresh token, APNs credentials (THIRD_PARTY_AUTH_ERROR), 403: ours to fix, not the
  // device's; retried later (the events' age bound ends it).
  if (status === 401 || status === 403) return withDelay({ outcome: 'retry', reason });
  return { outcome: 'rejected', reason };
}

/** The v1 message: a notification the system shows, and the app's data (strings only). */
export function fcmMessage(message: PushMessage) {
  return {
    message: {
      token: message.token,
      notification: { title: message.title, body: message.body },
      data: message.data,
      android: { priority: 'high' },
      apns: { headers: { 'apns-priority': '10' }, payload: { aps: { sound: 'default' } } },
      webpush: { headers: { Urgency: 'high' } },
    },
  };
}

export function createFcmDriver(settings: FcmSettings, deps: FcmDeps): PushDriver {
  const { serviceAccount: account } = settings;
  const doFetch = deps.fetch ?? globalThis.fetch;
  const timeoutMs = deps.timeoutMs ?? DEFAULT_FCM_TIMEOUT_MS;
  const projectId = settings.projectId ?? account.projectId;
  const sendUrl = `${settings.baseUrl}/v1/projects/${encodeURIComponent(projectId)}/messages:send`;
  let cached: { token: string; expiresAtMs: number } | undefined;
  let fetching: Promise<string> | undefined;

  async function fetchAccessToken(): Promise<string> {
    const nowMs = deps.clock.now().getTime();
    let response: Response;
    try {
      response = await doFetch(account.tokenUri, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: JWT_BEARER,
          assertion: serviceAccountAssertion(account, nowMs),
        }).toString(),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new TokenFailure(
        `token endpoint unreachable: ${isTimeout(error) ? 'timeout' : describeFetchError(error)}`,
      );
    }
    const body = parseJson(await response.text().catch(() => ''));
    const token = isRecord(body) ? body.access_token : undefined;
    if (!response.ok || typeof token !== 'string' || token === '') {
      const why = isRecord(body)
        ? `${String(body.error ?? '')} ${String(body.error_description ?? '')}`.trim()
        : '';
      throw new TokenFailure(`token endpoint answered ${response.status}${why ? `: ${why}` : ''}`);
    }
    const expiresIn = isRecord(body) && typeof body.expires_in === 'number' ? body.expires_in : 3600;
    cached = { token, expiresAtMs: nowMs + Math.max(0, expiresIn * 1000 - TOKEN_MARGIN_MS) };
    return token;
  }

  /** The cached access token, or a new one (one request at a time, shared by concurrent sends). */
  function accessToken(fresh: boolean): Promise<string> {
    if (fresh) cached = undefined;
    if (cached && deps.clock.now().getTime() < cached.expiresAtMs) return Promise.resolve(cached.token);
    fetching ??= fetchAccessToken().finally(() => {
      fetching = undefined;
    });
    return fetching;
  }

  return {
    name: 'fcm',
    async send(message) {
      const body = JSON.stringify(fcmMessage(message));
      for (let refreshed = false; ; refreshed = true) {
        let token: string;
        try {
          token = await accessToken(refreshed);
        } catch (error) {
          return { outcome: 'retry', reason: error instanceof Error ? error.message : String(error) };
        }
        let response: Response;
        let answer: unknown;
        try {
          response = await doFetch(sendUrl, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json; charset=utf-8' },
            body,
            signal: AbortSignal.timeout(timeoutMs),
          });
          answer = parseJson(await response.text());
        } catch (error) {
          // The message may have gone through: at least once, never lost.
          return { outcome: 'retry', reason: isTimeout(error) ? 'timeout' : describeFetchError(error) };
        }
        if (response.ok) return { outcome: 'sent' };
        // An access token revoked or expired early: a new one, once.
        if (response.status === 401 && !refreshed) continue;
        const result = classifyFcmError(
          response.status,
          answer,
          retryAfterMs(response.headers.get('retry-after'), deps.clock.now().getTime()),
        );
        deps.logger.info(
          { device_id: message.deviceId, token: tokenHint(message.token), outcome: result.outcome },
          `fcm: ${result.outcome === 'sent' ? '' : result.reason}`,
        );
        return result;
      }
    },
  };
}
