// Stored first answers of requests that carried an `Idempotency-Key` (the idempotency module's table).
import { index, integer, jsonb, pgTable, serial, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

/** The first answer to a request carrying an `Idempotency-Key`, replayed for 24 h. */
export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    /** Null while the first request is still running. */
    statusCode: integer('status_code'),
    responseBody: jsonb('response_body'),
    expiresAt: timestamptz('expires_at').notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index('idempotency_keys_expires_idx').on(table.expiresAt),
    uniqueIndex('idempotency_keys_unique').on(table.userId, table.scope, table.key),
  ],
);
