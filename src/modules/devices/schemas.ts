// Request and response schemas of push devices (DESIGN.md "Events": `POST /api/user/devices`
// `{token, platform}` → 201 `data.device`). A device's view never carries its token back: the
// list shows only its last characters, enough for an app to recognise itself.
import { Type } from 'typebox';
import { pushPlatforms } from '../../lib/allowed-values.js';
import { SUBSCRIPTION_MAX_LENGTH } from '../../providers/push/subscription.js';
import { Timestamp } from '../../schemas/common.js';

/** At most this many devices per user; registering one more forgets the least recently registered. */
export const MAX_DEVICES_PER_USER = 5;

/** An FCM registration token's length (`android`, `ios`, `web`). */
export const TOKEN_LENGTH = { min: 20, max: 512 } as const;

/** FCM registration tokens: letters, digits, `_`, `-`, `:` (and `.` to be safe); nothing else. */
export const FCM_TOKEN = new RegExp(`^[A-Za-z0-9_:.-]{${TOKEN_LENGTH.min},${TOKEN_LENGTH.max}}$`);

export const RegisterDeviceBody = Type.Object(
  {
    token: Type.String({
      minLength: TOKEN_LENGTH.min,
      maxLength: SUBSCRIPTION_MAX_LENGTH,
      description:
        'android, ios, web: the FCM registration token the app got from Firebase (20 to 512 of A-Z a-z 0-9 _ - : .). ' +
        'webpush: the browser’s PushSubscription as JSON, `{"endpoint","keys":{"p256dh","auth"}}` (at most 2048 characters), ' +
        'its endpoint an https URL on a push service the server allows (WEBPUSH_ALLOWED_HOSTS).',
    }),
    platform: Type.Enum(pushPlatforms),
  },
  { additionalProperties: false },
);

export const DeviceSchema = Type.Object({
  id: Type.Integer(),
  platform: Type.Enum(pushPlatforms),
  created_at: Timestamp,
});

export const ListedDeviceSchema = Type.Object({
  ...DeviceSchema.properties,
  token_ending: Type.String({
    description:
      'The last 6 characters of the token, or of a webpush subscription’s endpoint (never the whole token).',
  }),
  registered_at: Timestamp,
});

export const WebpushKeyData = Type.Object({
  public_key: Type.String({
    description: 'The VAPID public key (base64url), the applicationServerKey of `pushManager.subscribe`.',
  }),
});
