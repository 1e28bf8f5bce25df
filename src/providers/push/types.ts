// The push contract: one notification for one device, and what became of it in our words rather
// than each provider's codes, so the push sender decides alone what to do next (advance, prune,
// retry later).
import type { PushDriverName, PushPlatform } from '../../lib/allowed-values.js';

export type { PushDriverName, PushPlatform };

export interface PushMessage {
  /** Our device id (logs and the development outbox; never sent to the provider). */
  deviceId: number;
  /** The provider's registration token. */
  token: string;
  platform: PushPlatform;
  /** The notification shown on the device (French). */
  title: string;
  body: string;
  /** The app's own payload: every value a string (FCM's rule): `type`, `seq`, `id`, `created_at`. */
  data: Record<string, string>;
}

export type PushResult =
  /** The provider took it. */
  | { outcome: 'sent' }
  /** The token is dead (uninstalled app, expired or invalid token): forget the device. */
  | { outcome: 'unregistered'; reason: string }
  /** This message will never go (the provider refused its content): skip it, keep the device. */
  | { outcome: 'rejected'; reason: string }
  /** Not now (rate limit, outage, unreachable): try again later, not before `retryAfterMs` if given. */
  | { outcome: 'retry'; reason: string; retryAfterMs?: number };

export interface PushDriver {
  readonly name: PushDriverName;
  /** Never throws for the provider's answers or the network: a failure is a PushResult. */
  send(message: PushMessage): Promise<PushResult>;
}
