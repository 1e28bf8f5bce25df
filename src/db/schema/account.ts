// The account module's tables (issue 30): when each user last exported their data (the hourly limit
// holds across processes), and the stored files a deletion still has to remove (written in the
// deletion's transaction, removed once the storage confirms; the housekeeping retries the rest).
import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, timestamptz } from './columns.js';
import { users } from './users.js';

export const accountExports = pgTable('account_exports', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id),
  lastExportAt: timestamptz('last_export_at').notNull(),
});

export const accountFileDeletions = pgTable(
  'account_file_deletions',
  {
    /** The storage key (`avatars/…`, `tickets/…`). */
    key: text('key').primaryKey(),
    /** The deleted account it belonged to (for the operator). */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: createdAt(),
  },
  (table) => [index('account_file_deletions_created_idx').on(table.createdAt)],
);
