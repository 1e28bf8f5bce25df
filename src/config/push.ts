// How events reach devices: the push drivers for phones (the log, Firebase Cloud Messaging and its
// service account) and for browsers (Web Push and its VAPID keys, the push services allowed).
import { createECDH, createPrivateKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { type Static, Type } from 'typebox';
import { pushDrivers, webpushDrivers } from '../lib/allowed-values.js';
import {
  ConfigError,
  choice,
  hostList,
  httpUrl,
  optionalText,
  Refusal,
  type SettingKeywords,
  wholeNumber,
} from '../lib/env-settings.js';
import { inProduction, requireSet } from './common.js';
import type { ProcessConfig } from './process.js';

const SERVICE_ACCOUNT = 'a service account key: its JSON, or the path of its file';

/**
 * FCM_SERVICE_ACCOUNT: the Google service account key (the JSON file the Firebase console gives),
 * as its JSON text or the path of its file. Read and checked at start, so a missing file or a key
 * that cannot sign is a start error, not a failure at the first push. Never quoted in an error: the
 * JSON holds the private key (a path is quoted).
 */
function parseServiceAccount(raw: string, cwd: string): ServiceAccount {
  const given = raw.trim();
  const isJson = given.startsWith('{');
  const shown = isJson ? '<JSON>' : given;
  const refuse = (why: string) => new Refusal(shown, `${SERVICE_ACCOUNT} (${why})`);
  let text = given;
  if (!isJson) {
    const path = isAbsolute(given) ? given : resolve(cwd, given);
    try {
      text = readFileSync(path, 'utf8');
    } catch (error) {
      throw refuse(`cannot read the file: ${(error as NodeJS.ErrnoException).code ?? 'error'}`);
    }
  }
  let key: Record<string, unknown>;
  try {
    key = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw refuse('not JSON');
  }
  const field = (name: string) => {
    const value = key?.[name];
    if (typeof value !== 'string' || value.trim() === '') throw refuse(`no ${name}`);
    return value;
  };
  const account = {
    projectId: field('project_id'),
    clientEmail: field('client_email'),
    privateKey: field('private_key'),
    tokenUri: key?.token_uri === undefined ? 'https://oauth2.googleapis.com/token' : field('token_uri'),
  };
  try {
    createPrivateKey(account.privateKey);
  } catch {
    throw refuse('its private_key is not a PEM private key');
  }
  if (!/^https?:\/\/./.test(account.tokenUri)) throw refuse('its token_uri is not an http(s) URL');
  return account;
}

const ServiceAccountSchema = Type.Object({
  projectId: Type.String(),
  clientEmail: Type.String(),
  privateKey: Type.String(),
  tokenUri: Type.String(),
});
export type ServiceAccount = Static<typeof ServiceAccountSchema>;

export const PushSettings = Type.Object({
  pushDriver: choice('PUSH_DRIVER', pushDrivers, {
    default: 'log',
    description:
      'How events reach registered phones: `log` (DATA_DIR/push-outbox.jsonl, nothing sent) or `fcm` (Firebase Cloud Messaging).',
  }),
  pushMaxAgeSeconds: wholeNumber('PUSH_MAX_AGE_SECONDS', {
    default: 3600,
    minimum: 60,
    maximum: 86_400,
    description:
      'An event older than this is no longer pushed (a late notification is noise); the log keeps it.',
  }),
  fcm: Type.Object({
    serviceAccount: Type.Union([ServiceAccountSchema, Type.Undefined()], {
      env: 'FCM_SERVICE_ACCOUNT',
      accepts: SERVICE_ACCOUNT,
      default: undefined,
      parse: parseServiceAccount,
      description:
        'The Google service account key (JSON, or the path of its file), required with PUSH_DRIVER=fcm.',
    } satisfies SettingKeywords<ServiceAccount | undefined>),
    projectId: optionalText('FCM_PROJECT_ID', {
      pattern: '^[a-z][a-z0-9-]{4,61}[a-z0-9]$',
      accepts: 'a Firebase project id such as my-app-12345',
      description: "The Firebase project messages go to; unset: the service account key's project_id.",
    }),
    baseUrl: httpUrl('FCM_BASE_URL', { default: 'https://fcm.googleapis.com' }),
  }),
  webpush: Type.Object({
    driver: choice('WEBPUSH_DRIVER', webpushDrivers, {
      defaultFrom: (earlier) => (inProduction(earlier) ? 'vapid' : 'log'),
      description:
        'How events reach `webpush` devices (the web app in a browser): `log` (DATA_DIR/push-outbox.jsonl, nothing sent) or `vapid` (Web Push with the VAPID keys). Default: vapid in production, log elsewhere.',
    }),
    publicKey: optionalText('WEBPUSH_VAPID_PUBLIC_KEY', {
      pattern: '^[A-Za-z0-9_-]{87}$',
      accepts: 'a VAPID public key: a P-256 point, 65 bytes in base64url (87 characters)',
      description:
        'The VAPID public key browsers subscribe with (`GET /api/push/webpush-key`). Unset: required in production with WEBPUSH_DRIVER=vapid, elsewhere generated once into DATA_DIR with its private key.',
    }),
    privateKey: optionalText('WEBPUSH_VAPID_PRIVATE_KEY', {
      pattern: '^[A-Za-z0-9_-]{43}$',
      accepts: 'a VAPID private key: 32 bytes in base64url (43 characters)',
      hidden: true,
      description:
        'The VAPID private key that signs each push (`npx web-push generate-vapid-keys` makes a pair).',
    }),
    subject: optionalText('WEBPUSH_SUBJECT', {
      pattern: '^(mailto:[^\\s@]+@[^\\s@]+|https://\\S+)$',
      accepts: 'a mailto: address or an https:// URL',
      description:
        'Who push services may contact about our pushes (VAPID `sub`): a mailto: address or an https:// URL. Required with WEBPUSH_DRIVER=vapid in production.',
    }),
    allowedHosts: hostList('WEBPUSH_ALLOWED_HOSTS', {
      default: [
        'fcm.googleapis.com',
        'updates.push.services.mozilla.com',
        'web.push.apple.com',
        '*.notify.windows.com',
      ],
      description:
        'The push-service hosts a subscription endpoint may name (`*.example.com`: any subdomain). Anything else is refused at registration: the service never posts to an address a stranger chose.',
    }),
  }),
});
export type PushConfig = Static<typeof PushSettings>;

export function requireFcmSettings(config: PushConfig): void {
  if (config.pushDriver === 'fcm') {
    requireSet('PUSH_DRIVER=fcm', { FCM_SERVICE_ACCOUNT: config.fcm.serviceAccount ? 'set' : undefined });
  }
}

/**
 * The VAPID keys go in pairs, and the public key must be the private key's (a mismatch would be
 * found only by every browser refusing every push). With keys, the `vapid` driver needs its subject;
 * without keys outside development, web push is off: no key to subscribe with, no `webpush` device.
 */
export function requireWebpushKeys(config: PushConfig): void {
  const { publicKey, privateKey, subject, driver } = config.webpush;
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new ConfigError(
      'WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY are set together or not at all',
    );
  }
  if (publicKey !== undefined && privateKey !== undefined) {
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.from(privateKey, 'base64url'));
    if (ecdh.getPublicKey().toString('base64url') !== publicKey) {
      throw new ConfigError('WEBPUSH_VAPID_PUBLIC_KEY is not the public key of WEBPUSH_VAPID_PRIVATE_KEY');
    }
  }
  // Without keys web push is off (webpushWarnings says so in production; development generates them).
  if (driver === 'vapid' && publicKey !== undefined) {
    requireSet('WEBPUSH_DRIVER=vapid', { WEBPUSH_SUBJECT: subject });
  }
}

/** In production without VAPID keys, web push is off: the start says so. */
export function webpushWarnings(config: PushConfig & Pick<ProcessConfig, 'appEnv'>): string[] {
  if (config.appEnv !== 'production' || config.webpush.publicKey !== undefined) return [];
  return [
    'Web push is off: WEBPUSH_VAPID_PUBLIC_KEY and WEBPUSH_VAPID_PRIVATE_KEY are unset, so the web app cannot subscribe a browser to notifications (`npx web-push generate-vapid-keys` makes a pair; docs/operations.md, "Push notifications").',
  ];
}
