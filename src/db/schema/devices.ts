// Push devices (issue 27, mobile push): the phones and browsers a user registered for push
// notifications, each following its owner's event log with its own cursor (`pushed_seq`), so a
// push that failed for one device is retried for that device alone, and a crash repeats at most
// the push that was in flight (docs/decisions/0062-push-delivery-and-fcm.md).
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { pushPlatforms } from '../../lib/allowed-values.js';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

const quoted = (values: readonly string[]) => sql.raw(values.map((value) => `'${value}'`).join(', '));

export const pushDevices = pgTable(
  'push_devices',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    /** The provider's registration token (FCM). One row per token: a phone that changes hands moves. */
    token: text('token').notNull(),
    platform: text('platform', { enum: pushPlatforms }).notNull(),
    /** When it was last registered (the app's clock): the oldest is forgotten past the per-user cap. */
    registeredAt: timestamptz('registered_at').notNull(),
    /** The last seq of the owner's log this device was pushed (or skipped, too old). */
    pushedSeq: integer('pushed_seq').notNull().default(0),
    /** Failed tries of the push at pushed_seq + 1 (the backoff's exponent); 0 after a success. */
    attempts: integer('attempts').notNull().default(0),
    /** A retryable failure (429, 5xx, unreachable): no push before this time. */
    retryAt: timestamptz('retry_at'),
    /** A push sender holds this device until then (several processes may run the loop). */
    leaseUntil: timestamptz('lease_until'),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex('push_devices_token_key').on(table.token),
    index('push_devices_user_idx').on(table.userId, table.registeredAt),
    check('push_devices_platform_check', sql`${table.platform} in (${quoted(pushPlatforms)})`),
  ],
);
