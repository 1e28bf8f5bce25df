// Push devices (issue 27, mobile push): a user registers the phones and browsers that should get
// their events as push notifications, lists them and forgets one; logout (and account deletion)
// forgets them all. One row per token: a token registered again moves to whoever registers it (a
// phone that changed hands), and past MAX_DEVICES_PER_USER the least recently registered device is
// forgotten, so a new phone always works. A new device follows its owner's event log from its end:
// what happened before it was registered is not pushed to it.
import type { Static } from 'typebox';
import type { Database, Transaction } from '../../db/client.js';
import type { Clock } from '../../lib/clock.js';
import { NotFound, ValidationFailed } from '../../lib/errors.js';
import { messages, validationMessages } from '../../lib/messages.js';
import { isoTimestamp } from '../../lib/time.js';
import { parseSubscription, readSubscription } from '../../providers/push/subscription.js';
import {
  type DeviceRow,
  deleteBeyondNewest,
  deleteDevice,
  deleteDevicesOf,
  deleteTokenOfOthers,
  devicesOf,
  lockRegistrations,
  upsertDevice,
} from './repository.js';
import {
  type DeviceSchema,
  FCM_TOKEN,
  type ListedDeviceSchema,
  MAX_DEVICES_PER_USER,
  type RegisterDeviceBody,
  TOKEN_LENGTH,
} from './schemas.js';

/** What the devices need of the event logs (the events service implements it). */
export interface LogHeads {
  /** The last seq of each user's log (0 for none). */
  lastSeqs(userIds: number[]): Promise<Map<number, number>>;
}

export interface DeviceServiceDeps {
  db: Database;
  clock: Clock;
  events: LogHeads;
  /** WEBPUSH_ALLOWED_HOSTS: the push services a `webpush` subscription's endpoint may name. */
  webpushHosts: readonly string[];
  /** False without VAPID keys: no browser can subscribe, so no `webpush` device is taken. */
  webpushOn: boolean;
  /** Holds the account active under its row while a registration writes (a deletion waits, or wins: 401). */
  accounts: { holdActive(tx: Transaction, userId: number): Promise<void> };
}

export function deviceView(row: DeviceRow): Static<typeof DeviceSchema> {
  return { id: row.id, platform: row.platform, created_at: isoTimestamp(row.createdAt) };
}

/** What the list shows of a token: its end, or a subscription's endpoint's (its JSON ends in keys). */
function tokenEnding(row: DeviceRow): string {
  const subscription = row.platform === 'webpush' ? parseSubscription(row.token) : undefined;
  return (typeof subscription === 'object' ? subscription.endpoint : row.token).slice(-6);
}

function listedView(row: DeviceRow): Static<typeof ListedDeviceSchema> {
  return {
    ...deviceView(row),
    token_ending: tokenEnding(row),
    registered_at: isoTimestamp(row.registeredAt),
  };
}

/** A registration lost a race for its token to another user's; the whole registration is tried again. */
class TokenRace extends Error {}

/**
 * The token as stored: an FCM token as sent, once its shape is checked; a web push subscription
 * checked (keys, an https endpoint on an allowed push service) and written in one canonical form, so
 * the same subscription sent twice is one device.
 */
function storedToken(
  body: Static<typeof RegisterDeviceBody>,
  webpush: Pick<DeviceServiceDeps, 'webpushHosts' | 'webpushOn'>,
): string {
  const { token } = body;
  if (body.platform !== 'webpush') {
    if (token.length > TOKEN_LENGTH.max) {
      throw ValidationFailed.field('token', validationMessages.maxLength('token', TOKEN_LENGTH.max));
    }
    if (!FCM_TOKEN.test(token)) throw ValidationFailed.field('token', validationMessages.pattern('token'));
    return token;
  }
  if (!webpush.webpushOn) throw ValidationFailed.field('platform', messages.webpushOff);
  const subscription = readSubscription(token, webpush.webpushHosts);
  if (subscription === 'malformed')
    throw ValidationFailed.field('token', messages.webpushSubscriptionMalformed);
  if (subscription === 'endpoint') throw ValidationFailed.field('token', messages.webpushEndpointInvalid);
  if (subscription === 'host') throw ValidationFailed.field('token', messages.webpushHostRefused);
  return JSON.stringify({ endpoint: subscription.endpoint, keys: subscription.keys });
}

export function createDeviceService({ db, clock, events, accounts, ...webpush }: DeviceServiceDeps) {
  async function registerOnce(userId: number, body: Static<typeof RegisterDeviceBody>, head: number) {
    return db.transaction(async (tx) => {
      await accounts.holdActive(tx, userId);
      // One registration of this user at a time: the cap below cannot be raced past.
      await lockRegistrations(tx, userId);
      await deleteTokenOfOthers(tx, body.token, userId);
      const row = await upsertDevice(tx, {
        userId,
        token: body.token,
        platform: body.platform,
        registeredAt: clock.now().toISOString(),
        pushedSeq: head,
      });
      if (!row) throw new TokenRace();
      await deleteBeyondNewest(tx, userId, MAX_DEVICES_PER_USER);
      return row;
    });
  }

  return {
    /** Registers (or refreshes) the device; the 6th forgets the least recently registered one. */
    async register(user: { id: number }, given: Static<typeof RegisterDeviceBody>) {
      const body = { ...given, token: storedToken(given, webpush) };
      const head = (await events.lastSeqs([user.id])).get(user.id) ?? 0;
      for (let attempt = 1; ; attempt++) {
        try {
          return deviceView(await registerOnce(user.id, body, head));
        } catch (error) {
          if (!(error instanceof TokenRace) || attempt >= 3) throw error;
        }
      }
    },

    /** The user's devices, most recently registered first. */
    async list(user: { id: number }) {
      return (await devicesOf(db, user.id)).map(listedView);
    },

    /** Forgets one of the user's devices; NotFound for an unknown id or another user's device. */
    async forget(user: { id: number }, id: number): Promise<void> {
      if (!(await deleteDevice(db, user.id, id))) throw new NotFound(messages.deviceNotFound);
    },

    /**
     * The user's devices after `afterId`, by id, for the account's export (as the list shows them:
     * the push token's end only, since the export is a file that travels and the token still works).
     */
    async exportPage(userId: number, afterId: number, limit: number) {
      const rows = (await devicesOf(db, userId)).filter((row) => row.id > afterId);
      return rows
        .sort((a, b) => a.id - b.id)
        .slice(0, limit)
        .map(listedView);
    },

    /**
     * Forgets every device of the user, in the caller's transaction (logout, account deletion):
     * nothing is pushed to them once it commits. Returns how many.
     */
    forgetAll(tx: Transaction, userId: number): Promise<number> {
      return deleteDevicesOf(tx, userId);
    },
  };
}

export type DeviceService = ReturnType<typeof createDeviceService>;
/** What logout and account deletion need: forget a user's devices in their own transaction. */
export type DeviceForgetting = Pick<DeviceService, 'forgetAll'>;
